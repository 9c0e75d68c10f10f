# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# MTU 1500 (client) vs 1000 (server): the two ends side by side show it, the verdict names it.
# Saved for pair/host/51-doctor-peer-mtu.sh (each guest's ip link, the client's JSON).
P=7472
J=$OUT/51-mtu
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
if [ "$ROLE" = server ]; then
	mtu_set $NETD 1000
	ip -j link show $NETD > "$J-iplink.json"
	rdmadoctor -j listen "$SRV:$P" -c 2 > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: MTU 1000 on $NETD, rdmadoctor listen $SRV:$P" wait_cm_listen $P 20
	pair_sync listening 20
	pair_sync connected 50 || kill $lp
	wait $lp
	cat "$J-listen.json" "$J-listen.err" >&2
	mtu_restore $NETD
	wait_port_active $RDEV
else
	ip -j link show $NETD > "$J-iplink.json"
	pair_sync listening 30
	save json rdmadoctor -j connect "$SRV:$P" -t 3000
	tap_eq "client: MTU 1500 against a peer at 1000: connect exits 1 (a finding)" 1 "$(cat "$J-json.rc")"
	save txt rdmadoctor connect "pair-server:$P" -t 3000
	tap_eq "client: the same in text (by host name) exits 1" 1 "$(cat "$J-txt.rc")"
	pair_sync connected 30
fi
