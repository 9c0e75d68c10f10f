#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump's outputs, byte for byte against tests/fixtures/rdmadump/: over the real rxe capture
# and over generated captures of every encapsulation.  The cases are listed in
# tests/fixtures/rdmadump/cases (output, capture, arguments); after a deliberate format change
# run tests/fixtures/rdmadump/regen.sh and review the diff.
load helper

GOLD="$FIX/rdmadump"

@test "golden outputs: every case in tests/fixtures/rdmadump/cases" {
	n=0
	while read -r out cap args; do
		[ -n "$out" ] || continue
		# shellcheck disable=SC2086
		run bash -c 'diff -u "$1" <(rdmadump "${@:3}" -r "$2")' - "$GOLD/$out" "$FIX/$cap" $args
		[ "$status" -eq 0 ] || fail "$out (rdmadump $args -r $cap) differs:
$output"
		n=$((n + 1))
	done < "$GOLD/cases"
	[ "$n" -ge 20 ]
}

@test "every golden file has its case, every case its golden file" {
	for f in "$GOLD"/*.txt "$GOLD"/*.json "$GOLD"/*.jsonl; do
		grep -q "^$(basename "$f") " "$GOLD/cases" || fail "$(basename "$f") is not in cases"
	done
	while read -r out _; do
		[ -f "$GOLD/$out" ] || fail "no golden file $out"
	done < "$GOLD/cases"
}

@test "golden: go-back-N shows the gap lost in the fabric, one go-back retry after the NAK, and the resend after the RNR NAK as an RNR retry, not a duplicate" {
	run grep -F "PSN: 1 packets lost in the fabric: 1 first sends in 1 gaps, 0 resends in 0 gaps; 0 gaps not captured (0 PSNs), 1 lost packets resent, 0 out of order, 1 go-back retries" "$GOLD/gen_go_back_n.txt"
	assert_success
	run grep -F "resent: 7 after a NAK-sequence error, 1 after an RNR NAK, 0 after a timeout; 0 duplicates" "$GOLD/gen_go_back_n.txt"
	assert_success
	run grep -c -F "[dup]" "$GOLD/gen_go_back_n.txt"
	assert_output 0
}

@test "golden: frames cut out of a real rxe capture are not captured, not lost: the receiver acknowledged them" {
	# rxe_sample_uncaptured.pcap = rxe_sample.pcap without frames 2 3 17 23 (editcap), four
	# SEND_MIDDLE packets of ibv_rc_pingpong: 3 gaps, 4 PSNs, each later covered by an ACK
	run grep -F "PSN: 0 packets lost in the fabric: 0 first sends in 0 gaps, 0 resends in 0 gaps, 3 not captured (4 PSNs)" "$GOLD/rxe_uncaptured.summary.txt"
	assert_success
	run grep -F "capture looks lossy: the receivers acknowledged 4 PSNs (3 gaps) that this capture never saw" "$GOLD/rxe_uncaptured.summary.txt"
	assert_success
	run jq -c '.summary | [.total.psn_gaps, .total.psn_lost, .total.not_captured_gaps, .total.not_captured_psns,
		([.flows[] | select(.destqp == 17) | [.not_captured_gaps, .not_captured_psns]])]' "$GOLD/rxe_uncaptured.summary.json"
	assert_output '[0,0,3,4,[[2,3],[1,1]]]'
}

@test "golden: READ-response gaps: never re-read is not captured, a re-read is lost in the fabric, a READ cut by the capture's end stays a gap" {
	# read_gaps.pcap (tests/gen/mkfixtures.py): one response left out of QP 0x44's READ,
	# whose LAST comes and which is never re-read; one lost on QP 0x46's, re-read from its PSN
	# and answered again; one missing on QP 0x48's, whose LAST the capture never holds
	run grep -F "PSN: 2 packets lost in the fabric: 2 first sends in 2 gaps, 0 resends in 0 gaps, 1 not captured (1 PSNs)" "$GOLD/gen_read_gaps.txt"
	assert_success
	run rdmadump -q -j -r "$FIX/pcap/read_gaps.pcap"
	assert_success
	run jq -c '[.summary.flows[] | select(.src == "192.0.2.2") |
		[.destqp, .psn_gaps, .psn_lost, .not_captured_gaps, .not_captured_psns, .psn_dup]]' <<< "$output"
	assert_output '[[68,0,0,1,1,0],[70,1,1,0,0,3],[72,1,1,0,0,0]]'
	# --fail-on-errors: the re-read and the unexplained gap are errors; the not-captured QP
	# alone is none
	rdmadump --qp 0x44 -w "$BATS_TEST_TMPDIR/ncap.pcap" -r "$FIX/pcap/read_gaps.pcap"
	run rdmadump -q --fail-on-errors -r "$BATS_TEST_TMPDIR/ncap.pcap"
	assert_success
	run rdmadump -q --fail-on-errors -r "$FIX/pcap/read_gaps.pcap"
	[ "$status" -eq 1 ]
}
