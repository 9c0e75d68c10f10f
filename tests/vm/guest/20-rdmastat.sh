# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat on the real kernel (two rxe devices, real RC traffic):
#   - after the traffic stopped and the hw_counters lifespan passed, rdmastat -j values equal
#     `rdma -j statistic show` and the sysfs files, for the netlink, sysfs and auto sources;
#   - `rdmastat qp` shows the QPs of a running ibv_rc_pingpong pair in RTS with their pids
#     and crossed QP numbers; `rdmastat cm` shows a listening rping with its pid;
#   - an interval shorter than hw_counters/lifespan never reports a false zero rate;
#   - netlink exchanges are recorded ($OUT/20-nl-*.rec) for the replay tests on the host,
#     and --prom output is kept for the host's Prometheus parser (host/20-rdmastat-prom.sh).
# The guest makes the traffic and takes every reading; host/20-rdmastat.sh judges them with
# jq (0.6 s a start under TCG).
# vm-timeout: 120
have rdmastat || { tap_skip "rdmastat runs on the real kernel" "tools/rdmastat/rdmastat not built"; exit 0; }
T=/tmp/20; mkdir -p $T

# the sysfs hw_counters files as "dev/port name value" lines (read builtin: a fork costs
# tens of ms under TCG); host/20-rdmastat.sh flattens the JSON the same way and compares
files_flat() {
	local d f v
	for d in /sys/class/infiniband/*; do
		for f in "$d"/ports/1/hw_counters/*; do
			[ "${f##*/}" = lifespan ] && continue
			read -r v < "$f"
			echo "${d##*/}/1 ${f##*/} $v"
		done
	done | sort
}
E=$OUT/20-rdmastat.env		# pids and values the host needs
{ echo "GID=$GID"; echo "A=$A"; echo "B=$B"; } > "$E"

# --- 1. values equal rdma statistic and sysfs ------------------------------------------
tap_ok "the traffic the readings below count: RC pingpong rxe0 <-> rxe1 (20 x 4096 B) completes" pp_pair 20 4096
wait_lifespan
rdma -j statistic show > $T/rdma.json
rdmastat -j --source netlink --nl-record "$OUT/20-nl-stat.rec" > "$OUT/20-stat-netlink.json"
rdmastat -j --source sysfs > "$OUT/20-stat-sysfs.json"
rdmastat -j > "$OUT/20-stat-auto.json"
rdmastat --prom > "$OUT/20-prom.txt"
rdma -j link show > "$OUT/20-rdma-link.json"	# the port states host/20-rdmastat-prom.sh compares
files_flat > "$OUT/20-files.txt"
cp $T/rdma.json "$OUT/20-rdma-statistic.json"	# the oracle, kept with the recording
# (host/20-rdmastat.sh: rdma statistic lists both devices, the traffic is in the counters,
# netlink = rdma statistic, sysfs = the files, auto = netlink + the 44 IB CM counters)

# --- 2. devices ---------------------------------------------------------------------------
rdmastat devices -j --nl-record "$OUT/20-nl-devices.rec" > $T/dev.json
cp $T/dev.json "$OUT/20-devices.json"
rdmastat devices > "$OUT/20-devices.txt"
rdmastat > "$OUT/20-stat.txt"
echo "veth1='$(cat /sys/class/net/veth1/ifindex) $(cat /sys/class/net/veth1/mtu)'" >> "$E"

# --- 3. QPs of a running pingpong ----------------------------------------------------------
port=18530
ibv_rc_pingpong -d "$DEV1" -g "$GID" -p $port -n 100000000 -s 64 -e > /dev/null 2>&1 &
srv=$!
wait_tcp_listen $port || tap_fail "the ibv_rc_pingpong server listens on $port"
ibv_rc_pingpong -d "$DEV0" -g "$GID" -p $port -n 100000000 -s 64 -e "$B" > /dev/null 2>&1 &
cli=$!
rts() { [ "$(rdma res show qp 2>/dev/null | grep -c 'comm ibv_rc_pingpong.*' )" -ge 2 ] &&
	! rdma res show qp | grep 'ibv_rc_pingpong' | grep -qv 'state RTS'; }
await 20 "both ibv_rc_pingpong QPs reach RTS" rts
rdmastat qp -j --nl-record "$OUT/20-nl-qp.rec" > $T/qp.json
rdma -j res show qp > $T/rdma-qp.json
rdmastat qp > "$OUT/20-qp.txt"
cp $T/qp.json "$OUT/20-qp.json"; cp $T/rdma-qp.json "$OUT/20-rdma-qp.json"
kill $srv $cli 2>/dev/null; wait $srv $cli 2>/dev/null
echo "qp_srv=$srv qp_cli=$cli" >> "$E"

# --- 4. rdma_cm IDs -----------------------------------------------------------------------
rping -s -a "$B" -p 7330 -C 1 > /dev/null 2>&1 &
rp=$!
wait_cm_listen 7330 || tap_fail "rping listens on port 7330"
rdmastat cm -j --nl-record "$OUT/20-nl-cm.rec" > $T/cm.json
rdmastat cm > "$OUT/20-cm.txt"
cp $T/cm.json "$OUT/20-cm.json"
kill $rp 2>/dev/null; wait $rp 2>/dev/null
echo "cm_rp=$rp" >> "$E"

rdmastat explain rcvd_rnr_err > "$OUT/20-explain.txt"

# --- 5. intervals: rates, and no false zeros inside the lifespan -----------------------------
# sysfs keeps descriptors open across intervals (pread at offset 0): the deltas must move
L=/sys/class/infiniband/rxe0/ports/1/hw_counters/lifespan
life0=$(cat $L)
# traffic that lasts until it is stopped (TCG speed varies with the host's load)
# (-e: waits on completion events; a busy-polling pair starves the one vCPU and every
# command below took seconds)
ibv_rc_pingpong -d "$DEV1" -g "$GID" -p 18531 -n 100000000 -s 64 -e > /dev/null 2>&1 &
srv=$!
wait_tcp_listen 18531 || tap_fail "the ibv_rc_pingpong server listens on 18531"
ibv_rc_pingpong -d "$DEV0" -g "$GID" -p 18531 -n 100000000 -s 64 -e "$B" > /dev/null 2>&1 &
cli=$!
await 20 "both ibv_rc_pingpong QPs reach RTS" rts
sleep 0.5
# both sources at once: each mostly sleeps between its samples
rdmastat -i 0.5 -n 2 -j --source netlink rxe0/1 sent_pkts > $T/rate-nl.json &
rdmastat -i 0.5 -n 2 -j --source sysfs rxe0/1 sent_pkts > $T/rate-sysfs.json
wait $!
# a long cache makes the stale case certain under TCG timing; restored right after
echo 1000 > $L
rdmastat --source sysfs -i 0.05 -n 30 -a -j rxe0/1 sent_pkts > "$OUT/20-short.json"
echo "$life0" > $L
kill $srv $cli 2>/dev/null; wait $srv $cli 2>/dev/null
cat $T/rate-nl.json $T/rate-sysfs.json >&2
cp $T/rate-nl.json "$OUT/20-interval.json"
cp $T/rate-sysfs.json "$OUT/20-interval-sysfs.json"
tap_eq "hw_counters/lifespan restored" "$life0" "$(cat $L)"
