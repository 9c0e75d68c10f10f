# Host side of guest/51-doctor-reject.sh: REJECTED reason 8, named, and the verdict.
cd "$VM_OUT" || exit 2
J=51-doctor-reject.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)
	ev=\(.steps[] | select(.name == "connect") | "\(.event) \(.status)")
	stx=\(.steps[] | select(.name == "connect") | .status_str)
	rej=\([.counters[] | select(.dev == "rxe0" and .name == "cm_rx_msgs/rej") | .delta] | add // 0)"' "$J")"
tap_eq "verdict cause no_listener" no_listener "$cause"
tap_eq "verdict layer cm" cm "$layer"
tap_eq "connect step: REJECTED status 8" "REJECTED 8" "$ev"
tap_eq "reason 8 is named" "reject reason 8 INVALID_SERVICE_ID" "$stx"
tap_check "the verdict names the missing listener, address and port" \
	eval '[[ $sentence == *"nothing listens on 198.18.0.2 port 7499 in the TCP port space"* ]]'
tap_check "cm_rx_msgs/rej on rxe0 rose: +$rej" [ "$rej" -ge 1 ]
J=51-doctor-ps.json
eval "$(jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	ev=\(.steps[] | select(.name == "connect") | "\(.event) \(.status)")"' "$J")"
tap_eq "--ps ib against a TCP listener: REJECTED 8" "REJECTED 8" "$ev"
tap_eq "--ps ib against a TCP listener: cause no_listener" no_listener "$cause"
tap_check "the verdict names the IB port space" eval '[[ $sentence == *"in the IB port space"* ]]'
