#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# libibverbs and librdmacm (and libnl, which they pull in) are loaded only by what opens a
# device or an rdma_cm id (lib/verbs/verbs_dl.c): rdmastat, rdmatop and rdmadump do not pay
# for them at start-up; rdmacheck loads libibverbs and says clearly when it is missing.
# (rdmadoctor's attempt and listen: tests/unit/test_verbs_dl.c; they need a device first.)
load helper

setup() {
	TMP=$(mktemp -d)
	unset RDMADIAG_IBVERBS_LIB RDMADIAG_RDMACM_LIB
}

teardown() {
	rm -rf "$TMP"
}

@test "neither the library nor a tool links libibverbs or librdmacm" {
	for b in "$ROOT"/lib/librdmadiag.so.0 "$ROOT"/tools/rdmastat/rdmastat "$ROOT"/tools/rdmadump/rdmadump \
		 "$ROOT"/tools/rdmacheck/rdmacheck "$ROOT"/tools/rdmadoctor/rdmadoctor "$ROOT"/tui/rdmatop; do
		[ -e "$b" ] || continue
		run readelf -d "$b"
		assert_success
		refute_output --partial libibverbs
		refute_output --partial librdmacm
	done
	# no symbol of theirs is left for the dynamic loader to bind
	run nm -D --undefined-only "$ROOT/lib/librdmadiag.so.0"
	assert_success
	assert_output --partial mnl_socket_open
	refute_output --regexp '(^| )_?(ibv|rdma)_'
	# and ldd (the whole tree of dependencies) agrees
	run ldd "$ROOT/tools/rdmastat/rdmastat"
	assert_success
	assert_output --partial libc.so.6
	refute_output --partial libibverbs
	refute_output --partial librdmacm
	refute_output --partial libnl
}

@test "rdmastat and rdmatop run without loading libibverbs or librdmacm" {
	local tree="$FIX/sysfs/rxe"
	run loaded_libs env RDMADIAG_SYSFS_ROOT="$tree" "$ROOT/tools/rdmastat/rdmastat" --source sysfs -a
	assert_output --partial libc.so.6
	refute_output --partial libibverbs
	refute_output --partial librdmacm
	run loaded_libs "$ROOT/tools/rdmastat/rdmastat" --version
	assert_output --partial libc.so.6
	refute_output --partial libibverbs
	run loaded_libs env RDMADIAG_SYSFS_ROOT="$tree" "$ROOT/tui/rdmatop" -b -n 1
	assert_output --partial libc.so.6
	refute_output --partial libibverbs
	refute_output --partial librdmacm
}

@test "rdmacheck loads libibverbs (not librdmacm) for its environment check" {
	run loaded_libs "$ROOT/tools/rdmacheck/rdmacheck"
	assert_output --partial libibverbs.so.1
	refute_output --partial librdmacm
	run loaded_libs "$ROOT/tools/rdmacheck/rdmacheck" --list
	refute_output --partial libibverbs
}

@test "no libibverbs: rdmacheck says so in one line and exits 2" {
	RDMADIAG_IBVERBS_LIB=libibverbs-not-here.so.9 run --separate-stderr rdmacheck
	assert_failure 2
	assert_equal "$stderr" "rdmacheck: cannot load libibverbs: libibverbs-not-here.so.9: cannot open shared object file: No such file or directory"
	[ -z "$output" ]
	# the same with -j and a named test: nothing on stdout
	RDMADIAG_IBVERBS_LIB=libibverbs-not-here.so.9 run --separate-stderr rdmacheck -j rnr
	assert_failure 2
	[ -z "$output" ]
	[[ "$stderr" == "rdmacheck: cannot load libibverbs: libibverbs-not-here.so.9: "* ]]
	# a library that is not libibverbs: the missing function is named, with its version
	RDMADIAG_IBVERBS_LIB=libz.so.1 run --separate-stderr rdmacheck
	assert_failure 2
	assert_equal "$stderr" "rdmacheck: cannot load libibverbs: libz.so.1: no function ibv_alloc_pd@IBVERBS_1.1"
	# --list needs no library at all
	RDMADIAG_IBVERBS_LIB=libibverbs-not-here.so.9 run rdmacheck --list
	assert_success
	assert_output --partial qp-states
}
