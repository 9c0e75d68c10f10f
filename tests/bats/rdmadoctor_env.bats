#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadoctor env on sysfs fixture trees: the GID index is the one gid_attrs/types calls
# "RoCE v2" for the address (never the v1 twin, never a link-local fe80:: entry), the traffic
# class is configfs' default_roce_tos, and the text is shell that sets the variables.
load helper

MLX=$FIX/sysfs/mlx5
PORT=sys/class/infiniband/mlx5_0/ports/1

# the index whose GID encodes IPv4 $2 and whose type is "RoCE v2", from the tree $1 itself
v2_index_of() {
	local hex i
	hex=$(printf '%02x%02x:%02x%02x' $(tr . ' ' <<< "$2"))
	for i in $(ls "$1/$PORT/gid_attrs/types"); do
		grep -q "ffff:$hex\$" "$1/$PORT/gids/$i" 2>/dev/null &&
			[ "$(cat "$1/$PORT/gid_attrs/types/$i")" = "RoCE v2" ] && echo "$i"
	done
	return 0
}

copy() { T=$BATS_TEST_TMPDIR/root; cp -r "$MLX" "$T"; }

@test "mlx5: the RoCE v2 GID index of the address, by default, by address and by netdev" {
	want=$(v2_index_of "$MLX" 10.0.0.1)
	[ -n "$want" ]
	for arg in "" 10.0.0.1 enp65s0f0; do
		RDMADIAG_SYSFS_ROOT=$MLX run rdmadoctor -j env $arg
		assert_success
		[ "$(jq -r .gid_index <<< "$output")" = "$want" ] || fail "env $arg: $output"
		[ "$(jq -r .vars.NCCL_IB_GID_INDEX <<< "$output")" = "$want" ]
		[ "$(jq -r .vars.UCX_IB_GID_INDEX <<< "$output")" = "$want" ]
		[ "$(jq -r .vars.FI_VERBS_GID_IDX <<< "$output")" = "$want" ]
		[ "$(jq -r .addr <<< "$output")" = 10.0.0.1 ]
	done
	# the same address has a RoCE v1 entry too: that one is not it
	[ "$(cat "$MLX/$PORT/gid_attrs/types/$((want - 1))")" = "IB/RoCE v1" ]
}

@test "the text is shell: eval sets every variable of the JSON" {
	RDMADIAG_SYSFS_ROOT=$MLX run rdmadoctor env
	assert_success
	assert_line --index 0 --regexp "^# mlx5_0 port 1, netdev enp65s0f0, 10.0.0.1: GID index 3 \(RoCE v2, .*\), traffic class 0 \(no configfs group: rdma_cm's default\)$"
	eval "$output"
	json=$(RDMADIAG_SYSFS_ROOT=$MLX rdmadoctor -j env)
	n=0
	for k in $(jq -r '.vars | keys[]' <<< "$json"); do
		[ "${!k}" = "$(jq -r ".vars.$k" <<< "$json")" ] || fail "$k=${!k}"
		n=$((n + 1))
	done
	[ "$n" -eq 11 ]
	[ "$NCCL_IB_HCA" = mlx5_0:1 ] && [ "$UCX_NET_DEVICES" = mlx5_0:1 ]
	[ "$NCCL_SOCKET_IFNAME" = enp65s0f0 ] && [ "$FI_VERBS_IFACE" = enp65s0f0 ]
	[ "$FI_PROVIDER" = verbs ]
}

@test "--for picks one library's variables" {
	RDMADIAG_SYSFS_ROOT=$MLX run rdmadoctor -j --for ucx env
	assert_success
	[ "$(jq -c '.vars | keys' <<< "$output")" = '["UCX_IB_GID_INDEX","UCX_IB_TRAFFIC_CLASS","UCX_NET_DEVICES"]' ]
	RDMADIAG_SYSFS_ROOT=$MLX run rdmadoctor env --for libfabric
	assert_success
	refute_line --partial NCCL_
	assert_line "export FI_VERBS_GID_IDX=3"
	run --separate-stderr rdmadoctor env --for mpi
	assert_failure 2
	[ "$stderr" = "rdmadoctor: bad --for 'mpi' (nccl, ucx, libfabric or all)"$'\n'"Try 'rdmadoctor --help' for more information." ]
}

@test "the traffic class and RoCE mode come from configfs when its group exists" {
	copy
	c=$T/sys/kernel/config/rdma_cm/mlx5_0/ports/1
	mkdir -p "$c"
	echo 106 > "$c/default_roce_tos"
	echo "RoCE v2" > "$c/default_roce_mode"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j env
	assert_success
	[ "$(jq -c '[.tos, .tos_from_configfs, .roce_mode, .vars.NCCL_IB_TC, .vars.UCX_IB_TRAFFIC_CLASS]' <<< "$output")" = '[106,true,"RoCE v2","106","106"]' ]
}

@test "the link-local RoCE v2 entry at index 0 is never the one (rxe)" {
	[ "$(cut -c1-4 "$FIX/sysfs/rxe/sys/class/infiniband/rxe1/ports/1/gids/0")" = fe80 ]
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/rxe run rdmadoctor -j env veth1
	assert_success
	[ "$(jq -r .gid_index <<< "$output")" = 1 ]
	[ "$(jq -r .addr <<< "$output")" = 198.18.0.2 ]
}

@test "an address with only a RoCE v1 GID is a finding (exit 1) that says so" {
	copy
	want=$(v2_index_of "$T" 10.0.0.1)
	echo "IB/RoCE v1" > "$T/$PORT/gid_attrs/types/$want"
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j env 10.0.0.1
	assert_failure 1
	[ "$stderr" = "rdmadoctor: env: mlx5_0/1 has no RoCE v2 GID of 10.0.0.1 (only RoCE v1 or link-local entries): its jobs would fall back to GID index 0" ]
	[ "$(jq -r '.vars // "absent"' <<< "$output")" = absent ]
}

@test "nothing RDMA answers to the argument: exit 2 with one line" {
	RDMADIAG_SYSFS_ROOT=$MLX run --separate-stderr rdmadoctor env 10.9.9.9
	assert_failure 2
	[ "$stderr" = "rdmadoctor: env: no RDMA port's netdev has the address 10.9.9.9 (no GID carries it)" ]
	RDMADIAG_SYSFS_ROOT=$MLX run --separate-stderr rdmadoctor env eth7
	assert_failure 2
	[ "$stderr" = "rdmadoctor: env: no RDMA port on a netdev named 'eth7'" ]
	mkdir -p "$BATS_TEST_TMPDIR/empty/sys/class/infiniband"
	RDMADIAG_SYSFS_ROOT=$BATS_TEST_TMPDIR/empty run --separate-stderr rdmadoctor env
	assert_failure 2
	[[ "$stderr" == "rdmadoctor: env: no RDMA device under "* ]]
	run --separate-stderr rdmadoctor env a b
	assert_failure 2
}

@test "--hosts: a GID index that differs across the other hosts' local -j is a warning, exit 1" {
	H=$BATS_TEST_TMPDIR/hosts
	"$FIX/doctor-compare/mkhosts.sh" "$H" 20
	cat "$H"/*.json > "$BATS_TEST_TMPDIR/all.jsonl"
	RDMADIAG_SYSFS_ROOT=$MLX run --separate-stderr rdmadoctor env --for ucx --hosts "$BATS_TEST_TMPDIR/all.jsonl"
	assert_failure 1
	assert_line --index 1 "# WARNING: the GID index of mlx5_0/1 is not the same on every host (here 3; on the 20 hosts of $BATS_TEST_TMPDIR/all.jsonl: 3 on 19, host-0017=1): a job-wide GID index is wrong on some of them; set it per host, eval \"\$(rdmadoctor env)\" in the job's prologue"
	assert_line "export UCX_IB_GID_INDEX=3"
	[ "$stderr" = "rdmadoctor: warning: env: the GID index of mlx5_0/1 differs across the hosts of $BATS_TEST_TMPDIR/all.jsonl (see the output)" ]
	# the same hosts without host-0017, on stdin: all agree with this host, exit 0
	grep -hv host-0017 "$H"/*.json > "$BATS_TEST_TMPDIR/agree.jsonl"
	RDMADIAG_SYSFS_ROOT=$MLX run --separate-stderr rdmadoctor -j env --hosts - < "$BATS_TEST_TMPDIR/agree.jsonl"
	assert_success
	[ "$(jq -c .gid_index_hosts <<< "$output")" = '{"hosts":19,"majority":"3","majority_hosts":19,"differ":[],"differ_from_here":false}' ]
	# this host alone differs from the others
	sed 's/"gid_index":3/"gid_index":5/' "$BATS_TEST_TMPDIR/agree.jsonl" > "$BATS_TEST_TMPDIR/other.jsonl"
	RDMADIAG_SYSFS_ROOT=$MLX run --separate-stderr rdmadoctor -j env --hosts "$BATS_TEST_TMPDIR/other.jsonl"
	assert_failure 1
	[ "$(jq -c '.gid_index_hosts | [.majority, .differ_from_here]' <<< "$output")" = '["5",true]' ]
	RDMADIAG_SYSFS_ROOT=$MLX run --separate-stderr rdmadoctor env --hosts /nonexistent
	assert_failure 2
	[ "$stderr" = "rdmadoctor: cannot open '/nonexistent': No such file or directory" ]
}
