# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/53-doctor-route.sh: ADDR_ERROR -110 for a missing route and for a dead
# gateway, each blamed on the right thing.
cd "$VM_OUT" || exit 2
[ -s 53-doctor-noroute.json ] || { tap_fail "the guest saved 53-doctor-noroute.json"; exit 0; }
vars() {
	jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	addr=\(.steps[] | select(.name == "resolve_addr") | "\(.event) \(.status) \(.status_str)")
	plain=\([.verdict.evidence[] | select(test("RTM_GETROUTE 198.19.0.9 from 198.18.0.1: ENETUNREACH"))] | length)
	route=\(.findings[] | select(.check == "route") | .summary)
	neigh=\([.findings[] | select(.check == "neighbour")][-1] | "\(.level) \(.subject) \(.hint != null)")"' "$1"
}
eval "$(vars 53-doctor-noroute.json)"
tap_eq "no route: verdict cause no_route" no_route "$cause"
tap_eq "no route: resolve_addr ended in ADDR_ERROR -110, decoded" \
	"ADDR_ERROR -110 -110 ETIMEDOUT (Connection timed out)" "$addr"
tap_check "no route: the evidence shows the failed plain route lookup" [ "$plain" -ge 1 ]
tap_check "no route: the verdict names 198.19.0.9" eval '[[ $sentence == "no route to 198.19.0.9 in the routing table"* ]]'
tap_eq "no route: after the attempt the on-link neighbour 198.19.0.9 is a problem with a hint" \
	"problem 198.19.0.9 true" "$neigh"
eval "$(vars 53-doctor-gw.json)"
tap_eq "dead gateway: verdict cause neighbour_unresolved" neighbour_unresolved "$cause"
tap_eq "dead gateway: resolve_addr ended in ADDR_ERROR -110, decoded" \
	"ADDR_ERROR -110 -110 ETIMEDOUT (Connection timed out)" "$addr"
tap_check "dead gateway: the route check found gateway 198.18.0.99" eval '[[ $route == *"gateway 198.18.0.99"* ]]'
tap_check "dead gateway: the verdict names 198.18.0.99 and its INCOMPLETE/FAILED entry" \
	eval '[[ $sentence =~ 198.18.0.99.*(INCOMPLETE|FAILED) ]]'
tap_eq "dead gateway: the neighbour finding after the attempt (198.18.0.99) has a hint" \
	"problem 198.18.0.99 true" "$neigh"
