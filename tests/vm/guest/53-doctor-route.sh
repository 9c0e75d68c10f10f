# vm-timeout: 60
# rdmadoctor, routing and neighbour faults: (a) a destination with no route: bound to veth0
# the kernel assumes it on-link, ARP goes unanswered, ADDR_ERROR -110; the verdict names the
# missing route.  (b) a route via a gateway that does not exist (blackholed next hop):
# ADDR_ERROR -110, the verdict names the neighbour and its INCOMPLETE/FAILED state.
J=$OUT/53-doctor-route
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
vars() {
	jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	addr=\(.steps[] | select(.name == "resolve_addr") | "\(.event) \(.status) \(.status_str)")
	plain=\([.verdict.evidence[] | select(test("RTM_GETROUTE 203.0.113.9 from 198.18.0.1: ENETUNREACH"))] | length)
	route=\(.findings[] | select(.check == "route") | .summary)"' "$1"
}

rdmadoctor -j connect 203.0.113.9 --src "$A" --timeout 2000 > "$J-noroute.json" 2> "$J.err"
st=$?
cat "$J-noroute.json" "$J.err" >&2
eval "$(vars "$J-noroute.json")"
tap_eq "no route: exit 1" 1 "$st"
tap_eq "no route: verdict cause no_route" no_route "$cause"
tap_eq "no route: resolve_addr ended in ADDR_ERROR -110, decoded" \
	"ADDR_ERROR -110 -110 ETIMEDOUT (Connection timed out)" "$addr"
tap_check "no route: the evidence shows the failed plain route lookup" [ "$plain" -ge 1 ]

ip route add 203.0.113.0/24 via 198.18.0.99 dev "$NET0"
rdmadoctor -j connect 203.0.113.9 --src "$A" --timeout 2000 > "$J-gw.json" 2> "$J.err"
st=$?
cat "$J-gw.json" "$J.err" >&2
eval "$(vars "$J-gw.json")"
tap_eq "dead gateway: exit 1" 1 "$st"
tap_eq "dead gateway: verdict cause neighbour_unresolved" neighbour_unresolved "$cause"
tap_eq "dead gateway: resolve_addr ended in ADDR_ERROR -110, decoded" \
	"ADDR_ERROR -110 -110 ETIMEDOUT (Connection timed out)" "$addr"
tap_check "dead gateway: the route check found gateway 198.18.0.99" eval '[[ $route == *"gateway 198.18.0.99"* ]]'
tap_check "dead gateway: the verdict names 198.18.0.99 and its INCOMPLETE/FAILED entry" \
	eval '[[ $sentence =~ 198.18.0.99.*(INCOMPLETE|FAILED) ]]'
ip route del 203.0.113.0/24
ip neigh del 198.18.0.99 dev "$NET0" 2>/dev/null
ip neigh del 203.0.113.9 dev "$NET0" 2>/dev/null
tap_eq "the test route is gone" "" "$(ip route show 203.0.113.0/24)"
