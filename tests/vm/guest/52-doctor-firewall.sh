# vm-timeout: 90
# rdmadoctor, UDP 4791 dropped by nft on the receiving side (input hook): the REQ never
# arrives, the attempt times out, cm_tx_retries/req rose, and the verdict points at the rule
# it found in 'nft -j list ruleset'.  rdma_cm's REQ retry timing is measured from rxe0's
# sent_pkts while the doctor waits (the CM's own cm_tx_* counters are only updated when the
# MAD send completes, so they cannot show when each retry went out).
J=$OUT/52-doctor-firewall
P=7471
T=${DOC_FW_TIMEOUT:-8000}	# ms; rdma_cm's first REQ retry on rxe comes after several s
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }

rdmadoctor listen "$B:$P" > "$J-listen.txt" 2>&1 &
lp=$!
wait_cm_listen $P
tap_ok "nft drops udp dport 4791 in the input hook" fw_drop_roce input
# bash builtins only in the loop: a fork costs tens of ms under TCG
SP=/sys/class/infiniband/$DEV0/ports/1/hw_counters/sent_pkts
( read -r s0 < $SP; while :; do read -r s < $SP
	[ "$s" != "$s0" ] && { echo "$EPOCHREALTIME $s"; s0=$s; }; read -rt 0.05 <> <(:) || :; done ) > "$J-sends.txt" &
wp=$!
t0=$EPOCHREALTIME
rdmadoctor -j connect "$B:$P" --src "$A" --timeout $T > "$J.json" 2> "$J.err"
st=$?
kill $wp 2>/dev/null; wait $wp 2>/dev/null
cat "$J.json" "$J.err" >&2
diag "rxe0 packets sent while waiting (s after the doctor started): $(awk -v t0=$t0 '{ printf "%s+%.2f", NR > 1 ? ", " : "", $1 - t0 }' "$J-sends.txt")"
eval "$(jq -r '
	def cm($n): [.counters[] | select(.dev == "rxe0" and .port == 1 and .name == $n) | .delta] | add // 0;
	@sh "cause=\(.verdict.cause) layer=\(.verdict.layer)
	to=\(.steps[] | select(.name == "connect") | "\(.timed_out) \(.errno)")
	retries=\(cm("cm_tx_retries/req")) rep=\(cm("cm_rx_msgs/rep")) req=\(cm("cm_tx_msgs/req"))
	rule=\([.verdict.evidence[] | select(test("rdiag_test input handle [0-9]+: udp dport 4791 .*drop"))] | length)
	fw=\(.findings[] | select(.check == "firewall") | "\(.level) \(.cause)")"' "$J.json")"
diag "CM counters after the attempt: REQ sent +$req, REQ retries +$retries"
tap_eq "connect through the firewall exits 1" 1 "$st"
tap_eq "verdict cause firewall_drops_roce" firewall_drops_roce "$cause"
tap_eq "verdict layer firewall" firewall "$layer"
tap_eq "the connect step timed out with ETIMEDOUT (-110)" "true -110" "$to"
tap_check "cm_tx_retries/req rose: +$retries" [ "$retries" -ge 1 ]
tap_eq "no REP came back" 0 "$rep"
tap_check "the verdict's evidence is the rule (table rdiag_test, udp dport 4791 drop)" [ "$rule" -ge 1 ]
tap_eq "the firewall finding is a warning with that cause" "warning firewall_drops_roce" "$fw"
dropped=$(nft -j list table inet rdiag_test | jq '[.nftables[].rule? | select(.) | .expr[] | .counter? | select(.) | .packets] | add')
tap_check "the rule's counter dropped the REQ and its retries ($dropped packets)" [ "${dropped:-0}" -ge 2 ]

fw_clear
rdmadoctor -j connect "$B:$P" --src "$A" --timeout 2000 > "$J-after.json" 2>&1
tap_eq "with the rule removed the same connect works (cause ok)" ok "$(jq -r .verdict.cause "$J-after.json")"
kill $lp 2>/dev/null; wait $lp 2>/dev/null
