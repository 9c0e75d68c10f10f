#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop's curses UI driven through tmux (send-keys, capture-pane) on a fixture sysfs tree
# whose counters the test bumps between refreshes: the rows, rates that match the bumps, the
# Detail / QP / cm / Help screens, sort keys, resizing, colour and NO_COLOR, devices that
# vanish and appear, and the terminal being restored on q, SIGTERM, SIGINT and SIGTSTP.
load helper
load wait
load tmux_top

setup() { top_setup rdmatop-bats; }
teardown() { top_teardown; }

wait_gone() { wait_until 8 "the screen to lose /$1/" lacks "$1"; }
lacks() { ! screen | grep -qE -- "$1"; }
row() { grep -E "^$1 +$2 " <<< "$SCR" | head -1; }	# DEV PORT, on the frame $SCR
# bottom_line N REGEX: the pane (captured into $SCR) has N lines, the last matching REGEX
bottom_line() {
	SCR=$(screen)
	[ "$(wc -l <<< "$SCR")" -eq "$1" ] && tail -1 <<< "$SCR" | grep -qE -- "$2"
}
# the first word of line N of the frame $SCR
word_at() { sed -n "$1p" <<< "$SCR" | awk '{ print $1 }'; }
# field N of a row (whitespace-split)
field() { awk -v n="$2" '{ print $n }' <<< "$1"; }
# "1.23k" -> 1230, "100KB" -> 100000
num() { awk -v s="$1" 'BEGIN { m = 1; if (s ~ /[kK]/) m = 1e3; if (s ~ /M/) m = 1e6; if (s ~ /G/) m = 1e9; gsub(/[^0-9.]/, "", s); printf "%.0f\n", s * m }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
top_pid() { pgrep -f -n "$ROOT/tui/rdmatop"; }

@test "Ports screen: one row per device/port with state, netdev and link, and the header" {
	start_top -d 0.5
	wait_screen '^rxe1 '
	screen | grep -qE '^rdmatop - [0-9:]{8} .* every 0\.5s +devices 3 +QPs in ERR 0 +error deltas 0'
	screen | grep -qE '^DEVICE +PORT STATE +NETDEV +LINK +RX PKT/s +TX PKT/s +RX B/s +TX B/s +UTIL +ERR TOP ERROR'
	[[ "$(row mlx5_0 1)" =~ ^mlx5_0\ +1\ ACTIVE\ eth2\ +100G ]]
	[[ "$(row rxe0 1)" =~ ^rxe0\ +1\ ACTIVE\ veth0\ +10G ]]
	[[ "$(row rxe1 1)" =~ ^rxe1\ +1\ ACTIVE\ veth1\ +10G ]]
	[ "$(screen | grep -cE '^(mlx5_0|rxe0|rxe1) ')" -eq 3 ]
}

@test "rates on the Ports screen match the bumps; the error counter is named" {
	start_top -d 1
	wait_screen '^rxe0 +1 ACTIVE veth0 +10G +0 +0 '	# a frame with rates
	# five counters bumped one after the other: each lands whole in one interval, but under
	# load not all in the same one, and the bumps may take longer than an interval.  The
	# screen is captured every 50 ms from before the first bump; every capture is looked at
	# for each value not yet seen moving, and a value is judged on the frame where it moved
	local caps=$BATS_TEST_TMPDIR/caps todo="rx tx pkt bytes err" n=400 r m x f k v
	mkdir -p "$caps"
	( while :; do screen > "$caps/.cap" && mv "$caps/.cap" "$caps/$(date +%s%N)"; sleep 0.05; done ) &
	POLL=$!
	"$MK" "$FXD" bump rxe0 1 sent_pkts 600
	"$MK" "$FXD" bump rxe0 1 rcvd_pkts 300
	"$MK" "$FXD" bump mlx5_0 1 port_xmit_data 50000
	"$MK" "$FXD" bump mlx5_0 1 port_xmit_packets 1000
	"$MK" "$FXD" bump rxe1 1 rcvd_rnr_err 4
	while [ -n "$todo" ] && [ $n -gt 0 ]; do
		for f in $(ls "$caps" | sort -n); do
			SCR=$(cat "$caps/$f"); rm -f "$caps/$f"
			r=$(row rxe0 1); m=$(row mlx5_0 1); x=$(row rxe1 1)
			for k in $todo; do
				case $k in
				rx) v=$(num "$(field "$r" 6)"); [ "$v" -gt 0 ] || continue
					within "$v" 240 360 || fail "RX PKT/s $v (300 in ~1 s): $r" ;;
				tx) v=$(num "$(field "$r" 7)"); [ "$v" -gt 0 ] || continue
					within "$v" 480 720 || fail "TX PKT/s $v (600 in ~1 s): $r" ;;
				pkt) v=$(num "$(field "$m" 7)"); [ "$v" -gt 0 ] || continue
					within "$v" 800 1200 || fail "mlx5_0 TX PKT/s $v (1000): $m" ;;
				bytes) v=$(num "$(field "$m" 9)"); [ "$v" -gt 0 ] || continue
					within "$v" 160000 240000 || fail "mlx5_0 TX B/s $v (50000 words x 4): $m"
					[[ "$m" == *"[#"* ]] || fail "no utilisation: $m" ;;
				err) [ "$(field "$x" 11)" = 1 ] || continue	# one error counter moved
					[ "$(field "$x" 12)" = rcvd_rnr_err ] || fail "not named: $x"
					grep -q 'error deltas 4' <<< "$SCR" || fail "header: $SCR" ;;
				esac
				todo=$(tr ' ' '\n' <<< "$todo" | grep -vx "$k" | paste -sd' ')
			done
		done
		n=$((n - 1))
		sleep 0.05
	done
	kill "$POLL"; wait "$POLL" 2>/dev/null || :; POLL=
	[ -z "$todo" ] || fail "never seen moving: $todo"
	# next interval: nothing moved, rates fall back to zero
	wait_screen '^rxe0 +1 ACTIVE veth0 +10G +0 +0 '
}

@test "Detail screen: every counter with value, delta, rate, severity and concept" {
	start_top -d 0.5
	wait_screen '^rxe0 '
	keys j Enter					# rows sorted by name: mlx5_0, rxe0, rxe1
	wait_screen '^rxe0/1 ACTIVE veth0'
	screen | grep -qE '^COUNTER +VALUE +DELTA +RATE/s SEVERITY CONCEPT'
	[ "$(screen | grep -cE '^(sent_pkts|rcvd_pkts|rcvd_rnr_err|send_rnr_err|link_downed|ack_deferred) ')" -eq 6 ]
	screen | grep -q 'counters 15/15'
	"$MK" "$FXD" bump rxe0 1 rcvd_rnr_err 3
	wait_screen '^rcvd_rnr_err +3 +3 +[0-9.]+ warning +rnr_nak_received'
	# the selected (first) counter's meaning is on the status line
	screen | tail -1 | grep -q '^ack_deferred: '
	# / filters by name, z hides the zeros, ? shows the catalogue entry
	keys / r n r Enter
	wait_screen 'counters 3/15'
	[ "$(grep -cE '^(rcvd_rnr_err|send_rnr_err|retry_rnr_exceeded_err) ' <<< "$SCR")" -eq 3 ]
	keys z
	wait_screen 'counters 1/15'
	grep -qE '^rcvd_rnr_err ' <<< "$SCR"
	keys '?'
	wait_screen 'meaning +'
	grep -q 'concept    rnr_nak_received' <<< "$SCR"
	# the first Esc closes the entry, the second leaves the Detail screen
	keys Escape
	wait_gone 'meaning +'
	screen | grep -q 'counters 1/15'
	keys Escape
	wait_screen '^DEVICE +PORT'
}

@test "Detail: sort keys reorder counters (s = next column, S = reverse)" {
	start_top -d 0.5
	keys j Enter
	wait_screen 'sort: name'
	[ "$(word_at 4)" = ack_deferred ] || fail "$SCR"
	keys S
	wait_screen 'sort: name \(rev\)'
	[ "$(word_at 4)" = sent_pkts ] || fail "$SCR"
	keys S s
	wait_screen 'sort: value'
	"$MK" "$FXD" set rxe0 1 out_of_seq_request 777
	wait_screen '^out_of_seq_request +777'
	[ "$(word_at 4)" = out_of_seq_request ] || fail "$SCR"
}

@test "Ports: s cycles the sort column, S reverses it" {
	start_top -d 1
	wait_screen '^rxe1 '
	[ "$(word_at 4)" = mlx5_0 ] || fail "$SCR"
	keys s					# rx pkt/s, largest first
	wait_screen 'sort: rx pkt/s'
	wait_screen '^rxe0 +1 ACTIVE veth0 +10G +0 +0 '
	# rxe1 receives all along: a single bump shows for one refresh only, which a loaded
	# machine can let pass (or replace at once) before the checks read it
	feed rxe1 1 rcvd_pkts
	wait_screen '^rxe1 +1 ACTIVE veth1 +10G +[1-9]'
	[ "$(word_at 4)" = rxe1 ] || fail "$SCR"
	keys S
	# a frame reversed and with rxe1's rate: largest last
	wait_frame 8 'sort: rx pkt/s \(rev\)' '^rxe1 +1 ACTIVE veth1 +10G +[1-9]'
	[ "$(word_at 6)" = rxe1 ] || fail "$SCR"
}

@test "QP and rdma_cm screens (sysfs tree: they explain why they are empty); Help lists the keys" {
	start_top -d 0.5
	keys Q
	wait_screen '^QPs 0'
	screen | grep -qE '^DEVICE +PORT +LQPN +RQPN TYPE STATE +SQ-PSN +RQ-PSN +PID COMMAND'
	screen | grep -q 'QPs unavailable: they come from netlink'
	keys C
	wait_screen '^rdma_cm IDs 0'
	screen | grep -qE 'STATE +PS +SOURCE +DESTINATION'
	keys h
	wait_screen '^rdmatop keys'
	for k in 'Enter' 'Esc' ' Q ' ' s / S' ' p ' '+ / -' ' r ' ' t ' ' q  quit' ' / ' ' z '; do
		screen | grep -qF -- "$k" || { echo "help lacks '$k'"; false; }
	done
	keys Escape
	wait_screen '^rdma_cm IDs'
}

@test "QP screen on a netlink recording from the real kernel lists the pingpong QPs" {
	# recorded by tests/vm/guest/30-rdmatop.sh during ibv_rc_pingpong between rxe0 and rxe1
	# (netlink only, empty sysfs root); replayed, pids stay but commands are not looked up
	rec="$ROOT/tests/fixtures/tui/pingpong.nlrec"
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	FXD="$BATS_TEST_TMPDIR/empty" EXTRA_ENV="RDMADIAG_NL_REPLAY='$rec'" start_top -d 0.5 --source netlink
	screen | grep -qE '^rxe0 +1 ACTIVE veth0'
	keys Q
	wait_screen '^QPs [1-9]'
	screen | grep -qE '^DEVICE +PORT +LQPN +RQPN TYPE STATE'
	# the two pingpong ends point at each other, and each device has its GSI QP (lqpn 1)
	r0=$(grep -E '^rxe0 +1 +[0-9]+ +[0-9]+ RC +RTS' <<< "$SCR" | head -1)
	r1=$(grep -E '^rxe1 +1 +[0-9]+ +[0-9]+ RC +RTS' <<< "$SCR" | head -1)
	[ -n "$r0" ] && [ -n "$r1" ]
	[ "$(field "$r0" 3)" = "$(field "$r1" 4)" ]
	[ "$(field "$r1" 3)" = "$(field "$r0" 4)" ]
	[ "$(grep -cE '^rxe[01] +1 +1 +- GSI +RTS' <<< "$SCR")" -eq 2 ]
	keys s s			# sort by state: trouble first, the RTS ones after
	wait_screen 'sort: state'
}

@test "resize to 200x50 shows every column; 40x10 keeps the key ones; too small asks for room" {
	start_top -d 0.5
	wait_screen '^rxe1 '
	tm resize-window -t t -x 200 -y 50
	# the 120-column frame has every column too: wait for the redraw at the new size, its
	# status line at the new bottom
	wait_until 8 "a frame of 50 lines with the status line last" bottom_line 50 'h help'
	grep -qE '^DEVICE +PORT STATE +NETDEV +LINK +RX PKT/s +TX PKT/s +RX B/s +TX B/s +UTIL +ERR TOP ERROR' <<< "$SCR"
	[ "$(tm display -p -t t '#{window_width}x#{window_height}')" = 200x50 ]
	tm resize-window -t t -x 40 -y 10
	wait_screen '^DEVICE +PORT +RX PKT/s +TX PKT/s'
	screen | grep -qE '^rxe0 +1 '
	# nothing is wider than the pane
	[ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 40 ]
	tm resize-window -t t -x 20 -y 5
	wait_screen 'enlarge the'
	# the whole message, wrapped over the lines the terminal has: its size and the size needed
	[ "$(tr -s ' \n' ' ' <<< "$SCR" | sed 's/ *$//')" = "rdmatop: enlarge the terminal (20x5, need 32x6)" ] ||
		fail "cut: $SCR"
	tm resize-window -t t -x 120 -y 30
	wait_screen '^DEVICE +PORT STATE'
	keys q
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
}

# the terminal after rdmatop: normal screen, cursor on, cooked mode with echo
restored() {
	[ "$(tm display -p -t t '#{alternate_on}')" = 0 ]
	[ "$(tm display -p -t t '#{cursor_flag}')" = 1 ]
	grep -qE '(^| )icanon( |$)' "$BATS_TEST_TMPDIR/stty"
	grep -qE '(^| )echo( |$)' "$BATS_TEST_TMPDIR/stty"
}

@test "q quits with status 0 and restores the terminal" {
	start_top -d 0.5
	[ "$(tm display -p -t t '#{alternate_on}')" = 1 ]
	[ "$(tm display -p -t t '#{cursor_flag}')" = 0 ]
	keys q
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
	restored
	# the table is gone with the alternate screen
	! screen | grep -q '^DEVICE'
}

@test "SIGTERM and SIGINT restore the terminal" {
	for sig in TERM INT HUP; do
		start_top -d 0.5
		kill -"$sig" "$(top_pid)"
		wait_screen AFTER-EXIT
		[ "$(cat "$EXITF")" = 0 ]
		restored
		tm kill-server
	done
}

@test "SIGTSTP (Ctrl-Z) gives the shell a sane terminal, fg brings the screen back" {
	tm -f /dev/null new-session -d -s t -x 120 -y 30 "env PS1='PROMPT\$ ' bash --norc -i"
	tm set-option -t t status off > /dev/null
	wait_screen 'PROMPT'
	keys "TERM=xterm RDMADIAG_SYSFS_ROOT='$FXD' '$ROOT/tui/rdmatop' -d 0.5" Enter
	wait_screen '^rxe1 '
	keys C-z
	wait_screen 'Stopped'
	[ "$(tm display -p -t t '#{alternate_on}')" = 0 ]
	[ "$(tm display -p -t t '#{cursor_flag}')" = 1 ]
	keys 'stty -a | tr " " "\n" | grep -x -e icanon -e echo | sort | tr "\n" " "; echo' Enter
	wait_screen '^echo icanon ?$'
	keys clear Enter fg Enter
	wait_screen '^rxe1 '
	[ "$(tm display -p -t t '#{alternate_on}')" = 1 ]
	keys q
	wait_screen 'PROMPT'
	[ "$(tm display -p -t t '#{alternate_on}')" = 0 ]
}

@test "stderr is held while curses owns the screen and shown after exit" {
	for f in "$FXD"/sys/class/infiniband/*/ports/1/hw_counters/lifespan; do echo 2000 > "$f"; done
	start_top -d 0.5
	wait_screen 'shorter than the hw_counters lifespan'	# the status line says it
	! screen | grep -q 'rdmatop: warning'			# but stderr does not scribble
	keys q
	wait_screen AFTER-EXIT
	screen | grep -q '^rdmatop: warning: interval 0.5s is shorter than the hw_counters lifespan (2000 ms)'
}

@test "colour by default; NO_COLOR and a monochrome terminal use attributes only" {
	start_top -d 0.5
	wait_screen '^rxe1 '
	tm capture-pane -e -p -t t | grep -q $'\e\\[[0-9;]*4[0-7]m'	# a background colour
	tm kill-server
	EXTRA_ENV="NO_COLOR=1" start_top -d 0.5
	wait_screen '^rxe1 '
	! tm capture-pane -e -p -t t | grep -q $'\e\\[[0-9;]*[34][0-7]m'
	tm capture-pane -e -p -t t | grep -q $'\e\\[[0-9;]*7m'		# reverse video titles
	tm kill-server
	TERMTYPE=vt100 start_top -d 0.5
	wait_screen '^rxe1 '
	! tm capture-pane -e -p -t t | grep -q $'\e\\[[0-9;]*[34][0-7]m'
	keys q
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
}

@test "a device that vanishes is greyed out as GONE, one that appears is added" {
	start_top -d 0.3
	wait_screen '^rxe1 +1 ACTIVE'
	rm -rf "$FXD/sys/class/infiniband/rxe1"
	wait_screen '^rxe1 +1 GONE'
	screen | grep -q 'devices 2'
	tm capture-pane -e -p -t t | grep 'rxe1 ' | grep -q $'\e\\[[0-9;]*2m'	# dim
	"$MK" "$BATS_TEST_TMPDIR/fx2"
	cp -a "$BATS_TEST_TMPDIR/fx2/sys/class/infiniband/rxe1" "$FXD/sys/class/infiniband/rxe1"
	cp -a "$BATS_TEST_TMPDIR/fx2/sys/class/infiniband/rxe1" "$FXD/sys/class/infiniband/rxe7"
	wait_screen '^rxe7 +1 ACTIVE'
	wait_screen '^rxe1 +1 ACTIVE'
	screen | grep -q 'devices 4'
	keys q
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
}

@test "p pauses sampling, + and - change the interval, r resets the baseline" {
	start_top -d 0.5
	wait_screen '^rxe1 '
	keys p
	wait_screen '\[paused\]'
	keys j Enter
	wait_screen '^rxe0/1 ACTIVE veth0'
	"$MK" "$FXD" set rxe0 1 sent_pkts 4242
	# more than two intervals: no sample shows the new value while paused (an observation
	# window, not a wait: nothing is awaited)
	sleep 1.2
	! screen | grep -qE '^sent_pkts +4242'
	keys p
	wait_screen '^sent_pkts +4242'
	keys +
	wait_screen 'every 1s'
	keys - -
	wait_screen 'every 0.2s'
	keys r
	wait_screen '^sent_pkts +0 '
	"$MK" "$FXD" bump rxe0 1 sent_pkts 8
	wait_screen '^sent_pkts +8 +8 '
}

@test "-n COUNT ends the interactive UI after COUNT refreshes, terminal restored" {
	START_WAIT='AFTER-EXIT|^rxe1 ' start_top -d 0.2 -n 3
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
	restored
}

@test "a counter read that hangs does not freeze the UI: keys answered, the wait shown, q quits" {
	# a hung device: the shim tests/fixtures/preload/block_open.c makes opening a file named
	# stuck* wait until $BLOCK_RELEASE exists (a FIFO no longer does: the library does not
	# read one)
	${CC:-cc} -shared -fPIC -o "$BATS_TEST_TMPDIR/block.so" "$FIX/preload/block_open.c" -ldl
	rel=$BATS_TEST_TMPDIR/release
	EXTRA_ENV="LD_PRELOAD='$BATS_TEST_TMPDIR/block.so' BLOCK_PREFIX=stuck BLOCK_RELEASE='$rel' ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		start_top -d 0.3
	: > "$FXD/sys/class/infiniband/rxe1/ports/1/hw_counters/stuck_counter"
	wait_screen '\[collecting .*[0-9.]+s\]' 10
	keys h
	wait_screen '^rdmatop keys' 2			# the UI still answers at once
	keys Escape
	wait_screen '^DEVICE +PORT' 2
	# release the read: sampling goes on
	echo 7 > "$FXD/sys/class/infiniband/rxe1/ports/1/hw_counters/stuck_counter"
	touch "$rel"
	wait_screen '^rxe1 ' 5
	rm -f "$FXD/sys/class/infiniband/rxe1/ports/1/hw_counters/stuck_counter" "$rel"
	# hang it again and quit while the collector is stuck: q is not held up by it
	: > "$FXD/sys/class/infiniband/rxe1/ports/1/hw_counters/stuck_again"
	wait_screen '\[collecting ' 10
	keys q
	wait_screen AFTER-EXIT 3
	[ "$(cat "$EXITF")" = 0 ]
	restored
}

@test "a terminal type curses does not know: one line saying so, exit 2" {
	TERMTYPE=no-such-terminal-xyz START_WAIT=AFTER-EXIT start_top
	[ "$(cat "$EXITF")" = 2 ]
	screen | grep -q "^rdmatop: cannot drive the terminal: TERM='no-such-terminal-xyz' has no terminfo entry"
	restored
}

@test "no RDMA device: one line and exit 2 before the screen is taken, as in batch mode" {
	rm -rf "$FXD"
	mkdir -p "$FXD/sys/class/infiniband"
	START_WAIT=AFTER-EXIT start_top
	[ "$(cat "$EXITF")" = 2 ]
	screen | grep -q "^rdmatop: no RDMA devices under $FXD/sys/class/infiniband: " ||
		fail "$(screen)"
	[ "$(screen | grep -c '^rdmatop:')" -eq 1 ] || fail "$(screen)"
	restored
}

@test "a long device name widens DEVICE (never cut while it fits); narrower panes drop columns first" {
	ib="$FXD/sys/class/infiniband"
	cp -a "$ib/rxe0" "$ib/rocep65s0f0"
	cp -a "$ib/rxe1" "$ib/rdma_dev_with_a_long_name_25"
	# the 1-based column where ERE first matches on the row of DEV (or the title row)
	col() { screen | awk -v l="$1" -v re="$2" '$0 ~ l { print match($0, re); exit }'; }
	start_top -d 0.5
	wait_screen '^rdma_dev_with_a_long_name_25 +1 ACTIVE'
	# 120 columns: every column; PORT (4, right-aligned) right after the widest name (28)
	# and a space, for every row
	for d in mlx5_0 rocep65s0f0 rdma_dev_with_a_long_name_25 rxe0 rxe1; do
		[ "$(col "^$d " ' 1 ACTIVE ')" = 32 ] || fail "$d: $(screen)"
	done
	[ "$(col '^DEVICE ' 'PORT STATE')" = 30 ] || fail "$(screen)"
	# 60 columns: STATE, NETDEV, LINK ... go; the names stay whole and aligned
	tm resize-window -t t -x 60 -y 20
	wait_screen '^DEVICE +PORT +RX PKT/s +TX PKT/s +ERR$'
	for d in rocep65s0f0 rdma_dev_with_a_long_name_25 rxe1; do
		[ "$(col "^$d " ' 1 ')" = 32 ] || fail "$d: $(screen)"
	done
	[ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 60 ]
	# 40 columns: nothing left to drop; DEVICE narrows to fit, a name that still fits is
	# whole and its row aligned, the longer one runs on to the pane's edge
	tm resize-window -t t -x 40 -y 20
	wait_screen '^DEVICE +PORT +RX PKT/s +TX PKT/s$'
	[ "$(( $(col '^DEVICE ' 'PORT') + 2 ))" = "$(col '^rocep65s0f0 ' ' 1 ')" ] || fail "$(screen)"
	screen | grep -q '^rdma_dev_with_a_long_name_25 '
	[ "$(screen | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -le 40 ]
	keys q
	wait_screen AFTER-EXIT
	[ "$(cat "$EXITF")" = 0 ]
}
