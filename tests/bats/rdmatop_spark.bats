#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop's history (issue 26): the Detail screen's sparklines growing while a counter moves,
# at 120, 60 and 40 columns (never wider than the pane), the ASCII fallback outside a UTF-8
# locale and with --ascii, the Graph screen (H) across ports, and batch --spark.  Driven
# through tmux over a fixture sysfs tree whose counters a background job bumps; every step
# waits on what the screen shows.
load helper
load wait
load tmux_top

# a glyph of a sparkline above the lowest level, and any glyph of one (UTF-8 blocks)
UP='(▂|▃|▄|▅|▆|▇|█)'
ANY='(▁|▂|▃|▄|▅|▆|▇|█)'

setup() {
	top_setup rdmatop-spark
	LOC=C.UTF-8	# the sparklines' blocks; a test sets LOC=C for the ASCII ones
}

teardown() { top_teardown; }

# the widest line of the frame $SCR in characters (a block glyph is one)
widest() { LC_ALL=C.UTF-8 wc -L <<< "$SCR"; }
# glyphs above the lowest level in the first line of $SCR matching REGEX
moved_glyphs() { grep -E -m1 -- "$1" <<< "$SCR" | grep -oE "$UP" | wc -l; }
# wait until the line matching REGEX shows at least N raised glyphs
grown() { SCR=$(screen); [ "$(moved_glyphs "$1")" -ge "$2" ]; }

# open rxe0's Detail and select its last counter (sent_pkts, sorted by name)
detail_sent() {
	keys j Enter
	wait_screen '^rxe0/1 ACTIVE veth0'
	keys G
	wait_screen '^sent_pkts: '
}

@test "Detail at 120 columns: each row's sparkline and scale, growing while the counter moves" {
	start_top -d 0.3
	detail_sent
	wait_screen 'CONCEPT +HISTORY +MAX$'
	# every counter has a sparkline beside it (once it has a rate: the first frame has
	# none); a quiet one stays on the lowest level
	wait_screen "^rcvd_rnr_err .*rnr_nak_received +▁+ +0 pkt/s$"
	feed rxe0 1 sent_pkts
	wait_until 15 "sent_pkts's row to show 2 raised glyphs" grown "^sent_pkts " 2
	grep -qE "^sent_pkts .*tx_packets +[ ${ANY:1:-1}]+ +[0-9.]+k? pkt/s$" <<< "$SCR" || fail "$SCR"
	# it grows: more samples, more raised glyphs, the newest at the right end
	wait_until 20 "sent_pkts's row to show 6 raised glyphs" grown "^sent_pkts " 6
	grep -E '^sent_pkts ' <<< "$SCR" | grep -qE "$UP +[0-9.]+k? pkt/s$" || fail "$SCR"
	# the selected counter's history over the whole width, with its max
	grep -qE "^history .*$UP max [0-9.]+k? pkt/s$" <<< "$SCR" || fail "$SCR"
	[ "$(widest)" -le 120 ] || fail "wider than the pane: $SCR"
}

@test "Detail at 60 and 40 columns: rows without sparklines, the selection's history fitted" {
	W=60 H=20 start_top -d 0.3
	detail_sent
	feed rxe0 1 sent_pkts
	wait_until 15 "the history line to show 3 raised glyphs" grown '^history ' 3
	# too narrow for one beside each row: the table as before, no HISTORY column
	! grep -q 'HISTORY' <<< "$SCR" || fail "$SCR"
	grep -qE '^COUNTER +VALUE +RATE/s$' <<< "$SCR" || fail "$SCR"
	# "history " + 36 samples (60 - the label, " max " and the scale's 11) + the scale
	grep -qE "^history ($ANY| ){36} max [0-9.]+k? pkt/s$" <<< "$SCR" || fail "$SCR"
	[ "$(widest)" -le 60 ] || fail "wider than the pane: $SCR"
	# 40 columns: the history line is shorter and still whole, scale included
	tm resize-window -t t -x 40 -y 16
	wait_until 10 "a 16-line frame" eval '[ "$(screen | wc -l)" -eq 16 ]'
	wait_screen "^history .*$UP.* max [0-9.]+k? pkt/s$"
	[ "$(widest)" -le 40 ] || fail "wider than the pane: $SCR"
	grep -qE "^history ($ANY| ){16} max [0-9.]+k? pkt/s$" <<< "$SCR" || fail "$SCR"
}

@test "LANG=C: ASCII sparklines and graph, not one byte outside ASCII on the screen" {
	LOC=C start_top -d 0.3
	detail_sent
	feed rxe0 1 sent_pkts
	wait_screen '^history .*[.:=+*#-].* max [0-9.]+k? pkt/s$' 15
	grep -qE '^sent_pkts .*tx_packets +[ _.:=+*#-]+ +[0-9.]+k? pkt/s$' <<< "$SCR" || fail "$SCR"
	! LC_ALL=C grep -q '[^ -~]' <<< "$SCR" || fail "non-ASCII: $SCR"
	keys H
	wait_screen '^Graph tx_packets \(concept\)'
	wait_screen '^rxe0/1 veth0  max [0-9.]+k? pkt/s$'
	grep -qE '^ +0\|' <<< "$SCR" || fail "no y axis: $SCR"
	! LC_ALL=C grep -q '[^ -~]' <<< "$SCR" || fail "non-ASCII: $SCR"
}

@test "--ascii in a UTF-8 locale: ASCII sparklines" {
	start_top -d 0.3 --ascii
	detail_sent
	wait_screen '^history +_+ max 0 pkt/s$'
	! LC_ALL=C grep -q '[^ -~]' <<< "$SCR" || fail "non-ASCII: $SCR"
}

@test "H: the Graph screen across ports with its y scale; Esc back; Help lists H" {
	start_top -d 0.3
	feed rxe0 1 sent_pkts
	detail_sent
	keys H
	wait_screen '^Graph tx_packets \(concept\) per second, ports 3'
	# a graph per port that has the concept: a title with the max, the scale at the top
	# row, 0 at the bottom, and the moving port's columns filling up
	wait_frame 15 '^rxe0/1 veth0  max [0-9.]+k? pkt/s$' '^ *[0-9.]+k? pkt/s│' '^ +0│' '█'
	grep -qE '^mlx5_0/1 eth2  max 0 pkt/s$' <<< "$SCR" || fail "$SCR"
	grep -qE '^rxe1/1 veth1  max 0 pkt/s$' <<< "$SCR" || fail "$SCR"
	[ "$(widest)" -le 120 ] || fail "$SCR"
	keys Escape
	wait_screen '^sent_pkts: '
	# from Ports, H graphs each port's packet rate
	keys Escape
	wait_screen '^DEVICE +PORT'
	keys H
	wait_screen '^Graph packets \(rx \+ tx\) per second, ports 3'
	keys H
	wait_screen '^DEVICE +PORT'
	keys h
	wait_screen '^rdmatop keys'
	grep -qE '^  H +Graph over time across ports' <<< "$SCR" || fail "$SCR"
	keys q
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
}

@test "batch --spark: each row's packet rate as a sparkline with its max, UTF-8 and ASCII" {
	export RDMADIAG_SYSFS_ROOT="$FXD"
	feed rxe0 1 sent_pkts
	LC_ALL=C.UTF-8 rdmatop -b -n 8 -d 0.25 --spark=6 > "$BATS_TEST_TMPDIR/u"
	# the title row ends with the history and its scale, every row has both
	[ "$(grep -cE 'TOP ERROR +PKT/s HISTORY MAX$' "$BATS_TEST_TMPDIR/u")" -eq 8 ]
	# the first frame has no rate yet: gaps only
	sed -n 3p "$BATS_TEST_TMPDIR/u" | grep -qE '^mlx5_0 .* - +0 pkt/s$' ||
		fail "$(head -5 "$BATS_TEST_TMPDIR/u")"
	# the last frame: six samples of rxe0, moving; the quiet ports on the lowest level
	tail -5 "$BATS_TEST_TMPDIR/u" > "$BATS_TEST_TMPDIR/last"
	grep -E '^rxe0 ' "$BATS_TEST_TMPDIR/last" | grep -qE " $ANY{6} +[0-9.]+k? pkt/s$" ||
		fail "$(cat "$BATS_TEST_TMPDIR/last")"
	grep -E '^rxe0 ' "$BATS_TEST_TMPDIR/last" | grep -qE "$UP" || fail "$(cat "$BATS_TEST_TMPDIR/last")"
	grep -qE '^rxe1 .* ▁▁▁▁▁▁ +0 pkt/s$' "$BATS_TEST_TMPDIR/last" || fail "$(cat "$BATS_TEST_TMPDIR/last")"
	# LANG=C: the ASCII ramp; --ascii too
	LC_ALL=C LANG=C rdmatop -b -n 4 -d 0.25 --spark=3 > "$BATS_TEST_TMPDIR/a"
	tail -5 "$BATS_TEST_TMPDIR/a" | grep -qE '^rxe0 .* [_.:=+*#-]{3} +[0-9.]+k? pkt/s$' ||
		fail "$(cat "$BATS_TEST_TMPDIR/a")"
	! LC_ALL=C grep -q '[^ -~]' "$BATS_TEST_TMPDIR/a"
	LC_ALL=C.UTF-8 rdmatop -b -n 2 -d 0.2 --spark --ascii > "$BATS_TEST_TMPDIR/b"
	! LC_ALL=C grep -q '[^ -~]' "$BATS_TEST_TMPDIR/b"
	grep -qE '^rxe1 .* {29}_ +0 pkt/s$' "$BATS_TEST_TMPDIR/b" || fail "$(cat "$BATS_TEST_TMPDIR/b")"
	# the sparklines and scales line up under their titles, in every row of a frame
	[ "$(tail -5 "$BATS_TEST_TMPDIR/b" | awk 'NF { print index($0, " MAX") + 1; next }' | head -1)" = \
	  "$(tail -4 "$BATS_TEST_TMPDIR/b" | awk 'NF { match($0, / [0-9.]+k? pkt\/s$/); print RSTART + 1 }' | sort -u)" ] ||
		fail "$(cat "$BATS_TEST_TMPDIR/b")"
	# without --spark the frames are as before
	rdmatop -b -n 1 | grep -q 'TOP ERROR$'
}

@test "--spark: usage errors (exit 2)" {
	export RDMADIAG_SYSFS_ROOT="$FXD"
	run --separate-stderr rdmatop --spark
	[ "$status" -eq 2 ]; [[ "$stderr" == *"--spark needs -b/--batch"* ]]
	run --separate-stderr rdmatop -b -j --spark
	[ "$status" -eq 2 ]; [[ "$stderr" == *"--spark: text frames of the Ports screen only"* ]]
	run --separate-stderr rdmatop -b --screen fabric --spark
	[ "$status" -eq 2 ]; [[ "$stderr" == *"--spark: text frames of the Ports screen only"* ]]
	run --separate-stderr rdmatop -b --spark=0
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid sparkline width '0' (1 to 256 samples)"* ]]
	run --separate-stderr rdmatop -b --spark=257
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid sparkline width '257'"* ]]
	run rdmatop --help
	[[ "$output" == *"--spark[=N]"* ]] && [[ "$output" == *"--ascii"* ]]
}
