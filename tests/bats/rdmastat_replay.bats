#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat's netlink parsing on replies recorded from the real kernel (Debian 6.1, rdma_rxe,
# in the QEMU tier: tests/vm/guest/20-rdmastat.sh writes them with --nl-record), checked
# against what iproute2's rdma printed at the same moment; plus malformed variants of those
# real replies (truncated, NLMSG_ERROR EPERM/EOPNOTSUPP).  tests/fixtures/netlink/README.
load helper

NL=$FIX/netlink

setup() {
	TMP=$(mktemp -d)
	# no sysfs from this machine: only the recording speaks
	export RDMADIAG_SYSFS_ROOT=$TMP/nosysfs
}
teardown() {
	rm -rf "$TMP"
}

flat='.[] | select(.port != null) as $o | to_entries[]
	| select(.key != "ifname" and .key != "port" and .key != "errors")
	| "\($o.ifname)/\($o.port) \(.key) \(.value)"'

@test "the recordings come from the real kernel: both rxe devices, no stray lines" {
	for f in "$NL"/rxe-*.rec; do
		run grep -cvE '^(#.*|req [0-9a-f]+|rep [0-9a-f]+)$' "$f"
		assert_output 0
	done
	grep -q "$(printf 'rxe0' | xxd -p)" "$NL/rxe-stat.rec"
	grep -q "$(printf 'rxe1' | xxd -p)" "$NL/rxe-stat.rec"
}

@test "replayed STAT_GET: rdmastat -j equals rdma -j statistic show, counter by counter" {
	RDMADIAG_NL_REPLAY=$NL/rxe-stat.rec run rdmastat -j --source netlink
	assert_success
	ours=$(jq -r "$flat" <<< "$output" | sort)
	theirs=$(jq -r "$flat" "$NL/rxe-stat.rdma.json" | sort)
	[ -n "$theirs" ]
	[ "$ours" = "$theirs" ] || fail "$(diff <(echo "$theirs") <(echo "$ours"))"
	[ "$(jq -r '.[0] | keys_unsorted[0:2] | join(",")' <<< "$output")" = "ifname,port" ]
}

@test "replayed STAT_GET: text, CSV and Prometheus from the same replies" {
	export RDMADIAG_NL_REPLAY=$NL/rxe-stat.rec
	run rdmastat --source netlink
	assert_success
	assert_line --regexp '^rxe0/1$'
	assert_line --regexp "^    sent_pkts +$(jq '.[] | select(.ifname == "rxe0") | .sent_pkts' "$NL/rxe-stat.rdma.json")  tx_packets$"
	run rdmastat --source netlink --csv
	assert_success
	assert_line --regexp "^rxe1,1,rcvd_pkts,$(jq '.[] | select(.ifname == "rxe1") | .rcvd_pkts' "$NL/rxe-stat.rdma.json"),rx_packets,packets,netlink,$"
	run rdmastat --source netlink --prom
	assert_success
	assert_line --partial 'rdma_port_sent_pkts_total{device="rxe0",port="1",counter="sent_pkts",concept="tx_packets"}'
}

@test "replayed -i: repeated requests reuse the recording (zero deltas, valid)" {
	RDMADIAG_NL_REPLAY=$NL/rxe-stat.rec run rdmastat --source netlink -i 0.05 -n 2 -a -j rxe0/1 sent_pkts
	assert_success
	[ "$(jq -r '"\(.counters.sent_pkts.state) \(.counters.sent_pkts.delta)"' <<< "$output" | sort -u)" = "valid 0" ]
}

@test "replayed device and port enumeration: netdev, ifindex, state, protocol, counter mode" {
	RDMADIAG_NL_REPLAY=$NL/rxe-devices.rec run rdmastat devices -j
	assert_success
	ours=$(jq -c '[.[] | {ifname, protocol, p: [.ports[] | {port, state, physical_state, netdev, netdev_index, counter_mode}]}]' <<< "$output")
	theirs=$(jq -c '[.[] | {ifname, protocol, p: [.ports[] | {port, state, physical_state, netdev, netdev_index, counter_mode}]}]' "$NL/rxe-devices.json")
	[ "$ours" = "$theirs" ] || fail "$ours != $theirs"
	[ "$(jq -r '.[0].ports[0].counter_mode' <<< "$output")" != null ]
}

@test "replayed RES_QP_GET: the pingpong QPs as rdma res show qp listed them" {
	RDMADIAG_NL_REPLAY=$NL/rxe-qp.rec run rdmastat qp -j
	assert_success
	ours=$(jq -r '.[] | "\(.ifname) \(.lqpn) \(.type) \(.state) \(.pid // "-") \(.rqpn // "-")"' <<< "$output" | sort)
	theirs=$(jq -r '.[] | "\(.ifname) \(.lqpn) \(.type) \(.state) \(.pid // "-") \(.rqpn // "-")"' "$NL/rxe-qp.rdma.json" | sort)
	[ "$ours" = "$theirs" ] || fail "$(diff <(echo "$theirs") <(echo "$ours"))"
	[ "$(jq '[.[] | select(.type == "RC" and .state == "RTS")] | length' <<< "$output")" = 2 ]
	# the kernel QP's owner is named by the kernel; a recorded user pid is not looked up here
	[ "$(jq -r '.[] | select(.type == "GSI") | .comm' <<< "$output" | sort -u)" = ib_core ]
}

@test "replayed RES_CM_ID_GET: the listening rping" {
	RDMADIAG_NL_REPLAY=$NL/rxe-cm.rec run rdmastat cm -j
	assert_success
	[ "$(jq -r '.[] | select(.state == "LISTEN") | "\(.ifname) \(.ps) \(.src)"' <<< "$output")" = "rxe1 TCP 198.18.0.2:7330" ]
	[ "$(jq -r '.[0].pid' <<< "$output")" = "$(jq -r '.[0].pid' "$NL/rxe-cm.json")" ]
}

# the real recording with its STAT_GET reply for rxe0 replaced: REP is the hex to put there
mangle() {	# FILE-OUT HEX-OR-"truncate"
	awk -v rep="$2" '
		/^req / { stat = (substr($2, 9, 4) == "1114") }
		/^rep / && stat && !done { done = 1
			if (rep == "truncate") { print "rep " substr($2, 1, length($2) - 64); next }
			print "rep " rep; next }
		{ print }' "$NL/rxe-stat.rec" > "$1"
}
# NLMSG_ERROR carrying -errno, little-endian, as the kernel sends it
nlerr() {	# ERRNO
	local e=$(( (1 << 32) - $1 ))
	printf '24000000020000000000000000000000%02x%02x%02x%02x20000000111405000000000000000000' \
		$((e & 255)) $(((e >> 8) & 255)) $(((e >> 16) & 255)) $(((e >> 24) & 255))
}

@test "a real reply cut short is an error naming the truncation, exit 2" {
	mangle "$TMP/trunc.rec" truncate
	RDMADIAG_NL_REPLAY=$TMP/trunc.rec run --separate-stderr rdmastat -j --source netlink
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"truncated netlink reply"* ]] || fail "$stderr"
}

@test "NLMSG_ERROR EPERM / EOPNOTSUPP: said plainly with --source netlink; auto falls back to sysfs" {
	mangle "$TMP/eperm.rec" "$(nlerr 1)"
	RDMADIAG_NL_REPLAY=$TMP/eperm.rec run --separate-stderr rdmastat -j --source netlink
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"Operation not permitted"* ]] || fail "$stderr"
	mangle "$TMP/eopnotsupp.rec" "$(nlerr 95)"
	RDMADIAG_NL_REPLAY=$TMP/eopnotsupp.rec run --separate-stderr rdmastat -j --source netlink
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"Operation not supported"* ]] || fail "$stderr"
	# auto: rxe0's port comes from sysfs (the fixture tree), rxe1's from the recording
	export RDMADIAG_SYSFS_ROOT=$FIX/sysfs/rxe
	RDMADIAG_NL_REPLAY=$TMP/eperm.rec run rdmastat -j
	assert_success
	[ "$(jq '.[] | select(.ifname == "rxe0") | .sent_pkts' <<< "$output")" = \
		"$(cat "$FIX/sysfs/rxe/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts")" ]
	[ "$(jq '.[] | select(.ifname == "rxe1") | .sent_pkts' <<< "$output")" = \
		"$(jq '.[] | select(.ifname == "rxe1") | .sent_pkts' "$NL/rxe-stat.rdma.json")" ]
}

@test "a recording that does not hold the request, or is not a recording, is exit 2" {
	printf '# empty\n' > "$TMP/empty.rec"
	RDMADIAG_NL_REPLAY=$TMP/empty.rec run --separate-stderr rdmastat -j --source netlink
	[ "$status" -eq 2 ]
	printf 'hello\n' > "$TMP/junk.rec"
	RDMADIAG_NL_REPLAY=$TMP/junk.rec run --separate-stderr rdmastat -j
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"line 1: expected 'req HEX' or 'rep HEX'"* ]] || fail "$stderr"
}
