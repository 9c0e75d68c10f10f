#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadoctor local carries the lossless chain of rdmastat fabric (lib/doctor/doctor_fabric.c):
# a broken link is a warning with the chain's finding as cause and its fix as hint, a chain
# that holds is one ok finding, and a netdev without DCB adds nothing (rxe on veth).
load helper

FX=$FIX/fabric

lossless() {
	jq -c '[.. | objects | select(.check? == "lossless") | [.level, .cause, .subject]]'
}

@test "rdmadoctor local: PFC on 4 and no APP entry give two lossless warnings with fixes" {
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$FX/dcb-pfc4-noapp.rec run rdmadoctor local -j
	run lossless <<< "$output"
	assert_output '[["warning","fabric.dscp_unmapped","mlx5_0/1 eth0"],["warning","fabric.pfc_off","mlx5_0/1 eth0"]]'
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$FX/dcb-pfc4-noapp.rec run rdmadoctor local
	assert_output --partial 'fix: dcb app add dev eth0 dscp-prio 26:4'
	refute_output --partial 'prio-pfc 0:on'
}

@test "rdmadoctor local: a chain that holds is one ok line; no DCB adds nothing" {
	RDMADIAG_SYSFS_ROOT=$FX/ofed RDMADIAG_NL_REPLAY=$FX/dcb-pfc3.rec run rdmadoctor local -j
	run lossless <<< "$output"
	assert_output '[["ok",null,"mlx5_0/1 eth0"]]'
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$FX/dcb-none.rec run rdmadoctor local -j
	run lossless <<< "$output"
	assert_output '[]'
	# a fixture tree without a recording: this host's dcbnl is not asked
	RDMADIAG_SYSFS_ROOT=$FX/upstream run rdmadoctor local -j
	run lossless <<< "$output"
	assert_output '[]'
}

# a copy of fixture tree $1 with the RDMA core modules and device nodes present, so that the
# host checks find no problem and the verdict is the chain's warnings' alone
doctor_tree() {
	local t=$BATS_TEST_TMPDIR/$1 m
	cp -r "$FX/$1" "$t"
	for m in ib_core ib_uverbs ib_cm rdma_cm rdma_ucm; do
		mkdir -p "$t/sys/module/$m"
		echo live > "$t/sys/module/$m/initstate"
	done
	mkdir -p "$t/dev/infiniband"
	touch "$t/dev/infiniband/rdma_cm" "$t/dev/infiniband/uverbs0"
	chmod 666 "$t/dev/infiniband/"*
	echo "$t"
}

@test "rdmadoctor local: an OK verdict counts the warnings; each headline names its port; ECN off is congestion control" {
	t=$(doctor_tree upstream)
	RDMADIAG_SYSFS_ROOT=$t RDMADIAG_NL_REPLAY=$FX/dcb-pfc4-noapp.rec run rdmadoctor local
	assert_success
	assert_line "  WARNING  lossless     mlx5_0/1 eth0: RoCE traffic is not lossless (priority link): priority 0 (the APP table has no DSCP entry at all: trust is pcp, DSCP 0 is not looked at)"
	assert_line --regexp '^  WARNING  lossless     mlx5_0/1 eth0: RoCE traffic is not lossless \(pfc link\): PFC off on priority 0'
	# no "no problem found" after warnings: the verdict counts them and names their checks
	n=$(grep -c '^  WARNING ' <<< "$output")
	[ "$n" -ge 2 ]
	assert_line "  no problem that stops a connection found by the host checks; $n warnings above ($(grep '^  WARNING ' <<< "$output" | awk '{ print $2 }' | awk '!s[$0]++' | paste -sd, | sed 's/,/, /g'))"
	refute_output --partial "no problem found by the host checks"
	# ECN off on RoCE's priority: congestion control, not "not lossless"
	t=$(doctor_tree ofed)
	echo 0 > "$t/sys/class/net/eth0/ecn/roce_np/enable/3"
	RDMADIAG_SYSFS_ROOT=$t RDMADIAG_NL_REPLAY=$FX/dcb-pfc3.rec run rdmadoctor local -j
	run jq -r '.. | objects | select(.check? == "lossless" and .cause == "fabric.ecn_off") | .summary' <<< "$output"
	assert_output --regexp '^mlx5_0/1 eth0: congestion control \(ECN\) off on priority 3: '
}
