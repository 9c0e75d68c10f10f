# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump on RoCE v2 over IPv6, real rxe traffic: ibv_rc_pingpong between the link-local
# (fe80::) RoCE v2 GIDs of rxe0 and rxe1 (the kernel fills them in from the veth pair's IPv6
# link-local addresses), captured by tcpdump and read back with rdmadump -j in the guest.
# The ICRC of these frames was computed by rxe over the IPv6 header with traffic class, flow
# label and hop limit masked: the host (host/12-rdmadump-ipv6.sh) checks that every one
# verifies and compares every field with tshark.
# Files in $OUT: 12-ipv6.pcap, 12-ipv6.guest.json, 12-ipv6.frames, 12-ipv6.gids

# gid6_index DEV: the index of its fe80:: GID of type RoCE v2, from sysfs
gid6_index() {
	local f g i t
	for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
		read -r g < "$f" 2>/dev/null || continue
		[[ $g == fe80:* ]] || continue
		i=${f##*/}
		read -r t < "/sys/class/infiniband/$1/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] && { echo "$i"; return 0; }
	done
	return 1
}

# the link-local addresses appear once the veth pair is up and DAD is done
wait_for 10 gid6_index "$DEV0"	# (timing out is reported just below)
g0=$(gid6_index "$DEV0"); g1=$(gid6_index "$DEV1")
if ! tap_check "both devices have a link-local IPv6 RoCE v2 GID (rxe0: ${g0:-none}, rxe1: ${g1:-none})" \
	[ -n "$g0" ] && [ -n "$g1" ]; then
	exit 0
fi
echo "$(cat /sys/class/infiniband/$DEV0/ports/1/gids/$g0) $(cat /sys/class/infiniband/$DEV1/ports/1/gids/$g1)" \
	> "$OUT/12-ipv6.gids"

# ibv_rc_pingpong with each end's own IPv6 GID index (the TCP exchange stays on IPv4)
pp6() {
	local port=18530 s
	timeout 30 ibv_rc_pingpong -d "$DEV1" -g "$g1" -p "$port" -n 5 -s 3000 >&2 2>&1 &
	s=$!
	wait_tcp_listen "$port" || { kill "$s"; wait "$s"; return 1; }
	timeout 30 ibv_rc_pingpong -d "$DEV0" -g "$g0" -p "$port" -n 5 -s 3000 "$B" >&2 2>&1
	pair_end $? "$s"
}

hwc_snap "$DEV0" /tmp/i6.b0; hwc_snap "$DEV1" /tmp/i6.b1
cap_start 12-ipv6 "$NET0" || { tap_fail "tcpdump starts on $NET0"; exit 0; }
tap_ok "ibv_rc_pingpong over the link-local IPv6 GIDs completes" pp6
cap_stop 12-ipv6
hwc_snap "$DEV0" /tmp/i6.a0; hwc_snap "$DEV1" /tmp/i6.a1
s0=$(hwc_delta /tmp/i6.b0 /tmp/i6.a0 sent_pkts); s1=$(hwc_delta /tmp/i6.b1 /tmp/i6.a1 sent_pkts)
echo $((s0 + s1)) > "$OUT/12-ipv6.frames"
tap_check "tcpdump has every frame rxe sent over IPv6 ($CAP_PACKETS = $s0 + $s1, none dropped)" \
	[ "$CAP_PACKETS" = $((s0 + s1)) ] && [ "$CAP_DROPPED" = 0 ] && [ "$CAP_PACKETS" -gt 0 ]
if have rdmadump; then
	tap_ok "rdmadump -j -r reads the IPv6 capture in the guest (exit 0)" \
		sh -c 'rdmadump -j -r "$1" > "$2"' - "$OUT/12-ipv6.pcap" /tmp/12-ipv6.json
	cp /tmp/12-ipv6.json "$OUT/12-ipv6.guest.json"
fi
