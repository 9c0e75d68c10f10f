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
