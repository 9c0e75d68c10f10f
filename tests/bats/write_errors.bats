#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Output that cannot be written is an error, not a silent success: every tool writing to a
# full device (/dev/full) says "write error" in one line and exits 2, whatever the mode; and
# rdmadump -w - still writes a capture to standard output (the dump has its own stream).
load helper

PCAP="$FIX/pcap/aeth_naks.pcap"
SYS="$FIX/sysfs/rxe"

full() {	# TOOL ARGS...: run with stdout on /dev/full; status and stderr checked
	run --separate-stderr "$@"
	[ "$status" -eq 2 ] || fail "$*: exit $status, stderr: $stderr"
	[[ "$stderr" == *"write error: No space left on device"* ]] || fail "$*: stderr: $stderr"
	[ "$(grep -c . <<< "$stderr")" -eq 1 ] || fail "$*: more than one line: $stderr"
}

setup() {
	[ -w /dev/full ] || skip "no /dev/full"
}

@test "rdmadump: -j, text, -v, -S and -S -j on a full device are exit 2 with one line" {
	for m in -j "" -v -S "-S -j" "-q"; do
		# shellcheck disable=SC2086
		full sh -c 'exec rdmadump "$@" > /dev/full' - $m -r "$PCAP"
	done
}

@test "rdmadump -w - writes a capture to standard output; on a full device it is exit 2" {
	rdmadump -r "$PCAP" -w - > "$BATS_TEST_TMPDIR/out.pcap"
	cmp "$BATS_TEST_TMPDIR/out.pcap" <(rdmadump -r "$PCAP" -w /dev/stdout)
	run rdmadump -q -r "$BATS_TEST_TMPDIR/out.pcap"
	assert_success
	assert_line --partial "28 frames, 28 RDMA packets"
	run --separate-stderr sh -c 'exec rdmadump -r "$1" -w - > /dev/full' - "$PCAP"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot write '-'"* || "$stderr" == *"write error"* ]] || fail "$stderr"
}

@test "rdmastat, rdmatop -b, rdmacheck --list, rdmatrace and --help of every tool on a full device are exit 2" {
	export RDMADIAG_SYSFS_ROOT=$SYS
	full sh -c 'exec rdmastat -j > /dev/full'
	full sh -c 'exec rdmastat > /dev/full'
	full sh -c 'exec rdmatop -b -n 1 > /dev/full'
	full sh -c 'exec rdmatop -b -j -n 1 > /dev/full'
	full sh -c 'exec rdmacheck --list > /dev/full'
	full sh -c 'exec rdmatrace -j --input "$1" > /dev/full' - "$FIX/trace/rxe-6.1"
	full sh -c 'exec rdmatrace -c --input "$1" > /dev/full' - "$FIX/trace/rxe-6.1"
	for t in rdmadump rdmastat rdmatop rdmacheck rdmadoctor rdmatrace; do
		full sh -c 'exec "$1" --help > /dev/full' - "$t"
	done
}

@test "a closed pipe is not a write error: the tool ends quietly" {
	run --separate-stderr sh -c 'rdmadump -j -r "$1" | head -c 10 > /dev/null' - "$PCAP"
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
}
