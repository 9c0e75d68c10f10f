# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/58-doctor-paths.sh: paths with no fault, then with the server dropping UDP
# 4791 from source ports 49152-55295.  Independent truth: the range itself (the bad set must
# be exactly the probed ports inside it), the nft rule's counter, the client's sysfs
# retry_exceeded_err around the faulted run, and a capture on the server's eth0 (taken
# before the input hook drops) whose UDP source ports must be the ports paths reports: the
# read-back of the port each connection used, not only its formula.
S=$PAIR_SERVER C=$PAIR_CLIENT
LO=49152 HI=55295 CM=55410
J=$C/58-paths-clean.json F=$C/58-paths-fault.json
[ -s "$J" ] || { tap_fail "the client guest saved 58-paths-clean.json"; exit 0; }
[ -s "$F" ] || { tap_fail "the client guest saved 58-paths-fault.json"; exit 0; }
tap_eq "no fault: all 12 ports good, every probe connected and completed its 4 exchanges" \
	"all_good|12|0|true|true" \
	"$(jq -r '[.verdict.class, (.ports | length), .verdict.bad,
		([.probes[] | .ok and .completed == 4] | all),
		([.ports[] | .sport >= 49152] | all)] | join("|")' "$J")"
tap_check "no fault: the port came from the QPNs on rxe" \
	eval '[[ $(jq -r .run.sport_how "$J") == *rxe* ]]'
tap_eq "no fault: its own capture on eth0 saw every connection's port, each where the rule put it" \
	"eth0|12|0|true" \
	"$(jq -r '[.run.capture, .run.ports_seen, .run.ports_differ,
		([.probes[] | .sport_seen == .sport_computed and .sport == .sport_seen] | all)] | join("|")' "$J")"
tap_check "no fault: every probe has an RTT (min <= median <= max, > 0)" \
	eval '[ "$(jq "[.probes[] | .rtt_min_ms > 0 and .rtt_min_ms <= .rtt_med_ms and .rtt_med_ms <= .rtt_max_ms] | all" "$J")" = true ]'
tap_check "no fault, text: the verdict line and the port table" \
	eval 'grep -q "^verdict: OK, all paths good \[all_good\] ports 3 bad 0 good 3" "$C/58-paths-clean.txt" &&
		grep -q "^source ports" "$C/58-paths-clean.txt"'

N=$C/58-paths-nolisten.json
tap_eq "no listener: all bad, not a path problem: the connection's own verdict (no_listener), no port named, 3 connections then stop" \
	"all_bad|no_listener|cm|0|3|3|false" \
	"$(jq -r '[.verdict.class, .verdict.doctor.cause, .verdict.doctor.layer, .verdict.ports,
		.verdict.unplaced, .run.connections, ([.probes[] | .connected] | any)] | join("|")' "$N")"
eval "$(jq -r '@sh "cls=\(.verdict.class) nbad=\(.verdict.bad) ngood=\(.verdict.good)
	bad=\([.ports[] | select(.bad) | .sport] | sort | join(","))
	inr=\([.ports[] | select(.sport >= '$LO' and .sport <= '$HI') | .sport] | sort | join(","))
	ports=\([.ports[] | .sport] | sort | join(","))
	badprobes=\([.probes[] | select(.ok | not)] | length)
	bp=\([.probes[] | select(.ok | not) | "\(.connected) \(.cause) \(.wc_status) \([.counters[] | select(.name == "retry_exceeded_err") | .delta] | add)"] | unique | join(","))
	gp=\([.probes[] | select(.ok) | [.counters[] | select(.name == "retry_exceeded_err")] | length] | add)
	ranges=\(.verdict.bad_ports) sentence=\(.verdict.sentence) next=\(.verdict.next)"' "$F")"
diag "fault: $nbad bad ($bad), $ngood good; ranges $ranges; probed $ports"
tap_eq "fault: the verdict is a subset" subset "$cls"
tap_check "fault: some ports bad, some good (else the range missed every probe: rerun)" \
	eval '[ "$nbad" -gt 0 ] && [ "$ngood" -gt 0 ]'
tap_eq "fault: the bad ports are exactly the probed ports inside $LO-$HI" "$inr" "$bad"
tap_check "fault: the sentence names the bad ports and the fraction" \
	eval '[[ $sentence == *"$nbad of $((nbad + ngood)) source ports fail"*"$ranges"* ]]'
tap_check "fault: the next step gives rdmadump on the egress netdev and the 5-tuple" \
	eval '[[ $next == *"rdmadump -i eth0 '"'"'udp src port"* && $next == *"198.18.1.2:"*" -> 198.18.1.1:4791"* ]]'
tap_eq "fault: every bad probe connected, then its WRITE ended in WC 12 (datapath_drops), its own retry_exceeded_err +1" \
	"true datapath_drops 12 1" "$bp"
tap_eq "fault: no good probe moved retry_exceeded_err" 0 "${gp:-0}"
b=$(cat "$C/58-paths-retry-before") a=$(cat "$C/58-paths-retry-after")
tap_check "fault: the client's sysfs retry_exceeded_err moved by the bad probes ($b -> $a, $badprobes bad)" \
	eval '[ "$b" != none ] && [ $((a - b)) -eq "$badprobes" ]'
drops=$(cat "$S/58-paths-drops")
diag "nft dropped $drops packets for $badprobes bad probes"
tap_check "fault: the nft rule dropped each bad probe's WRITE 3 times (retry_count 2: the first and 2 retries)" \
	eval '[ "$badprobes" -gt 0 ] && [ "${drops:-0}" -eq $((3 * badprobes)) ]'
tap_eq "fault: the retries per port: 2 on each bad port (completer_retry_err), 0 on the good ones" \
	"false 0,true 2" \
	"$(jq -r '[.ports[] | "\(.bad) \(.retries)"] | unique | join(",")' "$F")"
if command -v tshark > /dev/null; then
	cap=$(tshark -r "$S/58-paths.pcap" -T fields -e udp.srcport 2> /dev/null | sort -un |
		grep -vx "$CM" | paste -sd,)
	diag "capture: data source ports $cap"
	tap_eq "fault: the capture's source ports (but QP1's $CM, the CM) are the ports paths read back" \
		"$(tr , '\n' <<< "$ports" | sort -un | paste -sd,)" "$cap"
	tap_check "fault: the capture has QP1's $CM (the CM MADs), outside the dropped range" \
		eval 'tshark -r "$S/58-paths.pcap" -T fields -e udp.srcport 2> /dev/null | grep -qx "$CM"'
else
	tap_skip "fault: the capture's source ports" "no tshark on the host"
fi
