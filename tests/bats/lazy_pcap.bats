#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# libpcap (and the eight libraries Debian's libpcap.so.0.8 needs) is loaded only by a capture:
# the tools that never capture do not pay for it at start-up; rdmadump still reads, writes and
# says clearly when libpcap is missing.
load helper

CAP="$FIX/rxe/rxe_sample.pcap"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

@test "no tool and not the library link libpcap" {
	for b in "$ROOT"/lib/librdmadiag.so.0 "$ROOT"/tools/rdmastat/rdmastat "$ROOT"/tools/rdmadump/rdmadump \
		 "$ROOT"/tools/rdmacheck/rdmacheck "$ROOT"/tools/rdmadoctor/rdmadoctor "$ROOT"/tui/rdmatop; do
		[ -x "$b" ] || [ "${b##*/}" = librdmadiag.so.0 ] || continue
		run readelf -d "$b"
		assert_success
		refute_output --partial libpcap
	done
	# and ldd (the whole tree of dependencies) agrees
	run ldd "$ROOT/tools/rdmastat/rdmastat"
	assert_success
	assert_output --partial libc.so.6
	refute_output --partial libpcap
	refute_output --partial libdbus
	refute_output --partial libsystemd
}

@test "rdmastat on a sysfs tree runs without loading libpcap" {
	local tree="$FIX/sysfs/rxe"
	RDMADIAG_SYSFS_ROOT="$tree" run rdmastat --source sysfs -a
	assert_success
	assert_line --index 0 --partial "rxe0/1: state ACTIVE"
	run loaded_libs env RDMADIAG_SYSFS_ROOT="$tree" "$ROOT/tools/rdmastat/rdmastat" --source sysfs -a
	assert_output --partial libc.so.6
	refute_output --partial libpcap
	run loaded_libs "$ROOT/tools/rdmastat/rdmastat" --version
	assert_output --partial libc.so.6
	refute_output --partial libpcap
}

@test "rdmadump loads libpcap when it reads a capture, and decodes it" {
	run loaded_libs "$ROOT/tools/rdmadump/rdmadump" -r "$CAP" -c 1
	assert_output --partial libpcap.so
	run rdmadump -r "$CAP" -c 3
	assert_success
	assert_line --index 0 --partial "RC_SEND_FIRST"
	[ "${#lines[@]}" -eq 3 ]
}

@test "rdmadump -w writes a capture that reads back the same" {
	run rdmadump -r "$CAP" -w "$TMP/out.pcap" -q
	assert_success
	run rdmadump -r "$CAP"
	local want=$output
	run rdmadump -r "$TMP/out.pcap"
	assert_success
	[ "$output" = "$want" ]
}

@test "no libpcap: one clear line and exit 2" {
	RDMADIAG_PCAP_LIB=libpcap-not-here.so.9 run --separate-stderr rdmadump -r "$CAP"
	assert_failure 2
	assert_equal "$stderr" "rdmadump: cannot load libpcap: libpcap-not-here.so.9: cannot open shared object file: No such file or directory"
	[ -z "$output" ]
	RDMADIAG_PCAP_LIB=libpcap-not-here.so.9 run --separate-stderr rdmadump -i lo
	assert_failure 2
	[[ "$stderr" == "rdmadump: cannot load libpcap: libpcap-not-here.so.9: "* ]]
	# a library that is not libpcap: the missing function is named
	RDMADIAG_PCAP_LIB=libz.so.1 run --separate-stderr rdmadump -r "$CAP"
	assert_failure 2
	assert_equal "$stderr" "rdmadump: cannot load libpcap: libz.so.1: no function pcap_activate"
}
