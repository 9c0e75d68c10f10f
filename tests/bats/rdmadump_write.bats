#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump -w writes captures with care: never onto the capture being read (by the same name,
# another name of the same file, or standard input redirected from it), created 0644 less the
# umask and emptied first (as tcpdump does), and a write that fails is said once.
load helper

PCAP="$FIX/rxe/rxe_sample.pcap"

setup() {
	cp "$PCAP" "$BATS_TEST_TMPDIR/in.pcap"
	IN=$BATS_TEST_TMPDIR/in.pcap
}

# the input is still the fixture, byte for byte, and the refusal is one line, exit 2
refused() {
	[ "$status" -eq 2 ] || fail "exit $status: $stderr"
	[[ "$stderr" == "rdmadump: refusing to write '$1': it is the capture being read" ]] ||
		fail "stderr: $stderr"
	cmp "$PCAP" "$IN" || fail "the input was changed"
}

@test "-w onto the file given to -r is refused; the input is untouched" {
	run --separate-stderr rdmadump -r "$IN" -w "$IN"
	refused "$IN"
	# the same file by another path
	run --separate-stderr rdmadump -r "$IN" -w "$BATS_TEST_TMPDIR/./in.pcap"
	refused "$BATS_TEST_TMPDIR/./in.pcap"
}

@test "-w onto a hard link or a symlink of the input is refused" {
	ln "$IN" "$BATS_TEST_TMPDIR/hard.pcap"
	run --separate-stderr rdmadump -r "$IN" -w "$BATS_TEST_TMPDIR/hard.pcap"
	refused "$BATS_TEST_TMPDIR/hard.pcap"
	ln -s "$IN" "$BATS_TEST_TMPDIR/sym.pcap"
	run --separate-stderr rdmadump -r "$BATS_TEST_TMPDIR/sym.pcap" -w "$IN"
	refused "$IN"
}

@test "-r - with standard input from the file named by -w is refused" {
	run --separate-stderr sh -c 'exec rdmadump -r - -w "$1" < "$1"' - "$IN"
	refused "$IN"
}

@test "a new capture is created 0644 under umask 022, and an old file is emptied first" {
	out=$BATS_TEST_TMPDIR/out.pcap
	(umask 022 && rdmadump -r "$PCAP" -w "$out")
	[ "$(stat -c %a "$out")" = 644 ]
	cmp "$out" <(rdmadump -r "$PCAP" -w -)
	# a longer file is truncated, not overwritten in place with its tail left behind
	head -c 200000 /dev/zero >> "$out"
	rdmadump -r "$PCAP" -w "$out"
	cmp "$out" <(rdmadump -r "$PCAP" -w -)
	# umask 077: 0600
	rm -f "$out"
	(umask 077 && rdmadump -r "$PCAP" -w "$out")
	[ "$(stat -c %a "$out")" = 600 ]
}

@test "-w on a full device: one line with the real reason, exit 2" {
	[ -w /dev/full ] || skip "no /dev/full"
	# larger than stdio's buffer, so the failure comes while writing, not only at the close
	[ "$(stat -c %s "$PCAP")" -gt 16384 ]
	run --separate-stderr rdmadump -r "$PCAP" -w /dev/full
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: cannot write '/dev/full': No space left on device" ] || fail "$stderr"
	run --separate-stderr rdmadump -r "$FIX/pcap/aeth_naks.pcap" -w /dev/full
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: cannot write '/dev/full': No space left on device" ] || fail "$stderr"
}

# ---- the flow table's bound ----------------------------------------------------------------

@test "--max-flows: flows beyond the bound are counted, not analysed, and the summary says so" {
	cap=$BATS_TEST_TMPDIR/many.pcap
	/usr/bin/python3 "$ROOT/tests/gen/mkbench.py" --packets 3000 --qps 400 --seed 3 -o "$cap" 2>/dev/null
	all=$(rdmadump -q -j --max-flows 0 -r "$cap" | jq -c '.summary.total | [.flows, .untracked, .rdma]')
	n=$(jq '.[0]' <<< "$all")
	[ "$n" -gt 100 ] || fail "the capture has only $n flows"
	[ "$(jq '.[1]' <<< "$all")" -eq 0 ]
	run --separate-stderr rdmadump -q -j --max-flows 100 -r "$cap"
	assert_success
	got=$(jq -c '.summary.total | [.flows, .max_flows, .rdma]' <<< "$output")
	[ "$got" = "[100,100,$(jq '.[2]' <<< "$all")]" ] || fail "$got"
	# every RDMA packet is either in a followed flow or untracked
	[ "$(jq '([.summary.flows[].pkts] | add) + .summary.total.untracked' <<< "$output")" -eq \
		"$(jq '.[2]' <<< "$all")" ]
	[ "$(jq '.summary.total.untracked' <<< "$output")" -gt 0 ]
	run rdmadump -q --max-flows 100 -r "$cap"
	assert_line --regexp '^[0-9]+ packets of flows beyond the first 100 not analysed'
	# the default bound is in --help and the JSON
	rdmadump --help | grep -q -- '--max-flows N'
	[ "$(rdmadump -q -j -r "$cap" | jq '.summary.total.max_flows')" -eq 32768 ]
	run --separate-stderr rdmadump --max-flows -1 -r "$cap"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"invalid flow limit '-1'"* ]] || fail "$stderr"
}
