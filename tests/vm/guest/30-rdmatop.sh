# rdmatop on the real rxe stack: during real RC pingpong traffic, batch frames show non-zero
# packet rates for both devices (text and JSON agree), the QP data lists the pingpong QPs with
# their owner, and the netlink exchange is recorded for the bats QP-screen fixture.
# vm-timeout: 120
TOP=$(command -v rdmatop) || { tap_skip "rdmatop runs on real rxe devices" "rdmatop not built"; exit 0; }

# RC pingpong in the background (server on rxe1, client on rxe0), run after run until
# traffic_stop; -e: wait on completion events -- busy-polling pingpongs would take both
# vCPUs of the guest and starve everything measured here; output goes to the log
traffic_start() {
	rm -f /tmp/30.stop
	( while [ ! -e /tmp/30.stop ]; do PP_TIMEOUT=120 pp_pair 3000 64 -e || sleep 0.2; done ) > /dev/null &
	TRAFFIC=$!
	# traffic is flowing once rxe0 has sent something new
	local s0
	s0=$(hwc "$DEV0" sent_pkts)
	wait_for 15 sh -c "[ \$(cat /sys/class/infiniband/$DEV0/ports/1/hw_counters/sent_pkts) -gt $((s0 + 50)) ]"
}
traffic_stop() {
	touch /tmp/30.stop		# no new pair; end the running one
	pkill -f ibv_rc_pingpong 2>/dev/null
	wait "$TRAFFIC" 2>/dev/null
	pkill -f ibv_rc_pingpong 2>/dev/null
	wait_for 10 sh -c '! pgrep -f ibv_rc_pingpong'
}

if ! traffic_start; then
	tap_fail "RC pingpong traffic runs between rxe0 and rxe1" "$(tail -5 "$OUT/log/$ME.log" 2>/dev/null)"
	traffic_stop
	exit 0
fi
tap_pass "RC pingpong traffic runs between rxe0 and rxe1"

# --- while the traffic runs: only the measurements (the guest's CPU is busy with rxe) ------
J=$OUT/30-rdmatop.jsonl
T=$OUT/30-rdmatop.txt
"$TOP" -b -j -n 3 -d 0.5 --nl-record "$OUT/30-rdmatop.nlrec" > "$J" 2> "$OUT/30-rdmatop.err"
st_json=$?
"$TOP" -b -n 2 -d 0.5 > "$T" 2>&1
st_text=$?
# the same QPs as iproute2: rdma res show before and after our read; when both agree (no
# pingpong run started or ended in between) ours must equal them -- up to 5 tries
qpkeys='[.[] | [.ifname, .lqpn, .type]] | sort'
for try in 1 2 3 4 5; do
	rdma res show qp -j > "$OUT/30-rdma-res-qp.json" 2>/dev/null
	"$TOP" -b -j -n 1 > "$OUT/30-qps-now.json" 2>/dev/null
	rdma res show qp -j > "$OUT/30-rdma-res-qp-after.json" 2>/dev/null
	[ "$(jq -c "$qpkeys" "$OUT/30-rdma-res-qp.json")" = "$(jq -c "$qpkeys" "$OUT/30-rdma-res-qp-after.json")" ] && break
done
# an rdma_cm listener (rping server) for the rdma_cm ID data
rping -s -a "$B" -p 7199 -C 1 > /dev/null 2>&1 &
RPING=$!
wait_cm_listen 7199
"$TOP" -b -j -n 1 > "$OUT/30-cm-now.json" 2>/dev/null
rdma res show cm_id -j > "$OUT/30-rdma-res-cm.json" 2>/dev/null
kill "$RPING" 2>/dev/null; wait "$RPING" 2>/dev/null
# a netlink-only recording against an empty sysfs root: it replays on any machine (the bats
# QP-screen test, tests/fixtures/tui/pingpong.nlrec, is a copy of it)
mkdir -p /tmp/30-empty
RDMADIAG_SYSFS_ROOT=/tmp/30-empty "$TOP" -b -j -n 2 -d 0.5 --source netlink \
	--nl-record "$OUT/30-rdmatop-netlink.nlrec" > "$OUT/30-rdmatop-netlink.jsonl" 2>&1
traffic_stop

# --- JSON frames -------------------------------------------------------------------------
tap_eq "rdmatop -b -j -n 3 -d 0.5 exits 0 during traffic" 0 "$st_json"
tap_eq "it writes 3 JSON frames" 3 "$(jq -s length "$J" 2>/dev/null)"
for d in "$DEV0" "$DEV1"; do
	rx=$(jq -s --arg d "$d" '[.[1:][] | .ports[] | select(.ifname == $d) | .rx_pps] | min' "$J")
	tx=$(jq -s --arg d "$d" '[.[1:][] | .ports[] | select(.ifname == $d) | .tx_pps] | min' "$J")
	diag "$d: rx_pps min $rx, tx_pps min $tx over frames 2-3"
	tap_check "$d: non-zero rx and tx packet rates in frames 2 and 3 (JSON)" \
		awk -v a="$rx" -v b="$tx" 'BEGIN { exit !(a > 0 && b > 0) }'
	first=$(jq -s --arg d "$d" '.[0].ports[] | select(.ifname == $d) | .rx_pps' "$J")
	tap_eq "$d: the first frame has no rate yet (null, not a fake zero)" null "$first"
done
# what the packet rate is made of: rxe's own counters, not a guess
tap_eq "rxe0's tx packets come from the sent_pkts counter" tx_packets \
	"$(jq -rs '.[2].ports[] | select(.ifname == "rxe0") | .counters[] | select(.name == "sent_pkts") | .concept' "$J")"
tap_check "the sub-lifespan warning stays quiet at 0.5 s" [ ! -s "$OUT/30-rdmatop.err" ]

# --- QPs (the QP screen's data) --------------------------------------------------------
# any frame will do: between two pingpong runs there is a moment without QPs
q=$(jq -sc '[.[] | [.qps[] | select(.comm == "ibv_rc_pingpong" and .type == "RC")]] | max_by(length)' "$J")
diag "pingpong QPs: $q"
[ -n "$q" ] || q='[]'
for d in "$DEV0" "$DEV1"; do
	tap_check "the QP data lists the pingpong RC QP on $d in RTS with its pid" \
		jq -e --arg d "$d" 'map(select(.ifname == $d and .state == "RTS" and .pid != null)) | length >= 1' <<< "$q"
done
# the two ends point at each other
l0=$(jq -r --arg d "$DEV0" 'map(select(.ifname == $d))[0].lqpn // "none"' <<< "$q")
r1=$(jq -r --arg d "$DEV1" 'map(select(.ifname == $d))[0].rqpn // "none"' <<< "$q")
tap_check "rxe1's pingpong QP has rxe0's QP as its remote QPN" [ "$l0" != none ] && [ "$l0" = "$r1" ]
ours=$(jq -c '[.qps[] | [.ifname, .lqpn, .type]] | sort' "$OUT/30-qps-now.json")
theirs=$(jq -c "$qpkeys" "$OUT/30-rdma-res-qp.json")
tap_eq "the QP list equals 'rdma res show qp' (device, lqpn, type)" "$theirs" "$ours"

# --- rdma_cm IDs (the cm screen's data) -------------------------------------------------
cm=$(jq -c '[.cm_ids[] | select(.state == "LISTEN" and (."src-addr" | endswith(":7199")))]' "$OUT/30-cm-now.json")
diag "listening cm_ids: $cm"
tap_check "the rdma_cm ID data shows rping's listener: LISTEN, TCP port space, $B:7199, its pid" \
	jq -e --arg a "$B:7199" 'length >= 1 and (.[0]."src-addr" == $a) and (.[0].ps == "TCP") and (.[0].pid != null) and (.[0].comm == "rping")' <<< "$cm"
theirs=$(jq -c '[.[] | select(."src-addr" == "'"$B"':7199") | .state] | sort' "$OUT/30-rdma-res-cm.json" 2>/dev/null)
tap_eq "the same listener as 'rdma res show cm_id'" "$theirs" "$(jq -c '[.[] | .state] | sort' <<< "$cm")"
tap_check "a netlink-only run (empty sysfs root) sees both devices and pingpong QPs" \
	jq -se '.[-1] | (.devices == 2) and ([.qps[] | select(.type == "RC")] | length >= 1)' \
	"$OUT/30-rdmatop-netlink.jsonl"

# --- text frames ---------------------------------------------------------------------------
tap_eq "rdmatop -b -n 2 (text) exits 0" 0 "$st_text"
for d in "$DEV0" "$DEV1"; do
	row=$(awk -v d="$d" '$1 == d' "$T" | tail -1)
	diag "$row"
	# DEVICE PORT STATE NETDEV LINK RX TX ...: columns 6 and 7 are the packet rates
	tap_check "$d: the text frame shows non-zero RX and TX PKT/s" \
		awk -v r="$row" 'BEGIN { split(r, f); exit !(f[3] == "ACTIVE" && f[6] != "0" && f[6] != "-" && f[7] != "0" && f[7] != "-") }'
done

rdmatop -b -n 1 -j | jq -c '[.qps[] | select(.comm == "ibv_rc_pingpong")] | length' > "$OUT/30-after.txt" 2>/dev/null
tap_eq "after the traffic stops no pingpong QP is left" 0 "$(cat "$OUT/30-after.txt")"
