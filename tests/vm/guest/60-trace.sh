# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# rdmatrace live: two of them at once (-j events, -c -j connections) while rping connects:
# (1) a successful rping, and (1b, after (7)) one whose client binds no source address; (2)
# rping -c to a port nobody listens on (REJECTED 8); (3) rping -c
# to 198.18.0.77 on veth0's subnet, which nobody answers ARP for (ADDR_ERROR), in parallel with
# (4) total loss of RoCE on veth0 (netem 100% on UDP 4791), rping -c given up by SIGTERM after
# the REQ's first resend (~6.3 s on rxe); rdmadoctor connect meets faults (2) and (3).
# Then the instances: gone after SIGINT and SIGTERM, after --duration runs out, and after a
# kill -9 at the next start (stale); another tracing user's instance untouched.
# (5) and (6), a peer whose RDMA device was deleted (rdma link delete rxe1, on the real
# kernel): the server's established id and its listener get DEVICE_REMOVAL in the thread of
# `rdma`, rdma_ucm destroys them and the IB CM sends a DREQ on the way out (or rping's server
# disconnects first, once its listener got DEVICE_REMOVAL), so the client gets DISCONNECTED
# (rping exits 0 or 255 by where its loop was); a new REQ to that address crosses the veth and is
# dropped by rdma_rxe's UDP 4791 socket (no rxe on veth1): no REJ, no ICMP, resends every
# ~6.3 s (tcpdump on both veths, by hand), so the CM's answer is none: cm_no_response.
# (7) rdmadoctor's own device deleted while it waits for that answer: device_removed.  Everything is
# judged against rping's and rdmadoctor's own output by host/60-trace.sh.
J=$OUT/60-trace
T=/sys/kernel/tracing
have rdmatrace || { tap_fail "rdmatrace is built and in the image"; exit 0; }
mounted=
if ! grep -q " $T tracefs" /proc/mounts; then
	mount -t tracefs nodev $T && mounted=1
fi
inst_of() { echo "$T/instances/rdmadiag-$1"; }

mkdir "$T/instances/other-user"
rdmatrace -j > "$J-events.json" 2> "$J-events.err" & t1=$!
rdmatrace -c -j > "$J-conns.json" 2> "$J-conns.err" & t2=$!
await 10 "both rdmatrace runs have their own instance" \
	test -e "$(inst_of $t1)/tracing_on" -a -e "$(inst_of $t2)/tracing_on"
sleep 0.3	# the instances' events are enabled before tracing_on is written: let it be

# (1) success, with (2) no listener and rdmadoctor's attempt at the same port beside it
rping -c -I "$A" -a "$B" -p 7499 -C 1 -v > "$J-nolisten.out" 2>&1 & p=$!
rdmadoctor -j connect "$B:7499" --src "$A" --timeout 2000 > "$J-doctor-nolisten.json" 2>&1 & dn=$!
RPING_PORT=7180 rping_pair 1 64; echo "success rc=$?" > "$J-scen.txt"
wait $p; echo "nolisten pid=$p rc=$?" >> "$J-scen.txt"
wait $dn
# as it happens, not at the end: the failed connection's line is out while rdmatrace runs
await 5 "rdmatrace -c printed the no-listener connection as it ended" \
	grep -q '"dst":"198.18.0.2:7499"' "$J-conns.json"
# (3) and (4) at once (ARP is not RoCE: netem_roce leaves it alone), (3) beside rdmadoctor's
# attempt; the loss client is given up 7 s after its REQ went out (its cm_id in state
# CONNECT), past the REQ's first resend.  No rdmadoctor for (4): its attempt costs
# more than the whole script under TCG, and its cm_no_response is 52-doctor-firewall's.
netem_roce "$NET0" loss 100%
timeout 60 rping -s -a "$B" -p 7182 -C 1 > /dev/null 2>&1 & s=$!
wait_cm_listen 7182
rping -c -I "$A" -a "$B" -p 7182 -C 1 -v > "$J-loss.out" 2>&1 & pl=$!
rping -c -I "$A" -a 198.18.0.77 -p 7181 -C 1 -v > "$J-addr.out" 2>&1 & pa=$!
rdmadoctor -j connect 198.18.0.77 --src "$A" --timeout 2000 > "$J-doctor-addr.json" 2>&1 & da=$!
# the IB CM's own count of REQ resends on rxe0 (host/60 compares the trace's with it; ib_cm
# adds a MAD's retries when the MAD is done, here when the id is destroyed)
R=/sys/class/infiniband/$DEV0/ports/1/cm_tx_retries/req
r0=$(cat $R)
req_out() { rdma res show cm_id 2>/dev/null | grep "pid $pl " | grep -q "state CONNECT"; }
await 30 "the loss client's REQ went out (cm_id in state CONNECT)" req_out
sleep 7		# the first resend is due ~6.3 s after the REQ (the counter moves only at the end)
kill -TERM $pl
wait $pa; echo "addrerr pid=$pa rc=$?" >> "$J-scen.txt"
wait $pl; echo "loss pid=$pl rc=$?" >> "$J-scen.txt"
wait $da
echo "req_retries $(( $(cat $R) - r0 ))" >> "$J-scen.txt"
kill $s 2>/dev/null; wait $s 2>/dev/null
netem_clear "$NET0"
ip neigh del 198.18.0.77 dev "$NET0" 2>/dev/null

# (5) the server's RDMA device deleted under an established rping: the client is stopped
# once it printed ESTABLISHED (an idle connection, and short logs), rxe1 deleted, the client
# let go on; (6) then rping -c and rdmadoctor connect to rxe1's address, whose netdev is
# still up and still gets the REQs
rping_connected 7183 "$J-devdel-srv.out" "$J-devdel-cli.out"
ds=$RPING_SRV dc=$RPING_CLI
kill -STOP $dc
rdma link delete "$DEV1"; echo "devdel delete rc=$?" >> "$J-scen.txt"
wait_exit 15 $ds; echo "devdel-srv pid=$ds rc=$?" >> "$J-scen.txt"
kill -CONT $dc
# the client sees DISCONNECTED; under load it was seen to hang after it, never exiting
wait_exit 15 $dc; echo "devdel-cli pid=$dc rc=$?" >> "$J-scen.txt"
C=/sys/class/infiniband/$DEV0/ports/1
read -r q0 < $C/cm_tx_msgs/req; read -r a0 < $C/cm_rx_msgs/rep; read -r j0 < $C/cm_rx_msgs/rej
read -r v0 < /sys/class/net/$NET1/statistics/rx_packets
rping -c -I "$A" -a "$B" -p 7184 -C 1 -v > "$J-gone.out" 2>&1 & pg=$!
rdmadoctor -j connect "$B:7184" --src "$A" --timeout 1000 > "$J-doctor-gone.json" 2>&1 & dg=$!
req_gone() { rdma res show cm_id 2>/dev/null | grep "pid $pg " | grep -q "state CONNECT"; }
await 10 "the client to the deleted device's address sent its REQ (cm_id in state CONNECT)" req_gone
wait $dg
kill -TERM $pg; wait $pg; echo "gone pid=$pg rc=$?" >> "$J-scen.txt"
read -r q1 < $C/cm_tx_msgs/req; read -r a1 < $C/cm_rx_msgs/rep; read -r j1 < $C/cm_rx_msgs/rej
read -r v1 < /sys/class/net/$NET1/statistics/rx_packets
echo "gone cm_tx_req +$((q1 - q0)) cm_rx_rep +$((a1 - a0)) cm_rx_rej +$((j1 - j0)) $NET1 rx_packets +$((v1 - v0))" >> "$J-scen.txt"
# (7) rdmadoctor's own device deleted while its REQ is out (to the address of (6): no
# answer comes), the same fault seen by the doctor and by the trace
rdmadoctor -j connect "$B:7185" --src "$A" --timeout 5000 > "$J-doctor-devdel.json" 2>&1 & dd=$!
req_dd() { rdma res show cm_id 2>/dev/null | grep "pid $dd " | grep -q "state CONNECT"; }
await 10 "rdmadoctor's REQ went out (cm_id in state CONNECT)" req_dd
rdma link delete "$DEV0"; echo "devdel0 delete rc=$?" >> "$J-scen.txt"
wait $dd; echo "doctor-devdel pid=$dd rc=$?" >> "$J-scen.txt"
rdma link add "$DEV0" type rxe netdev "$NET0" && wait_port_active "$DEV0"
rdma link add "$DEV1" type rxe netdev "$NET1" && wait_port_active "$DEV1"
tap_check "$DEV0 and $DEV1 are back" [ -d /sys/class/infiniband/$DEV0 -a -d /sys/class/infiniband/$DEV1 ]
# (1b) a client that binds no source address (no -I): rdma_cm attaches its id to a device at
# address resolution (the route to $B is local: both ends on $DEV1); last, so that the
# scenarios before run as they always did
await 5 "the RoCE v2 GID of $B is back on $DEV1" gid_index "$DEV1" "$B"
timeout 30 rping -s -a "$B" -p 7186 -C 1 > /dev/null 2>&1 & s=$!
wait_cm_listen 7186
timeout 30 rping -c -a "$B" -p 7186 -C 1 -v > "$J-unbound.out" 2>&1; echo "unbound rc=$?" >> "$J-scen.txt"
wait $s

sleep 0.3	# one more read of each
kill -INT $t1; kill -TERM $t2
wait $t1; echo "events rc=$?" >> "$J-scen.txt"
wait $t2; echo "conns rc=$?" >> "$J-scen.txt"
tap_check "rdmatrace's instance is gone after SIGINT" [ ! -e "$(inst_of $t1)" ]
tap_check "rdmatrace's instance is gone after SIGTERM" [ ! -e "$(inst_of $t2)" ]

# a kill -9 leaves the instance, the next start removes it
rdmatrace -c > /dev/null 2>&1 & t4=$!
await 10 "a third rdmatrace has its instance" test -e "$(inst_of $t4)/tracing_on"
# idle, it sleeps in poll(): under 1 % of a core (2 ticks of 100 Hz in 2 s), start-up aside
sleep 0.5
read -r -a c0 < /proc/$t4/stat
sleep 2
read -r -a c1 < /proc/$t4/stat
idle=$(( c1[13] + c1[14] - c0[13] - c0[14] ))
tap_check "an idle rdmatrace -c used $idle clock ticks in 2 s (at most 2: under 1 % of a core)" \
	[ "$idle" -le 2 ]
kill -KILL $t4; wait $t4 2>/dev/null
tap_check "kill -9 leaves the instance behind" [ -e "$(inst_of $t4)" ]
rdmatrace -c --duration 0.2 > /dev/null 2> "$J-stale.err"
cat "$J-stale.err" >&2
tap_check "the next start removed the stale instance" [ ! -e "$(inst_of $t4)" ]
tap_check "and said so" grep -q "removed 1 stale ftrace instance" "$J-stale.err"
tap_eq "no rdmadiag instance is left once every run ended" "" \
	"$(ls "$T/instances" | grep '^rdmadiag-')"
tap_check "another tracing user's instance is untouched" [ -d "$T/instances/other-user" ]
rmdir "$T/instances/other-user"
ls "$T/instances" >&2
[ -n "$mounted" ] && umount $T
exit 0
