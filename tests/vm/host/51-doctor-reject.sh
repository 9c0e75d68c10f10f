# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
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
# the same failure as text (-p ib against a TCP listener)
T=51-doctor-ps.txt
tap_check "text: the header names the IB port space" grep -q "^connect 198.18.0.2 port 7471 from 198.18.0.1 (port space IB, timeout 2000 ms, resolve 2000 ms)" "$T"
tap_check "text: without -v no passed check is listed" grep -q "^  no warnings or problems (-v shows every check)" "$T"
tap_check "text: -p ib against a TCP listener: connect FAILED, REJECTED reason 8 named" \
	grep -qE "^  connect +FAILED +[0-9.]+ ms  REJECTED, status reject reason 8 INVALID_SERVICE_ID" "$T"
tap_check "text: the verdict line names the cause" grep -q "^verdict: PROBLEM \[layer cm\] cause=no_listener" "$T"
tap_check "text: the verdict names the IB port space" grep -q "^  REJECTED with reason 8 (INVALID_SERVICE_ID): nothing listens on 198.18.0.2 port 7471 in the IB port space" "$T"
tap_check "text: the next step" grep -q "^  next: start the server on 198.18.0.2 port 7471" "$T"
