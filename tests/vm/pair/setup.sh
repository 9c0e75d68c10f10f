# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sourced by pair/main.sh before the numbered scripts: this guest's half of the link, and
# proof that the two halves meet (rping between the guests).
OK=
if tap_ok "$ROLE: rxe0 on eth0 ($ME_IP) is up" pair_bringup; then
	GID=$(gid_index $RDEV "$ME_IP")
	tap_check "$ROLE: rxe0 has a RoCE v2 GID for $ME_IP" [ -n "$GID" ] && OK=1
	diag "GID index ${GID:-none}: $(cat /sys/class/infiniband/$RDEV/ports/1/gids/${GID:-1} 2>/dev/null)"
fi
export GID=${GID:-1}
# each guest's own host name (uname's nodename, which the descriptions carry) and both names
# for the tools' host-name paths
echo "pair-$ROLE" > /proc/sys/kernel/hostname
tap_eq "$ROLE: the guest's host name is pair-$ROLE" "pair-$ROLE" "$(uname -n)"
printf '%s pair-server\n%s pair-client\n' "$SRV" "$CLI" >> /etc/hosts
pair_sync up 60 || tap_fail "$ROLE: the $PEER_ROLE guest came up within 60 s"
# rping across the link: the server side on the server guest
if [ "$ROLE" = server ]; then
	timeout 30 rping -s -a "$SRV" -p 7174 -C 3 -S 1024 >&2 &
	rp=$!
	wait_cm_listen 7174 10
	pair_sync rping-listen 20
	wait_for 20 sh -c "! kill -0 $rp"
	wait $rp
	tap_eq "server: rping -s served 3 pings from the client guest" 0 $?
	pair_sync rping-done 20
else
	pair_sync rping-listen 20
	# the server's neighbour entry first: rping's address resolution gives up after 2 s,
	# which a busy host's first ARP exchange between two guests can take (rping exited
	# 255 once on a loaded host)
	wait_for 20 ping -c 1 -W 2 "$SRV" > /dev/null || log "client: no ping answer from $SRV"
	timeout 20 rping -c -a "$SRV" -p 7174 -C 3 -S 1024 -v >&2
	tap_eq "client: rping -c to the server guest ($SRV) across the link" 0 $?
	pair_sync rping-done 20
fi
{ rdma link; ip -br addr; } >&2
