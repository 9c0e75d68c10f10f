# vm-timeout: 60
# rdmadoctor, the good case: a real rdmadoctor listener on rxe1 ($B), the doctor connects from
# rxe0 ($A): every step ESTABLISHED -> DISCONNECTED with its timing, the CM counters moved
# (REQ out, REP in), the peer's MTU record came back, verdict ok, exit 0, nothing left behind.
# (jq costs ~2 s under TCG: each JSON file is read by one jq into shell variables.)
P=7471
J=$OUT/50-doctor-ok
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }

rdmadoctor -j listen "$B:$P" --count 2 > "$J-listen.json" 2> "$J-listen.err" &
lp=$!
tap_ok "rdmadoctor listen $B:$P is a LISTEN cm_id" wait_cm_listen $P || { kill $lp; exit 0; }

rdmadoctor -j connect "$B:$P" --src "$A" --timeout 2000 > "$J.json" 2> "$J.err"
st=$?
cat "$J.json" "$J.err" >&2
eval "$(jq -r '
	def cm($n): [.counters[] | select(.dev == "rxe0" and .port == 1 and .name == $n) | .delta] | add // 0;
	@sh "cause=\(.verdict.cause) vok=\(.verdict.ok) names=\([.steps[].name] | join(" "))
	allok=\([.steps[].ok] | all) ntimed=\([.steps[] | select((.ms | type) == "number" and .ms >= 0)] | length)
	timings=\([.steps[] | "\(.name) \(.ms * 10 | round / 10)"] | join(", "))
	events=\([.steps[] | select(.event) | .event] | join(" ")) addr=\(.steps[1].detail)
	req=\(cm("cm_tx_msgs/req")) rep=\(cm("cm_rx_msgs/rep")) retries=\(cm("cm_tx_retries/req"))
	peer=\("\(.peer.dev) \(.peer.netdev_mtu)")"' "$J.json")"
tap_eq "connect exits 0 when the connection works" 0 "$st"
tap_eq "verdict cause is ok" ok "$cause"
tap_eq "verdict ok is true" true "$vok"
tap_eq "steps in order" "create_id resolve_addr resolve_route create_qp connect disconnect" "$names"
tap_eq "every step ok" true "$allok"
tap_eq "every step has a timing in ms (>= 0)" 6 "$ntimed"
diag "timings (ms): $timings"
tap_eq "events ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED" \
	"ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED" "$events"
tap_check "resolve_addr bound rxe0 (the source's device)" eval '[[ $addr == *"device rxe0 port 1"* ]]'
tap_check "cm_tx_msgs/req on rxe0 rose (REQ sent): +$req" [ "$req" -ge 1 ]
tap_check "cm_rx_msgs/rep on rxe0 rose (REP received): +$rep" [ "$rep" -ge 1 ]
tap_eq "no REQ retry on a working path" 0 "$retries"
tap_eq "the listener's private data names rxe1 and netdev MTU 1500" "rxe1 1500" "$peer"

# text mode: passed checks only with -v
rdmadoctor connect "$B:$P" --src "$A" --timeout 2000 > "$J.txt" 2>&1
st=$?
rdmadoctor -v local > "$J-local.txt" 2>&1
cat "$J.txt" "$J-local.txt" >&2
tap_eq "second connect (text) exits 0" 0 "$st"
tap_check "text verdict line says OK cause=ok" grep -q "^verdict: OK .*cause=ok" "$J.txt"
tap_check "text shows the steps with their timings" grep -qE "^  connect +ok +[0-9.]+ ms  ESTABLISHED" "$J.txt"
tap_check "without -v passed checks are hidden" grep -q "no warnings or problems" "$J.txt"
tap_check "-v shows passed checks (port rxe1/1 ACTIVE)" grep -q "ok *port *port rxe1/1 is ACTIVE" "$J-local.txt"

wait $lp
lst=$?
cat "$J-listen.json" "$J-listen.err" >&2
eval "$(jq -rs '@sh "levents=\([.[].event] | join(" "))
	client=\([.[] | select(.event == "CONNECT_REQUEST") | "\(.client.dev) \(.client.netdev_mtu)"][0])"' "$J-listen.json")"
tap_eq "the listener exits 0 after --count 2 connections" 0 "$lst"
tap_eq "the listener reported LISTENING, then REQUEST/ESTABLISHED/DISCONNECTED twice" \
	"LISTENING CONNECT_REQUEST ESTABLISHED DISCONNECTED CONNECT_REQUEST ESTABLISHED DISCONNECTED" "$levents"
tap_eq "the listener saw the client's record (rxe0, MTU 1500)" "rxe0 1500" "$client"
tap_eq "no cm_id left behind" "" "$(rdma res show cm_id 2>/dev/null)"
