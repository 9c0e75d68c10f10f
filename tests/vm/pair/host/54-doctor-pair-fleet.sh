# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/54-doctor-pair-fleet.sh: on each guest, env's GID index is the entry of
# that guest's own sysfs GID table whose type is RoCE v2 for its address (not the link-local
# fe80:: entry the libraries fall back to); rdmadoctor compare over the two guests' 'local -j' and three generated outliers (one
# GID index, one MTU, one ToS apart) names exactly the three planted outliers.
S=$PAIR_SERVER C=$PAIR_CLIENT
for r in server client; do
	if [ $r = server ]; then O=$S; else O=$C; fi
	J=$O/54-fleet
	[ -s "$J-env.json" ] && [ -s "$J-gids" ] || { tap_fail "the $r guest saved 54-fleet-env.json and 54-fleet-gids"; continue; }
	IFS=. read -r o1 o2 o3 o4 < "$J-addr"
	printf -v g '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$o1" "$o2" "$o3" "$o4"
	v2=$(awk -v g="$g" '$2 == g && $3 " " $4 == "RoCE v2" { print $1 }' "$J-gids")
	ll=$(awk '$2 ~ /^fe80:/ { print $1; exit }' "$J-gids")
	tap_check "$r: sysfs has one RoCE v2 entry for $(cat "$J-addr"), not the link-local one" \
		eval '[ "$(wc -w <<< "$v2")" = 1 ] && [ "$v2" != "$ll" ]'
	tap_eq "$r: env's GID index (and NCCL_IB_GID_INDEX) is that entry" \
		"$v2 $v2 rxe0" "$(jq -r '"\(.gid_index) \(.vars.NCCL_IB_GID_INDEX) \(.dev)"' "$J-env.json")"
	tap_eq "$r: local -j's rxe0/1 gid_index is the same entry" "$v2" \
		"$(jq -r '.host.ports[] | select(.ifname == "rxe0") | .gid_index' "$J-local.json")"
done
[ -s "$S/54-fleet-local.json" ] && [ -s "$C/54-fleet-local.json" ] ||
	{ tap_fail "both guests saved 54-fleet-local.json"; exit 0; }
T=$(mktemp -d)
cp "$S/54-fleet-local.json" "$T/server.json"
cp "$C/54-fleet-local.json" "$T/client.json"
tap_eq "local -j's host names are the guests' own (pair-server, pair-client)" "pair-server pair-client" \
	"$(jq -r .host.hostname "$T/server.json") $(jq -r .host.hostname "$T/client.json")"
rx='.host.ports[] | select(.ifname == "rxe0")'
eval "$(jq -r "$rx"' | @sh "gidx=\(.gid_index) mtu=\(.mtu) tos=\(.tos)"' "$T/client.json")"
ogid=$((gidx + 1)) omtu=4096 otos=106
[ "$mtu" = 4096 ] && omtu=1024
[ "$tos" = 106 ] && otos=32
jq -c ".host.hostname = \"out-gid\" | ($rx | .gid_index) = $ogid" "$T/client.json" > "$T/out-gid.json"
jq -c ".host.hostname = \"out-mtu\" | ($rx | .mtu) = $omtu" "$T/client.json" > "$T/out-mtu.json"
jq -c ".host.hostname = \"out-tos\" | ($rx | .tos) = $otos" "$T/client.json" > "$T/out-tos.json"
"$ROOT/tools/rdmadoctor/rdmadoctor" -j compare "$T"/*.json > "$T/out.json"
tap_eq "compare of 2 guests + 3 outliers exits 1" 1 "$?"
tap_eq "compare names exactly the planted outliers, with the guests' value as the majority" \
	"rxe0/1.gid_index breaks $gidx 4 out-gid=$ogid;rxe0/1.mtu large_messages $mtu 4 out-mtu=$omtu;rxe0/1.tos large_messages $tos 4 out-tos=$otos" \
	"$(jq -r '[.properties[] | select(.differ | length > 0) |
		"\(.name) \(.impact) \(.majority) \(.majority_hosts) \([.differ[] | "\(.host)=\(.value)"] | join(","))"] | join(";")' "$T/out.json")"
# compare names hosts by their own host names: three hosts of another kernel make both guests
# the ones that differ
K=$(jq -r .host.kernel "$T/client.json")
mkdir "$T/k"
cp "$T/server.json" "$T/client.json" "$T/k/"
for n in 1 2 3; do jq -c ".host.hostname = \"k$n\" | .host.kernel = \"9.9.9-other\"" "$T/client.json" > "$T/k/k$n.json"; done
tap_check "compare's text names the two guests by their host names" \
	grep -qxF "info     host.kernel: 9.9.9-other on 3 host(s); 2 differ: pair-client=$K pair-server=$K" \
	<("$ROOT/tools/rdmadoctor/rdmadoctor" compare "$T"/k/*.json)
tap_eq "the two real guests agree on every property (compare of the two alone exits 0)" 0 \
	"$("$ROOT/tools/rdmadoctor/rdmadoctor" compare "$T/server.json" "$T/client.json" > /dev/null; echo $?)"
rm -rf "$T"
