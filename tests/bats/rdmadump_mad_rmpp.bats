#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump's RMPP reassembly of SA tables split across segments (tests/gen/madfixtures.py
# fx_mad_rmpp): every record once and whole on the segment that completes the transfer, a
# missing segment said, a resent segment not stored twice.
load helper

@test "RMPP: reassembled records, missing and resent segments agree with the generator" {
	run python3 "$BATS_TEST_DIRNAME/rdmadump_mad_rmpp.py" "$ROOT" "$ROOT/tools/rdmadump/rdmadump"
	assert_success
	assert_output '13 packets compared, 0 differences'
}

@test "RMPP: the 7-record PathRecord table of mad_sa.pcap, records 3 and 6 split across segments" {
	run rdmadump -j -r "$FIX/pcap/mad_sa.pcap"
	assert_success
	# each DLID the generator put in the table (SM, switch, A, B, C, 17, 21) once, in order
	run jq -r 'select(.mad.tid == "0x0000534100000002" and .mad.rmpp_reassembled) | .mad.rmpp_reassembled.sa_path_record[].dlid' <<< "$output"
	assert_output $'1\n2\n5\n9\n13\n17\n21'
	run rdmadump -v -r "$FIX/pcap/mad_sa.pcap"
	assert_line '    reassembled segments 3 length 448 records 7'
}

@test "RMPP: a transfer with a missing segment is an --errors finding" {
	run rdmadump --errors -r "$FIX/pcap/mad_rmpp.pcap"
	assert_success
	assert_output --partial 'rmpp DATA seg 3 last len 256 [RMPP: segment 2 of 3 missing]'
	assert_equal "$(grep -c . <<< "$output")" 1
}
