# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# The peer's counters after a data-path failure: the server is at MTU 1000 and, like a NIC or
# switch port that enforces it, drops the RoCE packets longer than 1000 bytes (nft, input,
# its own drop counter); the client (MTU 1500) connects, its 1024-byte SEND does not
# complete, and connect fetches the server's counters on the side channel before the attempt
# and after the failure.  The server saves its rxe0 rcvd_pkts (sysfs) around the
# connection and the nft drop count.  Judged by pair/host/55-doctor-peer-counters.sh.
P=7475
J=$OUT/55-pc
T=rdiag_pc
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
if [ "$ROLE" = server ]; then
	hw=/sys/class/infiniband/$RDEV/ports/1/hw_counters
	have nft || { tap_skip "server: the peer's counters after a data-path failure" "no nft in the image"; }
	mtu_set $NETD 1000
	nft add table inet $T &&
		nft "add chain inet $T input { type filter hook input priority 0; }" &&
		nft add rule inet $T input udp dport 4791 meta length gt 1000 counter drop
	tap_eq "server: MTU 1000 on $NETD, RoCE packets over 1000 bytes dropped (nft)" 0 $?
	rdmadoctor -j listen "$SRV:$P" -c 1 > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: rdmadoctor listen $SRV:$P" wait_cm_listen $P 20
	wait_lifespan
	read -r v < "$hw/rcvd_pkts"; echo "$v" > "$J-rcvd-before"
	pair_sync listening 20
	pair_sync connected 50 || kill $lp
	wait $lp
	wait_lifespan
	read -r v < "$hw/rcvd_pkts"; echo "$v" > "$J-rcvd-after"
	nft list table inet $T | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p' > "$J-drops"
	cat "$J-listen.json" "$J-listen.err" "$J-rcvd-before" "$J-rcvd-after" "$J-drops" >&2
	nft delete table inet $T
	mtu_restore $NETD
	wait_port_active $RDEV
else
	pair_sync listening 30
	save json rdmadoctor -j connect "$SRV:$P" -t 3000
	tap_eq "client: 1024-byte packets dropped on the way: connect exits 1" 1 "$(cat "$J-json.rc")"
	pair_sync connected 30
fi
