# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/61-recorder.sh: the recorder's dumps against rxe0's own hw_counters,
# rping's output and the order things were done in.
cd "$VM_OUT" || exit 2
J=61-recorder
[ -s "$J-scen.txt" ] || { tap_fail "the guest saved $J-scen.txt"; exit 0; }
scen() { sed -n "s/^$1 //p" "$J-scen.txt"; }
hwc_of() { sed -n "s/^$2 //p" "$J-$1"; }

tap_eq "the successful rping succeeded" "rc=0" "$(scen success)"
tap_eq "the recorder ended by SIGTERM with exit 0" "rc=0" "$(scen record)"
tap_eq "dump of the snapshot: exit 1 (a failed connection in it)" "rc=1" "$(scen snap)"
tap_eq "every line is JSON with a type" "" \
	"$(jq -r '.type // "NONE"' "$J-dump.json" "$J-snap.json" "$J-trig.json" | grep -vxE 'start|stop|marker|port|netlink|event|connection|counters|qp|gid')"

# (1) between the two SIGUSR1 markers, the recorder's deltas of rxe0's sent_pkts and
# rcvd_pkts add up to what sysfs says rping moved
sum_between() {	# COUNTER: the deltas of rxe0/1 between the first two SIGUSR1 markers
	jq -rs --arg c "$1" '
		[.[] | select(.type == "marker" and .text == "SIGUSR1") | .time] as $m |
		[.[] | select(.type == "counters" and .dev == "rxe0" and .port == 1 and
			      .time > $m[0] and .time < $m[1]) | .deltas[$c] // 0] | add // 0' "$J-snap.json"
}
for c in sent_pkts rcvd_pkts; do
	want=$(( $(hwc_of hwc1 $c) - $(hwc_of hwc0 $c) ))
	tap_eq "rping: the recorder's $c deltas on rxe0 are sysfs's ($want)" "$want" "$(sum_between $c)"
done
tap_check "rping moved packets at all" [ "$(( $(hwc_of hwc1 sent_pkts) - $(hwc_of hwc0 sent_pkts) ))" -gt 0 ]

# (2) then (3), in that order on one time axis: rxe0 down, rxe0 active, the failed connection
order=$(jq -r 'if .type == "port" and .dev == "rxe0" then "port \(.state)"
	elif .type == "connection" and .dst == "198.18.0.2:7599" then "connection \(.cause)"
	elif .type == "marker" and .text == "SIGUSR1" then "marker"
	else empty end' "$J-snap.json" | tr '\n' ',')
pat='^(.*,)?marker,marker,(.*,)?port DOWN,(.*,)?port ACTIVE,(.*,)?connection no_listener,$'
ok=0; [[ $order =~ $pat ]] && ok=1
tap_eq "one time axis: rping's markers, rxe0 DOWN, rxe0 ACTIVE, the failed connection ($order)" 1 "$ok"
tap_check "the link went down in rtnetlink's words before the failure" \
	bash -c "jq -r 'select(.type == \"netlink\" and .kind == \"link\") | .text' $J-snap.json | grep -q ' DOWN '"
pid=$(scen nolisten | sed -n 's/^pid=\([0-9]*\).*/\1/p')
tap_eq "the failed connection: rping's pid, REJECTED, no_listener" "$pid REJECTED no_listener" \
	"$(jq -r 'select(.type == "connection" and .dst == "198.18.0.2:7599") | "\(.pid) \(.fail_event) \(.cause)"' "$J-snap.json")"
tap_check "rping itself reported the reject" grep -q "RDMA_CM_EVENT_REJECTED" "$J-nolisten.out"
tap_check "the trigger's marker names it" \
	bash -c "jq -r 'select(.type == \"marker\") | .text' $J-snap.json | grep -q 'failed connection .* to 198.18.0.2:7599: no_listener'"

# the small ring: laps many times, a kill -9 leaves it readable, a new run continues it
tap_eq "the small ring dumps after kill -9" "rc=0" "$(scen small-dump)"
tap_eq "with no error" "" "$(cat $J-small-dump.err)"
tap_eq "the run after it ended cleanly" "rc=0" "$(scen small-dump2)"
laps=$(jq -r 'select(.type == "stop") | .text' "$J-small2.json" | sed -n 's/.*, \([0-9]*\) laps$/\1/p')
tap_check "the second run lapped its ring (${laps:-none})" [ "${laps:-0}" -ge 1 ]

# (4) the threshold rule "rcvd_pkts@rxe0 > +100": one rping burst, exactly one marker, at a
# snapshot whose rcvd_pkts delta is over 100, and not more than sysfs says the burst moved
tap_eq "the trigger run ended by SIGINT with exit 0" "rc=0" "$(scen trig)"
tap_eq "its dump: exit 0" "rc=0" "$(scen trig-dump)"
tap_eq "the rping burst succeeded" "rc=0" "$(scen burst)"
moved=$(( $(hwc_of trig-hwc1 rcvd_pkts) - $(hwc_of trig-hwc0 rcvd_pkts) ))
tap_check "the burst moved rxe0's rcvd_pkts past the rule's 100 ($moved)" [ "$moved" -gt 100 ]
thr=$(jq -r 'select(.type == "marker" and (.text | startswith("threshold "))) | .text' "$J-trig.json")
tap_eq "one burst, one threshold marker" 1 "$(grep -c . <<< "$thr")"
val=$(sed -n 's/^threshold line 1 (rcvd_pkts@rxe0 > +100): rxe0\/1 rcvd_pkts delta \([0-9]*\)$/\1/p' <<< "$thr")
ok=0; [ -n "$val" ] && [ "$val" -gt 100 ] && [ "$val" -le "$moved" ] && ok=1
tap_eq "it names the rule, the port and a delta over 100 and within sysfs's $moved ($thr)" 1 "$ok"
tmark=$(jq -r 'select(.type == "marker" and (.text | startswith("threshold "))) | .time' "$J-trig.json")
tap_eq "the marker is at the snapshot whose delta it names" "$val" \
	"$(jq -r --arg t "$tmark" 'select(.type == "counters" and .dev == "rxe0" and .time == $t) | .deltas.rcvd_pkts' "$J-trig.json")"

# (5) the waiting pingpong server's QP: a qp record when it came, as rdma res show qp listed
# it in the guest, and one when it went; a QP-in-ERR marker for each qp record into ERR
wpid=$(scen waiter | sed -n 's/^pid=//p')
rq=$(jq -r --arg p "$wpid" '.[] | select((.pid | tostring) == $p) | "\(.ifname)/\(.port) \(.lqpn) \(.type) \(.state) \(.pid) \(.comm)"' "$J-rdma-qp.json")
tap_check "rdma res show qp listed the waiting pingpong's QP ($rq)" [ -n "$rq" ]
# (a snapshot may catch it just created, RESET on port 0, before its INIT: then a change
# record follows; one of its records is what rdma res show qp listed)
tap_eq "the recorder's qp records of it include it as rdma res show qp has it" "$rq" \
	"$(jq -r --arg p "$wpid" 'select(.type == "qp" and (.pid | tostring) == $p and .state != null) | "\(.dev)/\(.port) \(.qpn) \(.qp_type) \(.state) \(.pid) \(.comm)"' "$J-trig.json" | grep -Fx -- "$rq" | head -1)"
tap_eq "its first record is the QP's appearance (no previous state), same QP number" "$(cut -d' ' -f2 <<< "$rq")" \
	"$(jq -r --arg p "$wpid" 'select(.type == "qp" and (.pid | tostring) == $p and .prev_state == null and .state != null) | .qpn' "$J-trig.json" | head -1)"
tap_eq "and one when it went away" "$(cut -d' ' -f2 <<< "$rq")" \
	"$(jq -r --arg p "$wpid" 'select(.type == "qp" and (.pid | tostring) == $p and .state == null) | .qpn' "$J-trig.json")"
tap_eq "a QP-in-ERR marker for each qp record into ERR" \
	"$(jq -r 'select(.type == "qp" and .state == "ERR") | "QP in ERR: \(.dev)/\(.port) qpn \(.qpn) \(.qp_type) pid \(.pid)/\(.comm)"' "$J-trig.json")" \
	"$(jq -r 'select(.type == "marker" and (.text | startswith("QP in ERR"))) | .text' "$J-trig.json")"

# (6) the address added on veth0: a GID added record whose index and value are sysfs's
gi=$(scen gid | sed -n 's/^index=\([0-9]*\) .*/\1/p'); gv=$(scen gid | sed -n 's/.* value=//p')
tap_eq "the GID of 198.18.0.61 added at sysfs's index, RoCE v2 on veth0" "$gi $gv RoCE v2 veth0" \
	"$(jq -r 'select(.type == "gid" and .action == "added" and .gid == "0000:0000:0000:0000:0000:ffff:c612:003d" and .gid_type == "RoCE v2") | "\(.index) \(.gid) \(.gid_type) \(.ndev)"' "$J-trig.json")"
tap_eq "and removed at the same index when the address went" "$gi" \
	"$(jq -r 'select(.type == "gid" and .action == "removed" and .gid == "0000:0000:0000:0000:0000:ffff:c612:003d" and .gid_type == "RoCE v2") | .index' "$J-trig.json")"

# (7) qp_hold_err's QP, held 2 s in ERR: the recorder's qp records of the QPN it printed
# (new, on through RTS, RTS -> ERR, then gone), exactly one QP-in-ERR marker for it and one
# ring copy with that marker in it; rdma res show qp had it in ERR while it was held
if [ -s "$J-qperr.out" ] || [ -n "$(scen qperr)" ]; then
	tap_eq "qp_hold_err: exit 0" "rc=0" "$(scen qperr)"
	tap_eq "with no error" "" "$(cat "$J-qperr-prog.err" 2>/dev/null)"
	qpn=$(sed -n 's/^ERR qpn //p' "$J-qperr.out")
	tap_eq "it printed the same QPN in RTS and in ERR ($qpn)" "$(sed -n 's/^RTS qpn //p' "$J-qperr.out")" "$qpn"
	tap_eq "the QP recorder ended by SIGINT with exit 0" "rc=0" "$(scen qperr-record)"
	tap_eq "its dump: exit 0 (no failed connection in it: rdmatrace(1))" "rc=0" "$(scen qperr-dump)"
	tap_eq "rdma res show qp, taken while it was held: QP $qpn on rxe0/1, RC, ERR, by qp_hold_err" \
		"rxe0/1 $qpn RC ERR qp_hold_err" \
		"$(jq -r --argjson q "${qpn:-0}" '.[] | select(.ifname == "rxe0" and .lqpn == $q) | "\(.ifname)/\(.port) \(.lqpn) \(.type) \(.state) \(.comm)"' "$J-qperr-rdma.json" 2>&1)"
	# the states one after the other: "from>to" per record, new and gone as "-"
	chain=$(jq -r --argjson q "${qpn:-0}" 'select(.type == "qp" and .dev == "rxe0" and .qpn == $q) | "\(.prev_state // "-")>\(.state // "-")"' "$J-qperr.json" | tr '\n' ' ')
	ok=1 prev=-
	for step in $chain; do [ "${step%>*}" = "$prev" ] || ok=0; prev=${step#*>}; done
	tap_eq "the qp records of QP $qpn follow on from each other, new to gone ($chain)" "1 -" "$ok $prev"
	tap_check "one of them is RTS -> ERR ($chain)" grep -q 'RTS>ERR ' <<< "$chain"
	tap_eq "and none besides it goes into ERR" 1 "$(grep -o '>ERR ' <<< "$chain" | grep -c .)"
	# (a record of the QP still in RESET, when a snapshot fell before its INIT, has port 0:
	# the kernel gives a QP its port at INIT)
	tap_eq "the qp records name qp_hold_err's pid, RC, port 1 (0 in RESET)" "RC 1 qp_hold_err" \
		"$(jq -r --argjson q "${qpn:-0}" 'select(.type == "qp" and .dev == "rxe0" and .qpn == $q) | "\(.qp_type) \(if .state == "RESET" and .port == 0 then 1 else .port end) \(.comm)"' "$J-qperr.json" | sort -u | tr '\n' ' ' | sed 's/ $//')"
	mk=$(jq -r 'select(.type == "marker" and (.text | startswith("QP in ERR"))) | .text' "$J-qperr.json")
	pid=$(jq -r --argjson q "${qpn:-0}" 'select(.type == "qp" and .dev == "rxe0" and .qpn == $q) | .pid' "$J-qperr.json" | sort -u)
	tap_eq "exactly one QP-in-ERR marker, for QP $qpn" "QP in ERR: rxe0/1 qpn $qpn RC pid $pid/qp_hold_err" "$mk"
	tap_eq "the marker at the time of the record into ERR" \
		"$(jq -r --argjson q "${qpn:-0}" 'select(.type == "qp" and .dev == "rxe0" and .qpn == $q and .state == "ERR") | .time' "$J-qperr.json")" \
		"$(jq -r 'select(.type == "marker" and (.text | startswith("QP in ERR"))) | .time' "$J-qperr.json")"
	tap_eq "one ring copy" "/tmp/61.qperr.snap.1" "$(cat "$J-qperr-snaps.txt")"
	tap_eq "the copy has the record into ERR, then the marker" "RTS>ERR|$mk" \
		"$(jq -r --argjson q "${qpn:-0}" 'if .type == "marker" and (.text | startswith("QP in ERR")) then .text
			elif .type == "qp" and .qpn == $q and .state == "ERR" then "\(.prev_state)>\(.state)" else empty end' "$J-qperr-1.json" 2>&1 | tr '\n' '|' | sed 's/|$//')"
else
	tap_fail "the guest ran qp_hold_err (tests/vm/progs)"
fi
