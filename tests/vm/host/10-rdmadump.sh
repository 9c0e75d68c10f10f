# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/10-rdmadump.sh: judge what the guest's rdmadump printed for captures of
# real rxe traffic, and compare every -j field with tshark's decode of the same files:
#   - rdmadump -j -r on the host, on each guest capture, through the oracle of the bats tier
#     (tests/oracle/oracle.sh), so that both tiers compare the same fields the same way;
#   - the JSON the guest's rdmadump wrote (-r, and live -i) for the same files.
# $VM_OUT: what the guest wrote.  TAP on stdout (helpers from guest/lib.sh).
cd "$VM_OUT" || exit 2
ORACLE=$ROOT/tests/oracle/oracle.sh
RD=$ROOT/tools/rdmadump/rdmadump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# judge NAME: the guest's rdmadump -j -r output of NAME.pcap: one object per frame rxe sent,
# each with a BTH and an ICRC, none truncated or invalid, every ICRC (computed by rxe in the
# kernel) verified.  Sets OPS (opcodes seen) and CM (CM messages in order).
judge() {
	local name=$1 j=$1.guest.json n r objs withbth bad badicrc
	n=$(cat "$name.frames" 2>/dev/null)
	[ -s "$j" ] || { tap_fail "$name: the guest's rdmadump wrote $j"; return 1; }
	r=$(jq -s -r '[length, (map(select(.bth != null and .icrc != null)) | length),
		(map(select(.truncated == true or .invalid == true)) | length),
		(map(select(.icrc.ok != true)) | length),
		(map(.bth.opcode) | unique | map(tostring) | join(",")),
		(map(.mad.cm.msg // empty) | join(","))] | join(" ")' "$j")
	read -r objs withbth bad badicrc OPS CM <<< "$r"
	tap_eq "$name: one -j object per frame rxe sent, each with a BTH and an ICRC, none truncated" \
		"$n $n 0" "$objs $withbth $bad"
	tap_eq "$name: every ICRC verifies" 0 "$badicrc"
}

if [ -s 10-pingpong.guest.json ] || [ -s 10-rping.guest.json ]; then
	judge 10-pingpong &&
		tap_eq "10-pingpong: opcodes are SEND First/Middle/Last and ACK only" "0,1,2,17" "$OPS"
	if judge 10-rping; then
		tap_eq "10-rping: the CM messages in the -j output are REQ REP RTU DREQ DREP" \
			"REQ,REP,RTU,DREQ,DREP" "$CM"
		# RDMA READ request 12, its responses 13-16, RDMA WRITE 6-11 (and SEND, ACK, UD 100)
		tap_check "10-rping: READ request, READ response and WRITE opcodes are there ($OPS)" \
			eval '[[ ,$OPS, == *,12,* ]] && [[ ,$OPS, =~ ,1[3-6], ]] && [[ ,$OPS, =~ ,([6-9]|10|11), ]]'
	fi
	tap_eq "10-rping: rdmadump -S shows one connection: REQ REP RTU DREQ DREP, disconnected, client $A, no retries" \
		"1 REQ,REP,RTU,DREQ,DREP disconnected $A 0" \
		"$(jq -r '.summary.cm | [length, (.[0].timeline | map(.msg) | join(",")), .[0].state,
			.[0].client, .[0].req_retries] | join(" ")' 10-rping.summary.json 2>&1)"
fi

# live: rdmadump -i -c 100 in the guest against rdmadump -r on tcpdump's file of the same
# traffic.  tcpdump started first and saw everything; rdmadump may have missed the first
# frames while it opened its socket, so its first object is looked up in the file (by
# source, UDP source port, opcode and PSN) and the 100 frames from there are compared.
if [ -s 10-live.json ] && [ -x "$RD" ]; then
	n=$(jq -s length 10-live.json)
	tap_eq "10-live: rdmadump -i printed 100 objects, every ICRC verified" "100 0" \
		"$n $(jq -s 'map(select(.icrc.ok != true)) | length' 10-live.json)"
	"$RD" -j -r 10-live.pcap > "$tmp/live-all.json"
	key='[.src, .sport, .bth.opcode, .bth.psn] | map(tostring) | join(" ")'
	first=$(head -1 10-live.json | jq -r "$key")
	off=$(jq -r "$key" "$tmp/live-all.json" | grep -n -x -F "$first" | head -1 | cut -d: -f1)
	if [ -z "$off" ]; then
		tap_fail "10-live: rdmadump -i's first packet is in tcpdump's capture" "$first"
	else
		diag "rdmadump -i's first packet is frame $off of tcpdump's capture"
		# times aside: two sockets stamp the same packet separately and the file keeps
		# microseconds (ts, and the latencies under "analysis"); n counts from the start
		tap_eq "10-live: every -j field (but times) of 100 frames equals rdmadump -r on tcpdump's capture" \
			"$(jq -c 'del(.ts, .analysis, .n)' "$tmp/live-all.json" | tail -n +"$off" | head -n "$n" | md5sum)" \
			"$(jq -c 'del(.ts, .analysis, .n)' 10-live.json | md5sum)"
		# the same 100 frames as a capture of their own, for the tshark comparison below
		editcap -r 10-live.pcap "$tmp/live-n.pcap" "$off-$((off + n - 1))" > /dev/null 2>&1 ||
			tap_fail "editcap cuts frames $off.. out of 10-live.pcap"
	fi
fi

# tshark: every frame of every guest capture is RoCEv2 for it too; the CM handshake by name
if ! command -v tshark > /dev/null; then
	tap_skip "tshark comparisons" "tshark is not installed"
	exit 0
fi
for p in 10-pingpong 10-rping 10-live; do
	[ -s "$p.pcap" ] || { tap_fail "the guest wrote $p.pcap"; continue; }
	n=$(tshark -n -r "$p.pcap" 2>/dev/null | wc -l)
	r=$(tshark -n -r "$p.pcap" -Y infiniband.bth 2>/dev/null | wc -l)
	tap_check "tshark decodes all $n frames of $p.pcap as RoCEv2 (BTH)" test "$n" -gt 0 -a "$n" = "$r"
done
if [ -s 10-rping.pcap ]; then
	# MAD attribute IDs of the CM class: 0x10 REQ, 0x13 REP, 0x14 RTU, 0x15 DREQ, 0x16 DREP
	tap_eq "tshark shows the CM handshake REQ REP RTU DREQ DREP in 10-rping.pcap" \
		"0x0010 0x0013 0x0014 0x0015 0x0016 " \
		"$(tshark -n -r 10-rping.pcap -Y 'infiniband.mad.mgmtclass == 0x07' \
			-T fields -e infiniband.mad.attributeid 2>/dev/null | tr '\n' ' ')"
fi

if [ ! -x "$ORACLE" ] || [ ! -x "$RD" ]; then
	tap_skip "rdmadump -j equals tshark on the guest captures" "tools/rdmadump/rdmadump or tests/oracle/oracle.sh missing"
	exit 0
fi
# oracle FILE LABEL [RDMADUMP]: every field tshark decodes equals rdmadump -j's, frame by frame
oracle() {
	local out
	out=$("$ORACLE" "$1" "${3:-$RD}" 2>&1)
	if [ $? -eq 0 ]; then
		tap_pass "$2: every -j field equals tshark's ($(echo "$out" | tail -1))"
	else
		tap_fail "$2: every -j field equals tshark's" "$(echo "$out" | head -12)"
	fi
}
for p in 10-pingpong 10-rping; do
	[ -s "$p.pcap" ] && oracle "$VM_OUT/$p.pcap" "host rdmadump -r $p.pcap"
done
# the guest's own output: an "rdmadump" that replays what the guest printed
replay() {	# replay JSON PCAP LABEL [drop-ts]
	local json=$1 pcap=$2 label=$3 o=$tmp/oracle
	[ -s "$json" ] || { tap_fail "$label: the guest wrote $json"; return; }
	rm -rf "$o"; cp -r "$ROOT/tests/oracle" "$o"
	if [ "${4:-}" = drop-ts ]; then
		grep -v '^ts	' "$ROOT/tests/oracle/fields.tsv" > "$o/fields.tsv"
	fi
	printf '#!/bin/sh\nexec cat %q\n' "$VM_OUT/$json" > "$tmp/guest-rdmadump"
	chmod +x "$tmp/guest-rdmadump"
	ORACLE=$o/oracle.sh oracle "$pcap" "$label" "$tmp/guest-rdmadump"
}
replay 10-pingpong.guest.json "$VM_OUT/10-pingpong.pcap" "guest rdmadump -r 10-pingpong.pcap"
replay 10-rping.guest.json "$VM_OUT/10-rping.pcap" "guest rdmadump -r 10-rping.pcap"
[ -s "$tmp/live-n.pcap" ] &&
	replay 10-live.json "$tmp/live-n.pcap" "guest rdmadump -i (live) vs tcpdump's capture of the same traffic" drop-ts
