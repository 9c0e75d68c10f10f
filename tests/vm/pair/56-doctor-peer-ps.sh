# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdma_cm port spaces: the server listens in the IB port space on 7476 (rdmadoctor listen
# --ps ib) and in UDP's on 7477 (--ps udp).  The client connects to 7476 in TCP's, which the
# server's CM rejects (REJ reason 8: no listener for the REQ's service ID), and in UDP's (a
# SIDR request: UNREACHABLE with SIDR status 1, UNSUPPORTED), then in IB's, which works;
# then to 7477 in UDP's (a SIDR exchange, UD QPs), which works.  The server saves its LISTEN
# cm_ids as iproute2 shows them (rdma res show cm_id: their port spaces) and its IB CM's
# sent-REJ counter (sysfs cm_tx_msgs/rej) around the attempts.  Judged by
# pair/host/56-doctor-peer-ps.sh.
P=7476 U=7477
J=$OUT/56-ps
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
if [ "$ROLE" = server ]; then
	rej=/sys/class/infiniband/$RDEV/ports/1/cm_tx_msgs/rej
	cat "$rej" > "$J-rej-before" 2>/dev/null || echo none > "$J-rej-before"
	rdmadoctor -j listen "$SRV:$P" --ps ib -c 1 > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	rdmadoctor -j listen "$SRV:$U" --ps udp -c 1 > "$J-listen-udp.json" 2> "$J-listen-udp.err" &
	up=$!
	tap_ok "server: rdmadoctor listen $SRV:$P --ps ib" wait_cm_listen $P 20
	tap_ok "server: rdmadoctor listen $SRV:$U --ps udp" wait_cm_listen $U 20
	rdma res show cm_id | grep "state LISTEN" > "$J-cmid"
	pair_sync listening 20
	pair_sync connected 50 || kill $lp $up
	wait $lp
	echo $? > "$J-listen.rc"
	wait $up
	echo $? > "$J-listen-udp.rc"
	cat "$rej" > "$J-rej-after" 2>/dev/null || echo none > "$J-rej-after"
	cat "$J-cmid" "$J-listen.json" "$J-listen.err" "$J-listen-udp.json" "$J-listen-udp.err" >&2
	tap_eq "server: both listeners exit 0 after their one connection in their port space" \
		"0 0" "$(cat "$J-listen.rc") $(cat "$J-listen-udp.rc")"
else
	pair_sync listening 30
	save tcp.json rdmadoctor -j connect "$SRV:$P" --ps tcp -t 2000
	tap_eq "client: connect --ps tcp to a listener in the IB port space exits 1" 1 "$(cat "$J-tcp.json.rc")"
	save udp-ib.json rdmadoctor -j connect "$SRV:$P" --ps udp -t 2000
	tap_eq "client: connect --ps udp to the listener in the IB port space exits 1" 1 "$(cat "$J-udp-ib.json.rc")"
	save ib.txt rdmadoctor connect "$SRV:$P" --ps ib -t 2000
	tap_eq "client: connect --ps ib to it exits 0" 0 "$(cat "$J-ib.txt.rc")"
	save udp.json rdmadoctor -j connect "$SRV:$U" --ps udp -t 2000
	tap_eq "client: connect --ps udp to the UDP listener exits 0" 0 "$(cat "$J-udp.json.rc")"
	pair_sync connected 30
fi
