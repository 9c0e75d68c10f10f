# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench section: the node agent against Debian's prometheus-node-exporter (infiniband
# collector), side by side on one sysfs tree of 16 mlx5 devices x 2 ports (each port the
# mlx5 fixture's hw_counters and PMA counters, each device board_id and hca_type, as real
# mlx5 sysfs has them and node_exporter needs them).  Each serves /metrics on 127.0.0.1;
# 200 scrapes are timed from the process's own CPU clock (/proc/PID/stat), and the idle
# cost is the CPU it takes in 10 s without a scrape.
# Targets (issue 24): CPU per exported series at most node_exporter's; one scrape under
# 20 ms of CPU; idle under 0.1 % of a core; peak RSS under 16 MiB.
. "$(dirname "$0")/lib.bash"
cd "$BENCH_ROOT" || exit 2
W=$BENCH_WORK/exporter
PY=/usr/bin/python3
printf '\n== rdmadiag_exporter: one scrape against node_exporter --collector.infiniband\n'
NODE=$(command -v prometheus-node-exporter || command -v node_exporter)
[ -n "$NODE" ] || { echo "exporter: prometheus-node-exporter is missing" >> "$BENCH_FAILS"; exit 1; }

# the tree: the mlx5 fixture's device, 16 times, 2 ports each
rm -rf "$W" && mkdir -p "$W" || exit 2
T=$W/tree
src=tests/fixtures/sysfs/mlx5/sys/class/infiniband/mlx5_0
for d in $(seq 0 15); do
	dd=$T/sys/class/infiniband/mlx5_$d
	mkdir -p "$dd"
	cp -a "$src"/. "$dd"/
	cp -a "$dd/ports/1" "$dd/ports/2"
	echo "MT_0000000222" > "$dd/board_id"
	echo "MT4125" > "$dd/hca_type"
done
cp -a tests/fixtures/sysfs/mlx5/sys/class/net "$T/sys/class/"

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# ticks of user+sys CPU of PID
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hwm_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
up() { curl -sf "http://127.0.0.1:$1/metrics" > /dev/null; }

# measure NAME PORT PID: series per scrape, CPU ms per scrape, idle %, peak RSS KiB
declare -A SERIES SCRAPE_MS IDLE_PCT HWM
measure() {
	local name=$1 port=$2 pid=$3 n=200 t0 t1 hz
	hz=$(getconf CLK_TCK)
	for _ in $(seq 100); do up "$port" && break; sleep 0.05; done
	curl -sf "http://127.0.0.1:$port/metrics" > "$W/$name.txt" || return 1
	SERIES[$name]=$(grep -vc '^#' "$W/$name.txt")
	t0=$(ticks "$pid")
	"$PY" - "$port" "$n" <<'PYEOF' || return 1
import http.client, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
for _ in range(n):
    c = http.client.HTTPConnection('127.0.0.1', port, timeout=30)
    c.request('GET', '/metrics', headers={'Accept': 'text/plain;version=0.0.4'})
    r = c.getresponse(); r.read(); c.close()
    assert r.status == 200
PYEOF
	t1=$(ticks "$pid")
	SCRAPE_MS[$name]=$(awk -v a="$t0" -v b="$t1" -v n="$n" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) * 1000 / hz / n }')
	t0=$(ticks "$pid")
	sleep 10	# the idle cost is what it takes in a quiet time: a measured span, not a wait
	t1=$(ticks "$pid")
	IDLE_PCT[$name]=$(awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "%.3f", (b - a) / hz / 10 * 100 }')
	HWM[$name]=$(hwm_kib "$pid")
	printf '   %-30s %6s series  %8s ms CPU/scrape  %8.2f us CPU/series  idle %s %%  peak RSS %.1f MiB\n' \
		"$name" "${SERIES[$name]}" "${SCRAPE_MS[$name]}" \
		"$(awk -v c="${SCRAPE_MS[$name]}" -v s="${SERIES[$name]}" 'BEGIN { print (s ? c * 1000 / s : 0) }')" \
		"${IDLE_PCT[$name]}" "$(awk -v k="${HWM[$name]}" 'BEGIN { print k / 1024 }')"
}

pa=$(free_port)
tools/rdmadiag_exporter/rdmadiag_exporter --web.listen-address="127.0.0.1:$pa" --sysfs-root="$T" \
	--no-collector.connections --no-collector.resources 2> "$W/agent.log" &
apid=$!
measure rdmadiag_exporter "$pa" "$apid" || echo "exporter: the agent's scrapes failed" >> "$BENCH_FAILS"
kill "$apid"; wait "$apid" 2> /dev/null

pn=$(free_port)
"$NODE" --path.sysfs="$T/sys" --collector.disable-defaults --collector.infiniband \
	--web.disable-exporter-metrics --web.listen-address="127.0.0.1:$pn" 2> "$W/node.log" &
npid=$!
measure node_exporter "$pn" "$npid" || echo "exporter: node_exporter's scrapes failed" >> "$BENCH_FAILS"
kill "$npid"; wait "$npid" 2> /dev/null

a_per=$(awk -v c="${SCRAPE_MS[rdmadiag_exporter]:-0}" -v s="${SERIES[rdmadiag_exporter]:-0}" 'BEGIN { print (s ? c / s : 1e9) }')
n_per=$(awk -v c="${SCRAPE_MS[node_exporter]:-0}" -v s="${SERIES[node_exporter]:-0}" 'BEGIN { print (s ? c / s : 0) }')
bench_target "CPU per series <= node_exporter's" "$a_per <= $n_per" \
	"$(awk -v a="$a_per" -v b="$n_per" 'BEGIN { printf "%.2f us vs %.2f us", a * 1000, b * 1000 }')"
bench_target "one scrape under 20 ms of CPU" "${SCRAPE_MS[rdmadiag_exporter]:-99} < 20" "${SCRAPE_MS[rdmadiag_exporter]:-?} ms"
bench_target "idle under 0.1 % of a core" "${IDLE_PCT[rdmadiag_exporter]:-99} < 0.1" "${IDLE_PCT[rdmadiag_exporter]:-?} %"
bench_target "peak RSS under 16 MiB" "${HWM[rdmadiag_exporter]:-999999} < 16384" "${HWM[rdmadiag_exporter]:-?} KiB"
