# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/20-rdmastat.sh: the readings the guest took on two real rxe devices,
# judged with jq at native speed:
#   - after the traffic stopped and the hw_counters lifespan passed, rdmastat -j values
#     equal `rdma -j statistic show` (netlink source) and the sysfs files (sysfs source),
#     read at the same moment; auto = netlink plus the IB CM counters of ports/1/cm_*;
#   - devices: the routable RoCE v2 GID index, the netdev, its ifindex and MTU;
#   - qp: the QPs of a running ibv_rc_pingpong pair with state, pid and crossed QP numbers,
#     the same QPs as rdma res show qp; cm: a listening rping with its pid;
#   - intervals: valid non-zero rates during traffic, and an interval shorter than the
#     hw_counters lifespan never reports a false zero (the cached reads are 'stale').
cd "$VM_OUT" || exit 2
E=20-rdmastat.env
[ -s "$E" ] && [ -s 20-rdma-statistic.json ] || { tap_fail "the guest saved $E and 20-rdma-statistic.json"; exit 0; }
# GID A B veth1 qp_srv qp_cli cm_rp
. "./$E"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- 1. values equal rdma statistic and sysfs --------------------------------------------
# "dev/port name value" lines of an iproute2-style counter array (hw counters only: the CM
# files carry a '/' and are sysfs-only)
flat='.[] | select(.port != null) as $o | to_entries[]
	| select(.key != "ifname" and .key != "port" and .key != "errors")
	| select(.key | contains("/") | not)
	| "\($o.ifname)/\($o.port) \(.key) \(.value)"'
jq -r "$flat" 20-rdma-statistic.json | sort > "$tmp/rdma.txt"
for s in netlink sysfs auto; do
	jq -r "$flat" "20-stat-$s.json" | sort > "$tmp/$s.txt"
done
n=$(wc -l < "$tmp/rdma.txt")
tap_check "rdma statistic show lists counters of both devices ($n)" [ "$n" -ge 20 ]
sent=$(awk '$1 == "rxe0/1" && $2 == "sent_pkts" { print $3 }' "$tmp/netlink.txt")
tap_check "the traffic is in the counters (rxe0 sent_pkts ${sent:-none} >= 40)" [ "${sent:-0}" -ge 40 ]
tap_ok "rdmastat -j --source netlink equals rdma -j statistic show, counter by counter" \
	diff "$tmp/rdma.txt" "$tmp/netlink.txt"
tap_ok "rdmastat -j --source sysfs equals the sysfs hw_counters files" \
	diff 20-files.txt "$tmp/sysfs.txt"
tap_ok "rdmastat -j (auto) hw counters equal the netlink ones (no double counting)" \
	diff "$tmp/netlink.txt" "$tmp/auto.txt"
cm=$(jq '[.[] | select(.ifname == "rxe0") | to_entries[] | select(.key | startswith("cm_"))] | length' 20-stat-auto.json)
tap_check "auto adds the IB CM counters from ports/1/cm_* ($cm of them on rxe0)" \
	[ "${cm:-0}" -eq 44 ]

# --- 2. devices ---------------------------------------------------------------------------
ip0=$(jq -r '.[] | select(.ifname == "rxe0") | .ports[0].gids[] | select(.routable and .ip == "'"$A"'") | .index' 20-devices.json)
tap_eq "devices: rxe0's routable RoCE v2 GID for $A is index \$GID" "$GID" "$ip0"
nd=$(jq -r '.[] | select(.ifname == "rxe1") | "\(.protocol) \(.ports[0].netdev) \(.ports[0].netdev_index) \(.ports[0].mtu)"' 20-devices.json)
tap_eq "devices: rxe1 is roce on veth1 with its ifindex and MTU" "roce veth1 $veth1" "$nd"

# --- 3. QPs of a running pingpong ----------------------------------------------------------
pq() { jq -r --argjson p "$1" '.[] | select(.pid == $p) | "\(.ifname) \(.type) \(.state) \(.comm)"' 20-qp.json; }
tap_eq "qp: the pingpong server's QP (pid $qp_srv) on rxe1, RC, RTS" "rxe1 RC RTS ibv_rc_pingpong" "$(pq "$qp_srv")"
tap_eq "qp: the pingpong client's QP (pid $qp_cli) on rxe0, RC, RTS" "rxe0 RC RTS ibv_rc_pingpong" "$(pq "$qp_cli")"
x=$(jq -r --argjson s "$qp_srv" --argjson c "$qp_cli" '
	([.[] | select(.pid == $s)][0]) as $a | ([.[] | select(.pid == $c)][0]) as $b
	| ($a.rqpn == $b.lqpn and $b.rqpn == $a.lqpn)' 20-qp.json)
tap_eq "qp: their remote QP numbers cross (server rqpn = client lqpn and back)" true "$x"
ours=$(jq -r '.[] | "\(.ifname) \(.lqpn)"' 20-qp.json | sort | tr '\n' ' ')
theirs=$(jq -r '.[] | "\(.ifname) \(.lqpn)"' 20-rdma-qp.json | sort | tr '\n' ' ')
tap_eq "qp: the same QPs as rdma res show qp" "$theirs" "$ours"

# --- 4. rdma_cm IDs -----------------------------------------------------------------------
l=$(jq -r --argjson p "$cm_rp" '.[] | select(.pid == $p) | "\(.state) \(.ps) \(.src) \(.comm)"' 20-cm.json)
tap_eq "cm: the listening rping (pid $cm_rp) with state, port space and address" \
	"LISTEN TCP $B:7330 rping" "$l"

# --- 5. intervals -------------------------------------------------------------------------
for s in netlink sysfs; do
	f=20-interval-$s.json
	[ $s = netlink ] && f=20-interval.json
	v=$(jq -s '[.[] | .counters.sent_pkts | select(.state == "valid" and .delta > 0 and .rate > 0)] | length' "$f")
	tap_check "-i 0.5 --source $s during traffic: sent_pkts has valid, non-zero deltas and rates ($v of 2)" [ "${v:-0}" -eq 2 ]
done
read -r bad stale moved < <(jq -rs '[
	([.[] | select(.interval < 0.9) | .counters.sent_pkts | select(.state == "valid" and .delta == 0)] | length),
	([.[] | .counters.sent_pkts | select(.state == "stale")] | length),
	([.[] | .counters.sent_pkts | select(.state == "valid" and .delta > 0)] | length)]
	| map(tostring) | join(" ")' 20-short.json)
diag "lifespan 1000 ms, -i 0.05 x 30 under traffic: $stale stale, $moved valid with a delta"
tap_check "lifespan 1000 ms, -i 0.05: no interval reports a false zero rate ($bad)" [ "${bad:-1}" -eq 0 ]
tap_check "lifespan 1000 ms, -i 0.05: the cached reads are reported stale ($stale of 30)" [ "${stale:-0}" -ge 20 ]
tap_check "lifespan 1000 ms, -i 0.05: the refreshed reads carry the traffic ($moved)" [ "${moved:-0}" -ge 1 ]

# --- 5. the netlink recordings made here (the replay fixtures of tests/fixtures/netlink and
# tests/unit/test_netlink_replay.c come from these files): replayed on the host, with no sysfs,
# the host's rdmastat prints what the guest's printed from the live kernel
for r in stat:"-j --source netlink":20-stat-netlink.json qp:"qp -j":20-qp.json; do
	IFS=: read -r name args out <<< "$r"
	rec=20-nl-$name.rec
	if [ -s "$rec" ] && [ -s "$out" ] && [ -x "$ROOT/tools/rdmastat/rdmastat" ]; then
		# shellcheck disable=SC2086
		got=$(RDMADIAG_NL_REPLAY=$VM_OUT/$rec RDMADIAG_SYSFS_ROOT=$tmp/nosysfs \
			"$ROOT/tools/rdmastat/rdmastat" $args 2>&1)
		# pid/comm of a QP come from /proc in the guest: compare what netlink carries
		keep='del(.. | .comm?, .cmdline?) | walk(if type == "object" then del(.ts, .ts_ns, .time) else . end)'
		tap_eq "the netlink recording $rec replays on the host to the guest's output" \
			"$(jq -cS "$keep" "$out" 2>&1)" "$(jq -cS "$keep" <<< "$got" 2>&1)"
	else
		tap_fail "the guest recorded its netlink exchange ($rec) and output ($out)"
	fi
done
