# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 40
# rdmastat's counter selection and thresholds on the Ethernet statistics of an RDMA port's
# netdev, on the rdmadiag_dcbdev pair (tests/vm/dcbdev; set up as in 70-fabric-dcbdev.sh:
# rxed0 on dcb0, rxed1 on dcb1, static neighbours and no IPv6, so only the traffic moves a
# priority's counters) with APP DSCP 26 -> priority 3 on both ends.
#   rdmastat rxed0 -c tx_prio3_packets ... -i 0.5 -n 1 -j -t 72.rules
# samples dcb0's ethtool -S once, is stopped (SIGSTOP) while ucmatose -t 106 (DSCP 26) runs
# rxed0 -> rxed1 and the module's pause knob makes dcb0 receive 4 PFC frames for priority 3,
# then takes its second sample.  Saved for host/72-fabric-stat.sh:
#   72.stat.json (.rc .err)   rdmastat's interval object and its breaches (JSON lines)
#   72.rules                  the threshold rules: priority 3's and priority 0's packets and
#                             pause, each a rate > 0/s
#   72.{before,after}.ethtool ethtool -S dcb0 right before rdmastat's first sample and
#                             after its second (nothing else moves the pair's counters)
#   72.stat.txt               rdmastat rxed0 -c sent_pkts -c prio3_packets -c prio3_pause
#                             (text) after that
#   72.top.txt (.rc)          rdmatop -b -n 2 --thresholds 72.rules over the same window
X0=dcb0 X1=dcb1 XA=198.18.7.1 XB=198.18.7.2 R0=rxed0 R1=rxed1
TOS=106 PRIO=3 PORT=7182 MSGS=10 IVAL=0.5
TOPIVAL=3	# rdmatop's, as in 71-fabric-chain.sh: its stop always falls between two frames
J=$OUT/72
have rdmastat || { tap_fail "rdmastat is in the image"; exit 0; }

app_both() { dcb app add dev $X0 dscp-prio 26:$PRIO && dcb app add dev $X1 dscp-prio 26:$PRIO; }
undo() {
	rdma link delete $R0 2>/dev/null; rdma link delete $R1 2>/dev/null
	modprobe -r rdmadiag_dcbdev 2>/dev/null
	return 0
}

tap_ok "the rdmadiag_dcbdev test module loads" modprobe rdmadiag_dcbdev || exit 0
tap_ok "rxe on both ends ($R0 on $X0, $R1 on $X1), ports ACTIVE" dcbdev_pair_up || { undo; exit 0; }
tap_ok "dcb app add dscp-prio 26:$PRIO on both ends" app_both
cat > "$J.rules" <<-EOR
	# line 2: moves (the traffic is on priority 3); line 3: does not
	tx_prio${PRIO}_packets@$R0 > 0/s
	tx_prio0_packets@$R0 > 0/s
	rx_prio${PRIO}_pause > 0/s
	rx_prio0_pause > 0/s
EOR

ethtool -S $X0 > "$J.before.ethtool"
timeout 30 ucmatose -b "$XB" -p "$PORT" -t "$TOS" -C "$MSGS" -S 1024 >&2 2>&1 &
srv=$!
wait_cm_listen "$PORT" || log "ucmatose server did not listen"
# rdmatop with the same rules over the same window (its Ports screen and the rules read
# dcb0 each frame)
top=
if have rdmatop; then
	FS_READS=2 first_sample "$J.top.txt" "$J.top.txt" $X0 \
		rdmatop -b -n 2 -d $TOPIVAL --thresholds "$J.rules"
	top=$spid
fi
first_sample "$J.stat.json" "$J.stat.err" $X0 \
	rdmastat $R0 -c tx_prio${PRIO}_packets -c rx_prio${PRIO}_packets -c tx_prio0_packets \
	-c rx_prio0_packets -c prio${PRIO}_pause -c rx_prio0_pause -i $IVAL -n 1 -j -t "$J.rules"
s=$spid
timeout 30 ucmatose -s "$XB" -b "$XA" -p "$PORT" -t "$TOS" -C "$MSGS" -S 1024 >&2 2>&1
tap_ok "ucmatose ToS $TOS ($MSGS x 1 KiB) $R0 -> $R1 between rdmastat -i's samples" \
	pair_end $? "$srv"
tap_ok "the pause knob: $X0 receives 4 PFC frames for priority $PRIO" \
	sh -c "echo '$PRIO 4' > /sys/class/net/$X0/dcbdev/pause"
kill -CONT $s $top
wait $s; echo $? > "$J.stat.json.rc"
[ -z "$top" ] || { wait $top; echo $? > "$J.top.txt.rc"; }
ethtool -S $X0 > "$J.after.ethtool"
cat "$J.stat.err" >&2
# the text view of the same statistics next to rxe's own counters, once the pair is still
rdmastat $R0 -c sent_pkts -c prio${PRIO}_packets -c prio${PRIO}_pause > "$J.stat.txt" 2>&1

undo
