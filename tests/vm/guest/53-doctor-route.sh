# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, routing and neighbour faults: (a) a destination with no route, 198.19.0.9 (bound
# to veth0 the kernel assumes it on-link, ARP goes unanswered: ADDR_ERROR -110); (b) a route
# to 198.19.0.0/24 via a gateway that does not exist, 198.18.0.99 (blackholed next hop:
# ADDR_ERROR -110).  host/53-doctor-route.sh judges: no_route for (a), neighbour_unresolved
# naming the gateway's entry for (b).  The addresses stay inside 198.18.0.0/15 (RFC 2544);
# -t 500: the outcome is rdma_cm's own address timeout, whatever its length.
J=$OUT/53-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

save noroute.json rdmadoctor -j connect 198.19.0.9 --src "$A" -t 500
tap_eq "no route to the destination: connect exits 1 (a problem found)" 1 "$(cat "$J-noroute.json.rc")"
ip route add 198.19.0.0/24 via 198.18.0.99 dev "$NET0"
save gw.json rdmadoctor -j connect 198.19.0.9 --src "$A" -t 500
tap_eq "a gateway that never answers ARP: connect exits 1 (a problem found)" 1 "$(cat "$J-gw.json.rc")"
ip route del 198.19.0.0/24
ip neigh del 198.18.0.99 dev "$NET0" 2>/dev/null
ip neigh del 198.19.0.9 dev "$NET0" 2>/dev/null
tap_eq "the test route is gone" "" "$(ip route show 198.19.0.0/24)"
