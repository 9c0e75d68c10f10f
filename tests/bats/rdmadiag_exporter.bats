#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadiag_exporter, the node agent (rdmadiag_exporter(8)): its HTTP endpoints, the
# exposition checked by promtool and by prometheus_client's text and OpenMetrics parsers,
# the concept families against the fixture's own counter files, collectors switched off
# and failing, a device that goes and comes back without a restart, hostile clients, the
# signals, and a real Prometheus (Debian's, started here) scraping it.
load helper
load wait
load agent

PY=/usr/bin/python3
FIXS="rxe mlx5 bnxt_re irdma efa hfi1"

teardown() {
	stop_agent
	[ -z "${PROM_PID:-}" ] || { kill "$PROM_PID" 2> /dev/null; wait "$PROM_PID" || :; }
}

get() { curl -sS --max-time 20 "$@"; }

@test "endpoints: /healthz, the landing page, 404 for another path, 405 for POST, HEAD" {
	start_agent --sysfs-root="$FIX/sysfs/rxe"
	run get -w ' %{http_code}' "$AG_URL/healthz"
	assert_output "ok
 200"
	run get "$AG_URL/"
	assert_output --partial '<a href="/metrics">'
	assert_output --partial '<a href="/healthz">'
	run get -o /dev/null -w '%{http_code}' "$AG_URL/nope"
	assert_output 404
	run get -o /dev/null -w '%{http_code}' -X POST -d x=1 "$AG_URL/metrics"
	assert_output 405
	run get -I "$AG_URL/metrics"
	assert_output --partial 'HTTP/1.1 200'
	assert_output --partial 'text/plain; version=0.0.4'
}

@test "/metrics: promtool check metrics finds nothing to lint, on every fixture" {
	command -v promtool > /dev/null || skip "promtool missing"
	for f in $FIXS; do
		start_agent --sysfs-root="$FIX/sysfs/$f" --no-collector.resources
		get "$AG_URL/metrics" > "$BATS_TEST_TMPDIR/$f.txt"
		stop_agent
		run promtool check metrics < "$BATS_TEST_TMPDIR/$f.txt"
		[ "$status" -eq 0 ] && [ -z "$output" ] || fail "$f: $output"
		grep -q '^rdma_port_info{' "$BATS_TEST_TMPDIR/$f.txt" || fail "$f: no rdma_port_info"
	done
}

@test "/metrics: text and OpenMetrics parse with prometheus_client, same samples, # EOF" {
	$PY -c 'import prometheus_client.openmetrics.parser' 2>/dev/null || skip "python3-prometheus-client missing"
	start_agent --sysfs-root="$FIX/sysfs/mlx5" --no-collector.resources
	get "$AG_URL/metrics" > "$BATS_TEST_TMPDIR/t.txt"
	get -D "$BATS_TEST_TMPDIR/h" -H 'Accept: application/openmetrics-text; version=1.0.0' \
		"$AG_URL/metrics" > "$BATS_TEST_TMPDIR/om.txt"
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' "$BATS_TEST_TMPDIR/h"
	[ "$(tail -1 "$BATS_TEST_TMPDIR/om.txt")" = "# EOF" ]
	grep -q '^# UNIT rdma_tx_bytes bytes$' "$BATS_TEST_TMPDIR/om.txt"
	grep -q '^# TYPE rdma_port info$' "$BATS_TEST_TMPDIR/om.txt"
	run $PY - "$BATS_TEST_TMPDIR/t.txt" "$BATS_TEST_TMPDIR/om.txt" <<'PYEOF'
import sys
from prometheus_client.parser import text_string_to_metric_families as tx
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
def samples(fams):
    return sorted((s.name, tuple(sorted(s.labels.items())), s.value)
                  for f in fams for s in f.samples if not s.name.startswith('rdma_scrape_'))
a = samples(tx(open(sys.argv[1]).read()))
b = samples(om(open(sys.argv[2]).read()))
print(len(a), len(b), a == b)
PYEOF
	assert_success
	assert_output --regexp '^[0-9]+ [0-9]+ True$'
}

@test "/metrics: Accept is weighed (q): OpenMetrics only when it is preferred and acceptable" {
	start_agent --sysfs-root="$FIX/sysfs/rxe" --no-collector.resources
	ctype() { get -o /dev/null -w '%{content_type}' -H "Accept: $1" "$AG_URL/metrics"; }
	om='application/openmetrics-text; version=1.0.0; charset=utf-8'
	text='text/plain; version=0.0.4; charset=utf-8'
	# Prometheus's default scrape_protocols, and its header with the text format first
	[ "$(ctype 'application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2')" = "$om" ]
	[ "$(ctype 'text/plain;version=0.0.4;q=0.5,application/openmetrics-text;version=1.0.0;q=0.4,*/*;q=0.3')" = "$text" ]
	# q=0 is "not acceptable"; a weight that is not a qvalue counts for nothing
	[ "$(ctype 'application/openmetrics-text;q=0, */*;q=0.1')" = "$text" ]
	[ "$(ctype 'application/openmetrics-text;q=2')" = "$text" ]
	[ "$(ctype 'Application/OpenMetrics-Text ; q=0.9, text/plain;q=0.8')" = "$om" ]
	[ "$(ctype '*/*')" = "$text" ]
}

# the value of sample NAME{device="D",port="P"} in an exposition file
sample() { sed -n "s/^$2{device=\"$3\",port=\"$4\"} //p" "$1"; }

@test "concepts: each family equals the fixture's own counter files, one origin, no double count" {
	local t=$BATS_TEST_TMPDIR/m.txt s=$FIX/sysfs
	start_agent --sysfs-root="$s/mlx5" --no-collector.resources
	get "$AG_URL/metrics" > "$t"
	# the PMA's data counter in 4-octet words, x4: the PMA wins over any driver counter
	[ "$(sample "$t" rdma_tx_bytes_total mlx5_0 1)" = \
	  "$(( $(cat "$s/mlx5/sys/class/infiniband/mlx5_0/ports/1/counters/port_xmit_data") * 4 ))" ]
	[ "$(sample "$t" rdma_rnr_nak_received_total mlx5_0 1)" = \
	  "$(cat "$s/mlx5/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rnr_nak_retry_err")" ]
	# two counters of one concept on one port are added: req_ + resp_cqe_error
	[ "$(sample "$t" rdma_cqe_error_total mlx5_0 1)" = \
	  "$(( $(cat "$s/mlx5/sys/class/infiniband/mlx5_0/ports/1/hw_counters/req_cqe_error") +
	       $(cat "$s/mlx5/sys/class/infiniband/mlx5_0/ports/1/hw_counters/resp_cqe_error") ))" ]
	stop_agent
	start_agent --sysfs-root="$s/rxe" --no-collector.resources
	get "$AG_URL/metrics" > "$t"
	[ "$(sample "$t" rdma_rx_packets_total rxe0 1)" = \
	  "$(cat "$s/rxe/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts")" ]
	# a concept rxe has no counter of is absent, never 0
	! grep -q '^rdma_cnp_sent_total{' "$t"
	# one sample per (family, device, port): no concept family is written twice
	[ -z "$(grep -o '^rdma_[a-z0-9_]*_total{device="[^"]*",port="[^"]*"}' "$t" | sort | uniq -d)" ]
}

@test "concepts: no concept family shares a name with a raw counter family, on any fixture" {
	for f in $FIXS; do
		start_agent --sysfs-root="$FIX/sysfs/$f" --no-collector.resources --no-collector.concepts
		get "$AG_URL/metrics" | sed -n 's/^# TYPE \([^ ]*\) .*/\1/p' | sort > "$BATS_TEST_TMPDIR/raw"
		stop_agent
		start_agent --sysfs-root="$FIX/sysfs/$f" --no-collector.resources --no-collector.counters \
			--no-collector.port --no-collector.eth --no-collector.fabric
		get "$AG_URL/metrics" | sed -n 's/^# TYPE \([^ ]*\) counter/\1/p' | sort > "$BATS_TEST_TMPDIR/con"
		stop_agent
		[ -s "$BATS_TEST_TMPDIR/con" ] || fail "$f: no concept family"
		run comm -12 "$BATS_TEST_TMPDIR/raw" "$BATS_TEST_TMPDIR/con"
		assert_output ""
	done
}

@test "collectors: switched off they are gone; one that fails says 0 and the rest still report" {
	start_agent --sysfs-root="$FIX/sysfs/rxe" --no-collector.counters --no-collector.concepts
	run get "$AG_URL/metrics"
	refute_output --partial 'rdma_port_sent_pkts_total'
	refute_output --partial 'collector="counters"'
	assert_line 'rdma_scrape_collector_success{collector="port"} 1'
	# a fixture tree has no netlink: the resources collector cannot read, and says so
	assert_line 'rdma_scrape_collector_success{collector="resources"} 0'
	assert_line --regexp '^rdma_port_state_id\{device="rxe0",port="1"\} [0-9]+$'
	assert_line --regexp '^rdma_build_info\{version="[0-9.]+"\} 1$'
	grep -q 'warn: collector resources failed: ' "$AG_LOG"
	stop_agent
	start_agent --sysfs-root="$FIX/sysfs/rxe" --no-collector.port --collector.port
	run get "$AG_URL/metrics"
	assert_line 'rdma_scrape_collector_success{collector="port"} 1'
}

@test "a device deleted and added again: gone from the next scrape, back after, no restart" {
	local root=$BATS_TEST_TMPDIR/sys
	cp -a "$FIX/sysfs/rxe" "$root"
	start_agent --sysfs-root="$root" --no-collector.resources
	run get "$AG_URL/metrics"
	assert_line --partial 'rdma_port_info{device="rxe1",port="1"'
	mv "$root/sys/class/infiniband/rxe1" "$BATS_TEST_TMPDIR/rxe1.away"
	run get "$AG_URL/metrics"
	refute_output --partial 'device="rxe1"'
	assert_line --partial 'rdma_port_info{device="rxe0",port="1"'
	mv "$BATS_TEST_TMPDIR/rxe1.away" "$root/sys/class/infiniband/rxe1"
	run get "$AG_URL/metrics"
	assert_line --partial 'rdma_port_info{device="rxe1",port="1"'
	kill -0 "$AG_PID"
}

@test "hostile clients: a slow request is dropped, huge headers refused, garbage refused, service goes on" {
	start_agent --sysfs-root="$FIX/sysfs/rxe" --web.timeout=1 --no-collector.resources
	local hp=${AG_URL#http://}
	run $PY - "${hp%:*}" "${hp##*:}" <<'PYEOF'
import socket, sys, time
host, port = sys.argv[1], int(sys.argv[2])
def conn():
    s = socket.create_connection((host, port), timeout=15)
    return s
def drain(s):
    data = b''
    while True:
        try:
            b = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not b:
            break
        data += b
    return data
# slowloris: half a request line, then nothing; the server closes it after --web.timeout
s = conn(); s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n')
t0 = time.monotonic(); d = drain(s); held = time.monotonic() - t0
print('slow closed', held < 14)
# a header of 100 KiB
s = conn(); s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: ' + b'a' * 100000 + b'\r\n\r\n')
d = drain(s)
print('huge', d.split(b'\r\n', 1)[0].split(b' ')[1:2] in ([b'431'], [b'413'], [b'400']) or d == b'')
# garbage
s = conn(); s.sendall(b'\x00\x01garbage\r\n\r\n'); d = drain(s)
print('garbage', not d.startswith(b'HTTP/1.1 200'))
# 200 connections opened at once, then dropped
socks = [conn() for _ in range(200)]
for x in socks: x.close()
PYEOF
	assert_success
	assert_line 'slow closed True'
	assert_line 'huge True'
	assert_line 'garbage True'
	run get -w ' %{http_code}' "$AG_URL/healthz"
	assert_output "ok
 200"
	run get "$AG_URL/metrics"
	assert_line --partial 'rdma_port_info{device="rxe0"'
}

@test "signals: SIGHUP is logged and it serves on; SIGTERM exits 0 with one line" {
	start_agent --sysfs-root="$FIX/sysfs/rxe"
	kill -HUP "$AG_PID"
	wait_until 10 "the SIGHUP log line" grep -q 'SIGHUP' "$AG_LOG"
	run get "$AG_URL/healthz"
	assert_output ok
	kill -TERM "$AG_PID"
	local rc=0
	wait "$AG_PID" || rc=$?
	AG_PID=
	[ "$rc" -eq 0 ] || fail "exit status $rc after SIGTERM"
	grep -q 'info: Terminated: stopping' "$AG_LOG"
}

@test "usage: a bad option or value is exit 2 and one line; an address in use is exit 1" {
	run --separate-stderr rdmadiag_exporter --web.max-requests=0
	[ "$status" -eq 2 ]
	assert_equal "${stderr_lines[0]}" "rdmadiag_exporter: invalid --web.max-requests '0': want a whole number 1..1024"
	run --separate-stderr rdmadiag_exporter --log.level=loud
	[ "$status" -eq 2 ]
	run --separate-stderr rdmadiag_exporter --web.listen-address=nocolon
	[ "$status" -eq 1 ]
	assert_equal "$stderr" "rdmadiag_exporter: invalid listen address 'nocolon': want HOST:PORT or :PORT"
	start_agent --sysfs-root="$FIX/sysfs/rxe"
	run --separate-stderr rdmadiag_exporter --web.listen-address="${AG_URL#http://}"
	[ "$status" -eq 1 ]
	assert_equal "$stderr" "rdmadiag_exporter: cannot listen on ${AG_URL#http://}: Address already in use"
}

@test "IPv6: [::1]:0 serves /healthz" {
	$PY -c 'import socket; s=socket.socket(socket.AF_INET6); s.bind(("::1",0))' 2>/dev/null ||
		skip "no IPv6 loopback here"
	AG_LOG=$BATS_TEST_TMPDIR/agent6.log
	rdmadiag_exporter --web.listen-address='[::1]:0' --sysfs-root="$FIX/sysfs/rxe" 2> "$AG_LOG" &
	AG_PID=$!
	wait_until 10 "the agent's 'listening on' line" grep -q 'listening on \[::1\]:' "$AG_LOG"
	run get "http://$(sed -n 's/.*listening on //p' "$AG_LOG")/healthz"
	assert_output ok
}

@test "a real Prometheus scrapes it (OpenMetrics) and its query equals the fixture's counter" {
	command -v prometheus > /dev/null || skip "prometheus missing"
	start_agent --sysfs-root="$FIX/sysfs/mlx5" --no-collector.resources
	local d=$BATS_TEST_TMPDIR/prom
	mkdir -p "$d"
	cat > "$d/prometheus.yml" <<YML
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: rdma
    static_configs: [ { targets: ['${AG_URL#http://}'] } ]
YML
	start_prometheus "$d"
	wait_until 60 "Prometheus to scrape the agent (up == 1)" prom_up rdma
	run prom_query 'rdma_rnr_nak_received_total{device="mlx5_0",port="1"}'
	local want
	want=$(cat "$FIX/sysfs/mlx5/sys/class/infiniband/mlx5_0/ports/1/hw_counters/rnr_nak_retry_err")
	assert_output --regexp "\"value\":\[[0-9.]+,\"$want\"\]"
	run prom_query 'rdma_port_info{device="mlx5_0"}'
	assert_output --partial '"driver":"mlx5"'
	run prom_query 'scrape_samples_scraped{job="rdma"} > 100'
	assert_output --partial '"value"'
}

@test "connections without tracefs rights: success 0, said once in the log, the rest at work" {
	command -v setpriv > /dev/null || skip "setpriv missing"
	[ "$(id -u)" = 0 ] || skip "needs root to run the agent as nobody"
	local i
	AG_LOG=$BATS_TEST_TMPDIR/agent.log
	chmod o+rx "$BATS_TEST_TMPDIR"
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --bounding-set=-all \
		"$ROOT/tools/rdmadiag_exporter/rdmadiag_exporter" --web.listen-address=127.0.0.1:0 \
		--sysfs-root="$FIX/sysfs/rxe" 2> "$AG_LOG" &
	AG_PID=$!
	wait_until 10 "the agent's 'listening on' line" grep -q 'listening on' "$AG_LOG"
	AG_URL="http://$(sed -n 's/.*listening on //p' "$AG_LOG")"
	for i in 1 2 3; do
		run get "$AG_URL/metrics"
		assert_line 'rdma_scrape_collector_success{collector="connections"} 0'
		assert_line 'rdma_scrape_collector_success{collector="counters"} 1'
		refute_output --partial 'rdma_connections_total'
	done
	# one line for connections, one for resources (no netlink on a fixture): not one per scrape
	[ "$(grep -c 'collector connections failed: ' "$AG_LOG")" -eq 1 ] || fail "$(cat "$AG_LOG")"
	[ "$(grep -c 'collector resources failed: ' "$AG_LOG")" -eq 1 ] || fail "$(cat "$AG_LOG")"
	grep -qE 'collector connections failed: (tracefs is not mounted|no permission to use tracefs)' "$AG_LOG"
}

@test "every family the rules and the dashboard rely on is in the man page and in a scrape" {
	local fams=$ROOT/contrib/prometheus/families.txt got=$BATS_TEST_TMPDIR/got f
	# the families only a live host has: its QPs and cm_ids and max_qp (netlink, verbs),
	# its connections (tracefs); the tier (tests/vm/pair/57-agent-fleet) scrapes those
	local live=" rdma_connections_total rdma_qps rdma_device_max_qp "
	: > "$got"
	for f in $FIXS; do
		start_agent --sysfs-root="$FIX/sysfs/$f" --no-collector.resources
		get "$AG_URL/metrics" >> "$got"
		stop_agent
	done
	# mlx5 with its optional CC counters on (rdma statistic set ... optional-counters):
	# cc_rx_cnp_pkts is the port's only cnp_received counter
	cp -a "$FIX/sysfs/mlx5" "$BATS_TEST_TMPDIR/mlx5cc"
	local hw=$BATS_TEST_TMPDIR/mlx5cc/sys/class/infiniband/mlx5_0/ports/1/hw_counters
	echo 7 > "$hw/cc_rx_cnp_pkts"
	# cc_rx_ce_pkts counts the CE packets np_ecn_marked_roce_packets counts: left out
	echo 1000000 > "$hw/cc_rx_ce_pkts"
	start_agent --sysfs-root="$BATS_TEST_TMPDIR/mlx5cc" --no-collector.resources
	get "$AG_URL/metrics" > "$BATS_TEST_TMPDIR/cc"
	stop_agent
	grep -qx 'rdma_cnp_received_total{device="mlx5_0",port="1"} 7' "$BATS_TEST_TMPDIR/cc"
	grep -qx "rdma_ecn_marked_total{device=\"mlx5_0\",port=\"1\"} $(cat "$hw/np_ecn_marked_roce_packets")" \
		"$BATS_TEST_TMPDIR/cc"
	grep -q '^rdma_port_cc_rx_ce_pkts_total{device="mlx5_0",port="1",counter="cc_rx_ce_pkts",concept="ecn_marked"} 1000000$' \
		"$BATS_TEST_TMPDIR/cc"
	cat "$BATS_TEST_TMPDIR/cc" >> "$got"
	# the Ethernet families from the OFED fixture's recorded ethtool statistics
	RDMADIAG_ETHTOOL_REPLAY=$FIX/fabric/eth-prio3.txt start_agent --sysfs-root="$FIX/fabric/ofed"
	get "$AG_URL/metrics" >> "$got"
	for f in $(cat "$fams"); do
		# named in the man page, or a concept family (the page gives the rule and
		# rdmastat explain CONCEPT the meaning)
		grep -qF -- "$f" "$ROOT/man/man8/rdmadiag_exporter.8" ||
			{ [[ $f =~ ^rdma_(.*)_total$ ]] && rdmastat explain "${BASH_REMATCH[1]}" > /dev/null; } ||
			fail "$f is neither in rdmadiag_exporter(8) nor a catalogue concept"
		[[ $live == *" $f "* ]] && continue
		grep -q "^$f{" "$got" || fail "$f: in families.txt, in no scrape of the fixtures"
	done
}

@test "a stuck read: the scrape answers by its deadline, the stuck group says 0, the rest report" {
	# tests/fixtures/preload/block_open.c: openat() of a file named zz_block* waits until
	# the release file exists, as a read of a hung driver's counter does
	local t=$BATS_TEST_TMPDIR so=$BATS_TEST_TMPDIR/block.so i
	${CC:-cc} -shared -fPIC -o "$so" "$FIX/preload/block_open.c" -ldl
	cp -a "$FIX/sysfs/rxe" "$t/sys"
	echo 5 > "$t/sys/sys/class/infiniband/rxe0/ports/1/hw_counters/zz_block_x"
	# (a SANITIZE build: ASan wants to be the first library, and the shim goes before it)
	LD_PRELOAD=$so BLOCK_MARK=$t/mark BLOCK_RELEASE=$t/release \
		ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
		start_agent --sysfs-root="$t/sys" --scrape.timeout=1 --web.max-requests=1 \
		--no-collector.resources --no-collector.connections
	# /healthz while a scrape is stuck
	get "$AG_URL/metrics" > "$t/m1" &
	local bg=$!
	wait_until 10 "the counters read to block" test -s "$t/mark"
	run get -w ' %{http_code}' "$AG_URL/healthz"
	assert_output "ok
 200"
	wait "$bg"
	run cat "$t/m1"
	assert_line 'rdma_scrape_collector_success{collector="counters"} 0'
	assert_line 'rdma_scrape_collector_success{collector="concepts"} 0'
	assert_line 'rdma_scrape_collector_success{collector="port"} 1'
	assert_line 'rdma_scrape_collector_success{collector="fabric"} 1'
	assert_line --partial 'rdma_port_info{device="rxe0",port="1"'
	refute_output --partial 'rdma_port_sent_pkts_total'
	grep -q "collector counters failed: still running at the scrape's 1 s deadline" "$AG_LOG"
	# the group's one thread (--web.max-requests=1) is still stuck: no second one
	run get "$AG_URL/metrics"
	assert_line 'rdma_scrape_collector_success{collector="counters"} 0'
	grep -q 'collector counters failed: not started: its earlier runs are still stuck' "$AG_LOG"
	[ "$(wc -l < "$t/mark")" -eq 1 ] || fail "a second thread blocked: $(cat "$t/mark")"
	# released: the stuck thread ends, and the next scrape has the counters again
	touch "$t/release"
	ok_again() { get "$AG_URL/metrics" | grep -qx 'rdma_scrape_collector_success{collector="counters"} 1'; }
	wait_until 20 "the counters collector to work again" ok_again
	run get "$AG_URL/metrics"
	assert_line --regexp '^rdma_port_sent_pkts_total\{device="rxe0",port="1",counter="sent_pkts",concept="tx_packets"\} [0-9]+$'
	grep -q 'collector counters works again' "$AG_LOG"
}

@test "soak: 1480 scrapes, 8 at a time, and the agent's memory and descriptors stay put" {
	start_agent --sysfs-root="$FIX/sysfs/mlx5" --web.max-requests=8
	local hp=${AG_URL#http://}
	run $PY - "${hp%:*}" "${hp##*:}" "$AG_PID" <<'PYEOF'
import http.client, os, sys, threading
host, port, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def rss_fds():
    rss = [l for l in open(f'/proc/{pid}/status') if l.startswith('VmRSS:')][0].split()[1]
    return int(rss), len(os.listdir(f'/proc/{pid}/fd')), len(os.listdir(f'/proc/{pid}/task'))
# a SANITIZE build (libasan mapped): ASan's allocator keeps freed memory in quarantine, so
# RSS grows by design there (leaks are LeakSanitizer's to judge, at exit)
asan = any('libasan' in l for l in open(f'/proc/{pid}/maps'))
bad = []
def client(n):
    for _ in range(n):
        c = http.client.HTTPConnection(host, port, timeout=30)
        c.request('GET', '/metrics')
        r = c.getresponse()
        body = r.read()
        if r.status != 200 or b'rdma_build_info' not in body:
            bad.append(r.status)
        c.close()
def round(n):
    ts = [threading.Thread(target=client, args=(n,)) for _ in range(8)]
    for t in ts: t.start()
    for t in ts: t.join()
# the descriptors of the agent alone, then with one warm counters handle (one scrape at a
# time): the pool keeps two handles at most, so the bound is two handles' worth
f0 = rss_fds()[1]
client(3)
f1 = rss_fds()[1]
bound = f0 + 2 * (f1 - f0) + 2
round(85)
a = rss_fds()
round(100)
b = rss_fds()
print('bad', len(bad))
print('rss grew', b[0] - a[0], 'KiB; fds', f0, f1, a[1], b[1], '; threads', a[2], b[2])
print('rss ok', asan or b[0] - a[0] < 2048)
# a connection's socket and thread may still be closing as it is measured (+2): a leak of
# one per scrape would be hundreds
print('fds ok', a[1] <= bound and b[1] <= bound)
print('threads ok', b[2] <= a[2] + 2)
PYEOF
	assert_success
	assert_line 'bad 0'
	assert_line 'rss ok True'
	assert_line 'fds ok True'
	assert_line 'threads ok True'
}

@test "the agent reads one GID a port (its netdev), not every slot of the GID table" {
	# 1024 slots of a GID table as rxe has them, the first populated: strace counts the
	# agent's opens under gids/ in one scrape
	command -v strace > /dev/null || skip "strace missing"
	local t=$BATS_TEST_TMPDIR/sys g i
	cp -a "$FIX/sysfs/rxe" "$t"
	g=$t/sys/class/infiniband/rxe0/ports/1/gids
	for i in $(seq 16 1023); do echo 0000:0000:0000:0000:0000:0000:0000:0000 > "$g/$i"; done
	AG_LOG=$BATS_TEST_TMPDIR/agent.log
	strace -f -e trace=openat -o "$BATS_TEST_TMPDIR/st" rdmadiag_exporter --web.listen-address=127.0.0.1:0 \
		--sysfs-root="$t" --no-collector.connections 2> "$AG_LOG" &
	AG_PID=$!
	wait_until 20 "the agent's 'listening on' line" grep -q 'listening on' "$AG_LOG"
	AG_URL="http://$(sed -n 's/.*listening on //p' "$AG_LOG")"
	run get "$AG_URL/metrics"
	assert_line --partial 'rdma_port_info{device="rxe0",port="1",netdev="veth0"'
	# strace's child is the agent: end it, and strace with it
	kill -TERM "$(pgrep -P "$AG_PID")"
	wait "$AG_PID" || :
	AG_PID=
	n=$(grep -c 'rxe0/ports/1/gids/[0-9]' "$BATS_TEST_TMPDIR/st")
	[ "$n" -le 2 ] || fail "$n GID files opened for one scrape"
	# rdmastat devices, which shows GIDs, still reads them all
	run env RDMADIAG_SYSFS_ROOT="$t" rdmastat devices rxe0
	assert_output --partial 'fe80:0000:0000:0000:b42a:c1ff:fe00:0003'
}

@test "a warm scrape reads each counter through a kept descriptor, opening none" {
	# the sampling collector gets the pooled handle that keeps its counter files open, not
	# the discovery's or the resources collector's (each group of collectors takes a
	# handle; once, whichever came first took the warm one, and every scrape opened, read
	# and closed each counter file)
	command -v strace > /dev/null || skip "strace missing"
	AG_LOG=$BATS_TEST_TMPDIR/agent.log
	strace -f -e trace=openat,pread64 -o "$BATS_TEST_TMPDIR/st" rdmadiag_exporter \
		--web.listen-address=127.0.0.1:0 --sysfs-root="$FIX/sysfs/mlx5" \
		--no-collector.connections 2> "$AG_LOG" &
	AG_PID=$!
	wait_until 20 "the agent's 'listening on' line" grep -q 'listening on' "$AG_LOG"
	AG_URL="http://$(sed -n 's/.*listening on //p' "$AG_LOG")"
	local i n0 n1
	for i in 1 2 3; do run get "$AG_URL/metrics"; assert_success; done
	n0=$(grep -c 'openat(.*"rx_write_requests"' "$BATS_TEST_TMPDIR/st")
	for i in 1 2 3 4; do run get "$AG_URL/metrics"; assert_success; done
	assert_line --partial 'counter="rx_write_requests"'
	n1=$(grep -c 'openat(.*"rx_write_requests"' "$BATS_TEST_TMPDIR/st")
	kill -TERM "$(pgrep -P "$AG_PID")"
	wait "$AG_PID" || :
	AG_PID=
	[ "$n0" -ge 1 ] || fail "strace saw no open of rx_write_requests in the first scrapes"
	[ "$n1" = "$n0" ] || fail "4 warm scrapes opened rx_write_requests $((n1 - n0)) more times"
}
