# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/70-fabric-dcbdev.sh: what iproute2's dcb read back, and where the
# rdmadiag_dcbdev pair counted the traffic, against rxe's own counters and the capture.
# Inputs in $VM_OUT (see the guest script): 70-dcb{0,1}.{pfc,app,ets}.json,
# 70-PHASE.{before,after}.{dcb0,dcb1}.ethtool and .{rxed0,rxed1}.hwc, 70-app.pcap,
# 70-noapp.dcb0.app.json, 70-pause.{dcb0,dcb1}.pfc.json (dcb -s: requests/indications),
# 70-linkpause.{dcb0,dcb1}.ethtool.{json,txt} (ethtool [--json] -I -a), 70-linkpause.fabric.json,
# 70-linkpause.fabric-i.json and 70-linkpause.after.{dcb0,dcb1}.ethtool.{json,txt}.
cd "$VM_OUT" || exit 2
if [ ! -s 70-dcb0.pfc.json ]; then
	# tests/vm/run builds the module into the run's directory's dcbdev.log ($VM_OUT/../..)
	tap_fail "the guest saved dcb -j pfc show of dcb0 (70-dcb0.pfc.json)" \
		"the module build said: $(tail -3 ../../dcbdev.log 2>/dev/null | tr '\n' ' ')"
	exit 0
fi
XA=198.18.7.1 XB=198.18.7.2

# eth PHASE DEV NAME: the increase of ethtool -S NAME of DEV over PHASE
eth() {
	awk -v k="$3:" 'FNR == 1 { f++ } $1 == k { v[f] = $2 } END { print v[2] - v[1] }' \
		"70-$1.before.$2.ethtool" "70-$1.after.$2.ethtool"
}
# hwc PHASE RXE NAME: the increase of an rxe hw_counter over PHASE
hwc() {
	awk -v k="$3" 'FNR == 1 { f++ } $1 == k { v[f] = $2 } END { print v[2] - v[1] }' \
		"70-$1.before.$2.hwc" "70-$1.after.$2.hwc"
}
# others PHASE DEV PRIO: the sum of every rx/tx packet counter of DEV's priorities but PRIO
others() {
	awk -v p="$3" 'FNR == 1 { f++ } $1 ~ /^(rx|tx)_prio[0-7]_packets:$/ && $1 !~ "prio" p "_" {
		v[f] += $2 } END { print v[2] - v[1] }' "70-$1.before.$2.ethtool" "70-$1.after.$2.ethtool"
}

# --- what dcb read back: the configuration the guest set, through the device's dcbnl ops
for d in dcb0 dcb1; do
	tap_eq "dcb -j pfc show dev $d: PFC on priority 3 only, 8 PFC-capable TCs" \
		"8 [false,false,false,true,false,false,false,false]" \
		"$(jq -c -r '"\(.pfc_cap) \(.prio_pfc)"' 70-$d.pfc.json)"
	tap_eq "dcb -j app show dev $d: DSCP 26 -> priority 3, nothing else" '{"dscp_prio":[[26,3]]}' \
		"$(jq -c . 70-$d.app.json)"
done
tap_eq "dcb -j ets show dev dcb0: what was set (TC 0 strict, TC 1 ETS 100 %, priority 3 in TC 1)" \
	'8 [0,100,0,0,0,0,0,0] ["strict","ets","ets","ets","ets","ets","ets","ets"] [0,0,0,1,0,0,0,0]' \
	"$(jq -c -r '"\(.ets_cap) \(.tc_bw) \(.tc_tsa) \(.prio_tc)"' 70-dcb0.ets.json)"
tap_eq "dcb -j ets show dev dcb1: the device's defaults (all ETS, TC 0 100 %, every priority in TC 0)" \
	'8 [100,0,0,0,0,0,0,0] ["ets","ets","ets","ets","ets","ets","ets","ets"] [0,0,0,0,0,0,0,0]' \
	"$(jq -c -r '"\(.ets_cap) \(.tc_bw) \(.tc_tsa) \(.prio_tc)"' 70-dcb1.ets.json)"
tap_eq "dcb -j dcbx show dev dcb0: host-managed IEEE, still after 'dcb dcbx set host cee' (refused)" \
	'{"host":true,"ieee":true}' "$(jq -c . 70-dcb0.dcbx.json)"
tap_eq "after dcb app del the APP table is empty" '{}' "$(jq -c . 70-noapp.dcb0.app.json)"

# --- ToS 106 with APP 26:3: every RoCE frame on priority 3, both ways, nothing elsewhere
sent0=$(hwc app rxed0 sent_pkts) rcvd0=$(hwc app rxed0 rcvd_pkts)
sent1=$(hwc app rxed1 sent_pkts) rcvd1=$(hwc app rxed1 rcvd_pkts)
diag "rxe over the run: rxed0 sent $sent0 received $rcvd0, rxed1 sent $sent1 received $rcvd1"
tap_check "the traffic crossed the pair (rxed0 sent $sent0, rxed1 received $rcvd1)" \
	eval '[ "$sent0" -gt 0 ] && [ "$rcvd1" -gt 0 ]'
tap_check "dcb0 tx_prio3_packets +$(eth app dcb0 tx_prio3_packets) >= rxed0 sent_pkts +$sent0" \
	[ "$(eth app dcb0 tx_prio3_packets)" -ge "$sent0" ]
tap_check "dcb1 rx_prio3_packets +$(eth app dcb1 rx_prio3_packets) >= rxed1 rcvd_pkts +$rcvd1" \
	[ "$(eth app dcb1 rx_prio3_packets)" -ge "$rcvd1" ]
tap_check "dcb1 tx_prio3_packets +$(eth app dcb1 tx_prio3_packets) >= rxed1 sent_pkts +$sent1" \
	[ "$(eth app dcb1 tx_prio3_packets)" -ge "$sent1" ]
tap_check "dcb0 rx_prio3_packets +$(eth app dcb0 rx_prio3_packets) >= rxed0 rcvd_pkts +$rcvd0" \
	[ "$(eth app dcb0 rx_prio3_packets)" -ge "$rcvd0" ]
tap_eq "no other priority moved on dcb0 (priority 0 included)" 0 "$(others app dcb0 3)"
tap_eq "no other priority moved on dcb1 (priority 0 included)" 0 "$(others app dcb1 3)"

# the capture on dcb1 (tshark: independent of the device's classifier): every frame carries
# DSCP 26, and what dcb1 counted on priority 3 is exactly what crossed it, frames and bytes
if [ -s 70-app.pcap ]; then
	read -r n_a b_a n_b b_b not26 <<< "$(tshark -r 70-app.pcap -T fields -e ip.src \
		-e ip.dsfield.dscp -e frame.len 2> /dev/null | awk -v a=$XA -v b=$XB '
		$2 != 26 { bad++ } $1 == a { na++; ba += $3 } $1 == b { nb++; bb += $3 }
		END { print na + 0, ba + 0, nb + 0, bb + 0, bad + 0 }')"
	tap_eq "every RoCE frame on the wire has DSCP 26 (ToS 106)" 0 "$not26"
	tap_eq "dcb1 rx_prio3 packets/bytes = the frames from $XA in the capture" "$n_a $b_a" \
		"$(eth app dcb1 rx_prio3_packets) $(eth app dcb1 rx_prio3_bytes)"
	tap_eq "dcb1 tx_prio3 packets/bytes = the frames from $XB in the capture" "$n_b $b_b" \
		"$(eth app dcb1 tx_prio3_packets) $(eth app dcb1 tx_prio3_bytes)"
else
	tap_fail "the guest saved the capture on dcb1 (70-app.pcap)"
fi

# --- the same traffic with the APP entry removed: priority 0, not 3
sent0=$(hwc noapp rxed0 sent_pkts) rcvd1=$(hwc noapp rxed1 rcvd_pkts)
tap_check "without the APP entry: dcb0 tx_prio0_packets +$(eth noapp dcb0 tx_prio0_packets) >= rxed0 sent_pkts +$sent0 > 0" \
	eval '[ "$sent0" -gt 0 ] && [ "$(eth noapp dcb0 tx_prio0_packets)" -ge "$sent0" ]'
tap_check "without the APP entry: dcb1 rx_prio0_packets +$(eth noapp dcb1 rx_prio0_packets) >= rxed1 rcvd_pkts +$rcvd1" \
	[ "$(eth noapp dcb1 rx_prio0_packets)" -ge "$rcvd1" ]
tap_eq "without the APP entry nothing lands on another priority" "0 0" \
	"$(others noapp dcb0 0) $(others noapp dcb1 0)"

# --- VLAN 7 with egress-qos-map 0:5: the PCP decides (5 pings; the replies take the local route)
tap_check "VLAN PCP 5: dcb0 tx_prio5_packets +$(eth vlan dcb0 tx_prio5_packets) >= 5 and dcb1 rx_prio5_packets +$(eth vlan dcb1 rx_prio5_packets) >= 5" \
	eval '[ "$(eth vlan dcb0 tx_prio5_packets)" -ge 5 ] && [ "$(eth vlan dcb1 rx_prio5_packets)" -ge 5 ]'
tap_eq "VLAN PCP 5: nothing on dcb0's other priorities" 0 "$(others vlan dcb0 5)"

# --- the pause knob: dcb0 received 4 PFC frames for priority 3 from dcb1
tap_eq "pause: dcb0 rx_prio3_pause +4, dcb1 tx_prio3_pause +4, nothing else" "4 4 0 0" \
	"$(eth pause dcb0 rx_prio3_pause) $(eth pause dcb1 tx_prio3_pause) $(eth pause dcb0 tx_prio3_pause) $(eth pause dcb1 rx_prio3_pause)"
tap_eq "pause: dcb -s pfc show reports them (dcb0 indications[3], dcb1 requests[3])" "4 4" \
	"$(jq -r '.indications[3]' 70-pause.dcb0.pfc.json) $(jq -r '.requests[3]' 70-pause.dcb1.pfc.json)"

# --- link-level pause through ethtool netlink: rdmastat fabric -j's pause object of each end
# = ethtool --json -I -a's (ethtool's own netlink reader), field by field; the 802.3x frames
# are the knob's "link" ones only (the 4 PFC frames above are not in them)
# pause_cmp PREFIX FABRIC DEV RXE: ethtool -I -a of DEV (70-linkpause.PREFIXDEV.ethtool.txt for
# autoneg/rx/tx, .json for the statistics) against RXE's pause in 70-linkpause.FABRIC.json:
# "keys compared equal | JSON keys in one only", or "DIFF ...".  ethtool 6.1 prints each JSON
# boolean of -a as true whatever the value (a pointer passed as the bool): its text says.
pause_cmp() {
	python3 - "70-linkpause.$1$3.ethtool" "70-linkpause.$2.json" "$4" <<-'EOF'
	import json, re, sys
	eth = json.load(open(sys.argv[1] + ".json"))[0]
	flat = dict(eth.get("statistics", {}))
	text = open(sys.argv[1] + ".txt").read()
	for key, label in (("autonegotiate", "Autonegotiate"), ("rx", "RX"), ("tx", "TX")):
	    m = re.search(r"^%s:\s+(on|off)$" % label, text, re.M)
	    if m:
	        flat[key] = m.group(1) == "on"
	port = [p for p in json.load(open(sys.argv[2])) if p["ifname"] == sys.argv[3]][0]
	ours = {k: v for k, v in port.get("pause", {}).items() if k != "interval"}
	keys = ["autonegotiate", "rx", "tx", "tx_pause_frames", "rx_pause_frames"]
	diff = ["%s: ethtool %s rdmastat %s" % (k, flat.get(k), ours.get(k)) for k in keys
	        if k not in flat or k not in ours or flat[k] != ours[k]]
	extra = sorted((set(eth) - {"ifname", "statistics"}) ^ set(keys[:3]))
	print("DIFF " + "; ".join(diff) if diff else " ".join(keys), "|", " ".join(extra) or "-")
	EOF
}
if [ ! -s 70-linkpause.fabric.json ]; then
	tap_fail "the guest saved rdmastat fabric -j of the linkpause phase (70-linkpause.fabric.json)"
else
	diag "ethtool --json -I -a dcb0: $(jq -c . 70-linkpause.dcb0.ethtool.json)" \
		"ethtool -I -a dcb0: $(tr '\n\t' '  ' < 70-linkpause.dcb0.ethtool.txt)"
	for rd_nd in rxed0:dcb0 rxed1:dcb1; do
		r=${rd_nd%:*} d=${rd_nd#*:}
		res=$(pause_cmp "" fabric "$d" "$r")
		same=${res%% |*} only=${res##*| }
		[ "$only" = - ] || diag "keys in only one of ethtool -I -a $d and rdmastat's: $only"
		tap_check "linkpause: rdmastat fabric -j $r .pause = ethtool -I -a $d, field by field (text for the booleans, --json for the frames: $same)" \
			eval '[ "${same#DIFF}" = "$same" ]'
		res=$(pause_cmp after. fabric-i "$d" "$r")
		same=${res%% |*}
		tap_check "linkpause: rdmastat fabric -j -i's $r .pause (second sample) = ethtool -I -a $d after it ($same)" \
			eval '[ "${same#DIFF}" = "$same" ]'
	done
	tap_eq "linkpause: the frames are the knob's 'link 7' (dcb0 rx 7, dcb1 tx 7, none the other way), dcb0's rx pause off" \
		"7 0 0 7 false true" \
		"$(jq -r '.[] | select(.ifname == "rxed0") | .pause | "\(.rx_pause_frames) \(.tx_pause_frames)"' 70-linkpause.fabric.json) $(jq -r '.[] | select(.ifname == "rxed1") | .pause | "\(.rx_pause_frames) \(.tx_pause_frames)"' 70-linkpause.fabric.json) $(jq -r '.[] | select(.ifname == "rxed0") | .pause | "\(.rx) \(.tx)"' 70-linkpause.fabric.json)"
	tap_eq "linkpause: rdmastat fabric -i's deltas over the knob's 'link 5': rxed0 rx +5 tx +0, rxed1 tx +5 rx +0; exit $(cat 70-linkpause.fabric-i.json.rc 2>/dev/null)" \
		"5 0 5 0" \
		"$(jq -r '.[] | select(.ifname == "rxed0") | .pause.interval | "\(.rx_pause_frames) \(.tx_pause_frames)"' 70-linkpause.fabric-i.json) $(jq -r '.[] | select(.ifname == "rxed1") | .pause.interval | "\(.tx_pause_frames) \(.rx_pause_frames)"' 70-linkpause.fabric-i.json)"
fi

# --- IPv6 (its own ND/MLD go on priority 0): the traffic class's DSCP 26 -> priority 3
[ -s 70-ipv6.after.dcb0.ethtool ] || { tap_fail "the guest ran the IPv6 phase (70-ipv6.*)"; exit 0; }
tap_check "IPv6 DSCP 26: dcb0 tx_prio3_packets +$(eth ipv6 dcb0 tx_prio3_packets) >= 5 and dcb1 rx_prio3_packets +$(eth ipv6 dcb1 rx_prio3_packets) >= 5" \
	eval '[ "$(eth ipv6 dcb0 tx_prio3_packets)" -ge 5 ] && [ "$(eth ipv6 dcb1 rx_prio3_packets)" -ge 5 ]'
