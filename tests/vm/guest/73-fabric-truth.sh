# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 150
# The lossless chain's third round of truths (issue 28, items 12-15) on the rdmadiag_dcbdev
# pair (tests/vm/dcbdev; set up as in 71-fabric-chain.sh: rxed0 on dcb0, rxed1 on dcb1,
# configfs default_roce_tos 106, PFC on 3 and APP 26:3 on both ends).  Each case is set with
# iproute2's dcb or ethtool, rdmastat fabric -j says what is broken, the guest runs the fix
# rdmastat printed (up to its " (" remark) and reads the chain again:
#   pause   802.3x pause on (the module's default, as a NIC's) together with PFC:
#           fabric.pause_with_pfc, fix ethtool -A ... rx off tx off
#   ets0    tc-tsa 0:ets 1:ets tc-bw 0:100 1:0 prio-tc 3:1: RoCE's TC at 0 %: fabric.ets_zero_bw
#   strict  tc-tsa 0:strict tc-bw 0:0 1:100 prio-tc 3:1: TC 0 (priority 0, everything
#           unmapped) strict above RoCE's: fabric.ets_strict_starve
#   dscp2   a second APP entry 26:5: fabric.dscp_multiple; the traffic rides 5 (the module
#           takes the highest, a driver's choice) until the fix deletes the stray entry
#   tos0    ucmatose -t 0 while configfs says 106: the traffic rides priority 0 (configfs is
#           overridden); rdmastat --tos 0's fix is the application's ToS option, and with
#           ucmatose -t 106 the traffic is on 3 and rdmastat --tos 106's chain holds
#   storm   the knob's 20000 PFC frames on priority 3 between rdmastat -i 2's samples
#           (10000/s for 2 s): fabric.pause_rate (rx on rxed0, tx on rxed1); over a quiet
#           interval, and with --pause-max 50000, no finding; rdmatop -b --screen fabric
#           over 30000 frames in its 3 s interval: a storm line per port, exit 1; rdmatrace
#           record over 20000: a marker per port, its counters hold the frames
# Everything is judged here (small JSON, jq); the files stay in $OUT/73-*.
X0=dcb0 X1=dcb1 XA=198.18.7.1 XB=198.18.7.2 R0=rxed0 R1=rxed1
TOS=106 PRIO=3 PORT=7183 MSGS=10
J=$OUT/73
have rdmastat || { tap_fail "rdmastat is in the image"; exit 0; }

# st CASE [ARGS...]: rdmastat fabric -j ARGS into $J-CASE.json, its exit status in .rc
st() {
	local c=$1
	shift
	rdmastat fabric -j "$@" > "$J-$c.json" 2> "$J-$c.err"
	echo $? > "$J-$c.rc"
	cat "$J-$c.err" >&2
}
# q CASE RXE JQ: JQ on RXE's object of CASE
q() { jq -r --arg d "$2" ".[] | select(.ifname == \$d) | $3" "$J-$1.json"; }
# link CASE RXE NAME: "state finding" of one link
link() { q "$1" "$2" ".chain.links[] | select(.name == \"$3\") | \"\\(.state) \\(.finding)\""; }
# fixcmd CASE NAME: the fix of rxed0's link NAME, up to its " (" remark
fixcmd() { q "$1" $R0 ".chain.links[] | select(.name == \"$2\") | .fix" | sed 's/ (.*//'; }
# runfix CASE NAME: run that fix, logged in $J-CASE.fixcmd
runfix() {
	local cmd
	cmd=$(fixcmd "$1" "$2")
	echo "$cmd" > "$J-$1.fixcmd"
	log "$1: fix: $cmd"
	tap_ok "$1: the fix rdmastat printed for $R0's $2 link runs: $cmd" sh -c "$cmd"
}
# eth_delta DEV STAT CMD...: how much ethtool -S STAT of DEV grew while CMD ran
eth_delta() {
	local d=$1 s=$2 a b
	shift 2
	a=$(ethtool -S "$d" | awk -v k="$s:" '$1 == k { print $2 }')
	"$@" || return 1
	b=$(ethtool -S "$d" | awk -v k="$s:" '$1 == k { print $2 }')
	echo $((b - a))
}
undo() { dcbdev_undo; }
lossless_both() {
	local d
	for d in $X0 $X1; do
		dcb pfc set dev $d prio-pfc $PRIO:on && dcb app add dev $d dscp-prio 26:$PRIO || return 1
	done
}

dmesg_n0=$(dmesg | wc -l)
tap_ok "the rdmadiag_dcbdev test module loads" modprobe rdmadiag_dcbdev || exit 0
tap_ok "rxe on both ends ($R0 on $X0, $R1 on $X1), ports ACTIVE" dcbdev_pair_up || { undo; exit 0; }
tap_ok "rdma_cm configfs default_roce_tos $TOS on $R0 and $R1" dcbdev_cfs_tos
tap_ok "PFC on $PRIO and APP 26:$PRIO on both ends" lossless_both

# --- item 14: 802.3x pause together with PFC
log "case pause"
tap_eq "pause: ethtool -a $X0: the module's default, rx and tx pause on" "on on" \
	"$(ethtool -a $X0 | awk '$1 == "RX:" { r = $2 } $1 == "TX:" { t = $2 } END { print r, t }')"
st pause
tap_eq "pause: rdmastat fabric exits 1, $R0's pause link broken (802.3x pause with PFC)" \
	"1 broken fabric.pause_with_pfc" "$(cat $J-pause.rc) $(link pause $R0 pause)"
# rdmadoctor local's lossless check says the same of both ends (fabric.pause_with_pfc)
doc_pause() { jq -r '[.. | objects | select(.check? == "lossless" and .cause? == "fabric.pause_with_pfc") | "\(.subject) \(.hint)"] | sort | join("; ")' "$1"; }
rdmadoctor local -j > "$J-pause.doctor.json" 2> "$J-pause.doctor.err"
tap_eq "pause: rdmadoctor local's lossless check finds 802.3x pause with PFC on both ends (fabric.pause_with_pfc)" \
	"$R0/1 $X0 ethtool -A $X0 rx off tx off; $R1/1 $X1 ethtool -A $X1 rx off tx off" "$(doc_pause "$J-pause.doctor.json")"
runfix pause pause
ethtool -A $X1 rx off tx off
st pause-fixed
tap_eq "pause: read again: ethtool -a $X0 says off off, the pause link holds, the chain ok, exit 0" \
	"off off ok null ok 0" \
	"$(ethtool -a $X0 | awk '$1 == "RX:" { r = $2 } $1 == "TX:" { t = $2 } END { print r, t }') $(link pause-fixed $R0 pause) $(q pause-fixed $R0 .chain.verdict) $(cat $J-pause-fixed.rc)"
rdmadoctor local -j > "$J-pause-fixed.doctor.json" 2> "$J-pause-fixed.doctor.err"
tap_eq "pause: fixed, rdmadoctor local finds no 802.3x pause with PFC" "" "$(doc_pause "$J-pause-fixed.doctor.json")"

# --- item 12: ETS, RoCE's TC at 0 %, then a strict TC carrying priority 0 above it
log "case ets0"
tap_ok "ets0: dcb ets set dev $X0 tc-tsa 0:ets 1:ets tc-bw 0:100 1:0 prio-tc $PRIO:1" \
	dcb ets set dev $X0 tc-tsa 0:ets 1:ets tc-bw 0:100 1:0 prio-tc $PRIO:1
tap_eq "ets0: dcb -j ets show: priority $PRIO in TC 1, which has 0 %" "1 0" \
	"$(dcb -j ets show dev $X0 | jq -r "\"\\(.prio_tc[$PRIO]) \\(.tc_bw[1])\"")"
st ets0
tap_eq "ets0: rdmastat fabric exits 1, $R0's ets link broken (0 % bandwidth)" \
	"1 broken fabric.ets_zero_bw" "$(cat $J-ets0.rc) $(link ets0 $R0 ets)"
runfix ets0 ets
st ets0-fixed
tap_eq "ets0: read again: TC 1 has $(dcb -j ets show dev $X0 | jq -r '.tc_bw[1]') %, the ets link holds, the chain ok, exit 0" \
	"ok null ok 0" "$(link ets0-fixed $R0 ets) $(q ets0-fixed $R0 .chain.verdict) $(cat $J-ets0-fixed.rc)"

log "case strict"
tap_ok "strict: dcb ets set dev $X0 tc-tsa 0:strict tc-bw 0:0 1:100 prio-tc $PRIO:1" \
	dcb ets set dev $X0 tc-tsa 0:strict tc-bw 0:0 1:100 prio-tc $PRIO:1
st strict
tap_eq "strict: rdmastat fabric exits 1, $R0's ets link broken (strict TC 0 carrying priority 0 above TC 1)" \
	"1 broken fabric.ets_strict_starve" "$(cat $J-strict.rc) $(link strict $R0 ets)"
runfix strict ets
st strict-fixed
tap_eq "strict: read again: TC 0 is $(dcb -j ets show dev $X0 | jq -r '.tc_tsa[0]'), the ets link holds, the chain ok, exit 0" \
	"ok null ok 0" "$(link strict-fixed $R0 ets) $(q strict-fixed $R0 .chain.verdict) $(cat $J-strict-fixed.rc)"

# --- item 15: two APP entries for DSCP 26
log "case dscp2"
tap_ok "dscp2: dcb app add dev $X0 dscp-prio 26:5 (beside 26:$PRIO)" dcb app add dev $X0 dscp-prio 26:5
dcb -j app show dev $X0 > "$J-dscp2.app.json"
n5=$(eth_delta $X0 tx_prio5_packets cm_traffic)
tap_check "dscp2: ucmatose -t $TOS rides priority 5 (+$n5 on $X0), which has no PFC: two entries are a real fault" \
	[ "${n5:-0}" -gt 0 ]
st dscp2
tap_eq "dscp2: rdmastat fabric exits 1, $R0's priority link broken (two entries), its fix deletes 26:5 (not PFC on 5)" \
	"1 broken fabric.dscp_multiple dcb app del dev $X0 dscp-prio 26:5" \
	"$(cat $J-dscp2.rc) $(link dscp2 $R0 priority) $(fixcmd dscp2 priority)"
runfix dscp2 priority
st dscp2-fixed
n3=$(eth_delta $X0 tx_prio${PRIO}_packets cm_traffic)
tap_eq "dscp2: read again: APP 26:$PRIO alone, the priority link holds, the chain ok, exit 0" \
	'[[26,3]] ok null ok 0' \
	"$(dcb -j app show dev $X0 | jq -c .dscp_prio) $(link dscp2-fixed $R0 priority) $(q dscp2-fixed $R0 .chain.verdict) $(cat $J-dscp2-fixed.rc)"
tap_check "dscp2: the same traffic now rides priority $PRIO (+$n3 on $X0)" [ "${n3:-0}" -gt 0 ]

# --- item 15: the application's own ToS overrides configfs
log "case tos0"
n0=$(TOS=0 eth_delta $X0 tx_prio0_packets cm_traffic)
tap_check "tos0: ucmatose -t 0 rides priority 0 (+$n0 on $X0) though configfs default_roce_tos is $(cat /sys/kernel/config/rdma_cm/$R0/ports/1/default_roce_tos): the application's ToS wins" \
	[ "${n0:-0}" -gt 0 ]
st tos0 --tos 0
fx=$(q tos0 $R0 '.chain.links[] | select(.name == "priority") | .fix')
echo "$fx" > "$J-tos0.fixcmd"
tap_eq "tos0: rdmastat fabric --tos 0 exits 1, $R0's priority link broken" \
	"1 broken fabric.dscp_unmapped" "$(cat $J-tos0.rc) $(link tos0 $R0 priority)"
# app_option: the fix names the application's ToS option and writes nothing to configfs
app_option() {
	case $fx in *"echo "*) return 1 ;; esac
	case $fx in "ToS 106 in the application's own option (ucmatose -t 106"*) return 0 ;; esac
	return 1
}
tap_check "tos0: its fix is the application's ToS option, not configfs ($fx)" app_option
n3=$(TOS=106 eth_delta $X0 tx_prio${PRIO}_packets cm_traffic)
st tos0-fixed --tos 106
tap_eq "tos0: the fix applied (ucmatose -t 106: +$n3 on priority $PRIO), read again with --tos 106: the chain ok, exit 0" \
	"ok 0 yes" "$(q tos0-fixed $R0 .chain.verdict) $(cat $J-tos0-fixed.rc) $([ "${n3:-0}" -gt 0 ] && echo yes)"

# --- item 13: a PFC pause storm on priority 3
log "case storm"
# storm CASE N ARGS...: rdmastat fabric -j -i 2 ARGS over the knob's N PFC frames for
# priority 3 received by dcb0 (sent by dcb1), written between its two samples
storm() {
	local c=$1 n=$2 s
	shift 2
	first_sample "$J-$c.json" "$J-$c.err" "$X0 $X1" rdmastat fabric -j -i 2 "$@" ||
		log "$c: rdmastat's first sample was not seen"
	s=$spid
	[ "$n" = 0 ] || echo "$PRIO $n" > /sys/class/net/$X0/dcbdev/pause
	kill -CONT $s
	wait $s; echo $? > "$J-$c.rc"
	cat "$J-$c.err" >&2
}
storm storm 20000
tap_eq "storm: 20000 PFC frames in 2 s (10000/s) on priority $PRIO: exit 1, $R0's pause link broken (rx), $R1's too (tx)" \
	"1 broken fabric.pause_rate broken fabric.pause_rate" \
	"$(cat $J-storm.rc) $(link storm $R0 pause) $(link storm $R1 pause)"
diag "storm: $(q storm $R0 '.chain.links[] | select(.name == "pause") | .evidence')"
tap_eq "storm: rdmastat's priority-$PRIO rx_pause delta of $X0 is the knob's 20000" 20000 \
	"$(q storm $R0 '.priorities[3].rx_pause')"
storm storm-quiet 0
tap_eq "storm: the storm over, read again over a quiet interval: the pause link holds, the chain ok, exit 0" \
	"ok null ok 0" "$(link storm-quiet $R0 pause) $(q storm-quiet $R0 .chain.verdict) $(cat $J-storm-quiet.rc)"
storm storm-max 20000 --pause-max 50000
tap_eq "storm: the same 10000/s with --pause-max 50000: no finding, exit 0" \
	"ok null 0" "$(link storm-max $R0 pause) $(cat $J-storm-max.rc)"

# rdmatop -b --screen fabric -n 2 over the same storm: its second frame's rates span the
# knob's 30000 frames (3 s, 10000/s): a storm line for each port and exit 1
top_storm() {
	local s
	first_sample "$J-storm.rdmatop.txt" "$J-storm.rdmatop.txt" "$X0 $X1" \
		rdmatop -b --screen fabric -n 2 -d 3 "$@" || log "rdmatop's first frame was not seen"
	s=$spid
	echo "$PRIO 30000" > /sys/class/net/$X0/dcbdev/pause
	kill -CONT $s
	wait $s; echo $? > "$J-storm.rdmatop.txt.rc"
}
top_storm
tap_eq "storm: rdmatop -b --screen fabric over 10000 PFC frames/s exits 1 with a storm line for dcb0 (received) and dcb1 (sent)" \
	"1 1 1" "$(cat $J-storm.rdmatop.txt.rc) $(grep -c '^pause storm: priority 3 received .* \[fabric.pause_rate\]$' $J-storm.rdmatop.txt) $(grep -c '^pause storm: priority 3 sent .* \[fabric.pause_rate\]$' $J-storm.rdmatop.txt)"

# the flight recorder over the same kind of storm: its snapshot before the knob and the one
# after it hold the 20000 frames; a marker per port with rdmastat's finding (received on
# dcb0, rxed0's netdev; sent on dcb1, rxed1's), the ring copied, exit 0 on SIGINT
rec_storm() {
	local tr=/sys/kernel/tracing um= s ring=/tmp/73-ring
	grep -q " $tr tracefs" /proc/mounts || { mount -t tracefs nodev $tr && um=1; }
	rm -f $ring $ring.snap.*
	first_sample "$J-storm.rec.out" "$J-storm.rec.err" "$X0 $X1" \
		rdmatrace record --ring 1M --counters 1 $ring || log "the recorder's first snapshot was not seen"
	s=$spid
	echo "$PRIO 20000" > /sys/class/net/$X0/dcbdev/pause
	kill -CONT $s
	wait_for 15 sh -c "[ \$(rdmatrace dump $ring 2> /dev/null | grep -c ' marker pause storm: ') -ge 2 ]" ||
		log "the recorder wrote no two storm markers within 15 s"
	kill -INT $s
	wait $s; echo $? > "$J-storm.rec.rc"
	rdmatrace dump $ring > "$J-storm.rec.dump" 2>&1
	ls $ring.snap.* > "$J-storm.rec.snaps" 2> /dev/null
	cat "$J-storm.rec.err" >&2
	[ -z "$um" ] || umount $tr
}
if have rdmatrace; then
	rec_storm
	tap_eq "storm: rdmatrace record: one marker for $X0 ($R0/1) priority $PRIO received and one for $X1 ($R1/1) sent, fabric.pause_rate; the ring copied; exit 0 on SIGINT" \
		"1 1 yes 0" \
		"$(grep -c " marker pause storm: $X0 ($R0/1) priority $PRIO received [0-9]* PFC pause frames/s (rx_prio${PRIO}_pause; .*\[fabric.pause_rate\]$" $J-storm.rec.dump) $(grep -c " marker pause storm: $X1 ($R1/1) priority $PRIO sent [0-9]* PFC pause frames/s (tx_prio${PRIO}_pause; .*\[fabric.pause_rate\]$" $J-storm.rec.dump) $([ -s $J-storm.rec.snaps ] && echo yes) $(cat $J-storm.rec.rc)"
	tap_eq "storm: the recorder's counters of $R0/1 hold the knob's 20000 rx_prio${PRIO}_pause, of $R1/1 as many tx_prio${PRIO}_pause" \
		"1 1" \
		"$(grep -c " counters $R0/1 over [0-9.]* s: .*rx_prio${PRIO}_pause +20000" $J-storm.rec.dump) $(grep -c " counters $R1/1 over [0-9.]* s: .*tx_prio${PRIO}_pause +20000" $J-storm.rec.dump)"
fi

log "undo"
undo
tap_check "the module unloads" [ ! -e /sys/class/net/$X0 ]
dmesg_clean "$dmesg_n0"
