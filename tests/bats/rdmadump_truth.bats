#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump's loss and CM findings against the truth of the wire: what the fixture generator
# wrote (tests/fixtures/pcap/MANIFEST.json) and, independently, what tshark reads from the
# same file.
load helper

GSI="$FIX/pcap/gsi_two_peers.pcap"

# the holes of each UD sender's one PSN sequence, as tshark reads the packets: "gaps missing"
tshark_ud_holes() {
	tshark -r "$1" -Y 'infiniband.bth.opcode == 100' -T fields -e ip.src \
		-e infiniband.deth.srcqp -e infiniband.bth.psn 2> /dev/null |
		python3 -c '
import sys
nxt, gaps, lost = {}, 0, 0
for line in sys.stdin:
    src, qp, psn = line.split()
    psn = int(psn)
    k = (src, qp)
    if k in nxt and psn > nxt[k]:
        gaps += 1
        lost += psn - nxt[k]
    nxt[k] = max(nxt.get(k, 0), psn + 1)
print(gaps, lost)'
}

@test "UD: one PSN sequence per sending QP, all destinations: GSI QP1 to two peers" {
	# the truth: the generator's record of the sender, and tshark's reading of the file
	run jq -r '.captures[] | select(.file == "gsi_two_peers.pcap") |
		.ud_senders["192.0.2.1 qp 0x000001"] | "\(.gap_events) \(.psn_never_seen)"' \
		"$FIX/pcap/MANIFEST.json"
	assert_output "3 4"
	run tshark_ud_holes "$GSI"
	assert_output "3 4"
	# rdmadump: the same, not per destination (which made it 7 gaps, 15 lost)
	run rdmadump -q -j -r "$GSI"
	assert_success
	run jq -r '.summary.total | "\(.psn_gaps) \(.psn_lost)"' <<< "$output"
	assert_output "3 4"
	run rdmadump -q -r "$GSI"
	assert_line --partial "PSN: 4 packets lost in the fabric: 4 first sends in 3 gaps, 0 resends in 0 gaps"
	# which destination the lost sends were for, where a MAD sent again with its TID after
	# the hole shows it: .2 1 (truth 1), .3 2 (truth 3: the lost RTU's TID was not seen
	# before it); never more than the truth
	run rdmadump -q -j -r "$GSI"
	run jq -r '.summary.flows[] | select(.ud_lost_to_dest) | "\(.dst) \(.ud_lost_to_dest)"' <<< "$output"
	assert_output $'192.0.2.2 1\n192.0.2.3 2'
	run jq -r '.captures[] | select(.file == "gsi_two_peers.pcap") |
		.ud_senders["192.0.2.1 qp 0x000001"].lost_to | to_entries[] | "\(.key) \(.value)"' \
		"$FIX/pcap/MANIFEST.json"
	assert_output $'192.0.2.2 1\n192.0.2.3 3'
	run rdmadump -q -r "$GSI"
	assert_line "    lost on their way here: 2 of the UD sender's sends (its one PSN sequence to all destinations: a MAD sent here again with its TID after the hole)"
	# each gap on the packet that shows it, whichever peer that packet goes to
	run rdmadump --errors -r "$GSI"
	assert_success
	# (the destination address, then the note; the last line is the SIDR_REP finding)
	run grep -o '192.0.2.[0-9] UD_SEND_ONLY qp 0x000001 psn [0-9]*\|\[gap: [^]]*\]' <<< "$output"
	assert_output "192.0.2.2 UD_SEND_ONLY qp 0x000001 psn 4
[gap: 2 lost, expected psn 2]
192.0.2.3 UD_SEND_ONLY qp 0x000001 psn 8
[gap: 1 lost, expected psn 7]
192.0.2.3 UD_SEND_ONLY qp 0x000001 psn 10
[gap: 1 lost, expected psn 9]
192.0.2.1 UD_SEND_ONLY qp 0x000001 psn 2"
}

@test "SIDR: the exchanges in -q's CM section; --errors flags a SIDR_REP with a status" {
	# the truth: the SIDR_REP statuses tshark reads (byte 4 of the MAD data)
	run bash -c "tshark -r '$GSI' -Y 'infiniband.mad.attributeid == 0x0018' -T fields \
		-e ip.src -e infiniband.mad.data 2> /dev/null | cut -c1-20"
	assert_output $'192.0.2.2\t0000300100\n192.0.2.3\t0000400101'
	run rdmadump -q -r "$GSI"
	assert_success
	assert_line "CM SIDR exchanges (client > server, request ID, service: the answer):"
	assert_line "  192.0.2.1 > 192.0.2.2 request 0x00003001 UDP:7483: status 0 SUCCESS, qp 0x000041 qkey 0x01234567 (answered in 10us)"
	assert_line "  192.0.2.1 > 192.0.2.3 request 0x00004001 UDP:7484: status 1 UNSUPPORTED: no listener for the service ID (answered in 10us)"
	run rdmadump -q -j -r "$GSI"
	run jq -r '.summary.sidr[] | [.server, .request_id, .status, .status_name] | @tsv' <<< "$output"
	assert_output $'192.0.2.2\t12289\t0\tSUCCESS\n192.0.2.3\t16385\t1\tUNSUPPORTED'
	# --errors: the status-1 answer is a finding, the status-0 one is not
	run rdmadump --errors -r "$GSI"
	assert_line --partial "CM SIDR_REP request_id 0x00004001 UDP port 7484 status 1 qpn 0x000000 len 256 [SIDR_REP status 1 UNSUPPORTED: no listener for the service ID]"
	refute_line --partial "request_id 0x00003001"
	run rdmadump --errors -j -r "$GSI"
	run jq -c 'select(.analysis.sidr_status) | [.n, .analysis.sidr_status, .analysis.sidr_status_name]' <<< "$output"
	assert_output '[14,1,"UNSUPPORTED"]'
	# cm_handshake.pcap's SIDR exchange (status 0) is listed too, and no finding
	run rdmadump -q -r "$FIX/pcap/cm_handshake.pcap"
	assert_line "  192.0.2.1 > 192.0.2.2 request 0x55555555 UDP:7475: status 0 SUCCESS, qp 0x000018 qkey 0x01234567 (answered in 10us)"
}

@test "loss: every send the capture shows lost, first sends and resent packets lost again" {
	local cap="$FIX/pcap/go_back_n_relost.pcap"
	# the truth: what the generator left out, and the forward PSN skips tshark reads in the
	# requester's packets (each packet against the one before it, resends included)
	run jq -r '.captures[] | select(.file == "go_back_n_relost.pcap") | .lost_sends |
		"\(.first) \(.resent)"' "$FIX/pcap/MANIFEST.json"
	assert_output "1 1"
	run bash -c "tshark -r '$cap' -Y 'infiniband.bth.opcode == 10' -T fields \
		-e infiniband.bth.psn 2> /dev/null | awk 'NR > 1 && \$1 > p + 1 { n++; s += \$1 - p - 1 }
		{ p = \$1 } END { print n, s }'"
	assert_output "2 2"
	# rdmadump: both, each named (main counted the first send's only: 1 lost)
	run rdmadump -q -j -r "$cap"
	assert_success
	run jq -r '.summary.total | "\(.lost) \(.psn_lost) \(.psn_gaps) \(.resent_lost_psns) \(.resent_lost_gaps)"' <<< "$output"
	assert_output "2 1 1 1 1"
	run rdmadump -q -r "$cap"
	assert_line --partial "PSN: 2 packets lost in the fabric: 1 first sends in 1 gaps, 1 resends in 1 gaps, 0 not captured (0 PSNs)"
	# the LOST column counts both
	assert_line --regexp '^192\.0\.2\.1 > 192\.0\.2\.2 qp 0x000012 +[0-9]+ +[0-9]+ +1 +2 '
	run rdmadump --errors -r "$cap"
	assert_line --partial "psn 3334 va 0x7f0000011000 rkey 0x00001012 dmalen 64 len 64 [resend gap: 1 resent lost again, from psn 3333] [retry after NAK-seq]"
	# a finding for --fail-on-errors, as a first-send gap is
	run rdmadump -q --fail-on-errors -r "$cap"
	assert_failure 1
}

@test "loss on a real rxe capture: lost = tshark's forward PSN skips <= netem's drops" {
	local cap="$FIX/vm/rxe-lossy-resend.pcap" drops
	drops=$(awk '$1 == "netem_drops" { print $2 }' "$FIX/vm/rxe-lossy-resend.counters")
	# the truth: the PSNs rxe0's sequence skips forward, packet after packet (tshark)
	run bash -c "tshark -n -r '$cap' -Y 'ip.src == 198.18.0.1' -T fields -e infiniband.bth.psn \
		2> /dev/null | awk 'NR > 1 { d = (\$1 - p - 1 + 16777216) % 16777216
			if (d > 0 && d < 8388608) s += d } { p = \$1 } END { print s + 0 }'"
	assert_output 15
	run rdmadump -q -j -r "$cap"
	assert_success
	# 14 first sends and a resent packet lost again; the one resent 74 ms after its gap by
	# the ACK timer is a resend, not a late packet (main said: 13 lost, 1 out of order)
	run jq -r '.summary.total | "\(.lost) \(.psn_lost) \(.resent_lost_psns) \(.psn_ooo)"' <<< "$output"
	assert_output "15 14 1 0"
	[ 15 -le "$drops" ]
}
