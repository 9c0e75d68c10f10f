# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor across two hosts, the clean pair: the server guest runs 'rdmadoctor listen', the
# client guest connects to it by address (JSON) and by host name (text).  Saved for
# pair/host/50-doctor-pair.sh: $OUT/50-pair-*.json|txt with .rc and .err.
P=7471
J=$OUT/50-pair
ip -j link show $NETD > "$J-iplink.json"
echo "$GID" > "$J-gid"
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
if [ "$ROLE" = server ]; then
	# --serve host: the host row names the server (on one address the default serves the
	# port alone, without the hostname)
	rdmadoctor -j listen "$SRV:$P" -c 2 --serve host > "$J-listen.json" 2> "$J-listen.err" &
	lp=$!
	tap_ok "server: rdmadoctor listen $SRV:$P is a LISTEN cm_id" wait_cm_listen $P 20
	tap_ok "server: its side channel listens on TCP $P" wait_tcp_listen $P 5
	pair_sync listening 20
	pair_sync connected 50 || kill $lp
	wait $lp
	echo $? > "$J-listen.rc"
	cat "$J-listen.json" "$J-listen.err" >&2
	tap_eq "server: the listener exits 0 after its 2 connections" 0 "$(cat "$J-listen.rc")"
else
	pair_sync listening 30
	save ok.json rdmadoctor -j connect "$SRV:$P" -t 2000
	tap_eq "client: connect $SRV:$P exits 0 on a clean pair" 0 "$(cat "$J-ok.json.rc")"
	save name.txt rdmadoctor connect "pair-server:$P"
	tap_eq "client: connect pair-server:$P (a host name) exits 0" 0 "$(cat "$J-name.txt.rc")"
	pair_sync connected 30
fi
