# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmatrace -c -j's cause ids against what really happened (issue 28, third round), while
# each of these runs: (a) a udaddy pair (rdma_cm's UDP port space: SIDR REQ/REP, then UD
# sends), traced by a second rdmatrace of its own as well (exit 0: no failure in it); (b) a
# udaddy client with nothing listening (SIDR REP status 1); (c) a udaddy client against
# cm_reject -u (tests/vm/progs: rdma_reject() of a UD request, SIDR REP status 2); (d) an
# rping client against cm_reject (rdma_reject(), REJ 28 sent by the passive side); (e) an
# rping client and rdmadoctor connect at once to 198.19.0.9, which has no route ('ip route
# get' says unreachable; bound to veth0 the kernel ARPs for it there: ADDR_ERROR -110);
# (f) a connected rping client killed with SIGKILL.  host/62-trace-causes.sh judges.
J=$OUT/62-trace
T=/sys/kernel/tracing
have rdmatrace || { tap_fail "rdmatrace is built and in the image"; exit 0; }
have cm_reject || { tap_fail "cm_reject is in the image (tests/vm/progs/build.sh)"; exit 0; }
mounted=
if ! grep -q " $T tracefs" /proc/mounts; then
	mount -t tracefs nodev $T && mounted=1
fi
traced() { test -e "$T/instances/rdmadiag-$1/tracing_on"; }
listening() { grep -q '^listening' "$1"; }

rdmatrace -c -j > "$J-conns.json" 2> "$J-conns.err" & t=$!
rdmatrace -c -j > "$J-ud.json" 2> "$J-ud.err" & tu=$!
await 10 "both rdmatrace runs have their instance" traced $t
await 10 "the UD rdmatrace has its instance" traced $tu
sleep 0.3	# the events are enabled before tracing_on is written: let it be

# (a) UD success: udaddy listens on port 7174 of the UDP port space
udaddy -b "$B" -C 1 > "$J-ud-srv.out" 2>&1 & s=$!
wait_cm_listen 7174
udaddy -s "$B" -b "$A" -C 1 > "$J-ud-cli.out" 2>&1 & c=$!
wait $c; echo "udcli pid=$c rc=$?" > "$J-scen.txt"
wait $s; echo "udsrv pid=$s rc=$?" >> "$J-scen.txt"
await 10 "the UD rdmatrace printed both ends" \
	sh -c "[ \$(grep -c '\"type\":\"connection\"' $J-ud.json) -ge 2 ]"
kill -INT $tu; wait $tu; echo "udtrace rc=$?" >> "$J-scen.txt"

# (b) UD, no listener
udaddy -s "$B" -b "$A" -C 1 > "$J-ud-nolisten.out" 2>&1 & n=$!
wait $n; echo "udnolisten pid=$n rc=$?" >> "$J-scen.txt"

# (c) UD, rejected by the server
cm_reject -a "$B" -p 7174 -u > "$J-udrej-srv.out" 2>&1 & r=$!
await 10 "cm_reject -u listens" listening "$J-udrej-srv.out"
udaddy -s "$B" -b "$A" -C 1 > "$J-udrej-cli.out" 2>&1 & u=$!
wait $u; echo "udrejcli pid=$u rc=$?" >> "$J-scen.txt"
wait $r; echo "udrejsrv pid=$r rc=$?" >> "$J-scen.txt"

# (d) RC, rejected by the server
cm_reject -a "$B" -p 7186 > "$J-rej-srv.out" 2>&1 & r=$!
await 10 "cm_reject listens" listening "$J-rej-srv.out"
rping -c -I "$A" -a "$B" -p 7186 -C 1 -v > "$J-rej-cli.out" 2>&1 & p=$!
wait $p; echo "rejcli pid=$p rc=$?" >> "$J-scen.txt"
wait $r; echo "rejsrv pid=$r rc=$?" >> "$J-scen.txt"

# (e) no route: rping and rdmadoctor at once
ip route get 198.19.0.9 > "$J-route.txt" 2>&1; echo "route rc=$?" >> "$J-scen.txt"
rping -c -I "$A" -a 198.19.0.9 -p 7187 -C 1 -v > "$J-noroute.out" 2>&1 & p=$!
rdmadoctor -j connect 198.19.0.9:7187 --src "$A" -t 500 > "$J-doctor-noroute.json" 2>&1
wait $p; echo "noroute pid=$p rc=$?" >> "$J-scen.txt"
ip neigh del 198.19.0.9 dev "$NET0" 2>/dev/null

# (f) a connected client killed with SIGKILL
rping_connected 7188 "$J-kill-srv.out" "$J-kill-cli.out"
ks=$RPING_SRV kc=$RPING_CLI
kill -KILL $kc; wait $kc; echo "killed pid=$kc rc=$?" >> "$J-scen.txt"
await 10 "the killed client's server got DISCONNECTED" \
	grep -q 'RDMA_CM_EVENT_DISCONNECTED' "$J-kill-srv.out"
kill $ks 2>/dev/null; wait $ks; echo "killsrv pid=$ks rc=$?" >> "$J-scen.txt"

await 10 "rdmatrace printed the killed client's connection" \
	grep -q "\"pid\":$kc," "$J-conns.json"
kill -INT $t; wait $t; echo "conns rc=$?" >> "$J-scen.txt"
tap_eq "no rdmadiag instance is left" "" "$(ls "$T/instances" | grep '^rdmadiag-')"
[ -n "$mounted" ] && umount $T
exit 0
