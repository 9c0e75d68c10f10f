# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, the good case: a real rdmadoctor listener on rxe1 ($B), the doctor connects from
# rxe0 ($A).  The guest runs and saves (50-doctor-*.json, .rc); host/50-doctor-ok.sh judges
# the JSON (jq costs ~2 s a call under TCG): ESTABLISHED -> DISCONNECTED with per-step timings,
# CM counters, the peer's MTU record, verdict ok, and the host checks on a real kernel
# (modules, device nodes, netns, MTU, memlock).  The short options -s -t -c and an explicit
# --ps tcp are used for real here.  The side channel: on one address it serves that port
# alone by default (rxe1 and $B, nothing of rxe0 or $A, no kernel), and with 30 idle
# connections open the second connect still gets the peer's description within its 8 s (one
# client at a time, the 30 held it for 10 s and more).  The first connect resolves a neighbour that is not
# cached yet: rdma_cm then completes resolve_addr only when its timer fires (min(-t, 2000)
# ms), so its -t is short (1000 ms, plenty for ESTABLISHED); the second runs with the
# default timeout.
P=7471
J=$OUT/50-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
# save NAME CMD...: run CMD with its stdout in $J-NAME.json (or .txt), exit status in .rc
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

rdmadoctor -j listen "$B:$P" -c 2 > "$J-listen.json" 2> "$J-listen.err" &
lp=$!
tap_ok "rdmadoctor listen $B:$P is a LISTEN cm_id" wait_cm_listen $P 30 || { kill $lp; exit 0; }
wait_for 10 grep -q '"event":"LISTENING"' "$J-listen.json"
tap_check "on one address the side channel serves the port alone (serve port)" \
	grep -q '"serve":"port"' "$J-listen.json"
desc=$(exec 3<>"/dev/tcp/$B/$P" && echo describe >&3 && timeout 10 cat <&3)
echo "$desc" > "$J-described.json"
desc_has() { [[ $desc == *"$1"* ]]; }
tap_check "the description holds rxe1 and $B" \
	eval 'desc_has "\"ifname\":\"rxe1\"" && desc_has "\"ip\":\"$B\""'
tap_check "and nothing of rxe0, $A or the kernel" \
	eval '! desc_has rxe0 && ! desc_has "\"$A\"" && ! desc_has "\"kernel\""'
save ok.json rdmadoctor -j connect "$B:$P" -s "$A" -t 1000 --ps tcp
tap_eq "connect exits 0 when the connection works" 0 "$(cat "$J-ok.json.rc")"
# 30 idle side-channel clients, open through the second connect
idle=()
for i in $(seq 30); do exec {fd}<>"/dev/tcp/$B/$P" && idle+=("$fd"); done
tap_eq "30 idle connections to the side channel" 30 "${#idle[@]}"
# text mode with -v (passed checks shown); the host judges the text
save ok.txt rdmadoctor -v connect "$B:$P" --src "$A"
tap_eq "second connect (text, -v) exits 0" 0 "$(cat "$J-ok.txt.rc")"
tap_check "with the 30 open, it got the peer's description" \
	eval 'grep -q "^both ends" "$J-ok.txt" && ! grep -q "no description of the peer" "$J-ok.txt"'
for fd in "${idle[@]}"; do exec {fd}>&-; done
wait $lp
echo $? > "$J-listen.rc"
cat "$J-listen.json" "$J-listen.err" >&2
tap_eq "the listener exits 0 after --count 2 connections" 0 "$(cat "$J-listen.rc")"
tap_eq "no cm_id left behind" "" "$(rdma res show cm_id 2>/dev/null)"
