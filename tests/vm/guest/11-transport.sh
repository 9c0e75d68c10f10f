# vm-timeout: 90
# rdmadump's transport analysis against the kernel's own counters, on a lossy run.
#
# The run: ib_write_bw rxe0 -> rxe1 (RDMA WRITEs, 4 packets per message at MTU 1024) with
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
#       gives out_of_seq_request(rxe1) and duplicate_request(rxe1) exactly.
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
LOSS=${VM_LOSS:-4%}
PCAP=$OUT/11-lossy.pcap

hwc_snap "$DEV0" /tmp/l.b0; hwc_snap "$DEV1" /tmp/l.b1
netem_roce "$NET0" loss "$LOSS" || tap_fail "netem drops $LOSS of RoCE leaving $NET0"
cap_start 11-lossy "$NET1"
log "lossy run"
tap_ok "ib_write_bw rxe0 -> rxe1 (100 x 4 KiB) completes through $LOSS loss" \
	write_bw_pair -n 100 -s 4096
cap_stop 11-lossy
drops=$(netem_drops "$NET0")
netem_clear "$NET0"
hwc_snap "$DEV0" /tmp/l.a0; hwc_snap "$DEV1" /tmp/l.a1
d() { hwc_delta "/tmp/l.b$1" "/tmp/l.a$1" "$2"; }
{
	echo "netem_drops $drops"
	for c in sent_pkts rcvd_pkts out_of_seq_request duplicate_request rcvd_seq_err \
		completer_retry_err retry_exceeded_err ack_deferred; do
		echo "rxe0.$c $(d 0 $c)"; echo "rxe1.$c $(d 1 $c)"
	done
} > "$OUT/11-lossy.counters"
diag "counter deltas: $(tr '\n' ' ' < "$OUT/11-lossy.counters")"
tap_check "netem really dropped RoCE packets ($drops) and tcpdump none ($CAP_DROPPED)" \
	[ "${drops:-0}" -gt 0 ] && [ "$CAP_DROPPED" = 0 ]
tap_check "I4: rxe0 retried (completer_retry_err +$(d 0 completer_retry_err)) and never gave up" \
	[ "$(d 0 completer_retry_err)" -ge 1 ] && [ "$(d 0 retry_exceeded_err)" = 0 ]

if ! have rdmadump; then
	tap_skip "rdmadump's transport analysis vs rxe counters" "tools/rdmadump is not built yet"
	return 0 2>/dev/null || exit 0
fi

log "analysis"
J=/tmp/l.json
rdmadump -j -r "$PCAP" > "$J"
cp "$J" "$OUT/11-lossy.guest.json"
# one jq pass: frames, bad ones, frames from rxe0 and rxe1, NAK-seq frames from rxe1
read -r frames bad from_a from_b naks <<< "$(jq -s -r --arg a "$A" --arg b "$B" '[length,
	(map(select(.icrc.ok != true or .bth == null)) | length),
	(map(select(.src == $a)) | length), (map(select(.src == $b)) | length),
	(map(select(.src == $b and .aeth.kind == "nak" and .aeth.nak == 0)) | length)] | join(" ")' "$J")"
tap_eq "every frame of the lossy capture decodes and its ICRC verifies" "$CAP_PACKETS 0" "$frames $bad"
tap_eq "E1: frames from rxe0 in the capture = rcvd_pkts(rxe1)" "$(d 1 rcvd_pkts)" "$from_a"
tap_eq "E2: frames from rxe0 + netem drops = sent_pkts(rxe0)" "$(d 0 sent_pkts)" "$((from_a + drops))"
tap_eq "E3: frames from rxe1 = sent_pkts(rxe1) = rcvd_pkts(rxe0)" \
	"$(d 1 sent_pkts) $(d 1 sent_pkts)" "$from_b $(d 0 rcvd_pkts)"
tap_eq "E4: NAK PSN-sequence-error frames (rdmadump -j) = out_of_seq_request(rxe1)" \
	"$(d 1 out_of_seq_request)" "$naks"

# E5: rxe1's check_psn replayed over the captured requests.  The expected PSN starts at the
# first request's, unless rxe1's first answer is a NAK for an earlier PSN (the very first
# request was lost).
jq -r --arg a "$A" '[(if .src == $a then "req" else "rsp" end), .bth.psn,
	(.aeth.kind // "-"), (.aeth.nak // "-")] | @tsv' "$J" > /tmp/l.tsv
model=$(awk -F'\t' '
	function diff(a, b) { d = (a - b) % 16777216; if (d >= 8388608) d -= 16777216;
		if (d < -8388608) d += 16777216; return d }
	{ kind[NR] = $1; psn[NR] = $2; ak[NR] = $3; nk[NR] = $4 }
	END {
		for (i = 1; i <= NR; i++) if (kind[i] == "req") { e = psn[i]; break }
		for (i = 1; i <= NR; i++) if (kind[i] == "rsp") {
			if (ak[i] == "nak" && nk[i] == 0 && diff(psn[i], e) < 0) e = psn[i]
			break
		}
		for (i = 1; i <= NR; i++) {
			if (kind[i] != "req") continue
			x = diff(psn[i], e)
			if (x == 0) { e = (e + 1) % 16777216; nak = 0 }
			else if (x > 0) { if (!nak) { oos++; nak = 1 } }
			else dup++
		}
		printf "%d %d\n", oos, dup
	}' /tmp/l.tsv)
tap_eq "E5: replaying rxe1's PSN check on the capture gives its out_of_seq_request and duplicate_request" \
	"$(d 1 out_of_seq_request) $(d 1 duplicate_request)" "$model"
tap_check "I1: rcvd_seq_err(rxe0) $(d 0 rcvd_seq_err) <= NAK-seq frames $naks" \
	[ "$(d 0 rcvd_seq_err)" -le "$naks" ]

# the per-QP summary (rdmadump -S -j -q: one object {"summary": {total, flows, cm}})
rdmadump -S -j -q -r "$PCAP" > /tmp/ls.json
cp /tmp/ls.json "$OUT/11-lossy.summary.json"
read -r s_nak s_gaps s_dup s_ooo <<< "$(jq -r '.summary |
	[([.flows[].naks.PSN_SEQ_ERR // 0] | add), .total.psn_gaps, .total.psn_dup, .total.psn_ooo] |
	join(" ")' /tmp/ls.json)"
diag "rdmadump -S: NAK-seq $s_nak, psn_gaps $s_gaps, psn_dup $s_dup, psn_ooo $s_ooo"
oos=$(d 1 out_of_seq_request)
tap_eq "E4: rdmadump -S NAK PSN-sequence-error count = out_of_seq_request(rxe1)" "$oos" "$s_nak"
tap_check "I3: rdmadump -S saw a PSN gap ($s_gaps) exactly when rxe1 counted out-of-sequence requests ($oos)" \
	[ -n "$s_gaps" ] && [ $(( s_gaps > 0 )) = $(( oos > 0 )) ]
tap_check "I2: rdmadump -S duplicates ($s_dup) >= duplicate_request(rxe1) ($(d 1 duplicate_request))" \
	[ -n "$s_dup" ] && [ "$s_dup" -ge "$(d 1 duplicate_request)" ]
log "done"
