# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers of the two-guest mode (sourced after guest/lib.sh by pair/main.sh and before each
# pair/NN-*.sh).  Each guest has one Soft-RoCE device on its virtio-net NIC:
#
#   server: rxe0 -- eth0 198.18.1.1 (pair-server)  <== QEMU link ==>  (pair-client) 198.18.1.2 eth0 -- rxe0 :client
#
#   ROLE PEER_ROLE   server|client, this guest's and the other's
#   SRV CLI          198.18.1.1 198.18.1.2;   ME_IP PEER_IP   this guest's and the other's
#   RDEV NETD        rxe0 eth0 (the same names on both guests)
#   GID              the index of this guest's IPv4 RoCE v2 GID (setup.sh)
#   MGMT MGMT_IP     the management NIC (found by its MAC, down unless a script brings it
#                    up) and its address on QEMU's user-mode network, 10.0.2.15; the host
#                    reaches the guest's TCP port 14791 there (pair/run.sh)
# The guests share /mnt/pair (a host directory) for barriers and small notes.
ROLE=$(sed -n 's/.*rdiag\.role=\([a-z]*\).*/\1/p' /proc/cmdline)
: "${ROLE:=server}"
export ROLE PEER_ROLE=server SRV=198.18.1.1 CLI=198.18.1.2 RDEV=rxe0 NETD=eth0
[ "$ROLE" = server ] && PEER_ROLE=client
if [ "$ROLE" = server ]; then ME_IP=$SRV PEER_IP=$CLI; else ME_IP=$CLI PEER_IP=$SRV; fi
export ME_IP PEER_IP MGMT_IP=10.0.2.15

# pair_sync NAME [SECS]: a barrier: mark NAME done here, wait until the other guest has too
# (1 when it does not come within SECS, default 30); the names are the script's own ($ME)
pair_sync() {
	: > "/mnt/pair/$ME.$1.$ROLE"
	wait_for "${2:-30}" test -e "/mnt/pair/$ME.$1.$PEER_ROLE"
}
# pair_note NAME VALUE / pair_read NAME [SECS]: hand a value to the other guest
pair_note() { echo "$2" > "/mnt/pair/$ME.$1.$ROLE.tmp" && mv "/mnt/pair/$ME.$1.$ROLE.tmp" "/mnt/pair/$ME.$1.$ROLE"; }
pair_read() {
	wait_for "${2:-30}" test -e "/mnt/pair/$ME.$1.$PEER_ROLE" && cat "/mnt/pair/$ME.$1.$PEER_ROLE"
}

# pair_host_step NAME [SECS]: tell the host side of this script (pair/live/$ME.sh) that
# step NAME is ready here (what it needs is in notes already), and wait for its answer
# (1 when none comes within SECS, default 45)
pair_host_step() {
	: > "/mnt/pair/$ME.$1.$ROLE.ready"
	wait_for "${2:-45}" test -e "/mnt/pair/$ME.$1.host"
}

# the management NIC: the virtio-net NIC with the MAC pair/run.sh gave it (none: empty)
pair_mgmt() {
	local d m
	for d in /sys/class/net/*; do
		read -r m < "$d/address" 2>/dev/null || continue
		case $m in 52:54:00:00:02:0?) echo "${d##*/}"; return 0 ;; esac
	done
	return 1
}
pair_mgmt_up() {
	MGMT=$(pair_mgmt) || return 1
	ip addr add "$MGMT_IP/24" dev "$MGMT" && ip link set "$MGMT" up
}
pair_mgmt_down() {
	MGMT=$(pair_mgmt) || return 0
	ip addr flush dev "$MGMT" && ip link set "$MGMT" down
}

pair_bringup() {
	modprobe virtio_net || return 1
	wait_for 5 test -d /sys/class/net/$NETD || return 1
	ip addr add "$ME_IP/24" dev $NETD && ip link set $NETD up || return 1
	rdma link add $RDEV type rxe netdev $NETD || return 1
	wait_port_active $RDEV
}

# pair_verify: what differs from the pair's setup (nothing when all is well)
pair_verify() {
	local v
	[ -d /sys/class/net/$NETD ] || { echo "$NETD is gone"; return 0; }
	read -r v < /sys/class/net/$NETD/operstate
	[ "$v" = up ] || echo "$NETD is $v"
	[[ $(ip -o -4 addr show dev $NETD) == *"inet $ME_IP/24"* ]] || echo "$NETD lost $ME_IP/24"
	read -r v < /sys/class/net/$NETD/mtu
	[ "$v" = 1500 ] || echo "$NETD MTU is $v"
	[ -d /sys/class/infiniband/$RDEV ] || { echo "$RDEV is gone"; return 0; }
	[[ $(port_state $RDEV) == *ACTIVE* ]] || echo "$RDEV port is $(port_state $RDEV)"
	[ "$(gid_index $RDEV "$ME_IP")" = "$GID" ] || echo "$RDEV: the RoCE v2 GID of $ME_IP is not at index $GID"
	v=$(cat /sys/kernel/config/rdma_cm/$RDEV/ports/1/default_roce_tos 2>/dev/null)
	[ -z "$v" ] || [ "$v" = 0 ] || echo "$RDEV default_roce_tos is $v"
	v=$(pair_mgmt) && [[ $(ip -o addr show dev "$v") == *inet* ]] &&
		echo "the management NIC $v has an address"
	return 0
}
pair_repair() {
	ip link set $NETD mtu 1500
	ip link set $NETD up
	ip addr replace "$ME_IP/24" dev $NETD
	[ -d /sys/class/infiniband/$RDEV ] || rdma link add $RDEV type rxe netdev $NETD
	[ ! -d /sys/kernel/config/rdma_cm/$RDEV ] ||
		echo 0 > /sys/kernel/config/rdma_cm/$RDEV/ports/1/default_roce_tos
	pair_mgmt_down
	wait_port_active $RDEV
}
