# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, the configfs default RoCE mode: readable once the rdma_cm group of a device
# exists (the doctor never creates it), reported as ok for RoCE v2 and as a warning when set
# to RoCE v1 (if the kernel accepts v1 on rxe).  host/57-doctor-rocemode.sh judges the JSON.
J=$OUT/57-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
C=/sys/kernel/config
mounted=0
if ! grep -q " $C configfs" /proc/mounts; then
	mount -t configfs none $C 2>&1 >&2 && mounted=1
fi
if ! tap_ok "the rdma_cm configfs group of $DEV0 can be created" mkdir -p "$C/rdma_cm/$DEV0"; then
	[ $mounted = 1 ] && umount $C
	exit 0
fi
M=$C/rdma_cm/$DEV0/ports/1/default_roce_mode
diag "$M: $(cat $M)"
save v2.json rdmadoctor -j local
if echo "IB/RoCE v1" > "$M" 2>/dev/null; then
	diag "rxe accepted IB/RoCE v1 as the default mode"
	save v1.json rdmadoctor -j local
	echo "RoCE v2" > "$M"
else
	diag "rxe refused IB/RoCE v1 as the default mode (RoCE v2 only)"
fi
tap_eq "the default mode is RoCE v2 again" "RoCE v2" "$(cat $M)"
rmdir "$C/rdma_cm/$DEV0"
[ $mounted = 1 ] && umount $C
tap_check "the configfs group is removed" [ ! -e "$C/rdma_cm/$DEV0" ]
