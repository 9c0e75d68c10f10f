#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The fixture generator (tests/gen/) checked against independent implementations: scapy's
# RoCEv2 ICRC, the ICRCs a real rdma_rxe put on the wire, tshark's dissectors; and the
# committed captures and MANIFEST.json against the generator and against themselves.
load helper

PY=/usr/bin/python3	# Debian's interpreter: python3-scapy lives there, not in a user's venv

@test "generator: ICRC of IPv4 RoCEv2 packets is byte-identical to scapy.contrib.roce" {
	run "$PY" "$ROOT/tests/oracle/icrc_scapy.py"
	echo "$output"
	assert_success
	assert_output --regexp "icrc_scapy: ([0-9]+) packets, \1 identical to scapy.contrib.roce, 0 differ"
}

@test "generator: its ICRC rule reproduces every ICRC of the real rxe capture" {
	run "$PY" "$ROOT/tests/oracle/icrc_rxe.py"
	echo "$output"
	assert_success
	assert_output --regexp "icrc_rxe: ([0-9]+) RoCEv2 frames .*, \1 ICRCs reproduced, 0 differ"
}

@test "generator: the committed fixtures are exactly what tests/gen/mkfixtures.py writes" {
	"$PY" "$ROOT/tests/gen/mkfixtures.py" "$BATS_TEST_TMPDIR/fx"
	run diff -r "$ROOT/tests/fixtures/pcap" "$BATS_TEST_TMPDIR/fx" -x README.md
	echo "$output"
	assert_success
}

@test "generator: it writes the same bytes twice (deterministic)" {
	"$PY" "$ROOT/tests/gen/mkfixtures.py" "$BATS_TEST_TMPDIR/a"
	"$PY" "$ROOT/tests/gen/mkfixtures.py" "$BATS_TEST_TMPDIR/b"
	run diff -r "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/b"
	assert_success
}

@test "generator: MANIFEST.json matches the files and the PSN events each scenario injected" {
	run "$PY" "$ROOT/tests/oracle/check_manifest.py"
	echo "$output"
	assert_success
	assert_output --regexp "check_manifest: [1-9][0-9]* files, [1-9][0-9]* flows checked, 0 problems"
}

@test "generator: capinfos reads every fixture with the frame count of the manifest" {
	local f want got bad=""
	# (wiretap 4.0 has no pcap link type 247: check_manifest.py counts those records)
	for f in $(jq -r '.captures[] | select(.bad != true and .linktype != 247) | .file' "$FIX/pcap/MANIFEST.json"); do
		want=$(jq -r --arg f "$f" '.captures[] | select(.file == $f) | .frames' "$FIX/pcap/MANIFEST.json")
		got=$(capinfos -M -c -T -r "$FIX/pcap/$f" 2>/dev/null | cut -f2)
		[ "$got" = "$want" ] || bad="$bad $f($got!=$want)"
	done
	[ -z "$bad" ] || { echo "frame counts differ:$bad"; false; }
}

@test "generator: no frame is malformed for tshark (payload dissectors off) except the cut ones" {
	local f heur n skip filt bad=""
	heur=$(tshark -G heuristic-decodes 2>/dev/null |
		awk -F'\t' '$1 ~ /^infiniband/ && $2 != "ethertype" { print $2 }' |
		sort -u | sed 's/^/--disable-protocol /')
	# (not rd.pcap: tshark 4.0 reads opcodes 0x40-0x5F as Mellanox DC, see tests/oracle/compare.py)
	# (nor the MAC control frames built malformed on purpose: mac_control.malformed_frames)
	for f in $(jq -r '.captures[] | select(.bad != true and .linktype != 247 and .file != "rd.pcap") | .file' "$FIX/pcap/MANIFEST.json"); do
		skip=$(jq -r --arg f "$f" '.captures[] | select(.file == $f) |
			(.mac_control.malformed_frames // []) | map(tostring) | join(",")' "$FIX/pcap/MANIFEST.json")
		filt='(_ws.malformed || _ws.expert.severity >= "Warning") && frame.cap_len == frame.len'
		[ -z "$skip" ] || filt="$filt && !(frame.number in {$skip})"
		# shellcheck disable=SC2086
		n=$(tshark -r "$FIX/pcap/$f" $heur -Y "$filt" |
			wc -l; exit "${PIPESTATUS[0]}") || { bad="$bad $f(tshark failed)"; continue; }
		[ "$n" = 0 ] || bad="$bad $f($n)"
	done
	[ -z "$bad" ] || { echo "malformed frames:$bad"; false; }
}

@test "generator: tshark sees the opcodes the manifest lists (RoCEv2/RoCEv1 captures)" {
	local f bad=""
	for f in rc_ops.pcap uc_ud.pcap rd.pcap aeth_naks.pcap cnp_ecn.pcap rocev1.pcap; do
		want=$(jq -r --arg f "$f" '.captures[] | select(.file == $f) | [.packets[] | .opcode] | join(",")' "$FIX/pcap/MANIFEST.json")
		got=$(tshark -r "$FIX/pcap/$f" -Y infiniband -T fields -e infiniband.bth.opcode 2>/dev/null | paste -sd,)
		[ "$got" = "$want" ] || bad="$bad $f"
	done
	[ -z "$bad" ] || { echo "opcode sequences differ:$bad"; false; }
}
