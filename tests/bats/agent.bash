# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Starting and stopping rdmadiag_exporter in a bats test (load agent, after load helper and
# load wait): rdmadiag_exporter.bats and rdmadiag_exporter_web.bats.

# start the agent in the background with ARGS on a free port of 127.0.0.1; sets AG_PID,
# AG_ADDR (127.0.0.1:PORT), AG_URL (http://AG_ADDR) and AG_LOG once the agent has logged
# that it listens
start_agent() {
	AG_LOG=$BATS_TEST_TMPDIR/agent.log
	: > "$AG_LOG"
	rdmadiag_exporter --web.listen-address=127.0.0.1:0 "$@" 2> "$AG_LOG" &
	AG_PID=$!
	wait_until 10 "the agent's 'listening on' line" grep -q 'listening on' "$AG_LOG"
	AG_ADDR=$(sed -n 's/.*listening on //p' "$AG_LOG" | head -1)
	AG_URL="http://$AG_ADDR"
}

stop_agent() {
	[ -n "${AG_PID:-}" ] || return 0
	kill -TERM "$AG_PID" 2> /dev/null || :
	wait "$AG_PID" || :
	AG_PID=
}

# start Debian's prometheus with DIR/prometheus.yml, its data in DIR/data and its log in
# DIR/log, on a free port of 127.0.0.1; sets PROM_PID and PROM_PORT
start_prometheus() {
	local d=$1
	PROM_PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" > "$d/log" 2>&1 &
	PROM_PID=$!
}

# prom_query QUERY: the JSON answer of the Prometheus started above
prom_query() {
	curl -sS --max-time 5 "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1"
}

# prom_up JOB: Prometheus scraped JOB's target successfully (up == 1)
prom_up() {
	prom_query "up{job=\"$1\"}" 2> /dev/null | grep -q '"value":\[[0-9.]*,"1"\]'
}
