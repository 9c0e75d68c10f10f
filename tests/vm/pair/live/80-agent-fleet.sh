# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The host side of pair/80-agent-fleet.sh, DURING the pair (pair/run.sh starts it before the
# guests boot): Debian's Prometheus scrapes the two guests' rdmadiag_exporter through their
# management NICs (127.0.0.1:PAIR_FWD_SERVER as instance pair-server, PAIR_FWD_CLIENT as
# pair-client, job rdma, every 2 s) and evaluates the tree's alerting rules every second;
# at each step of the guests (their ready markers in the common share) it asks Prometheus's
# HTTP API, compares with what the guests read themselves, and answers (the marker
# 80-agent-fleet.STEP.host) so that the guests go on.
#
# The rules are a test copy of contrib/prometheus/rdmadiag-rules.yml with every 'for:' cut
# to 1s (sed, below): the real file's 'for: 2m' of RdmaPortDown would add two minutes to the
# tier; the expressions are the real ones (promtool test rules covers the real durations).
# Scrapes every 2 s with a 2 s timeout, not 1 s: under TCG a scrape of the agent takes 0.2 to
# 2 s (0.4 to 1 s of it the port collector, whose device discovery reads each of the 1024
# GID slots of rxe's port), and a timeout must not exceed the interval.
N=80-agent-fleet S=$PAIR_SYNC W=$PAIR_LIVE
STEPS="up conn down upagain gone back panels"
ack() { : > "$S/$N.$1.host"; }
# give up: answer every step, so that the guests go on without waiting for the host
give_up() { local s; for s in $STEPS; do ack "$s"; done; exit 0; }
stop_prom() {
	[ -n "${PROM:-}" ] || return 0
	kill "$PROM" 2>/dev/null && wait "$PROM"
	rm -f "$W/prometheus.pid"
	PROM=
}
trap stop_prom EXIT
command -v prometheus > /dev/null && command -v promtool > /dev/null ||
	{ tap_fail "prometheus and promtool are installed (apt-get install prometheus)"; give_up; }
[ -n "${PAIR_FWD_SERVER:-}" ] && [ -n "${PAIR_FWD_CLIENT:-}" ] ||
	{ tap_fail "pair/run.sh forwarded a host port to each guest's 14791"; give_up; }

sed -E 's/^( *for:) .*/\1 1s/' "$ROOT/contrib/prometheus/rdmadiag-rules.yml" > "$W/rules.yml"
tap_ok "promtool check rules accepts the test copy of the rules (every 'for:' 1s)" \
	promtool check rules "$W/rules.yml" || give_up
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$W/prometheus.yml" <<EOF
global: { scrape_interval: 2s, scrape_timeout: 2s, evaluation_interval: 1s }
rule_files: ['$W/rules.yml']
scrape_configs:
  - job_name: rdma
    static_configs:
      - targets: ['127.0.0.1:$PAIR_FWD_SERVER']
        labels: { instance: pair-server }
      - targets: ['127.0.0.1:$PAIR_FWD_CLIENT']
        labels: { instance: pair-client }
EOF
prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/data" \
	--web.listen-address="127.0.0.1:$PORT" > "$W/prometheus.log" 2>&1 &
PROM=$!
echo "$PROM" > "$W/prometheus.pid"
API=http://127.0.0.1:$PORT/api/v1

# pq EXPR: the query's JSON; plines EXPR [JQ]: its samples, one line each (JQ makes the line
# from a result; default 'labels value'), sorted; pval EXPR: the first sample's value
# (at time QT when set: a scrape's own time, see at)
pq() {
	curl -sS --max-time 5 "$API/query" --data-urlencode "query=$1" ${QT:+--data-urlencode "time=$QT"} \
		2>> "$W/curl.log"
}
ALL='"\(.metric | to_entries | map("\(.key)=\(.value)") | join(",")) \(.value[1])"'
plines() { pq "$1" | jq -r ".data.result[] | ${2:-$ALL}" | LC_ALL=C sort; }
pval() { pq "$1" | jq -r '.data.result[0].value[1] // empty'; }
# note STEP ROLE [KIND]: a guest's reading at STEP ('KIND NAME VALUE' lines), KIND's lines as
# 'NAME VALUE', sorted
note() {
	local f=$S/$N.$1.$2
	if [ -n "${3:-}" ]; then awk -v k="$3" '$1 == k { print $2, $3 }' "$f" 2>/dev/null | LC_ALL=C sort
	else cat "$f" 2>/dev/null; fi
}
nval() { note "$1" "$2" "$3" | awk -v n="$4" '$1 == n { print $2 }'; }
role_of() { [ "$1" = pair-server ] && echo server || echo client; }

# the pair ended (pair/run.sh) or a guest's script did: no step will come
ended() {
	[ -e "$S/pair.ended" ] || [ -f "$PAIR_SERVER/tap/$N.status" ] || [ -f "$PAIR_CLIENT/tap/$N.status" ]
}
# await_step NAME SECS: both guests are ready for step NAME (T_SEEN: when that was seen here)
await_step() {
	local end=$((SECONDS + $2))
	until [ -e "$S/$N.$1.server.ready" ] && [ -e "$S/$N.$1.client.ready" ]; do
		if ended || [ $SECONDS -ge "$end" ]; then
			tap_fail "both guests came to step $1 (within $2 s)"
			give_up
		fi
		sleep 0.1
	done
	T_SEEN=$(date +%s.%N)
}
# seconds since the step was seen, to 0.1 s
since() { awk -v a="$T_SEEN" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# scraped_after INSTANCE...: each one's latest scrape began after T_SEEN and succeeded, every
# collector with it (the agent answers by its own deadline, 1.5 s here: a collector that
# missed it reports 0 and its series are not in that scrape): what it read was read after
# the guest's own reading; its time is AT[INSTANCE].  The checks of an
# instance query at that time (at INSTANCE CMD...): a scrape may still time out, and a
# failed scrape makes every series of its target stale at once: 'now' could be just after one.
declare -A AT=()
scraped_after() {
	local i t sel
	for i in "$@"; do
		# (timestamp() of a selector is its sample's time; of any other expression, the
		# query's: hence 'and' after it, not '== 1' inside)
		sel="job=\"rdma\",instance=\"$i\""
		t=$(QT='' pval "timestamp(up{$sel}) and up{$sel} == 1 and on (instance)
			min by (instance) (rdma_scrape_collector_success{$sel}) == 1")
		[ -n "$t" ] && awk -v a="$t" -v b="$T_SEEN" 'BEGIN { exit !(a > b) }' || return 1
		AT[$i]=$t
	done
}
await_scrape() {
	await 15 "a scrape of $* after the guests' step" scraped_after "$@" &&
		log "step seen at $T_SEEN: the scrapes of $* at ${AT[*]}"
}
at() { local QT=${AT[$1]:-}; shift; "$@"; }

# --- up: both agents scraped; each instance's counters = its guest's own reading ------------
both_up() { [ "$(plines 'up{job="rdma"}' '"\(.metric.instance)=\(.value[1])"' | paste -sd' ')" = "pair-client=1 pair-server=1" ]; }
await_step up "${VM_PAIR_TIMEOUT:-240}"
await 30 "Prometheus scrapes both agents (up 1)" both_up &&
	tap_pass "Prometheus scrapes both agents: up{job=\"rdma\"} is 1 for pair-server and pair-client"
await_scrape pair-server pair-client
# check_counters STEP INSTANCE...: Prometheus's rxe0/1 of each INSTANCE (all its series in one
# query, at its scrape's time) = its guest's reading at STEP; one python3 for it all: on a
# busy 2-core host a curl and a jq each cost a few hundred ms
check_counters() {
	local st=$1 i args=()
	shift
	for i in "$@"; do args+=("$i" "${AT[$i]:-}" "$S/$N.$st.$(role_of "$i")"); done
	python3 - "$API" "${args[@]}" <<'EOF'
import json, sys, urllib.parse, urllib.request
api = sys.argv[1]
# rxe's concepts and the counter each one is (the catalogue's; independent of the agent)
concepts = {"duplicate_request": "duplicate_request", "link_down": "link_downed",
    "nak_seq_received": "rcvd_seq_err", "nak_seq_sent": "out_of_seq_request",
    "retry_exceeded": "retry_exceeded_err", "rnr_nak_received": "rcvd_rnr_err",
    "rnr_nak_sent": "send_rnr_err", "rnr_retry_exceeded": "retry_rnr_exceeded_err",
    "rx_packets": "rcvd_pkts", "transport_retry": "completer_retry_err",
    "tx_error": "send_err", "tx_packets": "sent_pkts"}
def check(inst, at, notef):
    note = {}
    try:
        lines = open(notef).read().splitlines()
    except OSError as e:
        print("not ok - %s: its guest wrote its reading (%s)" % (inst, e))
        return
    for line in lines:
        k = line.split()
        if len(k) == 3:
            note.setdefault(k[0], {})[k[1]] = k[2]
    q = {"query": '{instance="%s",device="rxe0",port="1"}' % inst}
    if at:
        q["time"] = at
    with urllib.request.urlopen(api + "/query?" + urllib.parse.urlencode(q), timeout=10) as r:
        res = json.load(r)["data"]["result"]
    raw, cm, conc, one = {}, {}, {}, {}
    for x in res:
        m, v = x["metric"], x["value"][1]
        n = m["__name__"]
        if "counter" in m:
            (cm if n.startswith("rdma_cm_") else raw)[m["counter"]] = v
        elif n.endswith("_total") and "statistic" not in m and not n.startswith("rdma_cm_"):
            conc[n[5:-6]] = v
        else:
            one[n] = (m, v)
    def eq(name, want, got):
        print(("ok - " if want == got else "not ok - ") + name)
        if want == got:
            return
        if isinstance(want, dict):
            for k in sorted(set(want) | set(got)):
                if want.get(k) != got.get(k):
                    print("#   %s: want %s, got %s" % (k, want.get(k), got.get(k)))
        else:
            print("# expected: %s\n#      got: %s" % (want, got))
    eq("%s: the guest read its counters at a quiescent moment (rdma statistic before = after)" % inst,
       "yes", note.get("reading", {}).get("quiescent"))
    eq("%s: each of rxe0/1's %d hw counters in Prometheus = rdma statistic show link rxe0/1 there"
       % (inst, len(raw)), note.get("stat", {}), raw)
    eq("%s: ... = its sysfs hw_counters" % inst, note.get("hwc", {}), raw)
    eq("%s: each of rxe0/1's %d CM counters in Prometheus = its sysfs cm_*/" % (inst, len(cm)),
       note.get("cm", {}), cm)
    eq("%s: rxe0/1's concept families are rxe's %d, each = its counter in rdma statistic"
       % (inst, len(concepts)), {c: note.get("stat", {}).get(k) for c, k in concepts.items()}, conc)
    p = note.get("port", {})
    info = one.get("rdma_port_info", ({}, ""))[0]
    want = "state=%s phys=%s rate=%.0f eth0 rxe Ethernet %s" % (p.get("state"), p.get("phys_state"),
        float(p.get("rate_gbps", "nan")) * 125000000, p.get("node_guid"))
    got = "state=%s phys=%s rate=%s %s %s %s %s" % (
        one.get("rdma_port_state_id", (0, None))[1], one.get("rdma_port_physical_state_id", (0, None))[1],
        one.get("rdma_port_rate_bytes_per_second", (0, None))[1], info.get("netdev"), info.get("driver"),
        info.get("link_layer"), info.get("node_guid"))
    eq("%s: rxe0/1's state, physical state, rate (bytes/s) and info = its sysfs" % inst, want, got)

for k in range(2, len(sys.argv), 3):
    check(*sys.argv[k:k + 3])
EOF
}
check_counters up pair-server pair-client
tap_check "the two guests' readings differ (so each instance's equality names its own guest)" \
	[ "$(note up server cm)" != "$(note up client cm)" ]
# each instance's own scrape: collectors, connections
per_inst() { local i; for i in pair-server pair-client; do at "$i" plines "${1//INST/$i}" "${2:-}"; done; }
tap_eq "both agents have the seven collectors, all succeeding (rdma_scrape_collector_success: count, min)" \
	"pair-server 7 1 pair-client 7 1" \
	"$(for i in pair-server pair-client; do
		echo "$i $(at $i pval "count(rdma_scrape_collector_success{instance=\"$i\"})") $(at $i pval "min(rdma_scrape_collector_success{instance=\"$i\"})")"
	done | paste -sd' ')"
tap_eq "both agents trace connections (collector connections: 1 on both) and have counted none yet" \
	"pair-server=1 pair-client=1|" \
	"$(per_inst 'rdma_scrape_collector_success{collector="connections",instance="INST"}' '"\(.metric.instance)=\(.value[1])"' | paste -sd' ')|$(per_inst 'rdma_connections_total{instance="INST"}')"
diag "step up: $(since) s"
ack up

# --- conn: a connection to a port nobody listens on, from the server guest -----------------
await_step conn 60
diag "server: rping -c to 198.18.1.2:7999 exited $(cat "$S/$N.rping.server" 2>/dev/null)"
one_failure() { [ "$(pval 'sum(rdma_connections_total{instance="pair-server"})')" = 1 ]; }
await 15 "pair-server counts one connection" one_failure
await_scrape pair-server pair-client
tap_eq "rdma_connections_total: pair-server counts exactly that one, failed with cause no_listener; pair-client none (the passive side has no cm_id: its CM rejects the REQ itself)" \
	"pair-server active failed no_listener rxe0 1" \
	"$(per_inst 'rdma_connections_total{instance="INST"}' '"\(.metric.instance) \(.metric.side) \(.metric.outcome) \(.metric.cause) \(.metric.device) \(.value[1])"')"
diag "$(per_inst 'rdma_connections_total{instance="INST"}')"
cfail() { [ -n "$(plines 'ALERTS{alertname="RdmaConnectionFailures",alertstate="firing"}')" ]; }
await 10 "RdmaConnectionFailures fires" cfail &&
	tap_eq "RdmaConnectionFailures fires for pair-server alone, cause no_listener, counting 1 (rdma:connection_failures:increase10m: the series was born at 1)" \
		"pair-server rxe0 no_listener|pair-server rxe0 1" \
		"$(plines 'ALERTS{alertname="RdmaConnectionFailures"}' '"\(.metric.instance) \(.metric.device) \(.metric.cause)"')|$(plines 'rdma:connection_failures:increase10m' '"\(.metric.instance) \(.metric.device) \(.value[1])"')"
check_counters conn pair-server pair-client
# what moved between the two readings, in each guest's own sysfs (= Prometheus, above)
moved() {
	LC_ALL=C join <(note up "$1" "$2") <(note conn "$1" "$2") | awk '$3 != $2 { printf "%s%s +%d", s, $1, $3 - $2; s = " " }'
}
tap_eq "server: its CM sent a REQ and received a REJ (sysfs = Prometheus); rxe sent and received one packet, a send each way (the MADs on QP1)" \
	"cm_rx_msgs/rej +1 cm_tx_msgs/req +1|rcvd_pkts +1 rdma_recvs +1 rdma_sends +1 sent_pkts +1" "$(moved server cm)|$(moved server stat)"
tap_eq "client: its CM received the REQ and sent the REJ; rxe likewise one packet and one send each way" \
	"cm_rx_msgs/req +1 cm_tx_msgs/rej +1|rcvd_pkts +1 rdma_recvs +1 rdma_sends +1 sent_pkts +1" "$(moved client cm)|$(moved client stat)"
diag "ALERTS now: $(plines ALERTS '"\(.metric.alertname){\(.metric.instance)} \(.metric.alertstate)"' | paste -sd,)"
diag "step conn: $(since) s"
ack conn

# --- down / upagain: the client's eth0 down and up --------------------------------------
await_step down 60
ALERT='ALERTS{alertname="RdmaPortDown"}'
firing() { [ -n "$(plines 'ALERTS{alertname="RdmaPortDown",alertstate="firing"}')" ]; }
await 20 "RdmaPortDown fires" firing &&
	tap_eq "RdmaPortDown fires for pair-client's rxe0/1 on eth0 alone, $(since) s after the port went DOWN (for: 1s here)" \
		"__name__=ALERTS,alertname=RdmaPortDown,alertstate=firing,device=rxe0,instance=pair-client,job=rdma,link_layer=Ethernet,netdev=eth0,port=1,severity=critical 1" \
		"$(plines "$ALERT")"
await_scrape pair-client
tap_eq "pair-client: rdma_port_state_id is its sysfs state (1, DOWN); link_down = its link_downed" \
	"$(nval down client port state) $(nval down client stat link_downed)" \
	"$(at pair-client pval 'rdma_port_state_id{instance="pair-client"}') $(at pair-client pval 'rdma_link_down_total{instance="pair-client"}')"
diag "link_downed at up: $(nval up client stat link_downed), at down: $(nval down client stat link_downed)"
diag "step down: $(since) s"
ack down
await_step upagain 60
resolved() { [ -z "$(plines "$ALERT")" ]; }
await 20 "RdmaPortDown resolves" resolved &&
	tap_pass "RdmaPortDown resolves $(since) s after eth0 came up (nothing in ALERTS)"
# the driver's link_downed moved with the port (sysfs): the flapping rule's second half
flapping() { [ -n "$(plines 'ALERTS{alertname="RdmaPortFlapping",alertstate="firing",instance="pair-client"}')" ]; }
await 10 "RdmaPortFlapping fires" flapping &&
	tap_eq "RdmaPortFlapping fires for pair-client alone (its link_downed went $(nval up client stat link_downed) -> $(nval down client stat link_downed))" \
		"pair-client rxe0 1 warning" \
		"$(plines 'ALERTS{alertname="RdmaPortFlapping"}' '"\(.metric.instance) \(.metric.device) \(.metric.port) \(.metric.severity)"')"
await_scrape pair-client
tap_eq "pair-client: rdma_port_state_id is 4 (ACTIVE) again, as its sysfs" \
	"$(nval upagain client port state) 4" "$(at pair-client pval 'rdma_port_state_id{instance="pair-client"}') 4"
diag "ALERTS now: $(plines ALERTS '"\(.metric.alertname){\(.metric.instance)} \(.metric.alertstate)"' | paste -sd,)"
diag "step upagain: $(since) s"
ack upagain

# --- gone / back: the client's rxe0 deleted and added, the agent running on ---------------
await_step gone 60
await_scrape pair-client
tap_eq "pair-client: after rdma link delete rxe0, a fresh query has no series of rxe0 (and up is 1)" \
	"|1" "$(at pair-client plines '{__name__=~"rdma_.+",instance="pair-client",device="rxe0"}')|$(at pair-client pval 'up{instance="pair-client"}')"
tap_eq "pair-server's rxe0 is still there" 1 "$(pval 'rdma_port_info{instance="pair-server",device="rxe0"}')"
# the client's dcbdev pair, PFC on priority 4 alone on dcb0 (rxed0), on 3 on dcb1 (rxed1):
# what the guest's rdmastat fabric -j and dcb -j said there, then Prometheus
# fabric STEP: "DEVICE PRIORITY PFC-LINK-STATE" of rxed0 and rxed1 in the guest's note
fabric() { jq -r '.[] | "\(.ifname) \(.chain.priority) \(.chain.links[] | select(.name == "pfc") | .state)"' \
	"$S/$N.fabric-$1.client" 2>/dev/null | LC_ALL=C sort | paste -sd' '; }
# chain_prom: "DEVICE PRIORITY PFC-LINK-STATE" of pair-client's rxed0 and rxed1 in Prometheus
chain_prom() {
	LC_ALL=C join <(at pair-client plines 'rdma_fabric_roce_priority{instance="pair-client",device=~"rxed."}' '"\(.metric.device) \(.value[1])"') \
		<(at pair-client plines 'rdma_fabric_link_state{instance="pair-client",device=~"rxed.",link="pfc"}' '"\(.metric.device) \(.value[1])"') |
		paste -sd' '
}
PFCA='ALERTS{alertname="RdmaRocePriorityWithoutPfc"}'
pfc_firing() { [ -n "$(plines 'ALERTS{alertname="RdmaRocePriorityWithoutPfc",alertstate="firing"}')" ]; }
if [ -s "$S/$N.fabric-gone.client" ]; then
	tap_eq "pair-client: its dcb -j pfc show dev dcb0 has PFC on priority 4 alone; its rdmastat fabric: rxed0's RoCE rides priority 3, pfc link broken; rxed1's holds" \
		"[false,false,false,false,true,false,false,false]|rxed0 3 broken rxed1 3 ok" \
		"$(jq -c .prio_pfc "$S/$N.pfc-gone.client")|$(fabric gone)"
	has_chain() { [ "$(chain_prom | wc -w)" = 6 ]; }
	await 10 "Prometheus has pair-client's rxed0 and rxed1 chains" has_chain
	tap_eq "pair-client in Prometheus: rdma_fabric_roce_priority and rdma_fabric_link_state{link=\"pfc\"} (1 broken, 0 ok) say the same" \
		"rxed0 3 1 rxed1 3 0" "$(chain_prom)"
	await 15 "RdmaRocePriorityWithoutPfc fires" pfc_firing &&
		tap_eq "RdmaRocePriorityWithoutPfc fires for pair-client's rxed0/1 on dcb0 alone, $(since) s after PFC went off there (for: 1s here)" \
			"pair-client rxed0 1 dcb0 critical firing" \
			"$(plines "$PFCA" '"\(.metric.instance) \(.metric.device) \(.metric.port) \(.metric.netdev) \(.metric.severity) \(.metric.alertstate)"')"
else
	tap_fail "pair-client made the dcbdev pair and wrote its rdmastat fabric -j (the note fabric-gone)"
fi
diag "step gone: $(since) s"
ack gone
await_step back 60
await_scrape pair-client
tap_eq "pair-client: after rdma link add, rxe0/1 is back (rdma_port_info, state 4)" "1 4" \
	"$(at pair-client pval 'rdma_port_info{instance="pair-client",device="rxe0"}') $(at pair-client pval 'rdma_port_state_id{instance="pair-client",device="rxe0"}')"
check_counters back pair-client
if [ -s "$S/$N.fabric-back.client" ]; then
	tap_eq "pair-client after the fix rdmastat gave: dcb0 has PFC on priority 3 (and 4); its rdmastat fabric: both pfc links hold" \
		"[false,false,false,true,true,false,false,false]|rxed0 3 ok rxed1 3 ok" \
		"$(jq -c .prio_pfc "$S/$N.pfc-back.client")|$(fabric back)"
	pfc_resolved() { [ -z "$(plines "$PFCA")" ]; }
	await 15 "RdmaRocePriorityWithoutPfc resolves" pfc_resolved &&
		tap_pass "RdmaRocePriorityWithoutPfc resolves $(since) s after the fix (nothing in ALERTS)"
	tap_eq "pair-client in Prometheus: both pfc links hold (rdma_fabric_link_state 0)" \
		"rxed0 3 0 rxed1 3 0" "$(chain_prom)"
fi
diag "step back: $(since) s"
ack back

# --- panels: every query of the Grafana dashboard, the variables as regexes ---------------
# (one python3 for the thirty queries: a curl and a jq each cost seconds on a busy host)
await_step panels 60
python3 - "$ROOT/contrib/grafana/rdmadiag-dashboard.json" "$API" <<'EOF'
import json, re, sys, urllib.parse, urllib.request
dash, api = sys.argv[1], sys.argv[2]
# the families rxe over virtio-net cannot have, and why: a query of one of these is empty
why = {
    "rdma_rx_bytes_total": "rxe counts packets, no bytes",
    "rdma_tx_bytes_total": "rxe counts packets, no bytes",
    "rdma_ecn_marked_total": "rxe has no ECN/DCQCN counters",
    "rdma_cnp_sent_total": "rxe has no ECN/DCQCN counters",
    "rdma_cnp_received_total": "rxe has no ECN/DCQCN counters",
    "rdma_cnp_handled_total": "rxe has no ECN/DCQCN counters",
    "rdma_ack_timeout_total": "rxe has no ACK-timeout counter (mlx5's local_ack_timeout_err)",
    "rdma_retransmitted_packets_total": "rxe counts its retries as completer_retry_err (transport_retry)",
    "rdma_out_of_sequence_total": "rxe's out_of_seq_request is NAK-sequence sent, not out-of-sequence received",
}
# (the DCB families, rdma_eth_priority_* and rdma_fabric_roce_priority, have no series from
# virtio-net, which has no DCB: their data is the client's dcbdev pair's, rxed0 and rxed1)
def query(e):
    u = api + "/query?" + urllib.parse.urlencode({"query": e})
    with urllib.request.urlopen(u, timeout=10) as r:
        return json.load(r)
def targets(o):
    if isinstance(o, dict):
        for t in o.get("targets", []):
            yield o.get("title", "?"), t["expr"]
        for v in o.values():
            yield from targets(v)
    elif isinstance(o, list):
        for v in o:
            yield from targets(v)
n = 0
for title, expr in targets(json.load(open(dash))):
    n += 1
    e = expr.replace("$__rate_interval", "1m")
    for v in ("job", "instance", "device", "port"):
        e = e.replace("$" + v, ".*")
    fams = sorted(set(re.findall(r"rdma[_:][a-z0-9_:]+", e)))
    r = query(e)
    got = len(r["data"]["result"]) if r.get("status") == "success" else -1
    known = [f for f in fams if f in why]
    if known:
        # and the family has no series at all here: the query is empty for that reason,
        # not because a selector missed
        absent = all(not query("count(%s)" % f)["data"]["result"] for f in known)
        ok = got == 0 and absent
        desc = "panel '%s': %s is empty, as expected on rxe (%s)" % (
            title, " ".join(fams), "; ".join(why[f] for f in known))
    else:
        ok = got > 0
        desc = "panel '%s': %s returns data (%d series)" % (title, " ".join(fams), got)
    print(("ok - " if ok else "not ok - ") + desc)
    print("# " + e)
    if got < 0:
        print("# error: %s" % r.get("error"))
print(("ok" if n > 0 else "not ok") + " - the dashboard has panel queries (%d)" % n)
EOF
tap_eq "the dashboard's variables: job, instance, device, port values from rdma_port_info" \
	"rdma|pair-client pair-server|rxe0 rxed0 rxed1|1" \
	"$(for l in job instance device port; do curl -sS -G "$API/label/$l/values" --data-urlencode 'match[]=rdma_port_info' |
		jq -r '.data | join(" ")'; done | paste -sd'|')"
tap_eq "the RoCE priority of rxe0 cannot be known on either (rdma_fabric_link_state{link=\"priority\"} 3, not available: no DCB on virtio-net); on the dcbdev pair it holds (0)" \
	"pair-client/rxe0=3 pair-client/rxed0=0 pair-client/rxed1=0 pair-server/rxe0=3" \
	"$(plines 'rdma_fabric_link_state{link="priority"}' '"\(.metric.instance)/\(.metric.device)=\(.value[1])"' | paste -sd' ')"
diag "step panels: $(since) s"
ack panels
stop_prom
