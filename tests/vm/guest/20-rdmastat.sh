# rdmastat on the real kernel (two rxe devices, real RC traffic):
#   - after the traffic stopped and the hw_counters lifespan passed, rdmastat -j values equal
#     `rdma -j statistic show` and the sysfs files, for the netlink, sysfs and auto sources;
#   - `rdmastat qp` shows the QPs of a running ibv_rc_pingpong pair in RTS with their pids
#     and crossed QP numbers; `rdmastat cm` shows a listening rping with its pid;
#   - an interval shorter than hw_counters/lifespan never reports a false zero rate;
#   - netlink exchanges are recorded ($OUT/20-nl-*.rec) for the replay tests on the host,
#     and --prom output is kept for the host's Prometheus parser (host/20-rdmastat-prom.sh).
# vm-timeout: 240
have rdmastat || { tap_skip "rdmastat runs on the real kernel" "tools/rdmastat not built"; exit 0; }
T=/tmp/20; mkdir -p $T

# jq: "dev/port name value" lines of an iproute2-style counter array (hw counters only:
# the CM files carry a '/' and are sysfs-only)
flat='.[] | select(.port != null) as $o | to_entries[]
	| select(.key != "ifname" and .key != "port" and .key != "errors")
	| select(.key | contains("/") | not)
	| "\($o.ifname)/\($o.port) \(.key) \(.value)"'
files_flat() {
	local d f
	for d in /sys/class/infiniband/*; do
		for f in "$d"/ports/1/hw_counters/*; do
			[ "${f##*/}" = lifespan ] && continue
			echo "${d##*/}/1 ${f##*/} $(cat "$f")"
		done
	done | sort
}

# --- 1. values equal rdma statistic and sysfs ------------------------------------------
tap_ok "RC pingpong traffic between rxe0 and rxe1 (20 x 4096 B)" pp_pair 20 4096
wait_lifespan
rdma -j statistic show > $T/rdma.json
rdmastat -j --source netlink --nl-record "$OUT/20-nl-stat.rec" > "$OUT/20-stat-netlink.json"
rdmastat -j --source sysfs > "$OUT/20-stat-sysfs.json"
rdmastat -j > "$OUT/20-stat-auto.json"
rdmastat --prom > "$OUT/20-prom.txt"
files_flat > $T/files.txt
jq -r "$flat" $T/rdma.json | sort > $T/rdma.txt
for s in netlink sysfs auto; do
	jq -r "$flat" "$OUT/20-stat-$s.json" | sort > $T/$s.txt
done
cp $T/rdma.json "$OUT/20-rdma-statistic.json"	# the oracle, kept with the recording
n=$(wc -l < $T/rdma.txt)
tap_check "rdma statistic show lists counters of both devices ($n)" [ "$n" -ge 20 ]
sent=$(awk '$1 == "rxe0/1" && $2 == "sent_pkts" { print $3 }' $T/netlink.txt)
tap_check "the traffic is in the counters (rxe0 sent_pkts ${sent:-none} >= 40)" [ "${sent:-0}" -ge 40 ]
tap_ok "rdmastat -j --source netlink equals rdma -j statistic show, counter by counter" \
	diff $T/rdma.txt $T/netlink.txt
tap_ok "rdmastat -j --source sysfs equals the sysfs hw_counters files" \
	diff $T/files.txt $T/sysfs.txt
tap_ok "rdmastat -j (auto) hw counters equal the netlink ones (no double counting)" \
	diff $T/netlink.txt $T/auto.txt
cm=$(jq '[.[] | select(.ifname == "rxe0") | to_entries[] | select(.key | startswith("cm_"))] | length' "$OUT/20-stat-auto.json")
tap_check "auto adds the IB CM counters from ports/1/cm_* ($cm of them on rxe0)" \
	[ "${cm:-0}" -eq 44 ]

# --- 2. devices ---------------------------------------------------------------------------
rdmastat devices -j --nl-record "$OUT/20-nl-devices.rec" > $T/dev.json
cp $T/dev.json "$OUT/20-devices.json"
rdmastat devices > "$OUT/20-devices.txt"
rdmastat > "$OUT/20-stat.txt"
ip0=$(jq -r '.[] | select(.ifname == "rxe0") | .ports[0].gids[] | select(.routable and .ip == "'"$A"'") | .index' $T/dev.json)
tap_eq "devices: rxe0's routable RoCE v2 GID for $A is index \$GID" "$GID" "$ip0"
nd=$(jq -r '.[] | select(.ifname == "rxe1") | "\(.protocol) \(.ports[0].netdev) \(.ports[0].netdev_index) \(.ports[0].mtu)"' $T/dev.json)
tap_eq "devices: rxe1 is roce on veth1 with its ifindex and MTU" \
	"roce veth1 $(cat /sys/class/net/veth1/ifindex) $(cat /sys/class/net/veth1/mtu)" "$nd"

# --- 3. QPs of a running pingpong ----------------------------------------------------------
port=18530
ibv_rc_pingpong -d "$DEV1" -g "$GID" -p $port -n 100000000 -s 64 > /dev/null 2>&1 &
srv=$!
wait_tcp_listen $port
ibv_rc_pingpong -d "$DEV0" -g "$GID" -p $port -n 100000000 -s 64 "$B" > /dev/null 2>&1 &
cli=$!
rts() { [ "$(rdma res show qp 2>/dev/null | grep -c 'comm ibv_rc_pingpong.*' )" -ge 2 ] &&
	! rdma res show qp | grep 'ibv_rc_pingpong' | grep -qv 'state RTS'; }
wait_for 20 rts
rdmastat qp -j --nl-record "$OUT/20-nl-qp.rec" > $T/qp.json
rdma -j res show qp > $T/rdma-qp.json
rdmastat qp > "$OUT/20-qp.txt"
cp $T/qp.json "$OUT/20-qp.json"; cp $T/rdma-qp.json "$OUT/20-rdma-qp.json"
kill $srv $cli 2>/dev/null; wait $srv $cli 2>/dev/null
s=$(jq -r --argjson p $srv '.[] | select(.pid == $p) | "\(.ifname) \(.type) \(.state) \(.comm)"' $T/qp.json)
c=$(jq -r --argjson p $cli '.[] | select(.pid == $p) | "\(.ifname) \(.type) \(.state) \(.comm)"' $T/qp.json)
tap_eq "qp: the pingpong server's QP (pid $srv) on rxe1, RC, RTS" "rxe1 RC RTS ibv_rc_pingpong" "$s"
tap_eq "qp: the pingpong client's QP (pid $cli) on rxe0, RC, RTS" "rxe0 RC RTS ibv_rc_pingpong" "$c"
x=$(jq -r --argjson s $srv --argjson c $cli '
	([.[] | select(.pid == $s)][0]) as $a | ([.[] | select(.pid == $c)][0]) as $b
	| ($a.rqpn == $b.lqpn and $b.rqpn == $a.lqpn)' $T/qp.json)
tap_eq "qp: their remote QP numbers cross (server rqpn = client lqpn and back)" true "$x"
ours=$(jq -r '.[] | "\(.ifname) \(.lqpn)"' $T/qp.json | sort | tr '\n' ' ')
theirs=$(jq -r '.[] | "\(.ifname) \(.lqpn)"' $T/rdma-qp.json | sort | tr '\n' ' ')
tap_eq "qp: the same QPs as rdma res show qp" "$theirs" "$ours"

# --- 4. rdma_cm IDs -----------------------------------------------------------------------
rping -s -a "$B" -p 7330 -C 1 > /dev/null 2>&1 &
rp=$!
wait_cm_listen 7330
rdmastat cm -j --nl-record "$OUT/20-nl-cm.rec" > $T/cm.json
rdmastat cm > "$OUT/20-cm.txt"
cp $T/cm.json "$OUT/20-cm.json"
kill $rp 2>/dev/null; wait $rp 2>/dev/null
l=$(jq -r --argjson p $rp '.[] | select(.pid == $p) | "\(.state) \(.ps) \(.src) \(.comm)"' $T/cm.json)
tap_eq "cm: the listening rping (pid $rp) with state, port space and address" \
	"LISTEN TCP $B:7330 rping" "$l"

# --- 5. intervals: rates, and no false zeros inside the lifespan -----------------------------
# sysfs keeps descriptors open across intervals (pread at offset 0): the deltas must move
L=/sys/class/infiniband/rxe0/ports/1/hw_counters/lifespan
life0=$(cat $L)
# traffic that lasts until it is stopped (TCG speed varies with the host's load)
ibv_rc_pingpong -d "$DEV1" -g "$GID" -p 18531 -n 100000000 -s 64 > /dev/null 2>&1 &
srv=$!
wait_tcp_listen 18531
ibv_rc_pingpong -d "$DEV0" -g "$GID" -p 18531 -n 100000000 -s 64 "$B" > /dev/null 2>&1 &
cli=$!
wait_for 20 rts
sleep 0.5
rdmastat -i 0.5 -n 2 -j --source netlink rxe0/1 sent_pkts > $T/rate-nl.json
rdmastat -i 0.5 -n 2 -j --source sysfs rxe0/1 sent_pkts > $T/rate-sysfs.json
rdmastat -i 0.5 -n 2 rxe0/1 > "$OUT/20-interval.txt"
rdmastat explain rcvd_rnr_err > "$OUT/20-explain.txt"
# a long cache makes the stale case certain under TCG timing; restored right after
echo 1000 > $L
rdmastat --source sysfs -i 0.05 -n 30 -a -j rxe0/1 sent_pkts > "$OUT/20-short.json"
echo "$life0" > $L
kill $srv $cli 2>/dev/null; wait $srv $cli 2>/dev/null
cat $T/rate-nl.json $T/rate-sysfs.json >&2
cp $T/rate-nl.json "$OUT/20-interval.json"
for s in nl sysfs; do
	v=$(jq -s '[.[] | .counters.sent_pkts | select(.state == "valid" and .delta > 0 and .rate > 0)] | length' $T/rate-$s.json)
	tap_check "-i 0.5 --source ${s/nl/netlink} during traffic: sent_pkts has valid, non-zero deltas and rates ($v of 2)" [ "${v:-0}" -eq 2 ]
done
bad=$(jq -s '[.[] | select(.interval < 0.9) | .counters.sent_pkts
	| select(.state == "valid" and .delta == 0)] | length' "$OUT/20-short.json")
stale=$(jq -s '[.[] | .counters.sent_pkts | select(.state == "stale")] | length' "$OUT/20-short.json")
moved=$(jq -s '[.[] | .counters.sent_pkts | select(.state == "valid" and .delta > 0)] | length' "$OUT/20-short.json")
diag "lifespan 1000 ms, -i 0.05 x 30 under traffic: $stale stale, $moved valid with a delta"
tap_check "lifespan 1000 ms, -i 0.05: no interval reports a false zero rate ($bad)" [ "${bad:-1}" -eq 0 ]
tap_check "lifespan 1000 ms, -i 0.05: the cached reads are reported stale ($stale of 30)" [ "${stale:-0}" -ge 20 ]
tap_check "lifespan 1000 ms, -i 0.05: the refreshed reads carry the traffic ($moved)" [ "${moved:-0}" -ge 1 ]
tap_eq "hw_counters/lifespan restored" "$life0" "$(cat $L)"
