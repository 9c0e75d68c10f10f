#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop without a terminal: options, batch frames (text and JSON) against golden files,
# rates that match counter bumps, thresholds and exit codes, devices vanishing, the
# sub-lifespan warning.  Fixture trees come from tests/fixtures/tui/mkfixture.sh.
load helper
load wait

MK="$ROOT/tests/fixtures/tui/mkfixture.sh"
GOLD="$ROOT/tests/fixtures/tui/golden"

setup() {
	FXD="$BATS_TEST_TMPDIR/fx"
	"$MK" "$FXD"
	export RDMADIAG_SYSFS_ROOT="$FXD"
}

# the header carries the wall clock and the host name: fixed for comparisons
norm() { sed -E 's/^rdmatop - [0-9:]{8} [^ ]+ /rdmatop - TIME HOST /'; }
jnorm() { jq -S -c 'del(.time, .host)'; }

@test "not a terminal: one line suggesting -b, exit 2" {
	run --separate-stderr rdmatop < /dev/null
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ "$stderr" == "rdmatop: not a terminal: use -b"* ]]
}

@test "bad options are usage errors (exit 2) naming the problem" {
	run --separate-stderr rdmatop -b -d 0
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid interval '0'"* ]]
	run --separate-stderr rdmatop -b -d abc
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid interval 'abc'"* ]]
	run --separate-stderr rdmatop -b -n 0
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid count '0'"* ]]
	run --separate-stderr rdmatop -b --source carrier-pigeon
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid source 'carrier-pigeon'"* ]]
	run --separate-stderr rdmatop -j
	[ "$status" -eq 2 ]; [[ "$stderr" == *"-j/--json needs -b/--batch"* ]]
	run --separate-stderr rdmatop -b -d
	[ "$status" -eq 2 ]; [[ "$stderr" == *"needs an argument"* ]]
}

@test "--thresholds: a missing file and a malformed line are errors (exit 2)" {
	run --separate-stderr rdmatop -b -n 1 --thresholds "$BATS_TEST_TMPDIR/nope"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmatop: cannot open '$BATS_TEST_TMPDIR/nope': No such file or directory" ]]
	printf '# ok\nsend_err > 1\nrcvd_pkts >> x\n' > "$BATS_TEST_TMPDIR/bad"
	run --separate-stderr rdmatop -b -n 1 --thresholds "$BATS_TEST_TMPDIR/bad"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"line 3"* ]]
}

@test "batch text frames match the golden file" {
	rdmatop -b -n 2 -d 0.1 > "$BATS_TEST_TMPDIR/out"
	diff -u "$GOLD/batch.txt" <(norm < "$BATS_TEST_TMPDIR/out")
}

@test "batch JSON frames match the golden file and use iproute2 keys" {
	run --separate-stderr rdmatop -b -j -n 2 -d 0.1
	assert_success
	diff -u "$GOLD/batch.jsonl" <(printf '%s\n' "$output" | jnorm)
	# the first frame has no rates (absent, not zero); the second has them
	[ "$(printf '%s\n' "$output" | jq -s '.[0].ports[0] | has("rx_pps")')" = false ]
	[ "$(printf '%s\n' "$output" | jq -s '.[1].ports[] | select(.ifname == "rxe0") | .rx_pps')" = 0 ]
}

@test "--sysfs-root is the same as RDMADIAG_SYSFS_ROOT" {
	a=$(rdmatop -b -j -n 1 | jnorm)
	b=$(env -u RDMADIAG_SYSFS_ROOT rdmatop -b -j -n 1 --sysfs-root "$FXD" | jnorm)
	[ "$a" = "$b" ]
	[ "$(jq '.ports | length' <<< "$a")" -eq 3 ]
}

@test "--source sysfs and auto agree on a sysfs tree (no netlink against a fake root)" {
	a=$(rdmatop -b -j -n 1 --source sysfs | jnorm | jq -c 'del(.qps_error, .cm_ids_error)')
	b=$(rdmatop -b -j -n 1 --source auto | jnorm | jq -c 'del(.qps_error, .cm_ids_error)')
	[ "$a" = "$b" ]
}

# lines in FILE so far; 0 while a background job has not created it yet (an empty string
# would end a wait loop at once and let the test race ahead of the tool)
nlines() { local n; n=$(wc -l < "$1" 2> /dev/null); echo "${n:-0}"; }
# FILE holds at least N frames of rdmatop -b's text view
text_frames() { local n; n=$(grep -c '^rdmatop - ' "$1" 2> /dev/null); [ "${n:-0}" -ge "$2" ]; }

# run rdmatop -b -j in the background, bump counters after its first frame
bumped_frames() {
	rdmatop -b -j -n "$1" -d "$2" > "$BATS_TEST_TMPDIR/frames" &
	local pid=$!
	wait_until 10 "rdmatop's first frame" has_lines "$BATS_TEST_TMPDIR/frames" 1
	"$MK" "$FXD" bump rxe0 1 sent_pkts 600
	"$MK" "$FXD" bump rxe0 1 rcvd_pkts 300
	"$MK" "$FXD" bump rxe1 1 rcvd_rnr_err 7
	"$MK" "$FXD" bump mlx5_0 1 port_xmit_data 25000
	wait "$pid"
}

@test "batch: deltas add up to the bumps exactly, rates are delta / interval" {
	bumped_frames 4 0.5
	F="$BATS_TEST_TMPDIR/frames"
	[ "$(jq -s length "$F")" -eq 4 ]
	sum() { jq -s --arg d "$1" --arg c "$2" '[.[1:][] | .ports[] | select(.ifname == $d) | .counters[] | select(.name == $c) | .delta] | add' "$F"; }
	[ "$(sum rxe0 sent_pkts)" = 600 ]
	[ "$(sum rxe0 rcvd_pkts)" = 300 ]
	[ "$(sum rxe1 rcvd_rnr_err)" = 7 ]
	# PMA data counts 4-octet words: 25000 words are 100000 bytes
	[ "$(sum mlx5_0 port_xmit_data)" = 100000 ]
	# in the frame where it moved, rate * interval is the delta (to timer jitter)
	jq -se '[.[1:][] | .ports[] | select(.ifname == "rxe0") | .counters[] | select(.name == "sent_pkts" and .delta > 0)] | length == 1 and (.[0].rate * 0.5 / .[0].delta > 0.8) and (.[0].rate * 0.5 / .[0].delta < 1.25)' "$F"
	# the port row takes its packet rate from that counter and its bytes from PMA data
	jq -se '[.[1:][] | .ports[] | select(.ifname == "rxe0") | .tx_pps] | max > 900' "$F"
	jq -se '[.[1:][] | .ports[] | select(.ifname == "mlx5_0") | .tx_bytes_per_sec] | max > 150000' "$F"
	# the RNR NAKs are an error-class counter: counted and named on the port row
	jq -se '[.[1:][] | .ports[] | select(.ifname == "rxe1" and .errors_moving == 1 and .top_error == "rcvd_rnr_err" and .error_delta == 7)] | length == 1' "$F"
	jq -se '[.[1:][] | .error_deltas] | add == 7' "$F"
}

@test "batch: a threshold breach is listed and exits 1; none exits 0" {
	"$MK" "$FXD" set rxe0 1 send_err 5
	printf 'send_err@rxe0 > 4\nrnr_nak_received > 1000/s\n' > "$BATS_TEST_TMPDIR/th"
	run --separate-stderr rdmatop -b -n 1 --thresholds "$BATS_TEST_TMPDIR/th"
	[ "$status" -eq 1 ]
	assert_output --partial "breaches 1"
	assert_output --partial "breach rxe0/1 send_err: 5 (rule line 1: send_err@rxe0 > 4)"
	run --separate-stderr rdmatop -b -j -n 1 --thresholds "$BATS_TEST_TMPDIR/th"
	[ "$status" -eq 1 ]
	[ "$(jq -c '.breaches' <<< "$output")" = '[{"ifname":"rxe0","port":1,"counter":"send_err","rule_line":1,"observed":5}]' ]
	printf 'send_err@rxe1 > 4\n' > "$BATS_TEST_TMPDIR/th2"
	run --separate-stderr rdmatop -b -n 2 -d 0.1 --thresholds "$BATS_TEST_TMPDIR/th2"
	[ "$status" -eq 0 ]
	assert_output --partial "breaches 0"
}

@test "batch: a rate threshold fires on the bumped interval only" {
	printf 'rnr_nak_received > 2/s\n' > "$BATS_TEST_TMPDIR/th"
	rdmatop -b -j -n 4 -d 0.5 --thresholds "$BATS_TEST_TMPDIR/th" > "$BATS_TEST_TMPDIR/frames" &
	pid=$!
	wait_until 10 "rdmatop's first frame" has_lines "$BATS_TEST_TMPDIR/frames" 1
	"$MK" "$FXD" bump rxe1 1 rcvd_rnr_err 7
	st=0; wait "$pid" || st=$?
	[ "$st" -eq 1 ]
	[ "$(jq -s '[.[] | .breach_count] | add' "$BATS_TEST_TMPDIR/frames")" -eq 1 ]
	jq -se '[.[] | .breaches[]] | .[0].counter == "rcvd_rnr_err" and .[0].ifname == "rxe1"' "$BATS_TEST_TMPDIR/frames"
}

@test "batch: a device that vanishes is greyed out (GONE), one that appears is added" {
	# the new device's tree is made first, and rdmatop runs until a frame shows it (a fixed
	# count of frames ran out under load before the copy was made)
	"$MK" "$BATS_TEST_TMPDIR/fx2"
	F="$BATS_TEST_TMPDIR/frames"
	rdmatop -b -j -n 200 -d 0.3 > "$F" &
	pid=$!
	wait_until 10 "rdmatop's second frame" has_lines "$F" 2
	rm -rf "$FXD/sys/class/infiniband/rxe1"
	wait_until 10 "rdmatop's fourth frame" has_lines "$F" 4
	# in one rename, as the kernel adds a device: never half a device in the listing
	mv "$BATS_TEST_TMPDIR/fx2/sys/class/infiniband/rxe1" "$FXD/sys/class/infiniband/rxe2"
	wait_until 20 "a frame with rxe2" grep -q '"ifname": *"rxe2"' "$F"
	n=$(wc -l < "$F")
	wait_until 10 "the frame after it" has_lines "$F" $((n + 1))
	kill -INT "$pid"
	st=0; wait "$pid" || st=$?
	[ "$st" -eq 0 ]
	jq -se 'any(.[]; any(.ports[]; .ifname == "rxe1" and .gone and .state == "GONE"))' "$F"
	jq -se '.[-1].ports | any(.ifname == "rxe2" and (.gone | not))' "$F"
	jq -se '.[0].devices == 3 and .[-1].devices == 3 and any(.[]; .devices == 2)' "$F"
	# the text view says so too
	rdmatop -b -n 1 > /dev/null
}

@test "an interval below the hw_counters lifespan is warned about; rates stay honest" {
	for f in "$FXD"/sys/class/infiniband/*/ports/1/hw_counters/lifespan; do echo 2000 > "$f"; done
	run --separate-stderr rdmatop -b -j -n 2 -d 0.2
	assert_success
	[[ "$stderr" == *"warning: interval 0.2s is shorter than the hw_counters lifespan (2000 ms)"* ]]
	# the unchanged cached hw counters are stale, not a zero rate
	[ "$(jq -rs '.[1].ports[] | select(.ifname == "rxe0") | .counters[] | select(.name == "sent_pkts") | .rate_state' <<< "$output")" = stale ]
	run --separate-stderr rdmatop -b -n 1 -d 3
	[ -z "$stderr" ]
}

@test "counter names with spaces and commas survive text and JSON" {
	for t in irdma hfi1; do
		[ -d "$FIX/sysfs/$t" ] || skip "no $t fixture tree"
		run --separate-stderr env RDMADIAG_SYSFS_ROOT="$FIX/sysfs/$t" rdmatop -b -j -n 1
		assert_success
		printf '%s\n' "$output" | jq -e '.ports | length > 0' > /dev/null
	done
	names=$(RDMADIAG_SYSFS_ROOT="$FIX/sysfs/irdma" rdmatop -b -j -n 1 | jq -r '.ports[].counters[].name')
	grep -q ' ' <<< "$names"
	names=$(RDMADIAG_SYSFS_ROOT="$FIX/sysfs/hfi1" rdmatop -b -j -n 1 | jq -r '.ports[].counters[].name')
	grep -q ',' <<< "$names"
}

@test "SIGINT stops batch mode cleanly between frames" {
	rdmatop -b -n 100 -d 0.2 > "$BATS_TEST_TMPDIR/out" &
	pid=$!
	wait_until 10 "two frames of rdmatop -b" text_frames "$BATS_TEST_TMPDIR/out" 2
	kill -INT "$pid"
	st=0; wait "$pid" || st=$?
	[ "$st" -eq 0 ]
	# whole frames only: every frame ends with its blank line
	[ "$(tail -c 2 "$BATS_TEST_TMPDIR/out" | od -An -c | tr -d ' ')" = '\n\n' ]
}

@test "batch: each frame reaches a file or pipe when it is complete, not when the tool exits" {
	for fmt in -j ""; do
		# a new file: the last round's frames must not pass for this round's (the shell of
		# the background job truncates it only when it gets to run)
		rm -f "$BATS_TEST_TMPDIR/live"
		# shellcheck disable=SC2086
		rdmatop -b $fmt -d 1 -n 5 > "$BATS_TEST_TMPDIR/live" &
		pid=$!
		# the first frame must be readable while the tool still runs (~4 s left)
		wait_until 3 "rdmatop $fmt's first frame in the file" test -s "$BATS_TEST_TMPDIR/live"
		kill -0 "$pid" || fail "rdmatop $fmt had already exited"
		if [ -n "$fmt" ]; then
			[ "$(nlines "$BATS_TEST_TMPDIR/live")" -ge 1 ]
			head -1 "$BATS_TEST_TMPDIR/live" | jq -e '.ports | length > 0' > /dev/null
		else
			grep -q '^rdmatop - ' "$BATS_TEST_TMPDIR/live"
		fi
		kill "$pid"; wait "$pid" || :
	done
}

@test "batch: after a refresh that overran the interval, no burst of catch-up frames" {
	t=$BATS_TEST_TMPDIR/times
	rdmatop -b -j -d 0.5 -n 5 > >(while IFS= read -r _; do echo "$EPOCHREALTIME"; done > "$t") &
	pid=$!
	wait_until 10 "rdmatop's first frame" has_lines "$t" 1
	# held up for 1.5 s after its first frame (a machine too busy to run it): the due times
	# of frames 2..5 have all passed when it runs again
	kill -STOP "$pid"; sleep 1.5; kill -CONT "$pid"
	wait "$pid"
	# (the reader of the pipe may still be writing the last time)
	wait_until 3 "the time of the fifth frame" has_lines "$t" 5
	[ "$(nlines "$t")" -eq 5 ] || fail "$(cat "$t")"
	# frames 3..5 come one interval apart (0.5 s; 0.2 leaves room for a reader that was
	# scheduled late), not at once
	awk 'NR > 2 { gap = $1 - prev; if (gap < 0.2) { print "frame " NR " only " gap " s after the last"; bad = 1 } } { prev = $1 } END { exit bad }' "$t"
}

@test "batch: a slow sampling is marked in its own SAMPLE column; STATE keeps the port state" {
	# a counter file among mlx5_0's hw_counters whose open blocks (the shim
	# tests/fixtures/preload/block_open.c) until the release file appears 0.5 s later: that
	# device's sampling takes at least five intervals (a FIFO no longer does: the library
	# reads regular files only)
	local stuck=$FXD/sys/class/infiniband/mlx5_0/ports/1/hw_counters/zz_block_stuck
	local rel=$BATS_TEST_TMPDIR/release
	${CC:-cc} -shared -fPIC -o "$BATS_TEST_TMPDIR/block.so" "$FIX/preload/block_open.c" -ldl
	run --separate-stderr rdmatop -b -n 1 -d 0.1
	refute_output --partial SAMPLE		# no mark, no column
	: > "$stuck"
	(sleep 0.5; touch "$rel") &
	LD_PRELOAD=$BATS_TEST_TMPDIR/block.so BLOCK_RELEASE=$rel \
		ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
		run --separate-stderr rdmatop -b -n 1 -d 0.1
	wait
	rm -f "$rel"
	assert_success
	assert_line --regexp '^DEVICE +PORT STATE +SAMPLE +NETDEV '
	assert_line --regexp '^mlx5_0 +1 ACTIVE +slow +eth2 '
	assert_line --regexp '^rxe0 +1 ACTIVE +- +veth0 '
	(sleep 0.5; touch "$rel") &
	LD_PRELOAD=$BATS_TEST_TMPDIR/block.so BLOCK_RELEASE=$rel \
		ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
		run --separate-stderr rdmatop -b -j -n 1 -d 0.1
	wait
	rm -f "$rel"
	[ "$(jq -c '[.ports[] | [.ifname, .state, .slow]]' <<< "$output")" = \
	  '[["mlx5_0","ACTIVE",true],["rxe0","ACTIVE",false],["rxe1","ACTIVE",false]]' ]
}

# the offset of the first match of ERE in each line of stdin that matches LINE_ERE, one per
# line (awk match: 1-based)
offsets() { awk -v l="$1" -v re="$2" '$0 ~ l { print match($0, re) }'; }

@test "batch: a long device name widens DEVICE for every row; the columns after it stay aligned" {
	ib="$FXD/sys/class/infiniband"
	cp -a "$ib/rxe0" "$ib/rocep65s0f0"
	cp -a "$ib/rxe1" "$ib/rdma_dev_with_a_long_name_25"
	run --separate-stderr rdmatop -b -n 1
	assert_success
	# every name whole, on its own row
	for d in mlx5_0 rocep65s0f0 rdma_dev_with_a_long_name_25 rxe0 rxe1; do
		[ "$(grep -cE "^$d +1 ACTIVE " <<< "$output")" = 1 ] || fail "$d: $output"
	done
	# PORT ends and STATE starts at the same column in the title and in every row: the
	# widest name (28) and one space
	[ "$(offsets '^DEVICE ' 'STATE' <<< "$output")" = 35 ] || fail "$output"
	[ "$(offsets '^(mlx5_0|rocep|rdma_dev|rxe)' ' ACTIVE ' <<< "$output" | sort -u)" = 34 ] || fail "$output"
	for col in 'TOP ERROR' NETDEV 'RX PKT/s'; do
		t=$(offsets '^DEVICE ' "$col" <<< "$output")
		[ "$t" -gt 35 ] || fail "$col at $t"
	done
	# the NETDEV cells start under their title
	t=$(offsets '^DEVICE ' NETDEV <<< "$output")
	[ "$(offsets '^(mlx5_0|rocep|rdma_dev|rxe)' '(eth|veth)[0-9]' <<< "$output" | sort -u)" = "$t" ] || fail "$output"
	# without the long names the frame is what it was (the golden file's width)
	rm -rf "$ib/rocep65s0f0" "$ib/rdma_dev_with_a_long_name_25"
	run rdmatop -b -n 1
	assert_line --regexp '^DEVICE   PORT STATE  NETDEV '
}
