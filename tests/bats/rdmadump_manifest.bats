#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump's analysis (-q -j) of every generated fixture capture equals what the generator says
# it built (tests/fixtures/pcap/MANIFEST.json): packet and opcode counts, AETH kinds, CNPs and
# CE marks, bad ICRCs, truncated frames, READs and their latencies, CM messages and REQ
# retries, and per flow the PSN gaps, duplicates and out-of-order/resent PSNs.
load helper

@test "rdmadump -S agrees with the fixture manifest on every generated capture" {
	[ -f "$FIX/pcap/MANIFEST.json" ] || skip "no generated fixtures"
	run python3 "$BATS_TEST_DIRNAME/rdmadump_manifest.py" "$ROOT" "$ROOT/tools/rdmadump/rdmadump"
	assert_success
	assert_output --regexp '^[0-9]+ values compared, 0 captures with differences$'
}

@test "rdmadump on the manifest's bad files: documented exit code, one line, packets before a cut" {
	[ -f "$FIX/pcap/MANIFEST.json" ] || skip "no generated fixtures"
	n=0
	while IFS=$'\t' read -r file code before; do
		run --separate-stderr rdmadump -r "$FIX/pcap/$file"
		[ "$status" -eq "$code" ] || fail "$file: exit $status, manifest says $code"
		if [ "$code" -ne 0 ]; then
			[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$file: not one line: $stderr"
			[[ "$stderr" == "rdmadump: "* ]] || fail "$file: $stderr"
		fi
		[ -z "$before" ] || [ "${#lines[@]}" -eq "$before" ] ||
			fail "$file: ${#lines[@]} packets printed before the cut, manifest says $before"
		n=$((n + 1))
	done < <(jq -r '.captures[] | select(.expect) | [.file, .expect.exit,
		(.expect.packets_before // "")] | @tsv' "$FIX/pcap/MANIFEST.json")
	[ "$n" -ge 5 ]
}
