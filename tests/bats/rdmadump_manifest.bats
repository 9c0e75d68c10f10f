#!/usr/bin/env bats
# rdmadump's analysis (-q -j) of every generated fixture capture equals what the generator says
# it built (tests/fixtures/pcap/MANIFEST.json): packet and opcode counts, AETH kinds, CNPs and
# CE marks, bad ICRCs, truncated frames, READs and their latencies, CM messages and REQ
# retries, and per flow the PSN gaps, duplicates and out-of-order/resent PSNs.
load helper

@test "rdmadump -S agrees with the fixture manifest on every generated capture" {
	[ -f "$FIX/pcap/MANIFEST.json" ] || skip "no generated fixtures"
	run python3 "$BATS_TEST_DIRNAME/rdmadump_manifest.py" "$ROOT" "$ROOT/tools/rdmadump"
	assert_success
	assert_output --regexp '^[0-9]+ values compared, 0 captures with differences$'
}
