# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# rdmadoctor paths: ECMP path probing to one listener.  The server runs rdmadoctor listen on
# 7478; the client probes 12 UDP source ports with no fault (every one good), then the server
# drops UDP 4791 from source ports 49152-55295 (three eighths of the 0xc000-0xffff range the
# probes use; QP1's 55410, which carries the CM MADs, stays outside) in its input hook (nft,
# with a counter), and the client probes 14 ports again.  A dropped port does not fail the
# connect (the CM travels on QP1): the connection is ESTABLISHED and its RDMA WRITE ends in WC
# 12 after the retries (ACK timeout 536 ms, an eighth of -t 4000, x 3), so a bad probe costs
# ~1.6 s; -t 4000 bounds each step and exchange (with -t 2000 a stall of the busy 2-core host
# longer than 0.8 s would fail a good port's write too).  Evidence kept: the client's rxe0 retry_exceeded_err around the
# faulted run (sysfs), the nft counter, and a capture on the server's eth0 (before the input
# hook) of the faulted run.  Judged by pair/host/58-doctor-paths.sh.
P=7478
J=$OUT/58-paths
T=rdiag_paths
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
if [ "$ROLE" = server ]; then
	have nft || tap_skip "server: paths with a source-port range dropped" "no nft in the image"
	rdmadoctor -j listen "$SRV:$P" > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: rdmadoctor listen $SRV:$P" wait_cm_listen $P 20
	pair_sync listening 20
	pair_sync clean 60
	nft add table inet $T &&
		nft "add chain inet $T input { type filter hook input priority 0; }" &&
		nft add rule inet $T input udp dport 4791 udp sport 49152-55295 counter drop
	tap_eq "server: UDP 4791 from source ports 49152-55295 dropped (nft, input)" 0 $?
	cap_start 58-paths $NETD udp dst port 4791 and src host $CLI
	pair_sync faulted 20
	pair_sync probed 90
	cap_stop 58-paths
	tap_ok "server: the capture of the faulted run lost nothing" [ "${CAP_DROPPED:-1}" = 0 ]
	nft list table inet $T | sed -n 's/.*counter packets \([0-9]*\) .*/\1/p' > "$J-drops"
	nft delete table inet $T
	kill $lp
	wait $lp
	cat "$J-drops" "$J-listen.err" >&2
else
	cnt=/sys/class/infiniband/$RDEV/ports/1/hw_counters/retry_exceeded_err
	pair_sync listening 30
	save clean.json rdmadoctor -j paths "$SRV:$P" --paths 12 --probes 4 --concurrency 3 -t 4000
	tap_eq "client: paths with no fault exits 0" 0 "$(cat "$J-clean.json.rc")"
	save clean.txt rdmadoctor paths "$SRV:$P" --paths 3 --probes 2 --concurrency 2 -t 4000
	tap_eq "client: paths in text, two connections at once, exits 0" 0 "$(cat "$J-clean.txt.rc")"
	save nolisten.json rdmadoctor -j paths "$SRV:7479" --paths 3 -t 2000
	tap_eq "client: paths to a port nothing listens on exits 1" 1 "$(cat "$J-nolisten.json.rc")"
	pair_sync clean 30
	pair_sync faulted 30
	wait_lifespan
	cat "$cnt" > "$J-retry-before" 2>/dev/null || echo none > "$J-retry-before"
	save fault.json rdmadoctor -j paths "$SRV:$P" --paths 14 --probes 3 -t 4000
	wait_lifespan
	cat "$cnt" > "$J-retry-after" 2>/dev/null || echo none > "$J-retry-after"
	tap_eq "client: paths with a source-port range dropped exits 1" 1 "$(cat "$J-fault.json.rc")"
	pair_sync probed 30
fi
