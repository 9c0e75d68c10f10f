# vm-timeout: 60
# rdmadoctor, no listener: REJECTED with IB CM reason 8 (INVALID_SERVICE_ID) named, verdict
# cause no_listener naming the port; the same for a listener in another port space (--ps ib
# against a TCP listener).  cm_rx_msgs/rej counts the REJ.
J=$OUT/51-doctor-reject
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }

rdmadoctor -j connect "$B:7499" --src "$A" --timeout 2000 > "$J.json" 2> "$J.err"
st=$?
cat "$J.json" "$J.err" >&2
eval "$(jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	ev=\(.steps[] | select(.name == "connect") | "\(.event) \(.status)")
	stx=\(.steps[] | select(.name == "connect") | .status_str)
	rej=\([.counters[] | select(.dev == "rxe0" and .name == "cm_rx_msgs/rej") | .delta] | add // 0)"' "$J.json")"
tap_eq "connect to a port nobody listens on exits 1" 1 "$st"
tap_eq "verdict cause no_listener" no_listener "$cause"
tap_eq "connect step: REJECTED status 8" "REJECTED 8" "$ev"
tap_eq "reason 8 is named" "reject reason 8 INVALID_SERVICE_ID" "$stx"
tap_check "the verdict names the missing listener, address and port" \
	eval '[[ $sentence == *"nothing listens on 198.18.0.2 port 7499 in the TCP port space"* ]]'
tap_check "cm_rx_msgs/rej on rxe0 rose: +$rej" [ "$rej" -ge 1 ]

# a TCP-space listener does not match an IB-space REQ: the service ID differs
rdmadoctor listen "$B:7471" > "$J-listen.txt" 2>&1 &
lp=$!
wait_cm_listen 7471
rdmadoctor -j connect "$B:7471" --src "$A" --ps ib --timeout 2000 > "$J-ps.json" 2> "$J-ps.err"
st=$?
kill $lp 2>/dev/null; wait $lp 2>/dev/null
cat "$J-ps.json" "$J-ps.err" "$J-listen.txt" >&2
eval "$(jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)"' "$J-ps.json")"
tap_eq "--ps ib against a TCP listener exits 1" 1 "$st"
tap_eq "--ps ib against a TCP listener: cause no_listener" no_listener "$cause"
tap_check "the verdict names the IB port space" eval '[[ $sentence == *"in the IB port space"* ]]'
tap_eq "no cm_id left behind" "" "$(rdma res show cm_id 2>/dev/null)"
