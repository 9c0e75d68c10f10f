# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 100
# The two guests as a fleet of two hosts for a real Prometheus: each runs rdmadiag_exporter
# (as root, tracefs mounted: the connections collector works), reachable from the host
# through its management NIC (pair/run.sh: 127.0.0.1:PAIR_FWD_ROLE -> 10.0.2.15:14791);
# pair/live/80-agent-fleet.sh runs Debian's Prometheus on the host, scraping both with the
# tree's alerting rules, and judges each step through Prometheus's HTTP API against what
# this guest wrote to the common share.  The steps (pair_host_step: ready here, then wait
# for the host's answer):
#   up       both agents serve; each guest's own reading of rxe0/1 at a quiescent moment
#            (rdma statistic, sysfs hw_counters and CM counters, port state, rate, GUID)
#   conn     the server connects (rping) to a port of the client's address nothing listens
#            on; then both take the reading again (the CM's REQ/REJ counters moved)
#   down     the client's eth0 goes down (rxe0's port DOWN): RdmaPortDown fires there
#   upagain  eth0 up again, the port ACTIVE: the alert resolves
#   gone     the client deletes rxe0 (rdma link delete): its series vanish; and it makes
#            the dcbdev pair (below) with PFC off on rxed0's RoCE priority: the chain
#            gauge and RdmaRocePriorityWithoutPfc show it for rxed0 alone
#   back     and adds rxe0 again: its series come back, from the same agent process; the
#            fix rdmastat fabric gave for rxed0 runs: the pfc link holds, the alert resolves
#   panels   the host runs every query of the Grafana dashboard against the two (the DCB
#            panels from the dcbdev pair)
# Each guest does every step (a step that is the other guest's is just 'ready'), so the
# host has an answer from both at each step.
A=$OUT/80-agent
T=/sys/kernel/tracing
D=/sys/class/infiniband/$RDEV/ports/1
# reading: this guest's view of rxe0/1 as 'KIND NAME VALUE' lines, where nothing moves (the
# netlink statistics before and after the sysfs reads are the same, or 'reading quiescent no')
reading() {
	local s1 s2 f v
	s1=$(rdma statistic show link $RDEV/1)
	hwc_snap $RDEV /tmp/80-hwc	# (waits out the hw_counters lifespan first)
	while read -r f v; do echo "hwc $f $v"; done < /tmp/80-hwc
	for f in "$D"/cm_*/*; do
		read -r v < "$f" && echo "cm ${f#"$D"/} $v"
	done
	read -r v _ < "$D/state"; echo "port state ${v%:}"
	read -r v _ < "$D/phys_state"; echo "port phys_state ${v%:}"
	read -r v _ < "$D/rate"; echo "port rate_gbps $v"
	read -r v < "/sys/class/infiniband/$RDEV/node_guid"; echo "port node_guid $v"
	s2=$(rdma statistic show link $RDEV/1)
	# 'link rxe0/1 NAME VALUE NAME VALUE ...'
	set -- $s2
	shift 2
	while [ $# -ge 2 ]; do echo "stat $1 $2"; shift 2; done
	[ "$s1" = "$s2" ] && echo "reading quiescent yes" || echo "reading quiescent no"
}
# step NAME [ROLE]: this guest's reading as the note NAME (only in ROLE's guest when given),
# then ready, then the host's answer
step() {
	if [ -n "${2:-}" ] && [ "$2" != "$ROLE" ]; then :
	elif [ -d "$D" ]; then pair_note "$1" "$(reading)"
	else pair_note "$1" gone; fi
	pair_host_step "$1" 45 || tap_fail "$ROLE: the host answered step $1 within 45 s"
}
started() { grep -q 'listening on' "$A.log"; }
# The lossless chain on the dcbdev pair (tests/vm/dcbdev, as guest/71-fabric-chain.sh), in the
# client alone, next to its rxe0: rxed0 on dcb0, rxed1 on dcb1, rdma_cm's default_roce_tos
# 106 (DSCP 26), APP 26:3 on both ends.  At 'gone' PFC is on priority 3 on dcb1 but on 4
# only on dcb0: rxed0's RoCE rides a priority without PFC (rdma_fabric_link_state{link="pfc"}
# 1 and RdmaRocePriorityWithoutPfc), rxed1's chain holds; at 'back' the guest runs the fix
# rdmastat fabric gave for rxed0, which clears it.  Each time the guest's own rdmastat fabric
# -j and dcb -j pfc show go to the share (notes fabric-STEP, pfc-STEP) for the host.  The
# pair stays for 'panels': the DCB panels have data from it.
X0=dcb0 X1=dcb1 XA=198.18.7.1 XB=198.18.7.2 R0=rxed0 R1=rxed1 TOS=106 PRIO=3
dcbdev=
# fabric_note STEP: this guest's rdmastat fabric -j of rxed0 and rxed1, dcb -j pfc show of dcb0
fabric_note() {
	rdmastat fabric -j 2>> "$A.fabric.err" |
		jq -c "[.[] | select(.ifname == \"$R0\" or .ifname == \"$R1\")]" > "$A.fabric-$1.json"
	pair_note "fabric-$1" "$(cat "$A.fabric-$1.json")"
	pair_note "pfc-$1" "$(dcb -j pfc show dev $X0)"
}
pfc_off() {
	tap_ok "client: the rdmadiag_dcbdev test module loads" modprobe rdmadiag_dcbdev || return 0
	dcbdev=1
	tap_ok "client: $R0 on $X0 and $R1 on $X1, ports ACTIVE" dcbdev_pair_up &&
	tap_ok "client: rdma_cm configfs default_roce_tos $TOS on $R0 and $R1" dcbdev_cfs_tos &&
	tap_ok "client: APP 26:$PRIO on both ends, 802.3x pause off; PFC on $PRIO on $X1 but on 4 alone on $X0" \
		sh -c "dcb app add dev $X0 dscp-prio 26:$PRIO && dcb app add dev $X1 dscp-prio 26:$PRIO &&
			ethtool -A $X0 rx off tx off && ethtool -A $X1 rx off tx off &&
			dcb pfc set dev $X1 prio-pfc $PRIO:on && dcb pfc set dev $X0 prio-pfc $PRIO:off 4:on"
	fabric_note gone
}
pfc_fix() {
	local cmd
	[ -n "$dcbdev" ] || return 0
	cmd=$(jq -r --arg d $R0 '.[] | select(.ifname == $d) | .chain.links[] |
		select(.name == "pfc") | .fix // empty' "$A.fabric-gone.json" | sed 's/ (mlnx_qos.*//')
	tap_ok "client: the fix rdmastat fabric gave for $R0's pfc link runs: $cmd" sh -c "${cmd:-false}"
	fabric_note back
}

tap_ok "$ROLE: the management NIC is up with $MGMT_IP" pair_mgmt_up
mounted=
grep -q " $T tracefs" /proc/mounts || { mount -t tracefs nodev $T && mounted=1; }
# its deadline under Prometheus's 2 s scrape timeout, as rdmadiag_exporter(8) asks
rdmadiag_exporter --scrape.timeout=1.5 2> "$A.log" &
ag=$!
await 15 "$ROLE: the agent logged 'listening on'" started &&
	tap_pass "$ROLE: rdmadiag_exporter listens ($(sed -n 's/.*listening on //p' "$A.log"))"
# one scrape here first: under TCG an agent's first scrapes took longer than Prometheus's
# 2 s timeout, which cost the first step ten seconds (before the agent kept its counters
# handles between scrapes; now the first takes about 0.2 s, and this costs nothing)
t=$(now_cs)
wget -q -O /dev/null http://127.0.0.1:14791/metrics || log "the first scrape here failed"
diag "$ROLE: the agent's first scrape took $(( $(now_cs) - t ))0 ms"
read -r -a st0 < "/proc/$ag/stat"

step up
if [ "$ROLE" = server ]; then
	# REQ to the client's address, port 7999: the client's CM answers REJ (no listener)
	timeout 20 rping -c -a "$PEER_IP" -p 7999 -C 1 -v >&2
	pair_note rping $?
fi
pair_sync conn-done 30 || tap_fail "$ROLE: the $PEER_ROLE guest came to conn-done within 30 s"
step conn

if [ "$ROLE" = client ]; then
	ip link set $NETD down
	await 10 "client: rxe0's port went DOWN with eth0" sh -c "grep -q DOWN $D/state"
fi
step down client
if [ "$ROLE" = client ]; then
	ip link set $NETD up
	await 10 "client: rxe0's port is ACTIVE again" sh -c "grep -q ACTIVE $D/state"
fi
step upagain client

if [ "$ROLE" = client ]; then
	rdma link delete $RDEV
	await 10 "client: rxe0 is gone" sh -c "[ ! -d /sys/class/infiniband/$RDEV ]"
	pfc_off
fi
step gone client
if [ "$ROLE" = client ]; then
	rdma link add $RDEV type rxe netdev $NETD
	await 10 "client: rxe0 is back and ACTIVE" sh -c "grep -q ACTIVE $D/state"
	await 10 "client: rxe0 has its RoCE v2 GID of $ME_IP again" gid_index $RDEV "$ME_IP"
	pfc_fix
fi
step back client
read -r -a st1 < "/proc/$ag/stat"
tap_eq "$ROLE: the same agent process served all along (PID $ag, its start time)" \
	"$ag ${st0[21]}" "${st1[0]} ${st1[21]}"

step panels -
[ "$ROLE" = client ] && [ -n "$dcbdev" ] && dcbdev_undo
kill -TERM $ag
wait_exit 10 $ag
tap_eq "$ROLE: the agent exits 0 on SIGTERM" 0 $?
[ -z "$mounted" ] || umount $T
pair_mgmt_down
cat "$A.log" >&2
