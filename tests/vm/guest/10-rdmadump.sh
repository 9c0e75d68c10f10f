# rdmadump on real rxe traffic: tcpdump captures of ibv_rc_pingpong and of rping (rdma_cm),
# read back with rdmadump -r, and a live rdmadump -i on the same veth as a tcpdump.
# The host side (host/10-rdmadump-tshark.sh) compares every -j field written here with
# tshark's decode of the same files.
# Files in $OUT: 10-pingpong.pcap 10-rping.pcap 10-live.pcap (tcpdump), 10-*.guest.json
# (rdmadump -j -r in the guest), 10-live.json (rdmadump -i -j -c N), 10-rping.summary.json.

# capture NAME CMD...: tcpdump on veth0 (which carries both directions) around CMD, and
# prove the capture complete: as many frames as rxe0 and rxe1 together sent.
capture() {
	local name=$1 s0 s1
	shift
	hwc_snap "$DEV0" /tmp/c.b0; hwc_snap "$DEV1" /tmp/c.b1
	cap_start "$name" "$NET0" || { tap_fail "tcpdump starts on $NET0 for $name"; return 1; }
	tap_ok "$name: $* completes" "$@"
	cap_stop "$name"
	hwc_snap "$DEV0" /tmp/c.a0; hwc_snap "$DEV1" /tmp/c.a1
	s0=$(hwc_delta /tmp/c.b0 /tmp/c.a0 sent_pkts); s1=$(hwc_delta /tmp/c.b1 /tmp/c.a1 sent_pkts)
	tap_check "$name: tcpdump has every frame rxe sent ($CAP_PACKETS = $s0 from rxe0 + $s1 from rxe1, none dropped)" \
		[ "$CAP_PACKETS" = $((s0 + s1)) ] && [ "$CAP_DROPPED" = 0 ]
	FRAMES=$CAP_PACKETS
}

# decoded NAME FRAMES: rdmadump -r reads the capture; every frame is a RoCE packet with a BTH,
# none truncated or invalid, and every ICRC (computed by rxe in the kernel) verifies.
# Leaves the opcodes seen in OPS and the CM messages in order in CM.
decoded() {
	local name=$1 n=$2 j=/tmp/$1.json r
	tap_ok "$name: rdmadump -j -r reads the capture (exit 0)" \
		sh -c 'rdmadump -j -r "$1" > "$2"' - "$OUT/$name.pcap" "$j" || return 1
	cp "$j" "$OUT/$name.guest.json"
	# one jq pass: objects, with BTH+ICRC, truncated/invalid, bad ICRC, opcodes, CM messages
	r=$(jq -s -r '[length, (map(select(.bth != null and .icrc != null)) | length),
		(map(select(.truncated == true or .invalid == true)) | length),
		(map(select(.icrc.ok != true)) | length),
		(map(.bth.opcode) | unique | map(tostring) | join(",")),
		(map(.mad.cm.msg // empty) | join(","))] | join(" ")' "$j")
	read -r objs withbth bad badicrc OPS CM <<< "$r"
	tap_eq "$name: one -j object per frame, each with a BTH and an ICRC, none truncated" \
		"$n $n 0" "$objs $withbth $bad"
	tap_eq "$name: every ICRC verifies" 0 "$badicrc"
}

log "pingpong capture"
# --- RC send/recv: 10 x 4096 B at MTU 1024 = SEND First/Middle/Middle/Last + ACK each way
capture 10-pingpong pp_pair 10 4096
if have rdmadump; then
	decoded 10-pingpong "$FRAMES"
	tap_eq "10-pingpong: opcodes are SEND First/Middle/Last and ACK only" "0,1,2,17" "$OPS"
fi

log "rping capture"
# --- rdma_cm: rping 3 x 3000 B (CM REQ/REP/RTU on QP1, SEND, READ, WRITE, DREQ/DREP)
capture 10-rping rping_pair 3 3000
if have rdmadump; then
	decoded 10-rping "$FRAMES"
	tap_eq "10-rping: the CM messages in the -j output are REQ REP RTU DREQ DREP" \
		"REQ,REP,RTU,DREQ,DREP" "$CM"
	# RDMA READ request 12, its responses 13-16, RDMA WRITE 6-11, SEND 0-5, ACK 17, UD 100
	tap_check "10-rping: READ request, READ response and WRITE opcodes are there ($OPS)" \
		eval '[[ ,$OPS, == *,12,* ]] && [[ ,$OPS, =~ ,1[3-6], ]] && [[ ,$OPS, =~ ,([6-9]|10|11), ]]'
	rdmadump -S -j -q -r "$OUT/10-rping.pcap" > /tmp/rs.json
	cp /tmp/rs.json "$OUT/10-rping.summary.json"
	tap_eq "10-rping: rdmadump -S shows one connection: REQ REP RTU DREQ DREP, disconnected, client $A" \
		"1 REQ,REP,RTU,DREQ,DREP disconnected $A 0" \
		"$(jq -r '.summary.cm | [length, (.[0].timeline | map(.msg) | join(",")), .[0].state,
			.[0].client, .[0].req_retries] | join(" ")' /tmp/rs.json)"
fi

# --- live: rdmadump -i on veth0 next to a tcpdump, while pingpong runs
if have rdmadump; then
	log "live"
	n=100		# 10 iterations x (4 SEND packets + 1 ACK) x 2 directions
	cap_start 10-live "$NET0"
	rdmadump -i "$NET0" -j -c "$n" > /tmp/live.json 2> /tmp/live.err &
	rd=$!
	# ready once it holds a packet socket, plus time for libpcap to set its filter (it
	# drains the socket while doing so); or when it says "listening on" as tcpdump does
	if ! wait_for 5 grep -qi "listening on" /tmp/live.err; then
		wait_for 5 pid_has_packet_socket "$rd" && sleep 0.5
	fi
	tap_ok "10-live: pingpong completes while rdmadump -i listens" pp_pair 10 4096
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
	tap_eq "10-live: $n JSON objects, every ICRC verifies" "$n 0" \
		"$(jq -s -r '[length, (map(select(.icrc.ok != true)) | length)] | join(" ")' /tmp/live.json)"
	# the same packets, decoded the same, as rdmadump -r on tcpdump's file of that traffic;
	# times aside (two sockets stamp separately, and the file keeps microseconds): ts and
	# the latencies under "analysis"
	rdmadump -j -r "$OUT/10-live.pcap" -c "$n" > /tmp/live.r.json
	tap_eq "10-live: every -j field (but times) equals rdmadump -r on tcpdump's capture of it" \
		"$(jq -c 'del(.ts, .analysis)' /tmp/live.r.json | md5sum)" \
		"$(jq -c 'del(.ts, .analysis)' /tmp/live.json | md5sum)"
else
	tap_skip "rdmadump on real captures and live" "tools/rdmadump is not built yet"
fi
log "done"
