# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# A different default ToS on the listener (configfs rdma_cm default_roce_tos 106) and the
# default 0 on the client: the two ends side by side show it, a warning names it.
P=7474
J=$OUT/53-tos
C=/sys/kernel/config
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
grep -q " $C configfs" /proc/mounts || mount -t configfs none $C
if [ "$ROLE" = server ]; then
	mkdir -p $C/rdma_cm/$RDEV && echo 106 > $C/rdma_cm/$RDEV/ports/1/default_roce_tos
	cat $C/rdma_cm/$RDEV/ports/1/default_roce_tos > "$J-configfs"
	rdmadoctor -j listen "$SRV:$P" -c 1 > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: default_roce_tos $(cat "$J-configfs"), rdmadoctor listen $SRV:$P" wait_cm_listen $P 20
	pair_sync listening 20
	pair_sync connected 50 || kill $lp
	wait $lp
	cat "$J-listen.json" "$J-listen.err" >&2
	rmdir $C/rdma_cm/$RDEV
else
	cat $C/rdma_cm/$RDEV/ports/1/default_roce_tos > "$J-configfs" 2>/dev/null || echo none > "$J-configfs"
	pair_sync listening 30
	save json rdmadoctor -j connect "$SRV:$P" -t 3000
	tap_eq "client: a peer with another default ToS: connect exits 1 (a warning)" 1 "$(cat "$J-json.rc")"
	pair_sync connected 30
fi
