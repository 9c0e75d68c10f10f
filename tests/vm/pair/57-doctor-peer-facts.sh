# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# The two-ends comparison's cause ids no other pair script produces (issue 28: a tier test
# per cause id), each made real on the client and undone at once; the server's
# 'rdmadoctor listen' answers two connects, the client judges each one's peer findings:
#   index  the client's address removed, another one added first, the address again: its
#          RoCE v2 GID moves to another index than the server's: peer_gid_index_differs
#          (connect --src the address: the route would prefer the other one)
#   speed  ethtool -s eth0 speed 10000 on the client (virtio-net takes a speed, rxe's rate
#          follows its netdev's: 10 Gb/s against the unknown speed's 2.5): peer_speed_mismatch
# peer_gid_type_mismatch cannot be made with rxe, which has RoCE v2 GIDs only (its configfs
# default_roce_mode refuses 'IB/RoCE v1'); peer_no_rocev2_gid neither.
# Each connect's JSON is $OUT/57-CASE.json.
P=7477
J=$OUT/57
C=/sys/kernel/config
X=198.18.1.20
# peer CASE: the connect's peer findings, "level cause" each, sorted
peer() { jq -r '[.findings[] | select(.check == "peer" and .cause != null) | "\(.level) \(.cause)"] | sort | join("; ")' "$J-$1.json" 2> /dev/null; }
gid_back() { [ "$(gid_index $RDEV "$ME_IP")" = "$GID" ]; }
conn() { local c=$1; shift; rdmadoctor -j connect "$SRV:$P" -t 3000 "$@" > "$J-$c.json" 2> "$J-$c.err"; cat "$J-$c.err" >&2; }
grep -q " $C configfs" /proc/mounts || mount -t configfs none $C
if [ "$ROLE" = server ]; then
	rdmadoctor -j listen ":$P" -c 2 > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: rdmadoctor listen :$P for two connects" wait_cm_listen $P 20
	pair_sync listening 20
	pair_sync done 80 || kill $lp
	wait $lp
	cat "$J-listen.err" >&2
else
	pair_sync listening 30

	ip addr del "$ME_IP/24" dev $NETD && ip addr add "$X/24" dev $NETD && ip addr add "$ME_IP/24" dev $NETD
	wait_for 5 gid_index $RDEV "$ME_IP" > /dev/null
	moved=$(gid_index $RDEV "$ME_IP")
	if [ "$moved" != "$GID" ]; then
		conn index --src "$ME_IP"
		tap_eq "index: $ME_IP's RoCE v2 GID at index $moved here, $GID on the peer: a warning" \
			"warning peer_gid_index_differs" "$(peer index)"
	else
		tap_skip "index: peer_gid_index_differs" "the address came back at index $GID"
		conn index --src "$ME_IP"
	fi
	ip addr del "$X/24" dev $NETD; ip addr del "$ME_IP/24" dev $NETD; ip addr add "$ME_IP/24" dev $NETD
	wait_for 10 gid_back
	tap_eq "index: $ME_IP's GID is back at index $GID" "$GID" "$(gid_index $RDEV "$ME_IP")"

	rate0=$(cat /sys/class/infiniband/$RDEV/ports/1/rate)
	ethtool -s $NETD speed 10000 duplex full 2> "$J-speed.ethtool"
	rate1=$(cat /sys/class/infiniband/$RDEV/ports/1/rate)
	if [ "$rate1" != "$rate0" ]; then
		conn speed
		tap_eq "speed: $RDEV's rate $rate1 here, $rate0 on the peer: a warning" \
			"warning peer_speed_mismatch" "$(peer speed)"
	else
		tap_skip "speed: peer_speed_mismatch" "ethtool -s $NETD speed 10000 did not change $RDEV's rate ($rate0): $(head -c 200 "$J-speed.ethtool")"
		conn speed
	fi
	# virtio-net's speed as it booted: unknown (SPEED_UNKNOWN, 2^32 - 1)
	ethtool -s $NETD speed 4294967295 duplex full 2>> "$J-speed.ethtool" ||
		log "ethtool could not set $NETD's speed back to unknown: $(cat "$J-speed.ethtool")"
	tap_eq "speed: $RDEV's rate is $rate0 again" "$rate0" "$(cat /sys/class/infiniband/$RDEV/ports/1/rate)"
	pair_sync done 30
fi
