#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump -i on the loopback interface: RoCEv2 packets (BTH + payload + ICRC from the rxe
# capture) sent as UDP datagrams to 127.0.0.1:4791.  Needs CAP_NET_RAW (root in CI).  The PFC
# test captures on a veth pair in a network namespace of its own, where no other traffic is.
load helper
load wait

CAP="$FIX/rxe/rxe_sample.pcap"

setup() {
	TMP=$(mktemp -d)
	[ "$(id -u)" -eq 0 ] || skip "capturing on lo needs root (CAP_NET_RAW)"
	# the transport part (BTH onwards) of frames 1..20 of the capture
	python3 - "$CAP" "$TMP/payloads" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
off, out = 24, []
while off < len(d) and len(out) < 20:
    caplen = struct.unpack_from('<I', d, off + 8)[0]
    out.append(d[off + 16 + 42: off + 16 + caplen].hex())
    off += 16 + caplen
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
PY
}

teardown() {
	[ -z "${SENDER:-}" ] || kill "$SENDER" 2>/dev/null || :
	[ -z "${DUMP:-}" ] || kill "$DUMP" 2>/dev/null || :
	if [ -n "${NS:-}" ]; then
		# what still runs in the test's namespace was started by the test
		ip netns pids "$NS" 2>/dev/null | xargs -r kill 2>/dev/null || :
		ip netns del "$NS" 2>/dev/null || :
	fi
	rm -rf "$TMP"
}

# NS: a network namespace of the test's own (its name from $TMP, so unique) with the veth
# pair va <-> vb, both up and IPv6 off, so that nothing but what the test sends is on the
# wire; NSX runs a command in it.  teardown deletes it, on failure too.
veth_ns() {
	NS=rdmadump-live-${TMP##*/}
	ip netns add "$NS" 2> "$TMP/ns.err" ||
		skip "no network namespace of its own: $(cat "$TMP/ns.err")"
	NSX="ip netns exec $NS"
	$NSX sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
		2>/dev/null || :
	ip -n "$NS" link add va type veth peer name vb
	ip -n "$NS" link set va up
	ip -n "$NS" link set vb up
	wait_until 10 "the veth pair in $NS to be up" link_up va vb
}

# every link named is up (operstate: the carrier is on and the device is activated)
link_up() {
	local l
	for l; do
		ip -n "$NS" -o link show "$l" | grep -q ' state UP ' || return 1
	done
}

# send the payloads every 50 ms until killed (teardown; at most 60 s), one line per round
# to $TMP/sent
send() {
	python3 - "$TMP/payloads" "${1:-4791}" "$TMP/sent" <<'PY' &
import socket, sys, time
p = [bytes.fromhex(l) for l in open(sys.argv[1]) if l.strip()]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
with open(sys.argv[3], 'w', buffering=1) as sent:
    for i in range(1200):
        for x in p[:4]:
            s.sendto(x, ('127.0.0.1', int(sys.argv[2])))
        print(i, file=sent)
        time.sleep(0.05)
PY
	SENDER=$!
}

# rdmadump ARGS... in the background (stdout $TMP/out, stderr $TMP/err), returned once it
# says it is listening, as tcpdump does; in the namespace $NSX names when it is set (ip netns
# exec execs the command: $DUMP is rdmadump's pid)
listening() {
	${NSX:-} rdmadump "$@" > "$TMP/out" 2> "$TMP/err" &
	DUMP=$!
	wait_until 10 "rdmadump's 'listening on' line (stderr: $TMP/err)" \
		grep -q '^rdmadump: listening on ' "$TMP/err"
}

# the sender has sent N rounds since it started
sent_rounds() { has_lines "$TMP/sent" "$1"; }

# $1 holds a packet record after the 24-byte pcap file header (the dump file is written a
# stdio buffer at a time)
has_packets() { [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -gt 24 ]; }

@test "-i lo -c 4 -j captures and decodes RoCEv2 packets" {
	send
	run --separate-stderr timeout 20 rdmadump -i lo -c 4 -j
	kill "$SENDER" 2>/dev/null || :
	assert_success
	[ "${#lines[@]}" -eq 4 ]
	echo "$output" | jq -s -e 'any(.[]; .bth.op == "RC_SEND_FIRST" and .bth.destqp == 17)' > /dev/null
	[ "$(echo "$output" | head -1 | jq -r .src)" = "127.0.0.1" ]
	# the ICRC covers the IP addresses, which are loopback's now
	[ "$(echo "$output" | head -1 | jq .icrc.ok)" = "false" ]
}

@test "-i with a trailing BPF expression narrows the default filter" {
	listening -i lo -c 1 dst port 4999
	send
	# 20 rounds of packets to 4791 went past the filter while it listened
	wait_until 10 "the sender's 20th round" sent_rounds 20
	kill -TERM "$DUMP"
	st=0; wait "$DUMP" || st=$?
	DUMP=
	[ "$st" -eq 0 ]
	# SIGTERM: the summary, and it saw nothing
	run cat "$TMP/out"
	assert_line "0 frames, 0 RDMA packets, 0 other, 0 bytes (0 payload) in 0ns"
	run --separate-stderr rdmadump -i lo "bogus (((("
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmadump: bad capture filter '(udp port 4791 or ether proto 0x8915 or ether proto 0x8808) and (bogus (((()'"* ]]
}

@test "--port adds a port to the live filter and the decoder" {
	send 4792
	run --separate-stderr timeout 20 rdmadump -i lo -c 2 --port 4792
	kill "$SENDER" 2>/dev/null || :
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	assert_line --index 0 --partial "RC_SEND_"
}

@test "SIGINT on a live capture prints the summary and the drop count" {
	listening -i lo -w "$TMP/live.pcap"
	send
	wait_until 20 "packets written to $TMP/live.pcap" has_packets "$TMP/live.pcap"
	kill -INT "$DUMP"
	st=0; wait "$DUMP" || st=$?
	DUMP=
	[ "$st" -eq 0 ]
	grep -q "^== rdmadump summary ==" "$TMP/out"
	grep -q "^rdmadump: listening on lo, link-type 1, filter 'udp port 4791 or ether proto 0x8915 or ether proto 0x8808'$" "$TMP/err"
	grep -qE "^[0-9]+ packets captured, [0-9]+ received by filter, [0-9]+ dropped by kernel$" "$TMP/err"
	grep -qE "^capture: [0-9]+ received by filter, [0-9]+ dropped by kernel" "$TMP/out"
	# the written file reads back
	n=$(rdmadump -r "$TMP/live.pcap" | wc -l)
	[ "$n" -gt 0 ]
}

# send a PFC frame (priority 3 XOFF 0x1234) on interface $1 through a packet socket every
# 50 ms until killed, one line per frame to $TMP/sent; in the namespace $NSX names when set
send_pfc() {
	${NSX:-} python3 - "$TMP/sent" "$1" <<'PY' &
import socket, struct, sys, time
f = bytes.fromhex('0180c2000001' '0200000000fe') + struct.pack('!HHBB8H', 0x8808, 0x0101,
                                                               0, 0x08, 0, 0, 0, 0x1234,
                                                               0, 0, 0, 0)
f += b'\0' * (60 - len(f))
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[2], 0))
with open(sys.argv[1], 'w', buffering=1) as sent:
    for i in range(1200):
        s.send(f)
        print(i, file=sent)
        time.sleep(0.05)
PY
	SENDER=$!
}

@test "-i: the default filter lets PFC frames (ether proto 0x8808) in" {
	# not on lo: the RoCE datagrams of the other tests (or of another run on the machine)
	# could be the one packet captured
	veth_ns
	listening -i vb -c 1
	send_pfc va
	wait_until 20 "rdmadump to exit after one packet" sh -c "! kill -0 $DUMP 2>/dev/null"
	st=0; wait "$DUMP" || st=$?
	DUMP=
	[ "$st" -eq 0 ]
	grep -qx '[0-9:.]* 02:00:00:00:00:fe > 01:80:c2:00:00:01 PFC enable 0x08 p3 XOFF 4660' "$TMP/out" ||
		fail "$(cat "$TMP/out" "$TMP/err")"
}
