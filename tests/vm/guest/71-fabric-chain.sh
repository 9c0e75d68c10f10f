# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# The lossless chain of rdmastat fabric and rdmadoctor local on the rdmadiag_dcbdev pair
# (tests/vm/dcbdev; the pair and its traffic as in 70-fabric-dcbdev.sh): rxed0 on dcb0,
# rxed1 on dcb1, rdma_cm's configfs default_roce_tos 106 (DSCP 26) on both.  Four cases,
# each with the same ucmatose -t 106 traffic, each PHASE saved as
#   71-PHASE.fabric.json    rdmastat fabric -j -i over that traffic (see measure)
#   71-PHASE.{before,after}.{dcb0,dcb1}.ethtool   ethtool -S around that interval
#   71-PHASE.doctor.json    rdmadoctor local -j
#   71-ok.rdmatop.txt       rdmatop -b --screen fabric -n 2 over the same traffic
#   71-ok.prom              rdmastat --prom after the ok traffic; 71-ok.prom.{dcb0,dcb1}.ethtool
#                           ethtool -S right after it, .pause.json ethtool --json -I -a
#   71-PHASE.fixcmd         the fix rxed0's first broken link gave, which the guest ran
#   noapp   PFC 3, no APP entry on either end: everything on priority 0; then the fix
#   pfc4    APP 26:3 (noapp's fix on dcb0), PFC on priority 4 only on both ends: the
#           traffic on priority 3 without PFC; then the fix (dcb1 by hand)
#   ecnoff  PFC 3 again, dcb0's ecn/roce_np/enable/3 = 0 (the module's OFED-style files);
#           then the fix
#   ok      after those fixes: PFC 3 (and 4, left on dcb0), APP 26:3, ECN on everywhere,
#           ETS 50/50 with priority 3 in TC 1 on dcb0 (capture on dcb1: 71-ok.pcap); 802.3x
#           pause off on both ends from the start
# and the independent readers: 71-ok.dcb0.{pfc,app,ets}.json (dcb -j ... show, beside
# 71-ok.fabric.json), 71-noapp.dcb0.app.json, 71-pfc4.dcb0.pfc.json, 71-ecnoff.ecn (cat
# of dcb0's ecn/*/enable/3, before and after the fix).  host/71-fabric-chain.sh judges.
X0=dcb0 X1=dcb1 XA=198.18.7.1 XB=198.18.7.2 R0=rxed0 R1=rxed1
TOS=106 PRIO=3 PORT=7181 MSGS=10 IVAL=0.5
# rdmatop's interval: its first frame can take most of half a second under TCG, and its second
# comes one interval after the first was due, so at 0.5 s the stop could never come between
# them (CI: 3 tries, each "read dcb0 2 times before it stopped"); at 3 s it always does
TOPIVAL=3
J=$OUT/71
have rdmastat && have rdmadoctor || { tap_fail "rdmastat and rdmadoctor are in the image"; exit 0; }

# save FILE CMD...: CMD's stdout into $J-FILE, its exit status into $J-FILE.rc
save() { local f=$1; shift; "$@" > "$J-$f" 2> "$J-$f.err"; echo $? > "$J-$f.rc"; cat "$J-$f.err" >&2; }
# every dcb command in the log: iproute2 6.1's dcb exits 0 even when the device refused a
# write ("Attribute write: ..." on stderr), so the log says which one it was
dcb() { log "dcb $*"; command dcb "$@"; }
dcb_both() {
	local w=$1 v=$2 d
	shift 2
	for d in $X0 $X1; do dcb "$w" "$v" dev "$d" "$@" || return 1; done
}
# measure PHASE traffic [top]: rdmastat fabric -j -i over the traffic, ethtool -S around
# it (with top also rdmatop -b --screen fabric -n 2 over it), then rdmadoctor local -j.  The traffic is ucmatose ToS 106 rxed0 -> rxed1; its server listens before the tools
# start, the client runs once each tool has read both ends' counters (the module's
# dcbdev/stats_reads) and while they are stopped (SIGSTOP): their second sample comes after
# the traffic however long that takes under TCG.
measure() {
	local d s srv t0 top=
	for d in $X0 $X1; do ethtool -S "$d" > "$J-$1.before.$d.ethtool"; done
	timeout 30 ucmatose -b "$XB" -p "$PORT" -t "$TOS" -C "$MSGS" -S 1024 >&2 2>&1 &
	srv=$!
	wait_cm_listen "$PORT" || log "$1: ucmatose server did not listen"
	log "$1: server listens"
	if [ "${3:-}" = top ]; then
		first_sample "$J-$1.rdmatop.txt" "$J-$1.rdmatop.txt" "$X0 $X1" \
			rdmatop -b --screen fabric -n 2 -d $TOPIVAL
		top=$spid
	fi
	log "$1: rdmastat fabric -i"
	first_sample "$J-$1.fabric.json" "$J-$1.fabric.err" "$X0 $X1" rdmastat fabric -j -i $IVAL
	s=$spid
	t0=$(now_cs)
	timeout 30 ucmatose -s "$XB" -b "$XA" -p "$PORT" -t "$TOS" -C "$MSGS" -S 1024 >&2 2>&1
	tap_ok "$1: ucmatose ToS $TOS ($MSGS x 1 KiB) $R0 -> $R1 between rdmastat -i's samples" \
		pair_end $? "$srv"
	log "$1: traffic took $(( $(now_cs) - t0 ))0 ms"
	kill -CONT $s $top
	wait "$s"; echo $? > "$J-$1.fabric.json.rc"
	[ -z "$top" ] || { wait "$top"; echo $? > "$J-$1.rdmatop.txt.rc"; }
	for d in $X0 $X1; do ethtool -S "$d" > "$J-$1.after.$d.ethtool"; done
	cat "$J-$1.fabric.err" >&2
	log "$1: rdmadoctor local"
	save "$1.doctor.json" rdmadoctor local -j
	log "$1: measured"
}
# fix PHASE: run the fix of rxed0's first broken link, its dcb or echo command (up to
# " (mlnx_qos ..."); the next phase's chain shows whether it took
fix() {
	local cmd sel='[0]'
	cmd=$(jq -r --arg d $R0 ".[] | select(.ifname == \$d) | [.chain.links[] |
		select(.state == \"broken\") | .fix]$sel" "$J-$1.fabric.json" | sed 's/ (mlnx_qos.*//')
	echo "$cmd" > "$J-$1.fixcmd"
	tap_ok "$1: the fix rdmastat gives for $R0 runs: $(echo $cmd)" sh -c "$cmd"
}
undo() { dcbdev_undo; }

dmesg_n0=$(dmesg | wc -l)
tap_ok "the rdmadiag_dcbdev test module loads" modprobe rdmadiag_dcbdev || exit 0
tap_ok "rxe on both ends ($R0 on $X0, $R1 on $X1), ports ACTIVE" dcbdev_pair_up || { undo; exit 0; }
tap_ok "rdma_cm configfs default_roce_tos $TOS on $R0 and $R1" dcbdev_cfs_tos
# 802.3x pause off on both ends, as with PFC on a NIC (on together they are a finding of
# their own, fabric.pause_with_pfc)
tap_ok "ethtool -A rx off tx off on both ends (PFC follows)" \
	sh -c "ethtool -A $X0 rx off tx off && ethtool -A $X1 rx off tx off"
tap_eq "the module has OFED's ECN files, every priority on (dcb0 roce_np/enable/3, dcb1 roce_rp/enable/7)" \
	"1 1" "$(cat /sys/class/net/$X0/ecn/roce_np/enable/3 /sys/class/net/$X1/ecn/roce_rp/enable/7 | tr '\n' ' ' | sed 's/ $//')"
if echo 2 > /sys/class/net/$X0/ecn/roce_np/enable/3 2>/dev/null; then
	tap_fail "an ECN enable file refuses 2"
else
	tap_pass "an ECN enable file refuses 2"
fi

# The broken cases first, each repaired by the fix rdmastat printed for rxed0 (dcb1 by hand);
# the passing case last, after those fixes.
log "phase noapp"
tap_ok "dcb pfc set prio-pfc $PRIO:on on both ends, no APP entry" dcb_both pfc set prio-pfc $PRIO:on
dcb -j app show dev $X0 > "$J-noapp.$X0.app.json"
measure noapp traffic
fix noapp
dcb app add dev $X1 dscp-prio 26:$PRIO

# PFC on priority 4 only on both ends, the same traffic: it rides priority 3, which has no PFC
log "phase pfc4"
tap_ok "dcb pfc set prio-pfc $PRIO:off 4:on on both ends" dcb_both pfc set prio-pfc $PRIO:off 4:on
dcb -j pfc show dev $X0 > "$J-pfc4.$X0.pfc.json"
measure pfc4 traffic
fix pfc4
dcb pfc set dev $X1 prio-pfc $PRIO:on 4:off

# ECN (the notification point) off on priority 3 on dcb0, PFC back on 3: the same traffic
log "phase ecnoff"
tap_ok "echo 0 > /sys/class/net/$X0/ecn/roce_np/enable/$PRIO" \
	sh -c "echo 0 > /sys/class/net/$X0/ecn/roce_np/enable/$PRIO"
for w in roce_np roce_rp; do
	echo "$w $(cat /sys/class/net/$X0/ecn/$w/enable/$PRIO)"
done > "$J-ecnoff.ecn"
measure ecnoff traffic
fix ecnoff
echo "after fix: $(cat /sys/class/net/$X0/ecn/roce_np/enable/$PRIO)" >> "$J-ecnoff.ecn"

log "phase ok"
# ETS off its defaults on dcb0, so that the comparison is not of defaults: priority 3 in TC 1,
# TC 0 and 1 sharing the bandwidth (a strict TC 0 carrying priority 0 above it would starve
# it: fabric.ets_strict_starve)
tap_ok "dcb ets set dev $X0 tc-tsa 1:ets tc-bw 0:50 1:50 prio-tc $PRIO:1" \
	dcb ets set dev $X0 tc-tsa 1:ets tc-bw 0:50 1:50 prio-tc $PRIO:1
for w in pfc app ets; do dcb -j $w show dev $X0 > "$J-ok.$X0.$w.json"; done
cap_start 71-ok $X1
measure ok traffic top
cap_stop 71-ok
# rdmastat --prom's rdma_eth_ families after that traffic, and ethtool -S read right after it
# (nothing moves on the pair by then): host/71 compares them
log "ok: rdmastat --prom"
# 3 link-level pause frames from dcb1 to dcb0 (the knob), for --prom's standard pause family
echo 'link 3' > /sys/class/net/$X0/dcbdev/pause
save ok.prom rdmastat --prom
for d in $X0 $X1; do
	ethtool -S "$d" > "$J-ok.prom.$d.ethtool"
	ethtool --json -I -a "$d" > "$J-ok.prom.$d.pause.json"
done

log "undo"
undo
tap_check "the module unloads (its ecn/ directories with it)" [ ! -e /sys/class/net/$X0 ]
dmesg_clean "$dmesg_n0"
