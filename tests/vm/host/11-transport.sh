# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/11-transport.sh: rdmadump's transport analysis of the lossy run against
# rxe's own counter deltas over the same window.  The equalities, and why each holds given
# the capture point (tcpdump on veth1, netem loss on veth0's egress only), are spelled out at
# the top of guest/11-transport.sh; E1..E5 are exact, I1..I6 inequalities.
# Inputs in $VM_OUT: 11-lossy.pcap, 11-lossy.counters ("name delta" lines, netem_drops,
# capture_frames), 11-lossy.guest.json (rdmadump -j -r), 11-lossy.summary.json (-S -j -q).
cd "$VM_OUT" || exit 2
C=11-lossy.counters
J=11-lossy.guest.json
S=11-lossy.summary.json
[ -s "$C" ] || { tap_fail "the guest saved the lossy run's counters ($C)"; exit 0; }
d() { awk -v k="$1" '$1 == k { print $2 }' "$C"; }
drops=$(d netem_drops)

if [ -s "$J" ]; then
	read -r frames bad from_a from_b naks <<< "$(jq -s -r --arg a "$A" --arg b "$B" '[length,
		(map(select(.icrc.ok != true or .bth == null)) | length),
		(map(select(.src == $a)) | length), (map(select(.src == $b)) | length),
		(map(select(.src == $b and .aeth.kind == "nak" and .aeth.nak == 0)) | length)] |
		join(" ")' "$J")"
	tap_eq "every frame of the lossy capture decodes and its ICRC verifies" "$(d capture_frames) 0" "$frames $bad"
	tap_eq "E1: frames from rxe0 in the capture = rcvd_pkts(rxe1)" "$(d rxe1.rcvd_pkts)" "$from_a"
	tap_eq "E2: frames from rxe0 + netem drops ($drops) = sent_pkts(rxe0)" "$(d rxe0.sent_pkts)" \
		"$((from_a + drops))"
	tap_eq "E3: frames from rxe1 = sent_pkts(rxe1) = rcvd_pkts(rxe0)" \
		"$(d rxe1.sent_pkts) $(d rxe1.sent_pkts)" "$from_b $(d rxe0.rcvd_pkts)"
	tap_eq "E4: NAK PSN-sequence-error frames in -j = out_of_seq_request(rxe1)" \
		"$(d rxe1.out_of_seq_request)" "$naks"
	tap_check "I1: rcvd_seq_err(rxe0) $(d rxe0.rcvd_seq_err) <= NAK-seq frames $naks" \
		[ "$(d rxe0.rcvd_seq_err)" -le "$naks" ]
else
	tap_fail "the guest's rdmadump wrote $J"
fi

# E5: rxe1's check_psn replayed over the captured requests (PSN, direction and AETH from
# DECODER), giving its out_of_seq_request and duplicate_request.  The expected PSN starts at
# the first request's, unless rxe1's first answer is a NAK-seq for an earlier PSN (the very
# first request was lost).  Input lines: "req|rsp PSN NAKSEQ(0|1)".
replay_resp() {
	awk '
	function diff(a, b) { x = (a - b) % 16777216; if (x >= 8388608) x -= 16777216;
		if (x < -8388608) x += 16777216; return x }
	{ kind[NR] = $1; psn[NR] = $2; nakseq[NR] = $3 }
	END {
		for (i = 1; i <= NR; i++) if (kind[i] == "req") { e = psn[i]; break }
		for (i = 1; i <= NR; i++) if (kind[i] == "rsp") {
			if (nakseq[i] && diff(psn[i], e) < 0) e = psn[i]
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
	}'
}
want="$(d rxe1.out_of_seq_request) $(d rxe1.duplicate_request)"
if [ -s "$J" ]; then
	tap_eq "E5: replaying rxe1's PSN check on rdmadump's PSNs gives out_of_seq_request, duplicate_request" \
		"$want" "$(jq -r --arg a "$A" '[(if .src == $a then "req" else "rsp" end), .bth.psn,
			(if .aeth.kind == "nak" and .aeth.nak == 0 then 1 else 0 end)] | @tsv' "$J" |
			replay_resp)"
fi
# the same with tshark's decode, independent of rdmadump (AETH syndrome 0x60: NAK code 0)
if command -v tshark > /dev/null && [ -s 11-lossy.pcap ]; then
	tap_eq "E5: replaying rxe1's PSN check on tshark's PSNs gives out_of_seq_request, duplicate_request" \
		"$want" "$(tshark -n -r 11-lossy.pcap -T fields -e ip.src -e infiniband.bth.psn \
			-e infiniband.aeth.syndrome 2>/dev/null |
			awk -v a="$A" '{ print ($1 == a ? "req" : "rsp"), $2, ($3 == 96) }' | replay_resp)"
fi

# rdmadump -S: {"summary": {total, flows[], cm[]}}; NAKs by name per flow
if [ -s "$S" ]; then
	read -r s_nak s_gaps s_dup s_ooo s_back s_lost <<< "$(jq -r '.summary |
		[([.flows[].naks.PSN_SEQ_ERR // 0] | add), .total.psn_gaps, .total.psn_dup,
		 .total.psn_ooo, .total.psn_goback, .total.psn_lost] | join(" ")' "$S")"
	diag "rdmadump -S: NAK-seq $s_nak, psn_gaps $s_gaps, psn_dup $s_dup, psn_ooo $s_ooo, go-back $s_back;" \
		"rxe1 out_of_seq_request $(d rxe1.out_of_seq_request) duplicate_request $(d rxe1.duplicate_request)," \
		"rxe0 rcvd_seq_err $(d rxe0.rcvd_seq_err) completer_retry_err $(d rxe0.completer_retry_err), netem drops $drops"
	oos=$(d rxe1.out_of_seq_request)
	tap_eq "E4: rdmadump -S NAK PSN-sequence-error count = out_of_seq_request(rxe1)" "$oos" "$s_nak"
	tap_check "I3: rdmadump -S saw a PSN gap ($s_gaps) exactly when rxe1 counted out-of-sequence requests ($oos)" \
		[ -n "$s_gaps" ] && [ $((s_gaps > 0)) = $((oos > 0)) ]
	tap_check "I2: rdmadump -S duplicates ($s_dup) >= duplicate_request(rxe1) ($(d rxe1.duplicate_request))" \
		[ -n "$s_dup" ] && [ "$s_dup" -ge "$(d rxe1.duplicate_request)" ]
	retries=$(d rxe0.completer_retry_err)
	tap_check "I5: rdmadump -S go-back retries ($s_back) <= completer_retry_err(rxe0) ($retries)" \
		[ -n "$s_back" ] && [ "$s_back" -le "$retries" ]
	tap_check "I6: go-back retries ($s_back) >= completer_retry_err(rxe0) - (netem drops - PSNs lost in gaps) ($retries - ($drops - $s_lost))" \
		[ -n "$s_back" ] && [ "$s_back" -ge $((retries - (drops - s_lost))) ]
	# issue 13: the classification of loss and resends (L1-L4 in guest/11-transport.sh)
	read -r l_ncap l_rnr l_nak l_to l_dups l_retx <<< "$(jq -r '.summary.total |
		[.not_captured_gaps, .retries.rnr, .retries.nak_seq, .retries.timeout, .duplicates,
		 .psn_retx] | join(" ")' "$S")"
	diag "rdmadump -S: not_captured_gaps $l_ncap, retries nak_seq $l_nak rnr $l_rnr timeout $l_to, duplicates $l_dups, psn_retx $l_retx"
	tap_eq "L1: every gap is lost in the fabric, none only missed by the capture (not_captured_gaps)" 0 "$l_ncap"
	tap_eq "L2: no RNR retry: retries.rnr = rcvd_rnr_err(rxe0) = send_rnr_err(rxe1) = 0" \
		"0 0 0" "$l_rnr $(d rxe0.rcvd_rnr_err) $(d rxe1.send_rnr_err)"
	tap_eq "L3: no duplicate (netem does not duplicate; rxe resends only in a retry)" 0 "$l_dups"
	tap_check "L4: retries by cause ($l_nak + $l_to + $l_dups) = psn_retx + psn_dup ($l_retx + $s_dup); a NAK retry needs a NAK ($s_nak)" \
		[ $((l_nak + l_to + l_dups)) = $((l_retx + s_dup)) ] && { [ "$l_nak" = 0 ] || [ "$s_nak" -gt 0 ]; }
	# issue 28: every loss the capture shows, first sends and resends (L5, L6 in the guest
	# script); tshark's PSNs are the independent truth
	read -r l_all l_first l_resent <<< "$(jq -r '.summary.total |
		[.lost, .psn_lost, .resent_lost_psns] | join(" ")' "$S")"
	diag "rdmadump -S: lost $l_all = first sends $l_first + resends $l_resent; netem drops $drops"
	if command -v tshark > /dev/null && [ -s 11-lossy.pcap ]; then
		skips=$(tshark -n -r 11-lossy.pcap -Y "ip.src == $A" -T fields \
			-e infiniband.bth.psn 2>/dev/null | awk 'NR > 1 {
				d = ($1 - p - 1 + 16777216) % 16777216
				if (d > 0 && d < 8388608) s += d }
			{ p = $1 } END { print s + 0 }')
		tap_eq "L5: rdmadump's lost (first sends + resends) = the PSNs tshark sees rxe0 skip forward" \
			"$skips" "$l_all"
	fi
	tap_check "L6: lost ($l_all = $l_first + $l_resent) <= netem drops ($drops); each is one drop" \
		[ -n "$l_all" ] && [ "$l_all" = $((l_first + l_resent)) ] && [ "$l_all" -le "$drops" ]
else
	tap_fail "the guest's rdmadump wrote $S"
fi

# and field by field against tshark (the bats tier's oracle), host and guest rdmadump
ORACLE=$ROOT/tests/oracle/oracle.sh
if [ -x "$ORACLE" ] && [ -x "$ROOT/tools/rdmadump/rdmadump" ] && [ -s 11-lossy.pcap ]; then
	out=$("$ORACLE" "$VM_OUT/11-lossy.pcap" 2>&1) &&
		tap_pass "host rdmadump -r 11-lossy.pcap: every -j field equals tshark's ($(echo "$out" | tail -1))" ||
		tap_fail "host rdmadump -r 11-lossy.pcap: every -j field equals tshark's" "$(echo "$out" | head -12)"
	if [ -s "$J" ]; then
		g=$(mktemp)
		printf '#!/bin/sh\nexec cat %q\n' "$VM_OUT/$J" > "$g"; chmod +x "$g"
		out=$("$ORACLE" "$VM_OUT/11-lossy.pcap" "$g" 2>&1) &&
			tap_pass "guest rdmadump -r 11-lossy.pcap: every -j field equals tshark's ($(echo "$out" | tail -1))" ||
			tap_fail "guest rdmadump -r 11-lossy.pcap: every -j field equals tshark's" "$(echo "$out" | head -12)"
		rm -f "$g"
	fi
fi
