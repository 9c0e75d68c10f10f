# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 30
# rdmadoctor env on the real kernel: for each end, the GID index must be the one sysfs'
# gid_attrs/types calls RoCE v2 for the address (gid_index in lib.sh reads it; index 0 is the
# link-local entry), by address and by netdev, and the shell text must set the same values;
# with the configfs group of rxe0 created and default_roce_tos set, the traffic class follows.
# 'local -j' is saved too: its host object carries the same GID index, and the host side runs
# rdmadoctor compare over it and generated outliers.  The guest saves the JSON and sysfs'
# answer; host/58-doctor-env.sh judges.
J=$OUT/58-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

save a.json rdmadoctor -j env "$A"
save local.json rdmadoctor -j local
save b.json rdmadoctor -j env "$NET1"
echo "$(gid_index "$DEV0" "$A") $(gid_index "$DEV1" "$B")" > "$J-sysfs"
diag "sysfs RoCE v2 GID indexes of $A and $B: $(cat "$J-sysfs")"
tap_eq "env $A exits 0" 0 "$(cat "$J-a.json.rc")"
tap_eq "env $NET1 exits 0" 0 "$(cat "$J-b.json.rc")"
unset NCCL_IB_GID_INDEX UCX_IB_GID_INDEX
eval "$(rdmadoctor env "$A")"
tap_eq "eval \"\$(rdmadoctor env $A)\" sets NCCL_IB_GID_INDEX to sysfs' RoCE v2 index" \
	"$(gid_index "$DEV0" "$A")" "${NCCL_IB_GID_INDEX:-unset}"
tap_eq "and NCCL_IB_HCA to $DEV0:1" "$DEV0:1" "${NCCL_IB_HCA:-unset}"
unset NCCL_IB_HCA NCCL_IB_GID_INDEX NCCL_IB_TC NCCL_SOCKET_IFNAME UCX_NET_DEVICES \
	UCX_IB_GID_INDEX UCX_IB_TRAFFIC_CLASS FI_PROVIDER FI_VERBS_DEVICE_NAME FI_VERBS_IFACE \
	FI_VERBS_GID_IDX

C=/sys/kernel/config
mounted=0
grep -q " $C configfs" /proc/mounts || { mount -t configfs none $C 2>&1 >&2 && mounted=1; }
if mkdir -p "$C/rdma_cm/$DEV0" 2>/dev/null; then
	T=$C/rdma_cm/$DEV0/ports/1/default_roce_tos
	echo 106 > "$T"
	save tos.json rdmadoctor -j env "$A"
	echo 0 > "$T"
	rmdir "$C/rdma_cm/$DEV0"
	tap_check "the configfs group of $DEV0 is removed" [ ! -e "$C/rdma_cm/$DEV0" ]
else
	tap_fail "the rdma_cm configfs group of $DEV0 can be created"
fi
[ $mounted = 1 ] && umount $C
