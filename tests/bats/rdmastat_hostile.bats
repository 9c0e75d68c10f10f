#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat (and rdmatop -b, which reads through the same library) on sysfs trees that no
# kernel makes but a damaged or hostile tree can: a FIFO where a counter file should be, a
# read that blocks, a symlink that loops, port and device names that are not what the kernel
# writes.  Nothing hangs, one bad entry does not hide the others, and what is left out is
# said in one line.
load helper

SYS=$FIX/sysfs

setup() {
	TMP=$(mktemp -d)
	BG=
	cp -a "$SYS/rxe" "$TMP/rxe"
	export RDMADIAG_SYSFS_ROOT=$TMP/rxe
	IB=$TMP/rxe/sys/class/infiniband
}
teardown() {
	[ -z "$BG" ] || kill -KILL "$BG" 2> /dev/null || :
	rm -rf "$TMP"
}
#   wait_exit PID   until PID exits (10 s at most); its status in $st
wait_exit() {
	local pid=$1 i
	for ((i = 0; i < 200; i++)); do
		if ! kill -0 "$pid" 2> /dev/null; then
			st=0
			wait "$pid" || st=$?
			BG=
			return 0
		fi
		sleep 0.05
	done
	fail "timed out after 10 s waiting for pid $pid to exit: $(cat "$TMP/err" 2> /dev/null)"
}
#   wait_file FILE  until FILE exists and is not empty (10 s at most)
wait_file() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	fail "timed out after 10 s waiting for $1"
}

@test "a FIFO as a counter file is an unreadable counter, not a hang (rdmastat, rdmatop -b)" {
	mkfifo "$IB/rxe0/ports/1/hw_counters/zz_fifo"
	# the port's state file too: discovery reads it
	rm "$IB/rxe1/ports/1/state"
	mkfifo "$IB/rxe1/ports/1/state"
	run --separate-stderr timeout 10 rdmastat rxe0
	[ "$status" -eq 0 ] || fail "exit $status (124: it hung): $stderr"
	assert_line --regexp "^    zz_fifo +\? +\(not a regular file\)$"
	assert_line --regexp "^    sent_pkts +78  tx_packets$"
	run --separate-stderr timeout 10 rdmastat -j rxe0
	[ "$status" -eq 0 ] || fail "exit $status"
	[ "$(jq -r '.[0].errors.zz_fifo' <<< "$output")" = "not a regular file" ]
	run --separate-stderr timeout 10 rdmastat devices
	[ "$status" -eq 0 ] || fail "exit $status"
	assert_line --partial "rxe1 port 1 ==> veth1"
	run --separate-stderr timeout 10 rdmatop -b -n 1
	[ "$status" -eq 0 ] || fail "exit $status (124: it hung): $stderr"
	assert_line --regexp "^rxe0 +1 "
}

# A read that blocks and returns only to a signal, as on a hung file system: the LD_PRELOAD
# shim tests/fixtures/preload/block_open.c makes openat() of any file named zz_block* wait in
# read(2) on a pipe nobody writes, and writes a line to $BLOCK_MARK when it does, so the test
# signals once the tool is stuck.
build_shim() {
	${CC:-cc} -shared -fPIC -o "$TMP/shim.so" "$FIX/preload/block_open.c" -ldl ||
		fail "cannot build the openat shim"
	: > "$IB/rxe0/ports/1/hw_counters/zz_block1"
	: > "$IB/rxe0/ports/1/hw_counters/zz_block2"
}
# start "$@" in the background with the shim, wait until it is stuck, send SIG, and wait
# for it to end
signal_while_blocked() {
	local sig=$1
	shift
	BLOCK_MARK=$TMP/mark LD_PRELOAD=$TMP/shim.so \
		ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		"$@" > "$TMP/out" 2> "$TMP/err" &
	BG=$!
	wait_file "$TMP/mark"
	kill -"$sig" "$BG"
	wait_exit "$BG"
}

@test "SIGTERM and SIGINT end rdmastat -i while counter reads block (two blocking files)" {
	build_shim
	signal_while_blocked TERM rdmastat -i 0.05 rxe0
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	rm -f "$TMP/mark"
	signal_while_blocked INT rdmastat -i 0.05 -j
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	# stopped, not a failed read
	run cat "$TMP/err"
	refute_output --partial "cannot read counters"
}

@test "SIGTERM and SIGINT end rdmatop -b while a counter read blocks" {
	build_shim
	signal_while_blocked TERM rdmatop -b -d 0.1
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	rm -f "$TMP/mark"
	signal_while_blocked INT rdmatop -b -d 0.1 -j
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	run cat "$TMP/err"
	refute_output --partial "cannot read counters"
}

@test "a symlink that loops under class/infiniband is skipped with one warning; the rest is read" {
	ln -s loop "$IB/loop"
	run --separate-stderr rdmastat
	assert_success
	[ "$stderr" = "rdmastat: warning: skipped '$IB/loop': Too many levels of symbolic links" ] ||
		fail "$stderr"
	assert_line "rxe0/1: state ACTIVE physical_state LINK_UP netdev veth0"
	assert_line "rxe1/1: state ACTIVE physical_state LINK_UP netdev veth1"
	for fmt in -j --csv --prom; do
		run --separate-stderr rdmastat $fmt
		assert_success
		assert_output --partial "sent_pkts"
		[ "$(grep -c "skipped '$IB/loop'" <<< "$stderr")" = 1 ] || fail "$fmt: $stderr"
	done
	run --separate-stderr rdmastat devices
	assert_success
	refute_output --partial "loop"
	assert_line --partial "rxe0: node_type ca"
	[ "$stderr" = "rdmastat: warning: skipped '$IB/loop': Too many levels of symbolic links" ] ||
		fail "$stderr"
	# -i says it once, not every interval
	run --separate-stderr rdmastat -i 0.02 -n 3 -j
	assert_success
	[ "$(grep -c "skipped '$IB/loop'" <<< "$stderr")" = 1 ] || fail "$stderr"
	# a port directory that loops: that port is left out, the device's others are read
	ln -s 2 "$IB/rxe1/ports/2"
	run --separate-stderr rdmastat -j
	assert_success
	[ "$(jq -r '.[] | "\(.ifname)/\(.port)"' <<< "$output" | tr '\n' ' ')" = "rxe0/1 rxe1/1 " ]
	grep -qx "rdmastat: warning: skipped '$IB/rxe1/ports/2': Too many levels of symbolic links" \
		<<< "$stderr" || fail "$stderr"
	run --separate-stderr rdmatop -b -n 1
	assert_success
	assert_line --regexp "^rxe1 +1 "
}

@test "port names that are not plain numbers are skipped and listed, not wrapped onto a port" {
	# 2^32 + 1 wrapped onto port 1 through strtoul; 01 and 1x are not what the kernel writes
	for p in 4294967297 01 1x +2; do
		mkdir -p "$IB/rxe0/ports/$p/hw_counters"
		echo 999 > "$IB/rxe0/ports/$p/hw_counters/sent_pkts"
	done
	run --separate-stderr rdmastat -j rxe0 sent_pkts
	assert_success
	[ "$output" = '[{"ifname":"rxe0","port":1,"sent_pkts":78}]' ] || fail "$output"
	[ "$(wc -l <<< "$stderr")" = 4 ] || fail "$stderr"
	grep -qx "rdmastat: warning: skipped '$IB/rxe0/ports/4294967297': port number out of range" \
		<<< "$stderr" || fail "$stderr"
	for p in 01 1x +2; do
		grep -qx "rdmastat: warning: skipped '$IB/rxe0/ports/$p': not a port number" \
			<<< "$stderr" || fail "$p: $stderr"
	done
	run --separate-stderr rdmastat devices -j rxe0
	assert_success
	[ "$(jq -c '[.[0].ports[].port]' <<< "$output")" = "[1]" ] || fail "$output"
	[ "$(grep -c "warning: skipped" <<< "$stderr")" = 4 ] || fail "$stderr"
	# the other device's ports are not looked at when only rxe1 is asked for
	run --separate-stderr rdmastat rxe1
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
}

@test "a device name of 64 bytes or more is skipped and listed, not cut" {
	long=$(printf 'rxe%061d' 7)		# 64 bytes
	cp -a "$IB/rxe1" "$IB/$long"
	ok=$(printf 'rxe%060d' 7)		# 63 bytes: the kernel's longest
	cp -a "$IB/rxe1" "$IB/$ok"
	run --separate-stderr rdmastat -j sent_pkts
	assert_success
	[ "$(jq -r '.[].ifname' <<< "$output" | tr '\n' ' ')" = "rxe0 $ok rxe1 " ] || fail "$output"
	[ "$stderr" = "rdmastat: warning: skipped '$IB/$long': device name of 64 bytes or more" ] ||
		fail "$stderr"
	run --separate-stderr rdmastat devices
	assert_success
	assert_line --partial "$ok: node_type ca"
	refute_output --partial "${long:0:63}"
}
