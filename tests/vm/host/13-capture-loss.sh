# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/13-capture-loss.sh: rdmadump's loss and retry classification (issue 13)
# against rxe's own counter deltas over the same window.  Inputs in $VM_OUT: 13-drops.pcap,
# 13-rnr.pcap and their .counters ("name delta" lines of rxe0/rxe1, capture_frames,
# capture_dropped).  rdmadump runs here, on the host (JSON work is ten times faster than
# under TCG); the guest's rdmadump reads the same format in 10- and 11-.
#
# 13-drops: tcpdump on veth0 (both directions cross it) with a small ring that stopped being
# read during the pingpong; nothing else drops (veth does not; no netem).  Relations:
#   D0  captured + dropped by tcpdump's ring = sent_pkts(rxe0) + sent_pkts(rxe1): the filter
#       matches every RoCE frame, and a frame either found a ring slot or was counted dropped.
#   D1  the fabric lost nothing: rcvd_pkts of each end = sent_pkts of the other, and
#       out_of_seq_request and rcvd_seq_err are 0 on both (no PSN sequence error, no NAK).
#       Resends may still happen: under TCG an ACK can come later than rxe's ACK timer, which
#       then resends what the responder already has (one run: completer_retry_err(rxe0) 1,
#       duplicate_request(rxe1) 1, one frame more each way).
#   D2  so rdmadump reports no loss in the fabric: psn_gaps = psn_lost = 0, no NAK, no
#       NAK-seq or RNR retry.  (Every request frame the capture lost was acknowledged: the first
#       and the last exchanges were captured whole, so an ACK follows every gap.)  Every resend
#       it does see is a timeout retry or a duplicate, and with nothing lost each resend
#       reaches the responder as a duplicate request: retries.timeout + duplicates <=
#       duplicate_request of both ends (the capture may have dropped some resends too), and
#       a timeout retry seen means rxe counted a retry (completer_retry_err > 0).
#   D3  what the capture lost is not captured: not_captured_psns > 0, equal to the sum over
#       the request flows of (PSN span of the captured requests - distinct PSNs captured),
#       counted here from rdmadump -j's PSNs with plain arithmetic, and <= the frames tcpdump
#       dropped (ACKs are frames too, not PSNs of a request flow).
#   D4  the text summary says it in one line ("capture looks lossy").
#
# 13-rnr: rdmacheck's rnr test (rxe0 requester, rxe1 responder with no receive posted),
# captured whole on veth0.  Relations:
#   N1  RNR NAK frames (rdmadump rnr_naks) = send_rnr_err(rxe1): every RNR NAK rxe1 sends
#       crosses veth0, and the capture dropped none.
#   N2  retries.rnr = rcvd_rnr_err(rxe0) - retry_rnr_exceeded_err(rxe0): rxe0 resends the
#       request once for every RNR NAK it takes, except the one that spends its rnr_retry
#       budget (then the WR completes in error and nothing is resent).
#   N3  no resend here is anything but an RNR retry: nothing was lost (out_of_seq_request(rxe1)
#       = 0, no NAK in the capture) and every frame rxe0 sent is in the capture (frames from
#       rxe0 = sent_pkts(rxe0): first sends plus the N2 retries, nothing else), so
#       retries.nak_seq = retries.timeout = duplicates = psn_goback = 0.
#       completer_retry_err(rxe0) is not compared: in the first run of this script it moved
#       by 2 while the wire held no packet besides the first sends and the RNR retries (rxe's
#       retransmit timer fires while the requester waits out an RNR NAK, and counts a retry
#       whose resend is the RNR retry itself), so it cannot tell timeouts apart here.
#   N4  an RNR retry is no longer a duplicate: psn_dup (every request PSN seen again) =
#       retries.rnr, and --errors marks those packets "[retry after RNR NAK]", never "[dup]".
cd "$VM_OUT" || exit 2
RD=$ROOT/tools/rdmadump/rdmadump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$RD" ] || { tap_skip "13: rdmadump's loss classification" "tools/rdmadump/rdmadump is not built"; exit 0; }

# --- 13-drops ----------------------------------------------------------------------------
C=13-drops.counters
if [ -s "$C" ] && [ -s 13-drops.pcap ]; then
	d() { awk -v k="$1" '$1 == k { print $2 }' "$C"; }
	cap=$(d capture_frames); drop=$(d capture_dropped)
	tap_eq "13-drops D0: captured ($cap) + dropped by tcpdump ($drop) = sent_pkts(rxe0) + sent_pkts(rxe1)" \
		"$(( $(d rxe0.sent_pkts) + $(d rxe1.sent_pkts) ))" "$((cap + drop))"
	tap_eq "13-drops D1: the fabric lost nothing (rcvd = sent the other way; out_of_seq_request, rcvd_seq_err 0)" \
		"$(d rxe0.sent_pkts) $(d rxe1.sent_pkts) 0 0 0 0" \
		"$(d rxe1.rcvd_pkts) $(d rxe0.rcvd_pkts) $(d rxe0.out_of_seq_request) $(d rxe1.out_of_seq_request) $(d rxe0.rcvd_seq_err) $(d rxe1.rcvd_seq_err)"
	"$RD" -S -j -q -r 13-drops.pcap > "$tmp/s.json"
	"$RD" -j -r 13-drops.pcap > "$tmp/p.json"
	tap_eq "13-drops D2: rdmadump -S reports no fabric loss (gaps lost NAKs nak_seq rnr retries)" \
		"0 0 0 0 0" \
		"$(jq -r '.summary.total | [.psn_gaps, .psn_lost, .naks, .retries.nak_seq, .retries.rnr] |
			join(" ")' "$tmp/s.json")"
	read -r to dups <<< "$(jq -r '.summary.total | [.retries.timeout, .duplicates] | join(" ")' "$tmp/s.json")"
	dupreq=$(( $(d rxe0.duplicate_request) + $(d rxe1.duplicate_request) ))
	retr=$(( $(d rxe0.completer_retry_err) + $(d rxe1.completer_retry_err) ))
	tap_check "13-drops D2: resends seen (timeout $to + duplicates $dups) <= duplicate_request of both ($dupreq); a timeout retry seen => completer_retry_err ($retr) > 0" \
		[ $((to + dups)) -le "$dupreq" ] && { [ "$to" = 0 ] || [ "$retr" -gt 0 ]; }
	ncap=$(jq -r '.summary.total.not_captured_psns' "$tmp/s.json")
	# per request flow (source, destination QP; SEND opcodes 0..5 carry the requests here):
	# PSN span - packets, with 24-bit wrap (the span of one run is far below 2^23)
	want=$(jq -r 'select(.bth.opcode <= 5) | [.src, .bth.destqp, .bth.psn] | @tsv' "$tmp/p.json" |
		awk '{ k = $1 " " $2; if (!(k in first)) first[k] = $3
			o = ($3 - first[k] + 16777216) % 16777216; if (!(k in mx) || o > mx[k]) mx[k] = o
			if (!((k " " $3) in seen)) { seen[k " " $3] = 1; n[k]++ } }
		END { s = 0; for (k in n) s += mx[k] + 1 - n[k]; print s }')
	tap_check "13-drops D3: not captured PSNs ($ncap) > 0, = PSN spans - distinct PSNs captured ($want), <= dropped frames ($drop)" \
		[ "$ncap" -gt 0 ] && [ "$ncap" = "$want" ] && [ "$ncap" -le "$drop" ]
	tap_check "13-drops D4: the text summary says the capture looks lossy, with the $ncap PSNs" \
		sh -c '"$1" -q -r 13-drops.pcap | grep -q "^capture looks lossy: the receivers acknowledged $2 PSNs"' - "$RD" "$ncap"
	unset -f d
else
	tap_fail "13-drops: the guest saved 13-drops.pcap and its counters"
fi

# --- 13-rnr ------------------------------------------------------------------------------
C=13-rnr.counters
if [ -s "$C" ] && [ -s 13-rnr.pcap ]; then
	d() { awk -v k="$1" '$1 == k { print $2 }' "$C"; }
	"$RD" -S -j -q -r 13-rnr.pcap > "$tmp/r.json"
	read -r rnr_naks r_rnr r_nak r_to dups goback pdup <<< "$(jq -r '.summary.total |
		[.rnr_naks, .retries.rnr, .retries.nak_seq, .retries.timeout, .duplicates, .psn_goback,
		 .psn_dup] | join(" ")' "$tmp/r.json")"
	diag "rdmadump -S: rnr_naks $rnr_naks retries.rnr $r_rnr nak_seq $r_nak timeout $r_to duplicates $dups psn_goback $goback psn_dup $pdup;" \
		"rxe0 rcvd_rnr_err $(d rxe0.rcvd_rnr_err) retry_rnr_exceeded_err $(d rxe0.retry_rnr_exceeded_err) completer_retry_err $(d rxe0.completer_retry_err); rxe1 send_rnr_err $(d rxe1.send_rnr_err)"
	tap_check "13-rnr: the test made RNR NAKs (send_rnr_err(rxe1) $(d rxe1.send_rnr_err) > 0)" \
		[ "$(d rxe1.send_rnr_err)" -gt 0 ]
	tap_eq "13-rnr N1: RNR NAK frames = send_rnr_err(rxe1)" "$(d rxe1.send_rnr_err)" "$rnr_naks"
	tap_eq "13-rnr N2: RNR retries = rcvd_rnr_err(rxe0) - retry_rnr_exceeded_err(rxe0)" \
		"$(( $(d rxe0.rcvd_rnr_err) - $(d rxe0.retry_rnr_exceeded_err) ))" "$r_rnr"
	from_a=$("$RD" -j -r 13-rnr.pcap | jq -s --arg a "$A" 'map(select(.src == $a)) | length')
	tap_eq "13-rnr N3: no NAK-seq or timeout retry, no duplicate, no go-back, no NAK; every frame rxe0 sent ($(d rxe0.sent_pkts)) captured" \
		"0 0 0 0 0 0 $(d rxe0.sent_pkts)" \
		"$r_nak $r_to $dups $goback $(jq '.summary.total.naks' "$tmp/r.json") $(d rxe1.out_of_seq_request) $from_a"
	tap_check "13-rnr N4: the RNR retries ($r_rnr) are the PSNs seen again ($pdup), marked as such by --errors, none [dup]" \
		sh -c '[ "$2" = "$3" ] && [ "$("$1" --errors -r 13-rnr.pcap | grep -c "\[retry after RNR NAK\]")" = "$2" ] &&
			! "$1" --errors -r 13-rnr.pcap | grep -q "\[dup\]"' - "$RD" "$r_rnr" "$pdup"
	unset -f d
elif [ -s 13-rnr.counters ] || grep -q "13-rnr.*SKIP" tap/13-capture-loss.out 2>/dev/null; then
	tap_skip "13-rnr: RNR retries against the counters" "no capture (rdmacheck not built)"
else
	tap_fail "13-rnr: the guest saved 13-rnr.pcap and its counters"
fi
