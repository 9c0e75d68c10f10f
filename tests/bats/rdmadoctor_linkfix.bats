#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadoctor's port finding on a RoCE port that is not ACTIVE: a netdev that is down is
# brought up, but one that is up without a carrier (the port POLLING for a link partner) can
# only be fixed at the other end of the cable.  Fixture trees from tests/fixtures/sysfs/broken
# (mlx5_1/1 on enp65s0f1, DOWN); the real kernel's case is tests/vm/guest/54-doctor-linkdown.sh.
load helper

# the broken tree with port phys_state $1 and netdev flags $2 and carrier $3 ("" = no file)
tree() {
	T=$BATS_TEST_TMPDIR/root
	cp -r "$FIX/sysfs/broken" "$T"
	local port=$T/sys/class/infiniband/mlx5_1/ports/1 net=$T/sys/class/net/enp65s0f1
	echo "$1" > "$port/phys_state"
	echo "$2" > "$net/flags"
	[ -z "$3" ] || echo "$3" > "$net/carrier"
}

port_finding() {
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	assert_failure 1
	jq -c '.findings[] | select(.check == "port" and .subject == "mlx5_1/1")' <<< "$output"
}

@test "up without carrier (POLLING): the link partner, cable or switch port is down" {
	tree "2: Polling" 0x1003 0
	f=$(port_finding)
	[ "$(jq -r .cause <<< "$f")" = port_not_active ]
	[[ "$(jq -r .hint <<< "$f")" == "the link partner, cable or switch port is down: enp65s0f1 is up but has no carrier;"* ]]
	jq -r '.evidence[]' <<< "$f" | grep -qx "netdev enp65s0f1 is administratively up (flags 0x1003) with carrier 0"
	[[ "$(jq -r .hint <<< "$f")" != *"ip link set"* ]]
}

@test "POLLING with no readable carrier is still the far end's link" {
	tree "2: Polling" 0x1003 ""
	f=$(port_finding)
	[[ "$(jq -r .hint <<< "$f")" == "the link partner, cable or switch port is down:"* ]]
}

@test "administratively down (DISABLED): bring the netdev up" {
	tree "3: Disabled" 0x1002 ""
	f=$(port_finding)
	[ "$(jq -r .hint <<< "$f")" = "bring the netdev enp65s0f1 up and check its carrier: ip link set enp65s0f1 up; ip link show enp65s0f1" ]
}
