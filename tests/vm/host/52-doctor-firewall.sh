# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/52-doctor-firewall.sh: a timeout blamed on the nft rule it found.
cd "$VM_OUT" || exit 2
J=52-doctor-fw.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '
	def cm($n): [.counters[] | select(.dev == "rxe0" and .port == 1 and .name == $n) | .delta] | add // 0;
	@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)
	to=\(.steps[] | select(.name == "connect") | "\(.timed_out) \(.errno) \(.event)")
	detail=\(.steps[] | select(.name == "connect") | .detail) tmo=\(.timeout_ms)
	retries=\(cm("cm_tx_retries/req")) rep=\(cm("cm_rx_msgs/rep")) req=\(cm("cm_tx_msgs/req"))
	rule=\([.verdict.evidence[] | select(test("rdiag_test input handle [0-9]+: udp dport 4791 .*drop"))] | length)
	fw=\(.findings[] | select(.check == "firewall") | "\(.level) \(.cause)")"' "$J")"
diag "CM counters of rxe0 over the attempt: REQ sent +$req, REQ retries +$retries, REP +$rep"
tap_eq "verdict cause firewall_drops_roce" firewall_drops_roce "$cause"
tap_eq "verdict layer firewall" firewall "$layer"
tap_eq "the attempt ran with the default timeout" 8000 "$tmo"
tap_eq "the connect step timed out with ETIMEDOUT (-110) and no rdma_cm event" "true -110 null" "$to"
tap_check "the step says the doctor gave up, not rdma_cm: $detail" \
	eval '[[ $detail == "no REP or REJ within 8000 ms: the doctor gave up (no rdma_cm event; rdma_cm would resend the REQ up to 15 times before UNREACHABLE)" ]]'
tap_check "the verdict says so too" \
	eval '[[ $sentence == "no REP or REJ within 8000 ms of the CM REQ (REQ sent "*"; the doctor gave up waiting (no rdma_cm event: rdma_cm would resend the REQ up to 15 times before UNREACHABLE)" ]]'

tap_check "cm_tx_retries/req rose: +$retries" [ "$retries" -ge 1 ]
tap_eq "no REP came back" 0 "$rep"
tap_check "the verdict's evidence is the rule (table rdiag_test, udp dport 4791 drop)" [ "$rule" -ge 1 ]
tap_eq "the firewall finding is a warning with that cause" "warning firewall_drops_roce" "$fw"
dropped=$(jq '[.nftables[].rule? | select(.) | .expr[] | .counter? | select(.) | .packets] | add' 52-doctor-nft.json)
tap_check "the rule's own counter dropped the REQ and its retries ($dropped packets)" [ "${dropped:-0}" -ge 2 ]
# --ps udp through the same rule: the verdict quotes the SIDR counters, as ib_cm counted them
U=52-doctor-fw-udp.json
if [ -s "$U" ]; then
	eval "$(jq -r '
		def cm($n): [.counters[] | select(.dev == "rxe0" and .port == 1 and .name == $n) | .delta] | add // 0;
		@sh "ucause=\(.verdict.cause) usentence=\(.verdict.sentence)
		udetail=\(.steps[] | select(.name == "connect") | .detail)
		usreq=\(cm("cm_tx_msgs/sidr_req")) usrep=\(cm("cm_rx_msgs/sidr_rep"))"' "$U")"
	ksreq=$(cat 52-doctor-fw-udp.sidr_req)
	diag "--ps udp: SIDR REQ +$usreq (the kernel: +$ksreq), SIDR REP +$usrep; $usentence"
	tap_eq "--ps udp through the firewall: exit 1, cause firewall_drops_roce" \
		"1 firewall_drops_roce" "$(cat 52-doctor-fw-udp.json.rc) $ucause"
	tap_check "the kernel counted SIDR REQs (cm_tx_msgs/sidr_req +$ksreq) and the doctor's delta is the same (+$usreq)" \
		eval '[ "$ksreq" -ge 1 ] && [ "$usreq" = "$ksreq" ]'
	tap_check "the verdict quotes them as SIDR REQs, with no SIDR REP: $usentence" \
		eval '[[ $usentence == "no SIDR REP within 3000 ms of the SIDR REQ (SIDR REQ sent $ksreq, retries "*", SIDR REP 0): a firewall rule drops RoCE v2 (UDP 4791); the doctor gave up waiting"* ]]'
	tap_check "the connect step says so: $udetail" \
		eval '[[ $udetail == "no SIDR REP within 3000 ms: the doctor gave up (no rdma_cm event; rdma_cm would resend the SIDR REQ up to 15 times before UNREACHABLE)" ]]'
else
	tap_fail "the guest saved $U"
fi
tap_eq "with the rule removed the same connect works (cause ok)" ok "$(jq -r .verdict.cause 52-doctor-after.json)"
