# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/71-fabric-chain.sh: rdmastat fabric's DCB against iproute2's dcb,
# its per-priority deltas against ethtool -S and the capture (tshark), and its chain and
# rdmadoctor's findings in each broken case against what the guest set.
cd "$VM_OUT" || exit 2
if [ ! -s 71-ok.fabric.json ]; then
	tap_fail "the guest saved rdmastat fabric -j of the passing case (71-ok.fabric.json)" \
		"the module build said: $(tail -3 ../../dcbdev.log 2>/dev/null | tr '\n' ' ')"
	exit 0
fi
XA=198.18.7.1

# port PHASE RXE JQ: JQ on RXE's object in PHASE's rdmastat fabric -j
port() { jq -c -r --arg d "$2" ".[] | select(.ifname == \$d) | $3" "71-$1.fabric.json"; }
# link PHASE RXE NAME: "state finding" of one link of RXE's chain
link() { port "$1" "$2" ".chain.links[] | select(.name == \"$3\") | \"\\(.state) \\(.finding)\""; }
# eth PHASE DEV NAME: the increase of ethtool -S NAME of DEV over PHASE
eth() {
	awk -v k="$3:" 'FNR == 1 { f++ } $1 == k { v[f] = $2 } END { print v[2] - v[1] }' \
		"71-$1.before.$2.ethtool" "71-$1.after.$2.ethtool"
}
# others_eth PHASE DEV: ethtool's packet deltas of every priority but 3, summed
others_eth() {
	awk 'FNR == 1 { f++ } $1 ~ /^(rx|tx)_prio[0-24-7]_packets:$/ { v[f] += $2 } END { print v[2] - v[1] }' \
		"71-$1.before.$2.ethtool" "71-$1.after.$2.ethtool"
}
# rd PHASE RXE PRIO FIELD: rdmastat's measured delta
rd() { port "$1" "$2" ".priorities[] | select(.prio == $3) | .$4"; }
# lossless PHASE: rdmadoctor's lossless findings for the pair, "level cause subject" lines
lossless() {
	jq -r '[.. | objects | select(.check? == "lossless") | select(.subject | test("dcb"))] |
		map("\(.level) \(.cause) \(.subject)") | join("; ")' "71-$1.doctor.json"
}

# --- rdmastat fabric -j = dcb -j pfc/app/ets show, field by field: every field dcb prints
# that rdmastat reports too is equal; the fields dcb prints that rdmastat leaves out are
# listed (iproute2 6.1's ets: pg_bw = tc_rx_bw, and the reco_* recommendation)
d=dcb0 r=rxed0
for w in pfc app ets; do
	res=$(python3 - "71-ok.$d.$w.json" "71-ok.fabric.json" "$r" "$w" <<-'EOF'
	import json, sys
	dcb = json.load(open(sys.argv[1]))
	port = [p for p in json.load(open(sys.argv[2])) if p["ifname"] == sys.argv[3]][0]
	ours = port["dcb"].get(sys.argv[4], {})
	both = [k for k in dcb if k in ours]
	diff = [f"{k}: dcb {dcb[k]} rdmastat {ours[k]}" for k in both if ours[k] != dcb[k]]
	only = [k for k in dcb if k not in ours]
	print(("DIFF " + "; ".join(diff)) if diff or not both else " ".join(both),
	      "|", " ".join(only) or "-")
	EOF
	)
	same=${res%% |*} only=${res##*| }
	[ "$only" = - ] || diag "dcb -j $w show dev $d prints what rdmastat does not report: $only"
	tap_check "rdmastat fabric -j $r .dcb.$w = dcb -j $w show dev $d (${same:-nothing compared})" \
		eval '[ -n "$same" ] && [ "${same#DIFF}" = "$same" ]'
done
# dcb itself read back what the guest set (so the comparison above is not of two defaults)
tap_eq "dcb -j pfc/app/ets show dev dcb0 in the passing case: PFC on 3 (the fix) and 4 (left), APP 26:3, TC 0 and TC 1 ETS 50 % each, priority 3 in TC 1" \
	'[false,false,false,true,true,false,false,false] {"dscp_prio":[[26,3]]} [50,50,0,0,0,0,0,0] ["ets","ets","ets","ets","ets","ets","ets","ets"] [0,0,0,1,0,0,0,0]' \
	"$(jq -c .prio_pfc 71-ok.dcb0.pfc.json) $(jq -c . 71-ok.dcb0.app.json) $(jq -c -r '"\(.tc_bw) \(.tc_tsa) \(.prio_tc)"' 71-ok.dcb0.ets.json)"

# --- the passing case, after the fixes of the broken cases below were run: the chain holds
# on both ports, measured on priority 3
for r in rxed0 rxed1; do
	tap_eq "ok: $r's chain holds: ToS 106 from configfs, DSCP 26, priority 3, ECN read from the module's files" \
		"ok 106 configfs 26 3 ok ok" \
		"$(port ok $r '"\(.chain.verdict) \(.chain.tos) \(.chain.tos_source) \(.chain.dscp) \(.chain.priority)"') $(link ok $r ecn | cut -d' ' -f1) $(link ok $r traffic | cut -d' ' -f1)"
done
for p in 0 3; do for f in tx_packets rx_packets tx_bytes rx_bytes; do
	tap_eq "ok: rdmastat -i's priority-$p $f of dcb0 = ethtool -S's prio$p delta" \
		"$(eth ok dcb0 ${f%%_*}_prio${p}_${f#*_})" "$(rd ok rxed0 $p $f)"
done; done
tap_check "ok: priority 3 moved both ways on dcb0 (tx +$(rd ok rxed0 3 tx_packets), rx +$(rd ok rxed0 3 rx_packets)), priority 0 did not" \
	eval '[ "$(rd ok rxed0 3 tx_packets)" -gt 0 ] && [ "$(rd ok rxed0 3 rx_packets)" -gt 0 ] && [ "$(rd ok rxed0 0 tx_packets)" = 0 ]'
if [ -s 71-ok.pcap ]; then
	read -r n_a b_a not26 <<< "$(tshark -r 71-ok.pcap -T fields -e ip.src -e ip.dsfield.dscp \
		-e frame.len 2> /dev/null | awk -v a=$XA '$2 != 26 { bad++ } $1 == a { n++; b += $3 }
		END { print n + 0, b + 0, bad + 0 }')"
	tap_eq "ok: every captured RoCE frame has DSCP 26" 0 "$not26"
	tap_eq "ok: rdmastat's dcb1 priority-3 rx packets/bytes = the frames from $XA in the capture" \
		"$n_a $b_a" "$(rd ok rxed1 3 rx_packets) $(rd ok rxed1 3 rx_bytes)"
else
	tap_fail "the guest saved the capture on dcb1 (71-ok.pcap)"
fi
tap_eq "ok: rdmastat fabric exit status 0 for the pair (others may be unknown, none broken)" 0 \
	"$(cat 71-ok.fabric.json.rc)"
# rdmatop -b --screen fabric over the same traffic: frame 2's dcb0 block moves on priority 3
# only (packets and bytes both ways), as ethtool -S counted
# top_row PRIO: frame 2's row of PRIO in the block of rxed0
top_row() {
	awk -v p="$1" '/^rdmatop - / { f++ } /^Fabric / { b = $2 } f == 2 && b == "rxed0/1" &&
		$1 == p && NF == 7 { print; exit }' 71-ok.rdmatop.txt
}
if [ -s 71-ok.rdmatop.txt ]; then
	diag "rdmatop -b --screen fabric, frame 2, priority 3 of rxed0/1 dcb0: $(top_row 3)"
	tap_eq "ok: rdmatop -b --screen fabric exit status 0, a block for rxed0/1 dcb0 (rdmadiag_dcbdev) in each of its 2 frames" \
		"0 2" "$(cat 71-ok.rdmatop.txt.rc) $(grep -c '^Fabric rxed0/1 dcb0 (rdmadiag_dcbdev): per-priority rates$' 71-ok.rdmatop.txt)"
	tap_check "ok: rdmatop's Fabric frame 2 shows priority 3 moving both ways ($(top_row 3)) as ethtool -S did (tx +$(eth ok dcb0 tx_prio3_packets))" \
		eval '[ "$(eth ok dcb0 tx_prio3_packets)" -gt 0 ] && [[ "$(top_row 3)" =~ ^\ *3\ +[1-9][^\ ]*\ +[1-9][^\ ]*\ +[1-9][^\ ]*B\ +[1-9][^\ ]*B\ +0\ +0$ ]]'
	tap_eq "ok: ... and every other priority at 0 (as ethtool -S: +$(others_eth ok dcb0))" \
		"0 0 0 0 0 0 0" "$(for p in 0 1 2 4 5 6 7; do top_row $p | awk '{ print ($2 $3 $4 $5 $6 $7 == "000B0B00") ? 0 : 1 }'; done | tr '\n' ' ' | sed 's/ $//')"
else
	tap_fail "the guest saved rdmatop -b --screen fabric's frames (71-ok.rdmatop.txt)"
fi
tap_eq "ok: rdmadoctor local: one ok lossless line per port of the pair" \
	"ok null rxed0/1 dcb0; ok null rxed1/1 dcb1" "$(lossless ok)"

# --- the broken cases: the link, its finding and fix, the doctor, and the fix applied
# broken PHASE LINK FINDING FIX-PREFIX: rxed0's chain is broken at LINK with FINDING, the
# guest ran a fix starting with FIX-PREFIX, and rdmadoctor local warned FINDING
broken() {
	local ph=$1 lk=$2 fd=$3 fx=$4
	tap_eq "$ph: rxed0's chain is broken at $lk ($fd)" "broken $lk broken $fd" \
		"$(port "$ph" rxed0 .chain.verdict) $lk $(link "$ph" rxed0 "$lk")"
	tap_check "$ph: the fix run for it is '$fx ...' ($(tr '\n' '|' < 71-$ph.fixcmd))" \
		awk -v f="$fx" 'index($0, f) == 1 { ok = 1 } END { exit !ok }' 71-$ph.fixcmd
	tap_check "$ph: rdmadoctor local warns $fd on rxed0/1 dcb0 ($(lossless "$ph"))" \
		eval '[[ "$(lossless "$ph")" == *"warning $fd rxed0/1 dcb0"* ]]'
}
# fixed PHASE: rdmastat said broken (exit 1); whether the fix took, the next phase's chain
# says (noapp's: pfc4's priority link; pfc4's: ecnoff's pfc link; ecnoff's: the passing
# case above)
fixed() {
	tap_eq "$1: rdmastat fabric exit status 1 (a broken chain)" 1 "$(cat 71-$1.fabric.json.rc)"
}

tap_eq "noapp: dcb -j app show dev dcb0 is empty" '{}' "$(jq -c . 71-noapp.dcb0.app.json)"
broken noapp priority fabric.dscp_unmapped "dcb app add dev dcb0 dscp-prio 26:3"
fixed noapp
tap_eq "noapp: the chain says priority 0; rdmastat's priority-0 and -3 tx deltas = ethtool's" \
	"0 $(eth noapp dcb0 tx_prio0_packets) $(eth noapp dcb0 tx_prio3_packets)" \
	"$(port noapp rxed0 .chain.priority) $(rd noapp rxed0 0 tx_packets) $(rd noapp rxed0 3 tx_packets)"
tap_check "noapp: the traffic moved priority 0 (+$(eth noapp dcb0 tx_prio0_packets) on dcb0), not 3 (+$(eth noapp dcb0 tx_prio3_packets)); rdmastat's traffic link agrees ($(link noapp rxed0 traffic))" \
	eval '[ "$(eth noapp dcb0 tx_prio0_packets)" -gt 0 ] && [ "$(eth noapp dcb0 tx_prio3_packets)" = 0 ] && [ "$(link noapp rxed0 traffic | cut -d" " -f1)" = ok ]'

# the traffic of a phase on priority 3: rdmastat -i's priority-3 and -PRIO tx deltas of
# dcb0 = ethtool -S's, priority 3 moved and priority 0 did not, and the traffic link holds
# on_prio3 PHASE OTHER-PRIO
on_prio3() {
	tap_eq "$1: rdmastat's priority-3 and -$2 tx deltas of dcb0 = ethtool's" \
		"$(eth "$1" dcb0 tx_prio3_packets) $(eth "$1" dcb0 tx_prio$2_packets)" \
		"$(rd "$1" rxed0 3 tx_packets) $(rd "$1" rxed0 "$2" tx_packets)"
	local p3 p0 px lk
	p3=$(eth "$1" dcb0 tx_prio3_packets) p0=$(eth "$1" dcb0 tx_prio0_packets)
	px=$(eth "$1" dcb0 tx_prio$2_packets) lk=$(link "$1" rxed0 traffic)
	tap_check "$1: the traffic moved priority 3 (+$p3 on dcb0), not 0 (+$p0) nor $2 (+$px); rdmastat's traffic link agrees ($lk)" \
		eval "[ '$p3' -gt 0 ] && [ '$p0' = 0 ] && [ '$px' = 0 ] && [ '${lk%% *}' = ok ]"
}
# evidence PHASE LINK TEXT: the broken link's evidence says TEXT
evidence() {
	local e
	e=$(port "$1" rxed0 ".chain.links[] | select(.name == \"$2\") | .evidence")
	tap_check "$1: the $2 link's evidence is '$3...' ($e)" eval '[[ "$e" == "$3"* ]]'
}

tap_eq "pfc4: dcb -j pfc show dev dcb0: PFC on priority 4 only" \
	'[false,false,false,false,true,false,false,false]' "$(jq -c .prio_pfc 71-pfc4.dcb0.pfc.json)"
tap_eq "pfc4: noapp's fix took: rxed0's priority link holds (APP table 26 -> 3)" "ok 3" \
	"$(link pfc4 rxed0 priority | cut -d' ' -f1) $(port pfc4 rxed0 .chain.priority)"
broken pfc4 pfc fabric.pfc_off "dcb pfc set dev dcb0 prio-pfc 3:on"
evidence pfc4 pfc "PFC off on priority 3 (prio-pfc enabled: 0x10)"
on_prio3 pfc4 4
fixed pfc4
tap_eq "pfc4: rxed1 (PFC on 4 only too): pfc broken, ecn ok" "broken ok" \
	"$(link pfc4 rxed1 pfc | cut -d' ' -f1) $(link pfc4 rxed1 ecn | cut -d' ' -f1)"

tap_eq "ecnoff: dcb0's roce_np/enable/3 read 0 and roce_rp 1; the fix put 1 back" \
	"roce_np 0 roce_rp 1 after fix: 1" "$(tr '\n' ' ' < 71-ecnoff.ecn | sed 's/ $//')"
tap_eq "ecnoff: pfc4's fix took: rxed0's pfc link holds" "ok null" "$(link ecnoff rxed0 pfc)"
broken ecnoff ecn fabric.ecn_off "echo 1 > /sys/class/net/dcb0/ecn/roce_np/enable/3"
evidence ecnoff ecn "ECN on priority 3: roce_np off, roce_rp on"
on_prio3 ecnoff 4
fixed ecnoff
tap_eq "ecnoff: rxed1 (its ECN files untouched, PFC 3 by hand): its chain holds" "ok" \
	"$(port ecnoff rxed1 .chain.verdict)"

# --- rdmastat --prom after the passing case's traffic: every rdma_eth_ sample of dcb0 and
# dcb1, parsed by prometheus_client, = ethtool -S's value of that statistic read right after
# it, labels device/port/priority/direction consistent with the statistic's name; and the
# priority-3 traffic is in it (tx_prio3_packets = ethtool's, which moved over the interval)
PY=/usr/bin/python3
# prom_eth RXE DEV: "statistic=value" of every rdma_eth_ sample of netdev DEV, sorted
prom_eth() {
	$PY - 71-ok.prom "$1" "$2" <<-'EOF'
	import sys
	from prometheus_client.parser import text_string_to_metric_families as parse
	out = []
	for f in parse(open(sys.argv[1]).read()):
	    for s in f.samples:
	        l = s.labels
	        if (not s.name.startswith("rdma_eth_") or l.get("netdev") != sys.argv[3] or
	                s.name.startswith("rdma_eth_standard_pause_frames")):
	            continue
	        p = l.get("priority")
	        ok = (l["device"] == sys.argv[2] and l["port"] == "1" and f.type == "counter" and
	              l["statistic"].startswith(l["direction"] + ("_prio%s_" % p if p else "_")))
	        out.append("%s=%d%s" % (l["statistic"], s.value, "" if ok else "(LABELS %s)" % l))
	print(" ".join(sorted(out)))
	EOF
}
if ! $PY -c 'import prometheus_client.parser' 2> /dev/null; then
	tap_skip "ok: rdmastat --prom's rdma_eth_ samples = ethtool -S" "python3-prometheus-client missing"
elif [ ! -s 71-ok.prom ]; then
	tap_fail "the guest saved rdmastat --prom after the passing case's traffic (71-ok.prom)"
else
	tap_eq "ok: rdmastat --prom exit status 0" 0 "$(cat 71-ok.prom.rc)"
	for rd_nd in rxed0:dcb0 rxed1:dcb1; do
		r=${rd_nd%:*} d=${rd_nd#*:}
		want=$(awk '$1 ~ /^(rx|tx)_prio[0-7]_(packets|bytes|pause):$/ { sub(":", "", $1); print $1 "=" $2 }' \
			"71-ok.prom.$d.ethtool" | sort | tr '\n' ' ' | sed 's/ $//')
		got=$(prom_eth "$r" "$d")
		tap_check "ok: rdmastat --prom's rdma_eth_ samples of $r/1 $d = ethtool -S's per-priority packets, bytes and pause ($(wc -w <<< "$want") statistics)" \
			eval '[ "$(wc -w <<< "$want")" = 48 ] && [ "$want" = "$got" ]' ||
			diag "ethtool: $want" "   prom: $got"
	done
	# ethtool netlink's standard pause frames (ethtool --json -I -a after --prom), after the
	# knob's 'link 3' on dcb0: dcb0 received 3, dcb1 sent 3
	for rd_nd in rxed0:dcb0 rxed1:dcb1; do
		r=${rd_nd%:*} d=${rd_nd#*:}
		want=$(jq -r '.[0].statistics | "rx=\(.rx_pause_frames) tx=\(.tx_pause_frames)"' "71-ok.prom.$d.pause.json")
		got=$($PY - 71-ok.prom "$r" "$d" <<-'EOF'
		import sys
		from prometheus_client.parser import text_string_to_metric_families as parse
		out = ["%s=%d" % (s.labels["direction"], s.value) for f in parse(open(sys.argv[1]).read())
		       for s in f.samples if s.name == "rdma_eth_standard_pause_frames_total" and
		       f.type == "counter" and s.labels.get("device") == sys.argv[2] and
		       s.labels.get("netdev") == sys.argv[3] and s.labels.get("port") == "1"]
		print(" ".join(sorted(out)))
		EOF
		)
		tap_eq "ok: rdmastat --prom's rdma_eth_standard_pause_frames_total of $r/1 $d = ethtool --json -I -a's statistics ($want)" \
			"$want" "$got"
	done
	tap_eq "ok: the knob's 3 link pause frames: ethtool -I -a dcb0 rx, dcb1 tx" "3 3" \
		"$(jq -r '.[0].statistics.rx_pause_frames' 71-ok.prom.dcb0.pause.json) $(jq -r '.[0].statistics.tx_pause_frames' 71-ok.prom.dcb1.pause.json)"
	p3=$(grep -o '^rdma_eth_priority_packets_total{device="rxed0",port="1",netdev="dcb0",priority="3",direction="tx",statistic="tx_prio3_packets"} [0-9]*$' 71-ok.prom | sed 's/.* //')
	tap_check "ok: rdmastat --prom's dcb0 priority-3 tx packets (${p3:-none}) = ethtool -S after the traffic ($(awk '$1 == "tx_prio3_packets:" { print $2 }' 71-ok.after.dcb0.ethtool)), which moved +$(eth ok dcb0 tx_prio3_packets) over it" \
		eval '[ -n "$p3" ] && [ "$p3" = "$(awk '\''$1 == "tx_prio3_packets:" { print $2 }'\'' 71-ok.after.dcb0.ethtool)" ] && [ "$(eth ok dcb0 tx_prio3_packets)" -gt 0 ]'
fi

# --- rdmastat fabric -i's RDMA counters over the passing case's traffic: what rxed0 sent,
# rxed1 received (the pair has no other traffic and loses nothing), and it moved
rdma_d() { port ok "$1" ".rdma_counters[]? | select(.concept == \"$2\") | .delta"; }
tap_check "ok: rdmastat fabric -i's rdma_counters: rxed0 tx_packets (+$(rdma_d rxed0 tx_packets)) = rxed1 rx_packets (+$(rdma_d rxed1 rx_packets)) > 0 (ethtool: dcb0 priority-3 tx +$(eth ok dcb0 tx_prio3_packets), priority 0 +$(eth ok dcb0 tx_prio0_packets))" \
	eval '[ -n "$(rdma_d rxed0 tx_packets)" ] && [ "$(rdma_d rxed0 tx_packets)" = "$(rdma_d rxed1 rx_packets)" ] && [ "$(rdma_d rxed0 tx_packets)" -gt 0 ]'
