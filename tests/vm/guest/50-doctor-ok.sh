# vm-timeout: 60
# rdmadoctor, the good case: a real rdmadoctor listener on rxe1 ($B), the doctor connects from
# rxe0 ($A).  The guest runs and saves (50-doctor-*.json, .rc); host/50-doctor-ok.sh judges
# the JSON (jq costs ~2 s a call under TCG): ESTABLISHED -> DISCONNECTED with per-step timings,
# CM counters, the peer's MTU record, verdict ok.
P=7471
J=$OUT/50-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
# save NAME CMD...: run CMD with its stdout in $J-NAME.json (or .txt), exit status in .rc
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

rdmadoctor -j listen "$B:$P" --count 2 > "$J-listen.json" 2> "$J-listen.err" &
lp=$!
tap_ok "rdmadoctor listen $B:$P is a LISTEN cm_id" wait_cm_listen $P 30 || { kill $lp; exit 0; }
save ok.json rdmadoctor -j connect "$B:$P" --src "$A" --timeout 2000
tap_eq "connect exits 0 when the connection works" 0 "$(cat "$J-ok.json.rc")"
# text mode: passed checks only with -v
save ok.txt rdmadoctor connect "$B:$P" --src "$A" --timeout 2000
save local.txt rdmadoctor -v local
tap_eq "second connect (text) exits 0" 0 "$(cat "$J-ok.txt.rc")"
tap_check "text verdict line says OK cause=ok" grep -q "^verdict: OK .*cause=ok" "$J-ok.txt"
tap_check "text shows the steps with their timings" grep -qE "^  connect +ok +[0-9.]+ ms  ESTABLISHED" "$J-ok.txt"
tap_check "without -v passed checks are hidden" grep -q "no warnings or problems" "$J-ok.txt"
tap_check "-v shows passed checks (port rxe1/1 ACTIVE)" grep -q "ok *port *port rxe1/1 is ACTIVE" "$J-local.txt"
tap_eq "local exits 0 on the healthy setup" 0 "$(cat "$J-local.txt.rc")"
wait $lp
echo $? > "$J-listen.rc"
cat "$J-listen.json" "$J-listen.err" >&2
tap_eq "the listener exits 0 after --count 2 connections" 0 "$(cat "$J-listen.rc")"
tap_eq "no cm_id left behind" "" "$(rdma res show cm_id 2>/dev/null)"
