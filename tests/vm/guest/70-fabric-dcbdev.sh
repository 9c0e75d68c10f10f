# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# The lossless-fabric chain on a DCB-capable netdev: the rdmadiag_dcbdev test module
# (tests/vm/dcbdev) makes the pair dcb0 <-> dcb1; rxe binds to each end and rdma_cm traffic
# with ToS 106 (DSCP 26) crosses it.  iproute2's dcb configures the device (PFC on priority
# 3, APP DSCP 26 -> priority 3) and the device counts every frame on the priority its own
# APP table (or a VLAN tag's PCP) gives, in ethtool -S rx/tx_prio<p>_*.
#
#   rxed0 -- dcb0 198.18.7.1  <====>  dcb1 198.18.7.2 -- rxed1
#   VLAN 7: dcb0.7 198.18.8.1 (egress-qos-map 0:5)  ->  dcb1.7 198.18.8.2
#
# The traffic is ucmatose (rdmacm-utils), which takes both a ToS (-t) and a source address
# (-b): rping has no ToS option, and ib_write_bw -R does not bind its source, so rdma_cm puts
# both of its ends on one rxe device and no frame reaches a netdev (see lib.sh).
# The guest only runs and saves; host/70-fabric-dcbdev.sh judges (jq, deltas, tshark).
# Phases, each saved as $OUT/70-PHASE.{before,after}.{dcb0,dcb1}.ethtool (ethtool -S) and
# .{rxed0,rxed1}.hwc (rxe's hw_counters, 'name value'):
#   app     APP 26:3 on both ends: ucmatose -t 106 (capture on dcb1: 70-app.pcap)
#   noapp   the APP entries deleted: the same traffic
#   vlan    ping over VLAN 7 (PCP 5 from the egress map; the echo replies take the local
#           route, not the pair)
#   pause   the pause knob: "3 4" into dcb0's, i.e. dcb1 sent dcb0 4 PFC frames for prio 3
#   ipv6    APP 26:3 again, 5 IPv6 pings from dcb0 marked DSCP 26 (to fd00:7::99 via dcb1)
#   linkpause  the knob's "link 7" on dcb0 (802.3x pause) and ethtool -A dcb0 rx off:
#           70-linkpause.{dcb0,dcb1}.ethtool.{json,txt} (ethtool [--json] -I -a) beside
#           70-linkpause.fabric.json (rdmastat fabric -j); then rdmastat fabric -j -i 0.3
#           over "link 5" (70-linkpause.fabric-i.json) and ethtool -I -a after it
#           (70-linkpause.after.*.ethtool.{json,txt})
# and 70-dcb0.{pfc,app,ets}.json / 70-dcb1.*.json (dcb -j ... show) while PFC 3 and APP
# 26:3 are set, 70-dcb0.dcbx.json; 70-pause.dcb{0,1}.pfc.json after the knob
# (dcb -s: requests/indications).
# No ARP and, until the ipv6 phase, no IPv6 on the pair (permanent neighbours,
# disable_ipv6) so that nothing but the traffic moves a priority's counters.
X0=dcb0 X1=dcb1 XA=198.18.7.1 XB=198.18.7.2 R0=rxed0 R1=rxed1
VA=198.18.8.1 VB=198.18.8.2 VLAN=7 PCP=5 XA6=fd00:7::1 XC6=fd00:7::99
TOS=106 PRIO=3 PORT=7180 MSGS=10
J=$OUT/70

# snap PHASE WHEN [rxe]: ethtool -S of both ends; with 'rxe' also the hw_counters of both
# rxe devices (one wait for their cache lifespan, then builtin reads: forks cost under TCG)
snap() {
	local d f v
	for d in $X0 $X1; do ethtool -S "$d" > "$J-$1.$2.$d.ethtool" 2>&1; done
	[ "${3:-}" = rxe ] || return 0
	wait_lifespan
	for d in $R0 $R1; do
		for f in /sys/class/infiniband/$d/ports/1/hw_counters/*_pkts; do
			read -r v < "$f"; echo "${f##*/} $v"
		done > "$J-$1.$2.$d.hwc"
	done
}
# dcb_both OBJECT VERB ARGS...: dcb OBJECT VERB dev X ARGS... on each end (not dcb -b:
# iproute2 6.1's dcb fails every batch line after the first, "Attribute not found")
dcb_both() {
	local w=$1 v=$2 d
	shift 2
	for d in $X0 $X1; do dcb "$w" "$v" dev "$d" "$@" || return 1; done
}
# dcb_save: dcb -j pfc/app/ets show of both ends into $J-DEV.WHAT.json
dcb_save() {
	local d w
	for d in $X0 $X1; do for w in pfc app ets; do
		dcb -j "$w" show dev "$d" > "$J-$d.$w.json" || return 1
	done; done
}
undo() {
	rdma link delete $R0 2>/dev/null; rdma link delete $R1 2>/dev/null
	printf 'link del %s\n' $X0.$VLAN $X1.$VLAN | ip -force -batch - 2>/dev/null
	modprobe -r rdmadiag_dcbdev 2>/dev/null
	return 0
}

# a name too long for a netdev is refused at load (alloc_netdev would BUG on it)
if modprobe rdmadiag_dcbdev name0=dcb-name-too-long-for-ifnamsiz 2>&1 | sed 's/^/modprobe: /' >&2
	[ -d /sys/module/rdmadiag_dcbdev ]; then
	tap_fail "the module refuses a 31-character name0 (loaded: $(ls /sys/class/net | tr '\n' ' '))"
	modprobe -r rdmadiag_dcbdev
else
	tap_check "the module refuses a 31-character name0 and makes no device" [ ! -e /sys/class/net/$X1 ]
fi
if ! tap_ok "the rdmadiag_dcbdev test module loads (dcb0 <-> dcb1)" modprobe rdmadiag_dcbdev; then
	diag "built by tests/vm/dcbdev/build.sh into the image: see the run's dcbdev.log"
	exit 0
fi
if ! tap_ok "rxe binds to both ends ($R0 on $X0, $R1 on $X1) and their ports go ACTIVE" dcbdev_pair_up; then
	undo; exit 0
fi
ethtool -i $X0 >&2
tap_ok "dcb pfc set prio-pfc $PRIO:on on both ends" dcb_both pfc set prio-pfc $PRIO:on
tap_ok "dcb app add dscp-prio 26:$PRIO on both ends" dcb_both app add dscp-prio 26:$PRIO
# ETS on dcb0 only: priority 3 in TC 1, TC 0 strict, TC 1 ETS 100 %.  The device checks
# as mlx5 does that the ETS TCs' shares add up to 100 %: 'tc-tsa 0:strict' alone leaves
# TCs 1-7 ETS with 0 % in all (dcb itself checks only that all shares add up to 100).
# dcbnl answers a driver's refusal inside its reply (DCB_ATTR_IEEE), not as a netlink
# error, and iproute2 6.1's dcb exits 0 all the same: what counts is what reads back.
dcb ets set dev $X0 tc-tsa 0:strict >&2 2>&1
ets=$(dcb -j ets show dev $X0)
tap_check "the device refuses ETS TCs whose shares add up to 0 % (tc-tsa 0:strict: still all ETS)" \
	eval '[[ $ets == *'"'"'"tc_tsa":["ets","ets",'"'"'* ]]'
tap_ok "dcb ets set dev $X0 tc-tsa 0:strict tc-bw 0:0 1:100 prio-tc 3:1" \
	dcb ets set dev $X0 tc-tsa 0:strict tc-bw 0:0 1:100 prio-tc 3:1
# DCBX: only host-managed IEEE is implemented; asking for CEE is refused (read back)
dcb dcbx set dev $X0 host cee >&2 2>&1
tap_ok "dcb -j pfc/app/ets show both ends (saved for the host)" dcb_save
dcb -j dcbx show dev $X0 > "$J-$X0.dcbx.json" 2>&1

snap app before rxe
cap_start 70-app $X1
tap_ok "ucmatose ToS $TOS ($MSGS x 1 KiB) $R0 -> $R1 across the pair (DSCP 26 -> prio $PRIO)" cm_traffic
cap_stop 70-app
snap app after rxe

tap_ok "dcb app del dscp-prio 26:$PRIO on both ends" dcb_both app del dscp-prio 26:$PRIO
dcb -j app show dev $X0 > "$J-noapp.$X0.app.json" 2>&1
snap noapp before rxe
tap_ok "the same traffic with no APP entry" cm_traffic
snap noapp after rxe

vlan_up() {
	local d m
	ip -batch - <<-EOB || return 1
	link add link $X0 name $X0.$VLAN type vlan id $VLAN egress-qos-map 0:$PCP
	link add link $X1 name $X1.$VLAN type vlan id $VLAN
	EOB
	for d in $X0.$VLAN $X1.$VLAN; do echo 1 > "/proc/sys/net/ipv6/conf/$d/disable_ipv6"; done
	read -r m < /sys/class/net/$X1/address
	ip -batch - <<-EOB
	addr add $VA/24 dev $X0.$VLAN
	addr add $VB/24 dev $X1.$VLAN
	link set $X0.$VLAN up
	link set $X1.$VLAN up
	neigh replace $VB lladdr $m dev $X0.$VLAN nud permanent
	EOB
}
log "phase vlan"
tap_ok "VLAN $VLAN on both ends, $X0.$VLAN egress-qos-map 0:$PCP" vlan_up
snap vlan before
# -I DEV binds the socket to the VLAN device: the route then leaves through it rather
# than through the local route to an address of this host
tap_ok "5 pings over VLAN $VLAN" ping -c 5 -i 0.05 -W 2 -I $X0.$VLAN $VB
snap vlan after

log "phase pause"
snap pause before
tap_ok "the pause knob takes '$PRIO 4' on $X0" sh -c "echo '$PRIO 4' > /sys/class/net/$X0/dcbdev/pause"
if echo "8 1" > /sys/class/net/$X0/dcbdev/pause 2>/dev/null; then
	tap_fail "the pause knob refuses priority 8"
else
	tap_pass "the pause knob refuses priority 8"
fi
snap pause after
for d in $X0 $X1; do dcb -s -j pfc show dev $d > "$J-pause.$d.pfc.json" 2>&1; done

# Link-level (802.3x) pause through ethtool netlink: the knob's "link 7" on dcb0 (dcb1 sent
# dcb0 7 pause frames), dcb0's rx pause set off; ethtool -I -a (ethtool's netlink reader)
# and rdmastat fabric -j read both ends.  Then rdmastat fabric -i over the knob's "link 5":
# its first samples are taken once it has read both ends' ethtool -S (it reads the pause of
# a netdev before its ethtool -S), the knob is written while it is stopped.
linkpause_interval() {
	local s
	first_sample "$J-linkpause.fabric-i.json" "$J-linkpause.fabric-i.err" "$X0 $X1" \
		rdmastat fabric -j -i 0.3
	s=$spid
	echo 'link 5' > /sys/class/net/$X0/dcbdev/pause
	kill -CONT $s
	wait $s
	echo $? > "$J-linkpause.fabric-i.json.rc"
	cat "$J-linkpause.fabric-i.err" >&2
}
log "phase linkpause"
tap_ok "the pause knob takes 'link 7' on $X0" sh -c "echo 'link 7' > /sys/class/net/$X0/dcbdev/pause"
tap_ok "ethtool -A $X0 rx off" ethtool -A $X0 rx off
# ethtool_a WHEN: ethtool -I -a of both ends, JSON and text (ethtool 6.1 prints
# every JSON boolean of -a as true, whatever the value: its text is read for those)
ethtool_a() {
	local d
	for d in $X0 $X1; do
		ethtool --json -I -a $d > "$J-linkpause.$1$d.ethtool.json" 2>&1
		ethtool -I -a $d > "$J-linkpause.$1$d.ethtool.txt" 2>&1
	done
}
ethtool_a ""
if have rdmastat; then
	rdmastat fabric -j > "$J-linkpause.fabric.json" 2> "$J-linkpause.fabric.err"
	echo $? > "$J-linkpause.fabric.json.rc"
	linkpause_interval
	ethtool_a after.
else
	tap_fail "rdmastat is in the image"
fi

# IPv6 last (its ND/MLD/RS frames go on priority 0 from here on), APP 26:3 again.  IPv6 to an
# address of this host takes the local route whatever the socket is bound to, so rdma_cm
# over IPv6 never crosses the pair: instead 5 pings to fd00:7::99, which is no one's (its
# neighbour entry is dcb1's MAC: the frames cross and dcb1 drops them), marked DSCP 26 by
# nft (busybox ping cannot set a traffic class).
NFT70=rdiag_70
ipv6_up() {
	local m1
	echo 0 > /proc/sys/net/ipv6/conf/$X0/disable_ipv6
	read -r m1 < /sys/class/net/$X1/address
	ip -6 -batch - <<-EOB || return 1
	addr add $XA6/64 dev $X0 nodad
	neigh replace $XC6 lladdr $m1 dev $X0 nud permanent
	EOB
	nft -f - <<-EOB || return 1
	table ip6 $NFT70 {
		chain out { type filter hook output priority 0; ip6 daddr $XC6 ip6 dscp set 26; }
	}
	EOB
	dcb_both app add dscp-prio 26:$PRIO
}
log "phase ipv6"
if tap_ok "IPv6 on $X0 ($XA6), nft marking DSCP 26 to $XC6, APP 26:$PRIO again" ipv6_up; then
	snap ipv6 before
	# no answer, by design: -W 1 waits 1 s for one (not 10), and ping exits 1
	ping -c 5 -i 0.05 -W 1 $XC6 >&2 2>&1
	snap ipv6 after
fi
nft delete table ip6 $NFT70 2>/dev/null

log "undo"
undo
dmesg > /tmp/70.dmesg; cat /tmp/70.dmesg >&2
tap_check "the kernel logged no warning, bug or oops about the module, rxe on it or its unload" \
	eval '! grep -qE "WARNING:|BUG:|Oops|Call Trace|refcount" /tmp/70.dmesg'
tap_check "the module unloads and takes dcb0/dcb1 with it" \
	eval '[ ! -e /sys/class/net/$X0 ] && [ ! -e /sys/class/net/$X1 ]'
