#!/usr/bin/env bats
# rdmadoctor CLI on this host (which may have no RDMA device) and on sysfs fixture trees.
# The real rdma_cm behaviour is tested in the real-kernel tier (tests/vm/guest/5x-doctor-*.sh).
load helper

setup() {
	EMPTY=$BATS_TEST_TMPDIR/empty
	mkdir -p "$EMPTY/sys/class/infiniband"
}

@test "no RDMA device: local exits 2 and explains why (fake empty sysfs)" {
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor local
	[ "$status" -eq 2 ]
	assert_output --partial "PROBLEM  devices      no RDMA device on this host"
	assert_output --partial "verdict: PROBLEM [layer host] cause=no_rdma_device"
	[[ "$stderr" == "rdmadoctor: cannot run: there is no RDMA device on this host; load the RDMA driver"* ]]
}

@test "no RDMA device: connect exits 2 before any attempt, JSON names the cause" {
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -j connect 198.18.0.2:7471
	[ "$status" -eq 2 ]
	[ "$(jq -r .verdict.cause <<< "$output")" = no_rdma_device ]
	[ "$(jq -r 'has("steps")' <<< "$output")" = false ]
	[ "$(jq -r '.findings[0].check + " " + .findings[0].level' <<< "$output")" = "devices problem" ]
	[[ "$stderr" == *"cannot run"* ]]
}

@test "no RDMA device: listen exits 2 with the explanation" {
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor listen :7471
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot run: there is no RDMA device"* ]]
}

@test "this host without RDMA devices: exit 2 (skipped where devices exist)" {
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] || skip "this host has RDMA devices"
	run --separate-stderr rdmadoctor local
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"no RDMA device"* ]]
}

@test "a DOWN port in a fixture tree is a problem finding with its fix" {
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/broken run rdmadoctor -j local
	[ "$status" -eq 1 ]
	f=$(jq -c '.findings[] | select(.check == "port")' <<< "$output")
	[ "$(jq -r .level <<< "$f")" = problem ]
	[ "$(jq -r .cause <<< "$f")" = port_not_active ]
	[ "$(jq -r .subject <<< "$f")" = mlx5_1/1 ]
	[[ "$(jq -r .hint <<< "$f")" == *"ip link set enp65s0f1 up"* ]]
	# link-local only GID table: a warning with its own cause
	[ "$(jq -r '.findings[] | select(.check == "gid") | .cause' <<< "$output")" = gid_link_local_only ]
}

@test "text output hides passed checks unless -v" {
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/rxe run rdmadoctor local
	refute_output --partial "  ok       "
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/rxe run rdmadoctor -v local
	assert_output --regexp "  ok +devices +[0-9]+ RDMA device"
}

@test "usage errors exit 2 with a hint" {
	for args in "" "frobnicate" "connect" "connect 1.2.3.4 5.6.7.8" "connect 1.2.3.4:99999" \
		"connect 1.2.3.4:0" "connect [::1" "--timeout 0 connect 1.2.3.4" \
		"--timeout abc connect 1.2.3.4" "--ps udp connect 1.2.3.4" "--count x listen" \
		"local extra" "listen a b"; do
		run --separate-stderr rdmadoctor $args
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[[ "$stderr" == rdmadoctor:* ]] || fail "'$args': $stderr"
	done
}

@test "--help names the three commands and the exit codes" {
	run rdmadoctor --help
	assert_success
	assert_output --partial "connect DST[:PORT]"
	assert_output --partial "listen [ADDR][:PORT]"
	assert_output --partial "local"
	assert_output --partial "2 usage error or the doctor cannot run"
}

@test "InfiniBand: a port stuck in INIT without an SM LID is named; EFA (no SM) is not" {
	T=$BATS_TEST_TMPDIR/ib
	cp -r "$FIX/sysfs/hfi1" "$T"
	P=$T/sys/class/infiniband/hfi1_0/ports/1
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j -v local
	[ "$(jq -r '.findings[] | select(.check == "port") | .level' <<< "$output")" = ok ]
	echo "2: INIT" > "$P/state"
	echo "0x0" > "$P/sm_lid"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$status" -eq 1 ]
	f=$(jq -c '.findings[] | select(.check == "port")' <<< "$output")
	[ "$(jq -r .cause <<< "$f")" = ib_no_sm ]
	[[ "$(jq -r .summary <<< "$f")" == *"stuck in INIT"* ]]
	[[ "$(jq -r .hint <<< "$f")" == *"subnet manager"* ]]
	echo "4: ACTIVE" > "$P/state"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[[ "$(jq -r '.findings[] | select(.check == "port") | .summary' <<< "$output")" == *"no SM LID"* ]]
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/efa run rdmadoctor -j -v local
	[ "$(jq -r '.findings[] | select(.check == "port") | .level' <<< "$output")" = ok ]
}

@test "RoCE: a GID table whose IP GIDs are all v1 is a warning of its own" {
	T=$BATS_TEST_TMPDIR/v1
	cp -r "$FIX/sysfs/rxe" "$T"
	G=$T/sys/class/infiniband/rxe0/ports/1/gid_attrs/types
	for f in "$G"/*; do echo "IB/RoCE v1" > "$f"; done
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$(jq -r '.findings[] | select(.check == "gid" and .subject == "rxe0/1") | .cause' <<< "$output")" = gid_roce_v1_only ]
	[ "$(jq -r '.findings[] | select(.check == "gid" and .subject == "rxe1/1") | .level' <<< "$output")" = ok ]
}
