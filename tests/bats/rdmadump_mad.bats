#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump's control-plane analysis of the generated MAD captures (tests/gen/madfixtures.py):
# transactions against the generator's record of them, SA PathRecord queries and the CM REQ
# that followed, fabric events, Q_Key/P_Key mismatches, --errors and --fail-on-errors.
load helper

@test "MAD transactions per class and attribute agree with what the generator wrote" {
	run python3 "$BATS_TEST_DIRNAME/rdmadump_mad.py" "$ROOT" "$ROOT/tools/rdmadump/rdmadump"
	assert_success
	assert_output --regexp '^3 captures, [0-9]+ values compared, 0 captures with differences$'
}

@test "SA PathRecord queries: the answer, the REQ that used it, an error status, no answer" {
	run rdmadump -q -j -r "$FIX/pcap/mad_sa.pcap"
	assert_success
	pr=$(jq -c '.summary.mad.path_records' <<< "$output")
	# the Get for B: answered with P_Key 0x8001 / DLID 9, then the REQ 3 ms after the answer
	# with that P_Key (the generator wrote the REQ 3000 us after the answer)
	run jq -r '.[] | select(.dgid == "fe80::2:c903:0:9") |
		[.answered, .answer.dlid, .answer.p_key, .cm_req.p_key, .cm_req.after_ns] | @tsv' <<< "$pr"
	assert_output $'true\t9\t32769\t32769\t3000000'
	run jq -r '.[] | select(.dgid == "fe80::dead") | [.status, .status_name] | @tsv' <<< "$pr"
	assert_output $'768\tERR_NO_RECORDS'
	run jq -r '.[] | select(.dgid == "fe80::2:c903:0:d") | [.answered, .sends, .cm_req] | @tsv' <<< "$pr"
	assert_output $'false\t3\t'
	run rdmadump -q -r "$FIX/pcap/mad_sa.pcap"
	assert_output --partial "for fe80::2:c903:0:d: no answer (sent 3 time(s)): rdma_resolve_route would fail with a timeout"
	assert_output --partial "the REQ to it 3ms later used it (P_Key 0x8001)"
	assert_output --partial "the REQ to it 2ms later has P_Key 0xffff, not the PathRecord's"
}

@test "a CM REQ whose P_Key is not the PathRecord's it followed: a finding with both values" {
	# the generator: PathRecord for LID 17 answered with P_Key 0x8002, then a REQ with 0xffff
	run rdmadump -q -j -r "$FIX/pcap/mad_sa.pcap"
	run jq -r '.summary.mad.key_mismatches[] | [.what, .dst, .expected, .seen, .packets] | @tsv' <<< "$output"
	assert_output $'pkey_path\tlid 0x0011\t32770\t65535\t1'
	run rdmadump --errors -r "$FIX/pcap/mad_sa.pcap"
	assert_line --partial "CM REQ comm 0x00001001 IB port 2 qpn 0x000101 psn 8192 len 256 [P_Key mismatch: expected 0x8002]"
}

@test "fabric events: the port state changes of the PortInfo responses and the traps" {
	run rdmadump -q -j -r "$FIX/pcap/mad_smp.pcap"
	assert_success
	run jq -r '.summary.mad.fabric_events[] | [.what, .trap_number // .lid, .old_state_name // .issuer_lid, .new_state_name // .lid] | @tsv' <<< "$output"
	# the generator: a Get (DOWN), Set ARMED, Set ACTIVE of lid 5 port 1; trap 128 from the
	# switch (lid 2) about itself, trap 257 from lid 9 (lid1 9)
	assert_output $'port_state\t5\tDOWN\tARMED\nport_state\t5\tARMED\tACTIVE\ntrap\t128\t2\t2\ntrap\t257\t9\t9'
}

@test "Q_Key and P_Key mismatches name both values and count the packets" {
	run rdmadump -q -j -r "$FIX/pcap/mad_cm_lap_sidr.pcap"
	assert_success
	run jq -r '.summary.mad.key_mismatches[] | [.what, .destqp, .expected, .seen, .packets] | @tsv' <<< "$output"
	assert_output $'pkey_req\t513\t32769\t65535\t1\nqkey_sidr\t768\t286331153\t572662306\t1'
	# the packets that carried them are --errors lines, and nothing else of that capture is
	run rdmadump --errors -r "$FIX/pcap/mad_cm_lap_sidr.pcap"
	assert_success
	assert_line --index 0 --partial "RC_SEND_ONLY qp 0x000201 psn 257 A len 64 [P_Key mismatch: expected 0x8001]"
	assert_line --index 1 --partial "qkey 0x22222222 srcqp 0x000301 len 6 [Q_Key mismatch: the SIDR_REP gave 0x11111111]"
	[ "${#lines[@]}" -eq 2 ]
}

@test "--errors: a retry 2.3 s after its send is '+2.3s', plain decimal, no exponent" {
	TMP=$(mktemp -d)
	# mad_perf.pcap with its last frame (the PortCounters resend, 500 ms after the send) moved
	# 1.8 s later
	python3 - "$FIX/pcap/mad_perf.pcap" "$TMP/late.pcap" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
e = '<' if d[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
frac = 10**9 if d[:4] in (b'\x4d\x3c\xb2\xa1', b'\xa1\xb2\x3c\x4d') else 10**6
off, last = 24, 24
while off < len(d):
    last = off
    off += 16 + struct.unpack_from(e + 'I', d, off + 8)[0]
s, f = struct.unpack_from(e + 'II', d, last)
t = s * frac + f + 18 * frac // 10
struct.pack_into(e + 'II', d, last, t // frac, t % frac)
open(sys.argv[2], 'wb').write(d)
PY
	run rdmadump --errors -r "$TMP/late.pcap"
	rm -rf "$TMP"
	assert_success
	assert_line --index 1 --partial "PortCounters len 256 [MAD retry +2.3s]"
	assert_line --index 2 "MAD unanswered: lid 0x0001 > lid 0x000d PERF Get PortCounters tid 0x0000504d0000000a: sent 2 time(s), every 2.3s, no response"
}

@test "--errors: MAD retries and error statuses per packet, the unanswered requests after them" {
	run rdmadump --errors -r "$FIX/pcap/mad_perf.pcap"
	assert_success
	assert_line --index 0 --partial "PortRcvErrorDetails status 0x000c METHOD_ATTR_UNSUPPORTED len 256 [MAD error status]"
	assert_line --index 1 --partial "PortCounters len 256 [MAD retry +500ms]"
	assert_line --index 2 "MAD unanswered: lid 0x0001 > lid 0x000d PERF Get PortCounters tid 0x0000504d0000000a: sent 2 time(s), every 500ms, no response"
	run rdmadump -j --errors -r "$FIX/pcap/mad_perf.pcap"
	run jq -r 'select(.mad_unanswered) | .mad_unanswered | [.tid, .sends, .retry_gap_min_ns] | @tsv' <<< "$output"
	assert_output $'0x0000504d0000000a\t2\t500000000'
	# they are findings: --fail-on-errors exits 1; a capture with none exits 0
	run rdmadump -q --fail-on-errors -r "$FIX/pcap/mad_perf.pcap"
	assert_failure 1
	run rdmadump -q --fail-on-errors -r "$FIX/pcap/ib_local.pcap"
	assert_success
}

@test "a capture without MADs has no mad object in its summary" {
	run rdmadump -q -j -r "$FIX/pcap/rc_ops.pcap"
	assert_success
	run jq -r '.summary | has("mad")' <<< "$output"
	assert_output false
}
