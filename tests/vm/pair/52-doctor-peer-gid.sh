# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# The listener host has no RoCE v2 GID for the address in use: the server carries
# 198.18.1.11 on a dummy netdev (no RDMA device); the client routes it over eth0, so the
# RoCE packets reach the server's rxe0, whose GID table has nothing for it.  The side channel
# (TCP) still answers.  Saved for pair/host/52-doctor-peer-gid.sh.
P=7473
X=198.18.1.11
J=$OUT/52-gid
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
if [ "$ROLE" = server ]; then
	ip link add rdiagx0 type dummy && ip addr add $X/32 dev rdiagx0 && ip link set rdiagx0 up
	cat /sys/class/infiniband/$RDEV/ports/1/gids/* > "$J-gids"
	# (rdma_cm cannot bind to an address of a netdev without an RDMA device: ENODEV)
	rdmadoctor -j listen ":$P" -c 1 > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: $X on a dummy netdev, rdmadoctor listen :$P" wait_tcp_listen $P 20
	pair_sync listening 20
	pair_sync connected 50
	kill $lp 2>/dev/null
	wait $lp
	cat "$J-listen.json" "$J-listen.err" >&2
	ip link del rdiagx0
else
	ip route add $X/32 dev $NETD
	pair_sync listening 30
	save json rdmadoctor -j connect "$X:$P" -t 4000
	tap_eq "client: a listener without a GID for $X: connect exits 1" 1 "$(cat "$J-json.rc")"
	ip route del $X/32 dev $NETD
	pair_sync connected 30
fi
