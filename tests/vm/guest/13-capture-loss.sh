# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# rdmadump's loss and retry classification (issue 13) against rxe's counters, guest side: two
# captures on veth0 (which carries both directions), each with rxe's hw_counters deltas over
# the same window; host/13-capture-loss.sh judges them (the relations and why they hold are
# written there).
#
#   13-drops: ibv_rc_pingpong (4096 B messages at MTU 1024) through a lossless veth, captured
#             by a tcpdump that itself drops frames: a small ring (-B 64 KiB) that stops
#             being read for a while (SIGSTOP, then SIGCONT) in the middle of the traffic, so
#             that the ring overflows for certain and the kernel drops what no longer fits,
#             while the first and the last exchanges are captured whole.  What is missing
#             from the file was delivered: rdmadump must report it as not captured.
#   13-rnr:   rdmacheck's rnr test over rxe0 -> rxe1 (an RC SEND with no receive posted:
#             rnr_retry 1 until the budget is spent, then rnr_retry 7 with the receive
#             posted 150 ms late), captured whole: RNR NAKs and the requester's RNR retries.
# Files in $OUT: 13-drops.pcap 13-drops.counters 13-rnr.pcap 13-rnr.counters ("name delta"
# lines of both devices, plus tcpdump's captured / dropped counts).

# counters WHERE: the deltas of the counters the host's relations use, and tcpdump's counts
counters() {
	local c
	{
		for c in sent_pkts rcvd_pkts out_of_seq_request duplicate_request rcvd_seq_err \
			completer_retry_err retry_exceeded_err rcvd_rnr_err send_rnr_err \
			retry_rnr_exceeded_err; do
			echo "rxe0.$c $(hwc_delta /tmp/x.b0 /tmp/x.a0 "$c")"
			echo "rxe1.$c $(hwc_delta /tmp/x.b1 /tmp/x.a1 "$c")"
		done
		echo "capture_frames ${CAP_PACKETS:-?}"
		echo "capture_dropped ${CAP_DROPPED:-?}"
	} > "$OUT/$1.counters"
	diag "$1 counter deltas: $(tr '\n' ' ' < "$OUT/$1.counters")"
}

# --- 13-drops: a capture that drops frames, a fabric that does not -------------------------
# (issue 13 describes 3000 iterations; 100 make the same picture in ~3 s of tier time: a ring
# overflow in the middle of a pingpong, its first and last exchanges captured.  Measured on a
# loaded 2-CPU host: 100 iterations VM 24 s for this script alone, 1000 VM 37 s (every
# relation holds: 5726 frames dropped, 4580 PSNs not captured, no fabric loss); 3000 did not
# fit: the pingpong ran at ~19 ms per iteration under that load, the 30 s wait for the
# middle of the traffic and then this script's 90 s limit ran out (the tier's whole budget is
# 180 s).  So 100 stays the default and the count is a knob:
# VM_APPEND=rdiag.drops_iters=N on the host's tests/vm/run)
ITERS=$(sed -n 's/.*rdiag\.drops_iters=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
ITERS=${ITERS:-${VM_DROPS_ITERS:-100}}
log "drops: pingpong $ITERS x 4096 B, tcpdump stopped in the middle"
hwc_snap "$DEV0" /tmp/x.b0; hwc_snap "$DEV1" /tmp/x.b1
mkdir -p /tmp/cap
# -s 128: the headers up to the BTH and past it are all the analysis needs (cut frames with a
# whole BTH are analysed like whole ones), and the file stays small; -B 64: a ring of ~256
# frames (immediate mode: one 256 B slot per frame at this snap length)
tcpdump -Z root -i "$NET0" --immediate-mode -s 128 -B 64 -w /tmp/cap/13-drops.pcap \
	udp port 4791 2> /tmp/cap.13-drops.err &
echo $! > /tmp/cap.13-drops.pid
tcpd=$!
await 5 "13-drops: tcpdump listens on $NET0" grep -q "listening on" /tmp/cap.13-drops.err
pp_pair "$ITERS" 4096 > /tmp/pp.out 2>&1 &
pp=$!
# stop reading the ring once a fifth of the traffic went by, until four fifths did: rxe0 sends
# 5 frames per iteration (4 SEND packets, 1 ACK) and rxe1 as many, so 6 x ITERS frames come
# while nobody reads a ring of ~256; then read on, the last exchanges whole
sent_at_least() {
	local v
	read -r v < "/sys/class/infiniband/$DEV0/ports/1/hw_counters/sent_pkts"
	[ "$v" -ge "$1" ]
}
s_before=$(awk '$1 == "sent_pkts" { print $2 }' /tmp/x.b0)
await 20 "13-drops: the pingpong is under way (rxe0 sent $ITERS frames)" \
	sent_at_least $((s_before + ITERS))
kill -STOP "$tcpd"
await 30 "13-drops: the pingpong goes on while tcpdump is stopped (rxe0 sent $((3 * ITERS)) more frames)" \
	sent_at_least $((s_before + 4 * ITERS))
kill -CONT "$tcpd"
wait "$pp"; st=$?
cat /tmp/pp.out >&2
tap_eq "13-drops: ibv_rc_pingpong rxe0 -> rxe1 ($ITERS x 4096 B) completes while tcpdump drops frames" 0 "$st"
cap_stop 13-drops	# (fails when the kernel dropped frames: here that is the point)
hwc_snap "$DEV0" /tmp/x.a0; hwc_snap "$DEV1" /tmp/x.a1
counters 13-drops
tap_check "13-drops: tcpdump's kernel ring dropped frames (${CAP_DROPPED:-?} dropped, ${CAP_PACKETS:-?} captured)" \
	[ "${CAP_DROPPED:-0}" -gt 0 ]

# --- 13-rnr: RNR NAKs and RNR retries --------------------------------------------------------
if have rdmacheck; then
	log "rnr"
	hwc_snap "$DEV0" /tmp/x.b0; hwc_snap "$DEV1" /tmp/x.b1
	cap_start 13-rnr "$NET0" || tap_fail "13-rnr: tcpdump starts on $NET0"
	tap_ok "13-rnr: rdmacheck -d $DEV0 -g $GID --peer $DEV1 rnr passes" \
		rdmacheck -j -d "$DEV0" -p 1 -g "$GID" --peer "$DEV1" --peer-port 1 \
		--peer-gid-index "$GID" rnr
	cap_stop 13-rnr
	tap_check "13-rnr: tcpdump has every frame (${CAP_PACKETS:-?} captured, none dropped)" \
		[ "${CAP_DROPPED:-1}" = 0 ]
	hwc_snap "$DEV0" /tmp/x.a0; hwc_snap "$DEV1" /tmp/x.a1
	counters 13-rnr
else
	tap_skip "13-rnr: RNR retries against the counters" "tools/rdmacheck/rdmacheck is not built"
fi
log "done"
