# Host side of pair/50-doctor-pair.sh: the clean pair, judged from what both guests saved.
S=$PAIR_SERVER C=$PAIR_CLIENT
J=$C/50-pair-ok.json
[ -s "$J" ] || { tap_fail "the client guest saved 50-pair-ok.json"; exit 0; }
eval "$(jq -r '@sh "cause=\(.verdict.cause) events=\([.steps[] | select(.event) | .event] | join(" "))
	addr=\(.steps[1].detail) peer=\("\(.peer.dev) \(.peer.netdev_mtu)")"' "$J")"
tap_eq "verdict cause is ok" ok "$cause"
tap_eq "ESTABLISHED then DISCONNECTED across the two guests" \
	"ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED" "$events"
tap_check "resolve_addr bound the client's rxe0 ($addr)" eval '[[ $addr == *"device rxe0 port 1"* ]]'
tap_eq "the listener's record: rxe0 on the server, netdev MTU 1500" "rxe0 1500" "$peer"
T=$C/50-pair-name.txt
tap_check "a host name: the header names pair-server and its address" \
	grep -q "^connect pair-server (198.18.1.1) port 7471 " "$T"
tap_check "a host name: verdict OK" grep -q "^verdict: OK .*cause=ok" "$T"
L=$S/50-pair-listen.json
tap_eq "the listener saw two connections from the client guest (198.18.1.2)" "2" \
	"$(jq -rs '[.[] | select(.event == "CONNECT_REQUEST")] | length' "$L")"
