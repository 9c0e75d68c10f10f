# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The fault-injection helpers of lib.sh, which the rdmadoctor and rdmadump scripts rely on:
# each does what it says on the real stack, and its undo brings the setup back.

log fw
# firewall: RoCE dropped on input (nft, or iptables without nft)
fw_drop_roce input
tap_check "fw_drop_roce: a rule drops UDP 4791 on input" \
	eval 'nft list table inet $FW_TABLE 2>/dev/null | grep -q "udp dport 4791 counter.*drop"'
# one UDP datagram to port 4791 (bash's /dev/udp, no fork): the rule must count it.  The
# RDMA effect of the rule (a connection attempt timing out) is 52-doctor-firewall's test.
echo probe > "/dev/udp/$B/4791"
dropped=$(nft list table inet $FW_TABLE 2>/dev/null | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
tap_check "fw_drop_roce: the rule drops what is sent to UDP 4791 ($dropped packets)" [ "${dropped:-0}" -gt 0 ]
fw_clear
tap_check "fw_clear: no table left" eval '[ -z "$(nft list tables)" ]'

log link
# link down / up: the rxe port follows its netdev
link_down "$NET1"
tap_check "link_down $NET1: $DEV1 port goes DOWN" wait_for 5 eval '[[ $(port_state $DEV1) == *DOWN* ]]'
link_up "$NET1"
tap_eq "link_up $NET1: $DEV1 port is ACTIVE again" "4: ACTIVE" "$(port_state "$DEV1")"

log addr
# address removal takes the RoCE v2 GID with it; adding it back restores one
addr_del "$NET0" "$A/24"
tap_check "addr_del: the RoCE v2 GID of $A is gone from $DEV0" wait_for 5 eval '! gid_index $DEV0 $A'
addr_add "$NET0" "$A/24"
# the freed slot is reused, so the GID index the other scripts use stays right
tap_eq "addr_add: the RoCE v2 GID of $A is back on $DEV0 at index $GID" "$GID" "$(gid_index "$DEV0" "$A")"

log mtu
# MTU: rxe's active MTU follows the netdev (1500 -> 1024, 1000 -> 512)
mtu() { ibv_devinfo -d "$1" | sed -n 's/.*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p'; }
mtu_set "$NET0" 1000
tap_eq "mtu_set $NET0 1000: $DEV0 active_mtu is 512" 512 "$(mtu "$DEV0")"
mtu_restore "$NET0"
tap_eq "mtu_restore $NET0: $DEV0 active_mtu is 1024 again" 1024 "$(mtu "$DEV0")"

log netem
# netem: on everything, or on RoCE only; netem_clear removes both
netem_loss "$NET0" 10%
tap_check "netem_loss: $NET0 has a netem qdisc dropping 10%" eval 'tc qdisc show dev $NET0 | grep -q "netem.*loss 10%"'
netem_delay "$NET0" 20ms
tap_check "netem_delay: $NET0 has a 20 ms netem qdisc" eval 'tc qdisc show dev $NET0 | grep -q "netem.*delay 20ms"'
netem_clear "$NET0"
netem_roce "$NET0" loss 50%
tap_check "netem_roce: netem under a prio qdisc, a u32 filter for UDP 4791" \
	eval 'tc qdisc show dev $NET0 | grep -q "netem 30:.*loss 50%" && tc filter show dev $NET0 | grep -q "flowid 1:3"'
netem_clear "$NET0"
tap_check "netem_clear: $NET0 back to its default qdisc" eval '! tc qdisc show dev $NET0 | grep -q "netem\|prio"'
log done
