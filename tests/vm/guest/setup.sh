# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sourced by the guest runner before the numbered scripts (so its exports reach them):
# two Soft-RoCE devices, rxe0 on veth0 = 198.18.0.1 and rxe1 on veth1 = 198.18.0.2, and
# GID = the index of the IPv4 (RoCE v2) GID, found in sysfs rather than assumed.
export A=198.18.0.1 B=198.18.0.2	# RFC 2544 benchmark range; the guest has no NIC
export DEV0=rxe0 DEV1=rxe1 NET0=veth0 NET1=veth1
export TERM=xterm			# ncurses (rdmatop) has terminfo for xterm and vt100

if tap_ok "rxe0 on veth0 ($A) and rxe1 on veth1 ($B) are up" setup_bringup; then
	g0=$(gid_index "$DEV0" "$A"); g1=$(gid_index "$DEV1" "$B")
	# rdma_cm and the verbs tools take one index for both ends: they are equal on a
	# fresh pair (0 is the link-local fe80:: GID, the IPv4 one comes next)
	if tap_check "both devices have a RoCE v2 GID for their IPv4 address at one index" \
		[ -n "$g0" ] && [ "$g0" = "$g1" ]; then
		export GID=$g0
		diag "GID index $GID: $(cat /sys/class/infiniband/$DEV0/ports/1/gids/$GID)"
	else
		diag "rxe0: ${g0:-none} rxe1: ${g1:-none}"
		export GID=${g0:-1}
	fi
fi
export SETUP_ENV="A=$A B=$B DEV0=$DEV0 DEV1=$DEV1 NET0=$NET0 NET1=$NET1 GID=${GID:-}"
{ rdma link; ibv_devinfo -d "$DEV0"; } >&2
