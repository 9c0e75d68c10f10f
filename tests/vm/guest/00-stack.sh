# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The stack itself: what every other guest script relies on, proven on the real kernel.

for d in "$DEV0" "$DEV1"; do
	tap_eq "$d port state is ACTIVE (sysfs)" "4: ACTIVE" "$(port_state "$d")"
done
tap_eq "rdma link shows both devices ACTIVE on their veth" "$DEV0 $NET0 $DEV1 $NET1" \
	"$(rdma link show | awk '$4 == "ACTIVE" && $(NF-1) == "netdev" { sub(/\/.*/, "", $2);
		printf "%s%s %s", sep, $2, $NF; sep = " " }')"

# the IPv4-mapped GID must be where setup.sh said, and typed RoCE v2 (rxe in 6.1 is v2 only)
g=$(cat "/sys/class/infiniband/$DEV0/ports/1/gids/$GID")
tap_eq "GID index $GID of $DEV0 holds ::ffff:$A" "0000:0000:0000:0000:0000:ffff:c612:0001" "$g"
tap_eq "GID index $GID of $DEV0 is RoCE v2" "RoCE v2" \
	"$(cat "/sys/class/infiniband/$DEV0/ports/1/gid_attrs/types/$GID")"
tap_eq "GID index $GID of $DEV0 belongs to $NET0" "$NET0" \
	"$(cat "/sys/class/infiniband/$DEV0/ports/1/gid_attrs/ndevs/$GID")"

hwc_snap "$DEV0" /tmp/st.b0; hwc_snap "$DEV1" /tmp/st.b1
tap_ok "ibv_rc_pingpong rxe0 -> rxe1 completes (10 x 4096 B)" pp_pair 10 4096
tap_ok "rping over rdma_cm (client bound to $A) completes 3 iterations" rping_pair 3 64
hwc_snap "$DEV0" /tmp/st.a0; hwc_snap "$DEV1" /tmp/st.a1
# the traffic really went through rxe: each sends what the other receives (veth is
# lossless here and no other RoCE traffic runs)
s0=$(hwc_delta /tmp/st.b0 /tmp/st.a0 sent_pkts); r1=$(hwc_delta /tmp/st.b1 /tmp/st.a1 rcvd_pkts)
s1=$(hwc_delta /tmp/st.b1 /tmp/st.a1 sent_pkts); r0=$(hwc_delta /tmp/st.b0 /tmp/st.a0 rcvd_pkts)
tap_check "rxe0 sent_pkts delta ($s0) equals rxe1 rcvd_pkts delta ($r1), and is > 0" \
	[ "$s0" -gt 0 ] && [ "$s0" = "$r1" ]
tap_check "rxe1 sent_pkts delta ($s1) equals rxe0 rcvd_pkts delta ($r0), and is > 0" \
	[ "$s1" -gt 0 ] && [ "$s1" = "$r0" ]

# perftest over rdma_cm (-R).  Both addresses are local to this one namespace, and perftest's
# client does not bind its --source_ip, so rdma_cm resolves 198.18.0.2 to rxe1 itself and
# both ends land there (loopback inside rxe1): the data still goes through rxe, which rxe1's
# counters show (20 WRITEs of 4 KiB at MTU 1024 = at least 80 packets sent and received).
hwc_snap "$DEV1" /tmp/st.b1
tap_ok "ib_write_bw -R (perftest over rdma_cm) completes (20 x 4 KiB)" write_bw_pair -R -n 20 -s 4096
hwc_snap "$DEV1" /tmp/st.a1
s1=$(hwc_delta /tmp/st.b1 /tmp/st.a1 sent_pkts); r1=$(hwc_delta /tmp/st.b1 /tmp/st.a1 rcvd_pkts)
tap_check "ib_write_bw -R: its packets went through rxe1 (sent +$s1, received +$r1, >= 80 each)" \
	[ "$s1" -ge 80 ] && [ "$r1" -ge 80 ]
