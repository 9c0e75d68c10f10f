# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump on real rxe traffic (IPv4; IPv6 is 12-rdmadump-ipv6), guest side: tcpdump captures of ibv_rc_pingpong and of rping
# (rdma_cm), each proven complete against the rxe counters, read back with rdmadump -r in the
# guest; and a live rdmadump -i -j -c N on the same veth as a tcpdump.
# The guest produces, the host judges: host/10-rdmadump.sh checks the JSON (every frame
# decoded, every ICRC verified, the CM handshake, live = file) and compares every -j field
# with tshark -- JSON work under TCG is ten times slower than on the host.
# Files in $OUT: 10-pingpong.pcap 10-rping.pcap 10-live.pcap (tcpdump), 10-*.guest.json
# (rdmadump -j -r), 10-rping.summary.json (rdmadump -S -j -q), 10-live.json (rdmadump -i),
# 10-*.frames (frames rxe sent during the capture, from its counters).

# capture NAME WHAT CMD...: tcpdump on veth0 (which carries both directions) around CMD (WHAT
# says what it does), and prove the capture complete: as many frames as rxe0 and rxe1 sent.
capture() {
	local name=$1 what=$2 s0 s1
	shift 2
	hwc_snap "$DEV0" /tmp/c.b0; hwc_snap "$DEV1" /tmp/c.b1
	cap_start "$name" "$NET0" || { tap_fail "tcpdump starts on $NET0 for $name"; return 1; }
	tap_ok "$name: $what completes" "$@"
	cap_stop "$name"
	hwc_snap "$DEV0" /tmp/c.a0; hwc_snap "$DEV1" /tmp/c.a1
	s0=$(hwc_delta /tmp/c.b0 /tmp/c.a0 sent_pkts); s1=$(hwc_delta /tmp/c.b1 /tmp/c.a1 sent_pkts)
	echo $((s0 + s1)) > "$OUT/$name.frames"
	tap_check "$name: tcpdump has every frame rxe sent ($CAP_PACKETS = $s0 from rxe0 + $s1 from rxe1, none dropped)" \
		[ "$CAP_PACKETS" = $((s0 + s1)) ] && [ "$CAP_DROPPED" = 0 ]
}

# rd_read NAME: rdmadump -j -r in the guest (the host checks what it printed)
rd_read() {
	tap_ok "$1: rdmadump -j -r reads the capture in the guest (exit 0)" \
		sh -c 'rdmadump -j -r "$1" > "$2"' - "$OUT/$1.pcap" "/tmp/$1.json"
	cp "/tmp/$1.json" "$OUT/$1.guest.json"
}

log "pingpong capture"
# RC send/recv: 10 x 4096 B at MTU 1024 = SEND First/Middle/Middle/Last + ACK each way
capture 10-pingpong "ibv_rc_pingpong rxe0 -> rxe1 (10 x 4096 B)" pp_pair 10 4096
have rdmadump && rd_read 10-pingpong

log "rping capture"
# rdma_cm: rping 3 x 3000 B (CM REQ/REP/RTU on QP1, SEND, READ, WRITE, DREQ/DREP)
capture 10-rping "rping over rdma_cm (3 x 3000 B)" rping_pair 3 3000
if have rdmadump; then
	rd_read 10-rping
	tap_ok "10-rping: rdmadump -S -j -q summarises it in the guest (exit 0)" \
		sh -c 'rdmadump -S -j -q -r "$1" > /tmp/rs.json' - "$OUT/10-rping.pcap"
	cp /tmp/rs.json "$OUT/10-rping.summary.json"
fi

# live: rdmadump -i on veth0 next to a tcpdump, while pingpong runs
if have rdmadump; then
	log "live"
	# -c 100 of the ~200 frames of a 20-iteration pingpong (4 SEND packets + 1 ACK each way
	# per iteration): it stops in the middle of the traffic, and a few frames missed while
	# it started do not matter (the host aligns its output with tcpdump's file)
	n=100
	cap_start 10-live "$NET0"
	rdmadump -i "$NET0" -j -c "$n" > /tmp/live.json 2> /tmp/live.err &
	rd=$!
	# ready when it says "listening on", as tcpdump does (its filter is set by then)
	await 10 "10-live: rdmadump -i says it is listening" grep -q "^rdmadump: listening on " /tmp/live.err
	tap_ok "10-live: pingpong completes while rdmadump -i listens" pp_pair 20 4096
	# -c N: it must stop by itself once N packets came
	if wait_for 10 sh -c "! kill -0 $rd 2>/dev/null"; then
		wait "$rd"; st=$?
		tap_eq "10-live: rdmadump -i -c $n exits 0 by itself after $n packets" 0 "$st"
	else
		kill -INT "$rd"; wait "$rd"
		tap_fail "10-live: rdmadump -i -c $n exits 0 by itself after $n packets" \
			"still running 10 s after the traffic; it printed $(wc -l < /tmp/live.json) lines"
	fi
	cap_stop 10-live
	cp /tmp/live.json "$OUT/10-live.json"
	cat /tmp/live.err >&2
else
	tap_skip "rdmadump on real captures and live" "tools/rdmadump/rdmadump is not built"
fi
log "done"
