# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/58-doctor-env.sh: the GID index env gives for each end is the one sysfs
# calls RoCE v2 for its address, not the link-local entry 0; the traffic class is configfs'.
cd "$VM_OUT" || exit 2
[ -s 58-doctor-a.json ] || { tap_fail "the guest saved 58-doctor-a.json"; exit 0; }
read -r ga gb < 58-doctor-sysfs
eval "$(jq -r '@sh "ia=\(.gid_index) aa=\(.addr) da=\(.dev) va=\(.vars.UCX_IB_GID_INDEX)"' 58-doctor-a.json)"
eval "$(jq -r '@sh "ib=\(.gid_index) ab=\(.addr) db=\(.dev) nb=\(.netdev)"' 58-doctor-b.json)"
tap_eq "env 198.18.0.1: the GID index sysfs calls RoCE v2 for it" "$ga" "$ia"
tap_check "  and it is not the link-local entry 0" [ "$ia" != 0 ]
tap_eq "env 198.18.0.1: device rxe0, address 198.18.0.1, UCX_IB_GID_INDEX the same" \
	"rxe0 198.18.0.1 $ia" "$da $aa $va"
tap_eq "env veth1: the GID index sysfs calls RoCE v2 for 198.18.0.2" "$gb" "$ib"
tap_eq "env veth1: device rxe1 on veth1, address 198.18.0.2" "rxe1 veth1 198.18.0.2" "$db $nb $ab"
# compare: the guest's real 'local -j' and three copies, one with another GID index on rxe0
[ -s 58-doctor-local.json ] || { tap_fail "the guest saved 58-doctor-local.json"; exit 0; }
tap_eq "local -j: the host object's rxe0/1 gid_index is sysfs' RoCE v2 index of 198.18.0.1" "$ga" \
	"$(jq -r '.host.ports[] | select(.ifname == "rxe0") | .gid_index' 58-doctor-local.json)"
C=$(mktemp -d)
for n in g1 g2 g3; do jq -c --arg n "$n" '.host.hostname = $n' 58-doctor-local.json > "$C/$n.json"; done
jq -c '.host.hostname = "g4" | (.host.ports[] | select(.ifname == "rxe0") | .gid_index) = 0' \
	58-doctor-local.json > "$C/g4.json"
"$ROOT/tools/rdmadoctor/rdmadoctor" -j compare "$C"/g*.json > "$C/out.json"
tap_eq "compare exits 1: one host's GID index differs" 1 "$?"
tap_eq "compare names it first: rxe0/1.gid_index, majority $ga, g4 with 0" \
	"rxe0/1.gid_index $ga g4=0" \
	"$(jq -r '.properties[0] | "\(.name) \(.majority) \(.differ[0].host)=\(.differ[0].value)"' "$C/out.json")"
rm -rf "$C"
[ -s 58-doctor-tos.json ] || { tap_fail "the guest saved 58-doctor-tos.json"; exit 0; }
tap_eq "with configfs default_roce_tos 106: NCCL_IB_TC and UCX_IB_TRAFFIC_CLASS 106" \
	"106 true 106 106" \
	"$(jq -r '"\(.tos) \(.tos_from_configfs) \(.vars.NCCL_IB_TC) \(.vars.UCX_IB_TRAFFIC_CLASS)"' 58-doctor-tos.json)"
