# Host side of guest/50-doctor-ok.sh: the working connection, judged from the saved JSON.
cd "$VM_OUT" || exit 2
J=50-doctor-ok.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '
	def cm($n): [.counters[] | select(.dev == "rxe0" and .port == 1 and .name == $n) | .delta] | add // 0;
	@sh "cause=\(.verdict.cause) vok=\(.verdict.ok) names=\([.steps[].name] | join(" "))
	allok=\([.steps[].ok] | all) ntimed=\([.steps[] | select((.ms | type) == "number" and .ms >= 0)] | length)
	timings=\([.steps[] | "\(.name) \(.ms * 10 | round / 10)"] | join(", "))
	events=\([.steps[] | select(.event) | .event] | join(" ")) addr=\(.steps[1].detail)
	req=\(cm("cm_tx_msgs/req")) rep=\(cm("cm_rx_msgs/rep")) retries=\(cm("cm_tx_retries/req"))
	peer=\("\(.peer.dev) \(.peer.netdev_mtu) \(.peer.path_mtu)")"' "$J")"
tap_eq "verdict cause is ok" ok "$cause"
tap_eq "verdict ok is true" true "$vok"
tap_eq "steps in order" "create_id resolve_addr resolve_route create_qp connect disconnect" "$names"
tap_eq "every step ok" true "$allok"
tap_eq "every step has a timing in ms (>= 0)" 6 "$ntimed"
diag "timings (ms): $timings"
tap_eq "events ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED (clean disconnect)" \
	"ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED" "$events"
tap_check "resolve_addr bound rxe0, the source's device" eval '[[ $addr == *"device rxe0 port 1"* ]]'
tap_check "cm_tx_msgs/req on rxe0 rose (REQ sent): +$req" [ "$req" -ge 1 ]
tap_check "cm_rx_msgs/rep on rxe0 rose (REP received): +$rep" [ "$rep" -ge 1 ]
tap_eq "no REQ retry on a working path" 0 "$retries"
tap_eq "the listener's private data: rxe1, netdev MTU 1500, path MTU 1024" "rxe1 1500 1024" "$peer"

L=50-doctor-listen.json
eval "$(jq -rs '@sh "levents=\([.[].event] | join(" "))
	client=\([.[] | select(.event == "CONNECT_REQUEST") | "\(.client.dev) \(.client.netdev_mtu)"][0])"' "$L")"
tap_eq "the listener reported LISTENING, then REQUEST/ESTABLISHED/DISCONNECTED twice" \
	"LISTENING CONNECT_REQUEST ESTABLISHED DISCONNECTED CONNECT_REQUEST ESTABLISHED DISCONNECTED" "$levents"
tap_eq "the listener saw the client's record (rxe0, MTU 1500)" "rxe0 1500" "$client"
