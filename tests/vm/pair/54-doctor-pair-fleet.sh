# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 30
# rdmadoctor env and the fleet comparison on the two guests: each guest saves 'rdmadoctor -j
# env' of its address, 'rdmadoctor -j local' and its raw GID table (sysfs gids/N and
# gid_attrs/types/N, one line "N GID TYPE" per used entry).  pair/host/54-doctor-pair-fleet.sh
# finds the RoCE v2 index of each address in that table itself, and runs rdmadoctor compare
# over the two guests' 'local -j' and generated outliers.  No traffic, no barrier.
J=$OUT/54-fleet
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
echo "$ME_IP" > "$J-addr"
save env.json rdmadoctor -j env "$ME_IP"
save local.json rdmadoctor -j local
d=/sys/class/infiniband/$RDEV/ports/1
for f in "$d"/gids/*; do
	i=${f##*/}
	read -r g < "$f" 2>/dev/null || continue
	# an unused slot's type reads EINVAL
	read -r t < "$d/gid_attrs/types/$i" 2>/dev/null || continue
	echo "$i $g $t"
done > "$J-gids"
cat "$J-gids" >&2
tap_eq "$ROLE: env $ME_IP exits 0" 0 "$(cat "$J-env.json.rc")"
tap_check "$ROLE: local -j wrote a host object" jq -e .host "$J-local.json"
