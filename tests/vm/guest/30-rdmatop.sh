# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop on the real rxe stack: during real RC pingpong traffic, batch frames show non-zero
# packet rates for both devices (text and JSON agree), the QP data lists the pingpong QPs with
# their owner, and the netlink exchange is recorded for the bats QP-screen fixture.  The
# guest measures and checks exit statuses and the text frames; host/30-rdmatop.sh judges
# the JSON frames (rates, QPs, rdma_cm IDs against rdma res show).
# vm-timeout: 120
TOP=$(command -v rdmatop) || { tap_skip "rdmatop runs on real rxe devices" "rdmatop not built"; exit 0; }

# One RC pingpong pair in the background (server on rxe1, client on rxe0) that runs until
# traffic_stop kills it: the same two QPs all along (no gap between runs for a frame to
# fall into, rdma res show holds still); -e: wait on completion events -- a busy-polling
# pair takes the guest's one vCPU and starves everything measured here
traffic_start() {
	local s0
	ibv_rc_pingpong -d "$DEV1" -g "$GID" -p 18532 -n 100000000 -s 64 -e > /dev/null 2>&1 &
	SRV=$!
	wait_tcp_listen 18532 || return 1
	ibv_rc_pingpong -d "$DEV0" -g "$GID" -p 18532 -n 100000000 -s 64 -e "$B" > /dev/null 2>&1 &
	CLI=$!
	# traffic is flowing once rxe0 has sent something new
	s0=$(hwc "$DEV0" sent_pkts)
	wait_for 15 sh -c "[ \$(cat /sys/class/infiniband/$DEV0/ports/1/hw_counters/sent_pkts) -gt $((s0 + 50)) ]"
}
traffic_stop() {
	kill "$SRV" "$CLI" 2>/dev/null
	wait "$SRV" "$CLI" 2>/dev/null
}

if ! traffic_start; then
	tap_fail "the traffic rdmatop must show: RC pingpong rxe0 <-> rxe1 is running" "$(tail -5 "$OUT/log/$ME.log" 2>/dev/null)"
	traffic_stop
	exit 0
fi
tap_pass "the traffic rdmatop must show: RC pingpong rxe0 <-> rxe1 is running"

# --- while the traffic runs: only the measurements (the guest's CPU is busy with rxe) ------
J=$OUT/30-rdmatop.jsonl
T=$OUT/30-rdmatop.txt
"$TOP" -b -j -n 3 -d 0.5 --nl-record "$OUT/30-rdmatop.nlrec" > "$J" 2> "$OUT/30-rdmatop.err"
st_json=$?
"$TOP" -b -n 2 -d 0.5 > "$T" 2>&1
st_text=$?
# the same QPs as iproute2: rdma res show before and after our read; when both agree (no
# pingpong run started or ended in between) ours must equal them (host/30-rdmatop.sh) --
# up to 5 tries.  The keys compared here: device, lqpn and type in rdma's own order.
qpkeys() { grep -oE '"(ifname|lqpn|type)":[^,]*' "$1" | tr '\n' ' '; }
for try in 1 2 3 4 5; do
	rdma res show qp -j > "$OUT/30-rdma-res-qp.json" 2>/dev/null
	"$TOP" -b -j -n 1 > "$OUT/30-qps-now.json" 2>/dev/null
	rdma res show qp -j > "$OUT/30-rdma-res-qp-after.json" 2>/dev/null
	[ "$(qpkeys "$OUT/30-rdma-res-qp.json")" = "$(qpkeys "$OUT/30-rdma-res-qp-after.json")" ] && break
done
diag "rdma res show qp held still on try $try"
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

# --- JSON frames, QPs, rdma_cm IDs: judged on the host (host/30-rdmatop.sh) ---------------
tap_eq "rdmatop -b -j -n 3 -d 0.5 exits 0 during traffic" 0 "$st_json"
tap_check "the sub-lifespan warning stays quiet at 0.5 s" [ ! -s "$OUT/30-rdmatop.err" ]

# --- text frames ---------------------------------------------------------------------------
tap_eq "rdmatop -b -n 2 (text) exits 0" 0 "$st_text"
for d in "$DEV0" "$DEV1"; do
	row=$(awk -v d="$d" '$1 == d' "$T" | tail -1)
	diag "$row"
	# DEVICE PORT STATE NETDEV LINK RX TX ...: columns 6 and 7 are the packet rates
	tap_check "$d: the text frame shows non-zero RX and TX PKT/s" \
		awk -v r="$row" 'BEGIN { split(r, f); exit !(f[3] == "ACTIVE" && f[6] != "0" && f[6] != "-" && f[7] != "0" && f[7] != "-") }'
done

# no pingpong QP left once the traffic stopped (counted on the host)
"$TOP" -b -n 1 -j > "$OUT/30-after.json" 2>/dev/null
