# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
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
# the two ends side by side, from the server's side channel; a clean pair differs nowhere
eval "$(jq -r '@sh "fetched=\(.both_ends.fetched) differs=\([.both_ends.rows[] | select(.differs) | .what] | join(","))
	mtu=\([.both_ends.rows[] | select(.what == "netdev MTU") | "\(.here) \(.peer)"][0])
	gidx=\([.both_ends.rows[] | select(.what == "GID index") | "\(.here) \(.peer)"][0])
	npeer=\([.findings[] | select(.check == "peer")] | length)"' "$J")"
tap_eq "the server's description was fetched on its side channel" true "$fetched"
tap_eq "the host row names both guests (here pair-client, peer pair-server)" \
	"pair-client pair-server" "$(jq -r '.both_ends.rows[] | select(.what == "host") | "\(.here) \(.peer)"' "$J")"
tap_eq "a clean pair: no row of the two ends differs" "" "$differs"
tap_eq "no peer finding on a clean pair" 0 "$npeer"
# independent truth: each guest's own ip link and GID table (sysfs), saved by the guest
tap_eq "netdev MTU row = ip link of each guest" \
	"$(jq -r '.[0].mtu' "$C/50-pair-iplink.json") $(jq -r '.[0].mtu' "$S/50-pair-iplink.json")" "$mtu"
tap_eq "GID index row = each guest's sysfs GID table index of its address" \
	"$(cat "$C/50-pair-gid") $(cat "$S/50-pair-gid")" "$gidx"
T=$C/50-pair-name.txt
tap_check "text: the both-ends table with here and peer columns" grep -q "^both ends (the peer's side from its side channel)" "$T"
tap_check "a host name: the header names pair-server and its address" \
	grep -q "^connect pair-server (198.18.1.1) port 7471 " "$T"
tap_check "text: the table's host row: pair-client here, pair-server on the peer" \
	grep -qE "^  host +pair-client +pair-server$" "$T"
tap_check "a host name: verdict OK" grep -q "^verdict: OK .*cause=ok" "$T"
L=$S/50-pair-listen.json
tap_eq "the listener saw two connections from the client guest (198.18.1.2)" "2" \
	"$(jq -rs '[.[] | select(.event == "CONNECT_REQUEST")] | length' "$L")"
