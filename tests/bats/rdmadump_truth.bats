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
	assert_line --partial "PSN: 3 gaps (4 lost in the fabric)"
	# each gap on the packet that shows it, whichever peer that packet goes to
	run rdmadump --errors -r "$GSI"
	assert_success
	# (the destination address, then the note)
	run grep -o '192.0.2.[0-9] UD_SEND_ONLY qp 0x000001 psn [0-9]*\|\[gap: [^]]*\]' <<< "$output"
	assert_output "192.0.2.2 UD_SEND_ONLY qp 0x000001 psn 4
[gap: 2 lost, expected psn 2]
192.0.2.3 UD_SEND_ONLY qp 0x000001 psn 8
[gap: 1 lost, expected psn 7]
192.0.2.3 UD_SEND_ONLY qp 0x000001 psn 10
[gap: 1 lost, expected psn 9]"
}
