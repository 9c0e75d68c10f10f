#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmacheck without a device (the build host): exit 2 with a one-line explanation; option
# and test-name parsing; --list.  The tests themselves run on real rxe in tests/vm/.
load helper

no_rdma() {
	[ ! -e /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]
}

@test "no RDMA device: exit 2 and one line saying what to check" {
	no_rdma || skip "this machine has RDMA devices"
	run --separate-stderr rdmacheck
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == "rdmacheck: no RDMA device: "* ]]
	[[ $stderr == *"/sys/class/infiniband is "* ]]
	# the things to check: the modules, the uverbs device and its permissions, a container
	# without the device, the memlock limit with its value
	[[ $stderr == *"modules ("*"rdma_rxe"*"ib_uverbs"* ]] || fail "modules: $stderr"
	[[ $stderr == *"/dev/infiniband/uverbs* and its permissions"* ]] || fail "uverbs: $stderr"
	[[ $stderr == *"container started without the device"* ]] || fail "container: $stderr"
	local l
	l=$(ulimit -l)
	[ "$l" = unlimited ] || l="$l KiB"
	[[ $stderr == *"memlock limit (ulimit -l: $l)" ]] || fail "memlock ($l): $stderr"
}

# (an unlimited limit: raising it needs CAP_SYS_RESOURCE, which CI's container lacks, so the
# wording of "unlimited" is checked by tests/unit/test_selftest.c instead)
@test "no RDMA device: the memlock limit is named with its value" {
	no_rdma || skip "this machine has RDMA devices"
	run --separate-stderr bash -c 'ulimit -l 64 && exec rdmacheck'
	[ "$status" -eq 2 ]
	[[ $stderr == *"(ulimit -l: 64 KiB)" ]] || fail "$stderr"
}

@test "no RDMA device: the same with -j, nothing on stdout, and with a named test" {
	no_rdma || skip "this machine has RDMA devices"
	run --separate-stderr rdmacheck -j -d mlx5_0 rnr
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ $stderr == "rdmacheck: no RDMA device: "* ]]
}

@test "--list names the six tests in run order, with descriptions" {
	run rdmacheck --list
	assert_success
	[ "$(printf '%s\n' "$output" | awk '{ print $1 }' | tr '\n' ' ')" = \
		"qp-states gid-sweep rnr alignment access mr-cost " ]
	assert_output --partial "WC 10"
}

@test "--list -j: one JSON object per test" {
	run rdmacheck -j --list
	assert_success
	[ "$(printf '%s\n' "$output" | jq -s 'map(.test) | join(",")' -r)" = \
		"qp-states,gid-sweep,rnr,alignment,access,mr-cost" ]
	[ "$(printf '%s\n' "$output" | jq -s 'map(select(.description | length > 10)) | length')" = 6 ]
}

@test "an unknown test name is a usage error, before any device is looked for" {
	run --separate-stderr rdmacheck qp-states nope
	[ "$status" -eq 2 ]
	[[ $stderr == *"rdmacheck: unknown test 'nope'"* ]]
	[[ $stderr == *"--help"* ]]
}

@test "--max-mem takes K/M/G sizes of at least 4K and rejects the rest" {
	for bad in abc 0 1K -5 12Q 1.5G; do
		run --separate-stderr rdmacheck --max-mem "$bad" mr-cost
		[ "$status" -eq 2 ] || fail "--max-mem $bad: exit $status"
		[[ $stderr == *"invalid size '$bad'"* ]] || fail "--max-mem $bad: $stderr"
	done
	no_rdma || skip "this machine has RDMA devices"
	for good in 4K 64M 1G 1GiB 65536; do
		run --separate-stderr rdmacheck --max-mem "$good" mr-cost
		[[ $stderr == *"no RDMA device"* ]] || fail "--max-mem $good: $stderr"
	done
}

@test "numbers are range-checked: port, GID index, timeout, path MTU" {
	for args in "-p 256" "-p x" "-g 70000" "-g -1" "--timeout 0" "--timeout 1s" \
		"--peer-port 300" "--force-path-mtu 1500" "--force-path-mtu 8192"; do
		run --separate-stderr rdmacheck $args
		[ "$status" -eq 2 ] || fail "$args: exit $status"
		[[ $stderr == *"invalid"* ]] || fail "$args: $stderr"
	done
}

@test "--help lists the tests, the peer option and the fault-injection options" {
	run rdmacheck --help
	assert_success
	# the defaults the library applies (test_selftest checks rd_st_opts_defaults)
	assert_output --regexp "--max-mem SIZE +mr-cost upper size, K/M/G suffixes \(default 256M\)"
	assert_output --regexp "--timeout MS +wait for one completion at most MS \(default 5000\)"
	for w in qp-states gid-sweep rnr alignment access mr-cost --peer --max-mem \
		--force-path-mtu --force-bad-dest-qpn "Exit status"; do
		assert_output --partial -- "$w"
	done
}

@test "bash completion offers test names and the devices option's values" {
	run bash -c "source /usr/share/bash-completion/bash_completion 2>/dev/null
		source '$ROOT/completions/bash/rdmacheck'
		COMP_WORDS=(rdmacheck r); COMP_CWORD=1; COMP_LINE='rdmacheck r'; COMP_POINT=11
		_rdmacheck; printf '%s\n' \"\${COMPREPLY[@]}\""
	assert_success
	assert_output "rnr"
	run bash -c "source /usr/share/bash-completion/bash_completion 2>/dev/null
		source '$ROOT/completions/bash/rdmacheck'
		COMP_WORDS=(rdmacheck --force-path-mtu ''); COMP_CWORD=2
		COMP_LINE='rdmacheck --force-path-mtu '; COMP_POINT=27
		_rdmacheck; printf '%s\n' \"\${COMPREPLY[@]}\""
	assert_output --partial "4096"
}
