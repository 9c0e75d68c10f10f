# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/72-fabric-stat.sh: rdmastat -c on dcb0's ethtool -S names gives the
# deltas ethtool -S itself gives around the same ToS 106 traffic and pause, and the
# threshold rules on priority 3's statistics breach while priority 0's do not.
cd "$VM_OUT" || exit 2
if [ ! -s 72.stat.json ]; then
	tap_fail "the guest saved rdmastat -i -j on dcb0's statistics (72.stat.json)" \
		"rc $(cat 72.stat.json.rc 2>/dev/null) stderr: $(head -3 72.stat.err 2>/dev/null | tr '\n' ' ')" \
		"the module build said: $(tail -3 ../../dcbdev.log 2>/dev/null | tr '\n' ' ')"
	exit 0
fi
# eth NAME: ethtool -S NAME's increase on dcb0 over the interval
eth() {
	awk -v k="$1:" 'FNR == 1 { f++ } $1 == k { v[f] = $2 } END { print v[2] - v[1] }' \
		72.before.ethtool 72.after.ethtool
}
# rd NAME: rdmastat's delta of NAME (the interval object, not the breaches)
rd() { jq -r --arg n "$1" 'select(.ifname) | .ethtool.counters[$n].delta' 72.stat.json; }

tap_eq "rdmastat exits 1: a threshold was exceeded" 1 "$(cat 72.stat.json.rc)"
tap_eq "the statistics are dcb0's, under the port's ethtool object, every one valid" \
	"rxed0 1 dcb0 valid" \
	"$(jq -r 'select(.ifname) | "\(.ifname) \(.port) \(.ethtool.netdev) \([.ethtool.counters[].state] | unique | join(","))"' 72.stat.json)"
tap_eq "the selection: the four packet counters, priority 3's pause both ways, priority 0's rx pause" \
	"rx_prio0_packets rx_prio0_pause rx_prio3_packets rx_prio3_pause tx_prio0_packets tx_prio3_packets tx_prio3_pause" \
	"$(jq -r 'select(.ifname) | .ethtool.counters | keys | join(" ")' 72.stat.json)"
for n in tx_prio3_packets rx_prio3_packets tx_prio0_packets rx_prio0_packets rx_prio3_pause \
	tx_prio3_pause rx_prio0_pause; do
	tap_eq "rdmastat -i's $n delta = ethtool -S's" "$(eth $n)" "$(rd $n)"
done
# each rate is its delta over the statistics' own interval (read after the RDMA counters)
tap_check "every statistic's rate = its delta / the ethtool object's own interval ($(jq -r 'select(.ifname) | "\(.ethtool.interval) s, the RDMA counters \(.interval) s"' 72.stat.json))" \
	jq -se '[.[] | select(.ifname) | .ethtool as $e | $e.counters[] | ($e.interval > 0) and
		((.rate - .delta / $e.interval | if . < 0 then -. else . end) <= 1e-3 * ([1, .rate] | max))] |
		length > 0 and all' 72.stat.json
tap_check "the ToS 106 traffic moved priority 3 both ways (tx +$(rd tx_prio3_packets), rx +$(rd rx_prio3_packets)), not priority 0" \
	eval '[ "$(rd tx_prio3_packets)" -gt 0 ] && [ "$(rd rx_prio3_packets)" -gt 0 ] && [ "$(rd tx_prio0_packets)" = 0 ]'
tap_eq "the pause knob's 4 frames are rx_prio3_pause's delta" 4 "$(rd rx_prio3_pause)"
tap_eq "the rules on priority 3 breach (lines 2 and 4), the ones on priority 0 do not" \
	"tx_prio3_packets:2:rate:ethtool:dcb0 rx_prio3_pause:4:rate:ethtool:dcb0" \
	"$(jq -r 'select(.breaches) | [.breaches[] | "\(.counter):\(.line):\(.kind):\(.source):\(.netdev)"] | join(" ")' 72.stat.json)"
tap_check "rdmastat said nothing on stderr" [ ! -s 72.stat.err ] || diag "$(cat 72.stat.err)"
# rdmatop --thresholds over the same window: the same rules breach on the same statistics
if [ -s 72.top.txt ]; then
	top_breaches=$(awk '/^rdmatop - / { f++ } f == 2 && /^breach / { sub(/:$/, "", $3); sub(/:$/, "", $7); print $2 ":" $3 ":" $7 }' 72.top.txt | sort | tr '\n' ' ' | sed 's/ $//')
	diag "rdmatop frame 2: $(grep '^breach ' 72.top.txt | tr '\n' ';')"
	tap_eq "rdmatop --thresholds exits 1 and breaches in frame 2 on the rules rdmastat breached (lines 2 and 4), on rxed0's dcb0" \
		"1 rxed0/1:rx_prio3_pause:4 rxed0/1:tx_prio3_packets:2" "$(cat 72.top.txt.rc) $top_breaches"
else
	tap_fail "the guest saved rdmatop -b --thresholds's frames (72.top.txt)"
fi
# the text view after the traffic: dcb0's values under the netdev line = ethtool -S after it
txt() { awk -v k="$1" '$1 == k { print $2 }' 72.stat.txt; }
after() { awk -v k="$1:" '$1 == k { print $2 }' 72.after.ethtool; }
tap_check "text: priority 3's statistics under 'netdev dcb0 (ethtool -S)', after rxe's sent_pkts" \
	grep -qx '  netdev dcb0 (ethtool -S)' 72.stat.txt || diag "$(cat 72.stat.txt)"
for n in tx_prio3_packets rx_prio3_packets rx_prio3_pause; do
	tap_eq "text: $n = ethtool -S after the traffic" "$(after $n)" "$(txt $n)"
done
# rxe's own count of what rxed0 sent (its only traffic: the ucmatose run) = the frames dcb0
# counted on priority 3
tap_eq "rxe's sent_pkts = dcb0's tx_prio3_packets (every frame rxed0 sent rode priority 3)" \
	"$(txt sent_pkts)" "$(txt tx_prio3_packets)"
