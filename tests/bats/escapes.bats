#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Text output escapes the control bytes of data: a device named with an escape sequence and a
# newline, and a counter whose name would retitle the terminal, print as \033[2J\n... and
# \033]0;...\007 in rdmastat's and rdmatop's text, never as the raw bytes; JSON keeps the
# real names (escaped by JSON's own rules).
load helper

setup() {
	R=$BATS_TEST_TMPDIR/root
	cp -r "$FIX/sysfs/rxe" "$R"
	IB=$R/sys/class/infiniband
	mv "$IB/rxe0" "$IB/rx"$'\033'"[2J"$'\n'"e0"
	mv "$IB/rxe1/ports/1/hw_counters/send_err" \
		"$IB/rxe1/ports/1/hw_counters/send"$'\033'"]0;pwn"$'\007'"err"
	export RDMADIAG_SYSFS_ROOT=$R
}

# no byte below 0x20 but newline, and no DEL, in the text
clean() {
	! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' <<< "$1" || fail "raw control bytes: $(cat -v <<< "$1")"
}

@test "rdmastat text: snapshot, devices and qp name the device and counter escaped" {
	run rdmastat -a
	assert_success
	clean "$output"
	assert_output --partial 'rx\033[2J\ne0/1: state ACTIVE'
	assert_output --partial 'send\033]0;pwn\007err'
	run rdmastat devices
	assert_success
	clean "$output"
	assert_output --partial 'rx\033[2J\ne0 port 1 ==> veth0'
	# one line per port: the newline in the name did not split it
	[ "$(grep -c '==>' <<< "$output")" -eq 2 ]
}

@test "rdmatop -b text rows escape the name; the table keeps one row per port" {
	run rdmatop -b -n 1
	assert_success
	clean "$output"
	assert_output --partial 'rx\033[2J\ne0'
	[ "$(grep -c ' ACTIVE ' <<< "$output")" -eq 2 ]
}

@test "JSON keeps the real names, escaped as JSON strings" {
	run rdmastat -j
	assert_success
	jq -e '[.[].ifname] | index("rx\u001b[2J\ne0") != null' <<< "$output" > /dev/null
	jq -e '[.[] | keys[]] | index("send\u001b]0;pwn\u0007err") != null' <<< "$output" > /dev/null
}
