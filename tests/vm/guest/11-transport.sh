# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# rdmadump's transport analysis against the kernel's own counters, on a lossy run.  The
# guest makes the run and saves capture, counters and rdmadump's output; host/11-transport.sh
# checks the equalities below (JSON work is ten times faster on the host than under TCG).
#
# The run: ib_write_bw rxe0 -> rxe1 (RDMA WRITEs of 1 KiB, 4 packets each at path MTU 256) with
# netem dropping LOSS of the RoCE packets leaving veth0, i.e. only requests from rxe0 are
# lost; ACKs and NAKs from rxe1 come back untouched.  tcpdump runs on veth1.
#
# Why veth1: netem drops before the packet tap of veth0 (the tap sits after the qdisc), and
# veth delivers whatever leaves veth0 to veth1, so the capture on veth1 holds
#   - exactly the packets rxe1 received, in the order rxe1 processed them, and
#   - every packet rxe1 sent (nothing is dropped on that side).
# Hence these hold exactly (deltas over the run, rxe0 = requester, rxe1 = responder):
#   E1  frames from rxe0 in the capture          = rcvd_pkts(rxe1)
#   E2  frames from rxe0 + netem's drop count    = sent_pkts(rxe0)
#   E3  frames from rxe1                         = sent_pkts(rxe1) = rcvd_pkts(rxe0)
#   E4  NAK "PSN sequence error" frames          = out_of_seq_request(rxe1)
#       rxe's responder sends one NAK each time it counts an out-of-sequence request, and
#       stays silent (no count) for the following ones until the expected PSN arrives.
#   E5  replaying rxe1's PSN check over the captured requests (expected PSN, NAK-sent flag)
#       gives out_of_seq_request(rxe1) and duplicate_request(rxe1) exactly.  This needs the
#       capture order to be rxe1's processing order: true with one vCPU (boot.sh); with two,
#       packets sitting in two per-CPU backlogs can pass the tap and rxe in different orders.
# And these only as inequalities, with the reason:
#   I1  rcvd_seq_err(rxe0) <= NAK-seq frames: the requester counts a NAK only when its PSN
#       is beyond the oldest unacknowledged one (a NAK for that very PSN is not counted).
#   I2  rdmadump's duplicates >= duplicate_request(rxe1): rxe1 counts as duplicate only a
#       PSN it had accepted before, which the capture saw; rdmadump also counts the resent
#       copies of packets rxe1 had thrown away as out of sequence (it cannot know that).
#   I3  rdmadump saw a PSN gap <=> out_of_seq_request(rxe1) > 0: the first packet past a
#       loss is both the first jump forward and rxe1's first out-of-sequence request.
#   I4  netem dropped packets and the transfer completed => completer_retry_err(rxe0) >= 1
#       (rxe resends only in a retry), and retry_exceeded_err(rxe0) = 0.
#   I5  rdmadump's go-back retries (psn_goback: a request PSN behind the previous one) <=
#       completer_retry_err(rxe0): rxe sends PSNs in order except when it retries (each retry
#       resends from the oldest unacknowledged PSN, behind the last one sent), netem neither
#       reorders nor duplicates, and no RNR NAK occurs here (WRITEs need no receive).
#   I6  go-back retries >= completer_retry_err(rxe0) - (netem drops - psn_lost): a retry is
#       hidden from the capture only when netem also drops every resent packet up to the last
#       PSN the capture had seen, or the retry resends a packet whose first copy was the last
#       one sent and was dropped; either way it takes a drop that no forward gap counted.
#       (Over the runs so far the two were equal; E-level equality is not guaranteed.)
# And rdmadump's classification of loss and resends (issue 13), checked on the host:
#   L1  every gap is lost in the fabric, none "not captured": not_captured_gaps = 0.  tcpdump
#       dropped nothing, and by E1 the capture holds every request rxe1 received, so no PSN
#       rxe1 acknowledged can be missing from it; psn_gaps > 0 <=> out_of_seq_request(rxe1) > 0
#       is I3.
#   L2  no RNR retry: retries.rnr = 0 = rcvd_rnr_err(rxe0) = send_rnr_err(rxe1) (WRITEs
#       consume no receive WQE, so rxe1 never sends an RNR NAK).
#   L3  no duplicate: duplicates = 0.  netem neither duplicates nor reorders, and rxe0 resends
#       a PSN only in a retry, started by a NAK rdmadump sees or by its ACK timer (67 ms for
#       ib_write_bw's timeout 14, far above the 8.192 us under which a resend is taken for a
#       duplicate).
#   L4  every resend has one cause: retries.nak_seq + retries.timeout + duplicates =
#       psn_retx + psn_dup, and a NAK-started retry needs a NAK-seq in the capture
#       (retries.nak_seq > 0 => NAK-seq frames > 0).  rxe counts NAK- and timeout-started
#       retries in one counter, completer_retry_err, so only their sum is bounded by it (I5,
#       on psn_goback, which now leaves RNR retries out).
#   L5  rdmadump's lost (first sends' psn_lost + resent_lost_psns, issue 28) = the PSNs the
#       requester's sequence skips forward in the capture, packet after packet (tshark's PSNs,
#       resend runs included): every drop the capture can show is counted, not only the
#       first sends' ones.
#   L6  lost <= netem's drops: a drop shows only as a skip; one hidden behind a go-back (the
#       last packet before a retry) or at the end of the run shows nowhere.
LOSS=${VM_LOSS:-5%}	# P(no drop at all in ~180 packets) = 0.95^180, about 1e-4
PCAP=$OUT/11-lossy.pcap

hwc_snap "$DEV0" /tmp/l.b0; hwc_snap "$DEV1" /tmp/l.b1
netem_roce "$NET0" loss "$LOSS" || tap_fail "netem drops $LOSS of RoCE leaving $NET0"
cap_start 11-lossy "$NET1"
log "lossy run"
# small frames (314 B) and few of them: quick, and the capture stays small enough to keep
# as a fixture (tests/fixtures/vm/rxe-lossy-write.pcap came from this run)
tap_ok "ib_write_bw rxe0 -> rxe1 (40 x 1 KiB at MTU 256, 8 in flight) completes through $LOSS loss" \
	write_bw_pair -n 40 -s 1024 -m 256 -t 8
cap_stop 11-lossy
drops=$(netem_drops "$NET0")
netem_clear "$NET0"
hwc_snap "$DEV0" /tmp/l.a0; hwc_snap "$DEV1" /tmp/l.a1
d() { hwc_delta "/tmp/l.b$1" "/tmp/l.a$1" "$2"; }
{
	echo "netem_drops $drops"
	for c in sent_pkts rcvd_pkts out_of_seq_request duplicate_request rcvd_seq_err \
		completer_retry_err retry_exceeded_err ack_deferred rcvd_rnr_err send_rnr_err; do
		echo "rxe0.$c $(d 0 $c)"; echo "rxe1.$c $(d 1 $c)"
	done
} > "$OUT/11-lossy.counters"
diag "counter deltas: $(tr '\n' ' ' < "$OUT/11-lossy.counters")"
tap_check "netem really dropped RoCE packets ($drops) and tcpdump none ($CAP_DROPPED of $CAP_PACKETS)" \
	[ "${drops:-0}" -gt 0 ] && [ "$CAP_DROPPED" = 0 ]
echo "capture_frames $CAP_PACKETS" >> "$OUT/11-lossy.counters"
tap_check "I4: rxe0 retried (completer_retry_err +$(d 0 completer_retry_err)) and never gave up" \
	[ "$(d 0 completer_retry_err)" -ge 1 ] && [ "$(d 0 retry_exceeded_err)" = 0 ]

if have rdmadump; then
	tap_ok "rdmadump -j -r and -S -j -q read the lossy capture in the guest (exit 0)" \
		sh -c 'rdmadump -j -r "$1" > /tmp/l.json && rdmadump -S -j -q -r "$1" > /tmp/ls.json' - "$PCAP"
	cp /tmp/l.json "$OUT/11-lossy.guest.json"
	cp /tmp/ls.json "$OUT/11-lossy.summary.json"
fi
log "done"
