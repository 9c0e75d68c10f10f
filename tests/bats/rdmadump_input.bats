#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump on bad input: a clear one-line message, exit 2 (documented in rdmadump(1)), no crash;
# frames cut by the snap length at every header boundary are decoded as far as captured.
load helper

CAP="$FIX/rxe/rxe_sample.pcap"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# exit 2, exactly one line on stderr, starting "rdmadump: ", containing $1
one_line_error() {
	[ "$status" -eq 2 ] || fail "exit status $status, expected 2"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "not one line: $stderr"
	[[ "$stderr" == "rdmadump: "*"$1"* ]] || fail "unexpected message: $stderr"
}

@test "missing file" {
	run --separate-stderr rdmadump -r "$TMP/nope.pcap"
	one_line_error "cannot open '$TMP/nope.pcap': No such file or directory"
}

@test "a directory" {
	run --separate-stderr rdmadump -r "$TMP"
	one_line_error "Is a directory"
}

@test "garbage file" {
	head -c 4096 /dev/urandom > "$TMP/garbage"
	printf 'GARB' | dd of="$TMP/garbage" conv=notrunc status=none
	run --separate-stderr rdmadump -r "$TMP/garbage"
	one_line_error "'$TMP/garbage': not a pcap or pcapng capture (unknown file format)"
	[ -z "$output" ]
}

@test "empty file, and empty standard input" {
	: > "$TMP/empty.pcap"
	run --separate-stderr rdmadump -r "$TMP/empty.pcap"
	one_line_error "'$TMP/empty.pcap': empty file, not a pcap or pcapng capture"
	run --separate-stderr rdmadump -r - < /dev/null
	one_line_error "'<stdin>': empty file"
}

@test "a pcap with an unknown link type" {
	python3 - "$CAP" "$TMP/lt.pcap" <<'EOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
struct.pack_into('<I', d, 20, 105)     # LINKTYPE_IEEE802_11
open(sys.argv[2], 'wb').write(d)
EOF
	run --separate-stderr rdmadump -r "$TMP/lt.pcap"
	one_line_error "unsupported link type 105 (IEEE802_11)"
}

@test "a file cut in the middle of a record: packets before it, then the error" {
	# 24 B header + frames 1 and 2 (16 + 1082 each) + half of frame 3
	head -c $((24 + 2 * (16 + 1082) + 16 + 500)) "$CAP" > "$TMP/cut.pcap"
	run --separate-stderr rdmadump -r "$TMP/cut.pcap"
	one_line_error "capture file is cut short inside frame 3 (truncated dump file; tried to read 1082 captured bytes, only got 500)"
	[ "${#lines[@]}" -eq 2 ]
	# cut inside a record header, with the summary still printed
	head -c $((24 + 16 + 1082 + 7)) "$CAP" > "$TMP/cut2.pcap"
	run --separate-stderr rdmadump -q -r "$TMP/cut2.pcap"
	one_line_error "cut short inside frame 2"
	assert_line "1 frames, 1 RDMA packets, 0 other, 1082 bytes (1024 payload) in 0ns"
}

@test "a pcap header alone is a valid empty capture" {
	head -c 24 "$CAP" > "$TMP/hdr.pcap"
	run --separate-stderr rdmadump -q -r "$TMP/hdr.pcap"
	assert_success
	assert_line "0 frames, 0 RDMA packets, 0 other, 0 bytes (0 payload) in 0ns"
}

# frame 37 is a READ response FIRST (eth 14, ipv4 20, udp 8, bth 12, aeth 4, payload 1024, icrc 4)
# frame 36 a READ request (bth 12, reth 16), frame 31 a CM REQ (bth, deth 8, MAD 256)
@test "caplen < len at every header boundary: decoded as far as captured, marked truncated" {
	for f in 31 36 37; do
		for s in 1 13 14 15 33 34 35 41 42 43 53 54 55 57 58 62 70 73 74 78 82 100 300 1000; do
			editcap -r -s "$s" "$CAP" "$TMP/t.pcap" "$f" 2>/dev/null
			run --separate-stderr rdmadump -v -r "$TMP/t.pcap"
			[ "$status" -eq 0 ] || fail "frame $f snap $s: exit $status: $stderr"
			[ -z "$stderr" ] || fail "frame $f snap $s: stderr: $stderr"
			run --separate-stderr rdmadump -j -r "$TMP/t.pcap"
			[ "$status" -eq 0 ] || fail "frame $f snap $s: -j exit $status"
			if [ -n "$output" ]; then
				echo "$output" | jq -e . > /dev/null || fail "frame $f snap $s: bad JSON"
				len=$(echo "$output" | jq -r '.len')
				if [ "$s" -lt "$len" ]; then
					[ "$(echo "$output" | jq -r '.caplen')" -eq "$s" ] || fail "caplen"
					echo "$output" | jq -e '.truncated == true' > /dev/null ||
						fail "frame $f snap $s: not marked truncated: $output"
				else
					echo "$output" | jq -e '.truncated == null and .icrc.ok' > /dev/null ||
						fail "frame $f snap $s: whole frame not clean: $output"
				fi
			elif [ "$s" -ge 42 ]; then
				fail "frame $f snap $s: a frame with its UDP header was not decoded"
				echo "$output" | jq -e '.icrc.ok != false' > /dev/null ||
					fail "frame $f snap $s: ICRC judged on a cut frame"
			fi
		done
	done
}

@test "a frame cut after the BTH still shows opcode, QP and PSN" {
	editcap -r -s 54 "$CAP" "$TMP/t.pcap" 36 2>/dev/null
	run rdmadump -r "$TMP/t.pcap"
	assert_success
	assert_output "08:13:23.167821000 198.18.0.2 > 198.18.0.1 RC_RDMA_READ_REQUEST qp 0x000012 psn 13726450 A [truncated]"
	editcap -r -s 62 "$CAP" "$TMP/t.pcap" 36 2>/dev/null
	run rdmadump -j -r "$TMP/t.pcap"
	assert_success
	[ "$(echo "$output" | jq -c '[.bth.op, .reth, .truncated]')" = '["RC_RDMA_READ_REQUEST",null,true]' ]
}

@test "a whole capture cut to 60 bytes per frame: summary counts every packet as truncated" {
	editcap -s 60 "$CAP" "$TMP/s60.pcap"
	run rdmadump -q -j -r "$TMP/s60.pcap"
	assert_success
	[ "$(echo "$output" | jq '.summary.total.truncated')" -eq 100 ]
	[ "$(echo "$output" | jq '.summary.total.icrc_bad')" -eq 0 ]
	[ "$(echo "$output" | jq '.summary.flows | length')" -eq 8 ]
}

@test "a bad ICRC is reported, counted, never fatal" {
	# flip one payload byte of frame 1
	python3 - "$CAP" "$TMP/bad.pcap" <<'EOF'
import sys
d = bytearray(open(sys.argv[1], 'rb').read())
d[24 + 16 + 54 + 100] ^= 0xff
open(sys.argv[2], 'wb').write(d)
EOF
	run rdmadump -c 2 -r "$TMP/bad.pcap"
	assert_success
	assert_line --index 0 --partial "RC_SEND_FIRST qp 0x000011 psn 7575266 len 1024 [bad icrc]"
	refute_line --index 1 --partial "[bad icrc]"
	run rdmadump -q -j --fail-on-errors -r "$TMP/bad.pcap"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | jq '.summary.total.icrc_bad')" -eq 1 ]
	run rdmadump --errors -r "$TMP/bad.pcap"
	assert_line --index 0 --partial "[bad icrc]"
}
