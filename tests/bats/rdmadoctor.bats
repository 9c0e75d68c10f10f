#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadoctor CLI on this host (which may have no RDMA device) and on sysfs fixture trees.
# The real rdma_cm behaviour is tested in the real-kernel tier (tests/vm/guest/5x-doctor-*.sh).
load helper

setup() {
	EMPTY=$BATS_TEST_TMPDIR/empty
	mkdir -p "$EMPTY/sys/class/infiniband"
	PUBLIC=
}

teardown() {
	[ -z "$PUBLIC" ] || rm -rf "$PUBLIC"
}

# ---- fake roots: RDMADIAG_SYSFS_ROOT also roots /sys/module, /sys/kernel/config,
# /dev/infiniband and /lib/modules for the doctor's checks ----

# the rxe fixture (rxe0 on veth0 198.18.0.1, rxe1 on veth1 198.18.0.2) plus the five RDMA core
# modules loaded and /dev/infiniband/rdma_cm, uverbs0, uverbs1 (plain files, rw for all)
fakeroot() {
	local t=$1 m
	cp -r "$FIX/sysfs/rxe" "$t"
	for m in ib_core ib_uverbs ib_cm rdma_cm rdma_ucm; do
		mkdir -p "$t/sys/module/$m"
		echo live > "$t/sys/module/$m/initstate"
	done
	mkdir -p "$t/dev/infiniband"
	touch "$t/dev/infiniband/rdma_cm" "$t/dev/infiniband/uverbs0" "$t/dev/infiniband/uverbs1"
	chmod 666 "$t/dev/infiniband/"*
}

# fakeroot T, with rxe0 bound to lo (which exists everywhere): its GIDs name lo, and the
# IPv4-mapped GID carries 127.0.0.1, so a connect to 127.0.0.1 takes rxe0/1 as its port
lofix() {
	local t=$1 n
	fakeroot "$t"
	P0=$t/sys/class/infiniband/rxe0/ports/1
	for n in "$P0"/gid_attrs/ndevs/*; do echo lo > "$n"; done
	echo lo > "$t/sys/class/infiniband/rxe0/parent"
	sed -i 's/c612:0001$/7f00:0001/' "$P0/gids/1"
}

# fwnft T RULESET: T (a fixture root) gets a fake usr/sbin/nft that prints
# tests/fixtures/doctor-fw/RULESET.json: the firewall check looks for nft under the root
fwnft() {
	mkdir -p "$1/usr/sbin"
	printf '#!/bin/sh\ncat "%s"\n' "$FIX/doctor-fw/$2.json" > "$1/usr/sbin/nft"
	chmod +x "$1/usr/sbin/nft"
}

# fwlocal T RULESET: rdmadoctor -j local on the fixture root T with that ruleset (fwnft);
# f is its firewall finding
fwlocal() {
	fwnft "$1" "$2"
	RDMADIAG_SYSFS_ROOT=$1 run --separate-stderr rdmadoctor -j local
	f=$(finding firewall)
}

# finding CHECK [SUBJECT] of the JSON in $output, compact
finding() {
	jq -c --arg c "$1" --arg s "${2:-}" \
		'[.findings[] | select(.check == $c and ($s == "" or .subject == $s))][0]' <<< "$output"
}

# every warning or problem finding carries a fix hint, and a failed verdict a next step
hinted() {
	local bare
	bare=$(jq -r '.findings[] | select((.level == "warning" or .level == "problem") and
		((.hint // "") == "")) | "\(.check) \(.subject): \(.summary)"' <<< "$output")
	[ -z "$bare" ] || fail "findings without a fix hint: $bare"
	[ "$(jq -r '.verdict.ok or (.verdict.next // "") != ""' <<< "$output")" = true ] ||
		fail "a failed verdict without a next step"
}

@test "the commands: a missing or unknown one is a usage error naming every command" {
	run rdmadoctor
	assert_failure 2
	assert_output "rdmadoctor: missing command (connect, paths, listen, local, explain, env or compare)
Try 'rdmadoctor --help' for more information."
	run rdmadoctor -j frobnicate
	assert_failure 2
	assert_output "rdmadoctor: unknown command 'frobnicate' (connect, paths, listen, local, explain, env or compare)
Try 'rdmadoctor --help' for more information."
	# a command's own arguments are checked by the command
	run rdmadoctor local extra
	assert_failure 2
	assert_line --index 0 "rdmadoctor: local takes no argument"
	run rdmadoctor connect
	assert_failure 2
	assert_line --index 0 "rdmadoctor: usage: connect DST[:PORT]"
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
	hinted
	f=$(jq -c '.findings[] | select(.check == "port")' <<< "$output")
	[ "$(jq -r .level <<< "$f")" = problem ]
	[ "$(jq -r .cause <<< "$f")" = port_not_active ]
	[ "$(jq -r .subject <<< "$f")" = mlx5_1/1 ]
	[[ "$(jq -r .hint <<< "$f")" == *"ip link set enp65s0f1 up"* ]]
	# link-local only GID table: a warning with its own cause
	[ "$(jq -r '.findings[] | select(.check == "gid") | .cause' <<< "$output")" = gid_link_local_only ]
}

@test "connect: an egress port that is not ACTIVE is the verdict at once, without an attempt" {
	[ -e /sys/class/net/lo ] || skip "no lo here"
	T=$BATS_TEST_TMPDIR/lo
	lofix "$T"
	echo "1: DOWN" > "$P0/state"
	echo "3: Disabled" > "$P0/phys_state"
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect 127.0.0.1 -s 127.0.0.1
	[ "$status" -eq 1 ]
	[ "$(jq -r '"\(.verdict.cause) \(.verdict.layer)"' <<< "$output")" = "port_not_active link" ]
	[ "$(jq -r .attempt_skipped <<< "$output")" = "port rxe0/1 is not ACTIVE: rdma_connect through it could only fail or time out" ]
	[ "$(jq -r '.steps | length' <<< "$output")" = 0 ]
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor connect 127.0.0.1 -s 127.0.0.1
	assert_output --partial $'attempt\n  skipped: port rxe0/1 is not ACTIVE'
}

@test "connect: a host name is resolved (getaddrinfo), shown with its address; one that is not, exit 2" {
	[ -e /sys/class/net/lo ] || skip "no lo here"
	addr=$(getent ahostsv4 localhost | awk '{ print $1; exit }')
	[ "$addr" = 127.0.0.1 ] || skip "localhost is not 127.0.0.1 here"
	T=$BATS_TEST_TMPDIR/lo
	lofix "$T"
	echo "1: DOWN" > "$P0/state"	# the verdict comes before any attempt
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect localhost:7400 -s 127.0.0.1
	[ "$status" -eq 1 ]
	[ "$(jq -r '"\(.dst) \(.dst_addr) \(.port) \(.verdict.cause)"' <<< "$output")" = \
		"localhost 127.0.0.1 7400 port_not_active" ]
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor connect localhost -s 127.0.0.1
	assert_line --index 0 "connect localhost (127.0.0.1) port 7471 from 127.0.0.1 (port space TCP, timeout 8000 ms, resolve 2000 ms)"
	# a literal address has no dst_addr (rdmadiag(7): absent when it does not apply)
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect 127.0.0.1 -s 127.0.0.1
	[ "$(jq -r 'has("dst_addr")' <<< "$output")" = false ]
	run --separate-stderr rdmadoctor connect no-such-host.invalid
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ $stderr == "rdmadoctor: cannot resolve destination 'no-such-host.invalid': "* ]] || fail "$stderr"
	[ "$(wc -l <<< "$stderr")" = 1 ]
}

# side_channel DESCRIPTION: a TCP server on 127.0.0.1 (a free port, in $SIDE_PORT) that
# answers one connection with DESCRIPTION, as 'rdmadoctor listen' does; $SIDE_PID
side_channel() {
	local pf=$BATS_TEST_TMPDIR/side.port
	rm -f "$pf"
	python3 -c 'import os, socket, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
open(sys.argv[2], "w").write(str(s.getsockname()[1]))
c, _ = s.accept(); c.sendall(os.fsencode(sys.argv[1])); c.close()' "$1" "$pf" 3>&- &
	SIDE_PID=$!
	for _ in $(seq 50); do [ -s "$pf" ] && break; sleep 0.1; done
	SIDE_PORT=$(cat "$pf")
}

@test "connect: the listener's description from its side channel, side by side; --no-peer-info skips it" {
	[ -e /sys/class/net/lo ] || skip "no lo here"
	T=$BATS_TEST_TMPDIR/lo
	lofix "$T"
	lomtu=1500	# the fixture's lo (RDMADIAG_SYSFS_ROOT roots /sys/class/net too)
	mkdir -p "$T/sys/class/net/lo" && echo $lomtu > "$T/sys/class/net/lo/mtu"
	# the peer: rxe0/1 on lo carrying 127.0.0.1 (RoCE v2 GID 1), netdev MTU 1000, ToS 106
	side_channel '{"rdmadoctor_description":2,"host":{"hostname":"peer","kernel":"'"$(uname -r)"'","rdmadiag_version":"0.1.0","ports":[{"ifname":"rxe0","port":1,"state":"ACTIVE","link_layer":"Ethernet","netdev":"lo","mtu":1000,"active_mtu":512,"max_mtu":4096,"rate":"100 Gb/sec (4X EDR)","driver":"rxe","gid_index":1,"gid_addr":"127.0.0.1","tos":106,"tos_from_configfs":true,"addrs":[{"ip":"127.0.0.1","gid_v2":1}]}]}}'
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect "127.0.0.1:$SIDE_PORT" -s 127.0.0.1 -t 500
	wait "$SIDE_PID"
	[ "$(jq -r .both_ends.fetched <<< "$output")" = true ]
	row() { jq -r --arg w "$1" '.both_ends.rows[] | select(.what == $w) | "\(.here)|\(.peer)|\(.differs)|\(.cause // "")"' <<< "$output"; }
	[ "$(row "netdev MTU")" = "$lomtu|1000|true|" ]
	[ "$(row "GID index")" = "1|1|false|" ]
	[ "$(row "RDMA MTU both allow")" = "512|512|false|" ]
	[ "$(row "default ToS")" = "0 (kernel default)|106|true|peer_tos_mismatch" ]
	[ "$(jq -r '[.findings[] | select(.check == "peer") | "\(.level) \(.cause)"] | join(",")' <<< "$output")" = \
		"problem peer_mtu_mismatch,warning peer_tos_mismatch" ]
	hinted
	# text: one row a line, '!' before the rows that differ
	side_channel '{"rdmadoctor_description":2,"host":{"hostname":"peer","kernel":"k","ports":[{"ifname":"rxe0","port":1,"netdev":"lo","mtu":1000,"addrs":[{"ip":"127.0.0.1","gid_v2":1}]}]}}'
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor connect "127.0.0.1:$SIDE_PORT" -s 127.0.0.1 -t 500
	wait "$SIDE_PID"
	assert_line "both ends (the peer's side from its side channel)"
	assert_line --regexp "^! netdev MTU +$lomtu +1000\$"
	assert_line --regexp "^  GID index +1 +1\$"
	# --no-peer-info: not fetched, no both_ends at all (rdmadiag(7): absent when it does not apply)
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j --no-peer-info connect 127.0.0.1:7999 -s 127.0.0.1 -t 500
	[ "$(jq -r 'has("both_ends")' <<< "$output")" = false ]
	# nothing serves the side channel: said in one line, the doctor carries on to its verdict
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect 127.0.0.1:7999 -s 127.0.0.1 -t 500
	[ "$(jq -r '"\(.both_ends.fetched) \(.both_ends.error)"' <<< "$output")" = \
		"false no side channel at tcp 127.0.0.1:7999 (connection refused: the peer is not 'rdmadoctor listen', or an older one)" ]
	[ "$(jq -r '.verdict | has("cause")' <<< "$output")" = true ]
	# a reply that is not a description
	side_channel 'SSH-2.0-OpenSSH_9.2'
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect "127.0.0.1:$SIDE_PORT" -s 127.0.0.1 -t 500
	wait "$SIDE_PID"
	[ "$(jq -r .both_ends.error <<< "$output")" = "the reply on tcp 127.0.0.1:$SIDE_PORT is not a description: not a JSON object" ]
	# the line of an rdmadoctor from before the one shape (format 1): said so
	side_channel '{"rdmadoctor_description":1,"version":"0.0.9","host":"peer","kernel":"k","ports":[]}'
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect "127.0.0.1:$SIDE_PORT" -s 127.0.0.1 -t 500
	wait "$SIDE_PID"
	[ "$(jq -r .both_ends.error <<< "$output")" = "the reply on tcp 127.0.0.1:$SIDE_PORT is not a description: a description in another format than 2 (an older or newer rdmadoctor: run the same rdmadiag version on both ends)" ]
}

@test "connect: a peer's raw C1 byte (0x9b, CSI) in its description is escaped in the table" {
	[ -e /sys/class/net/lo ] || skip "no lo here"
	T=$BATS_TEST_TMPDIR/lo
	lofix "$T"
	# (the bytes as sent: side_channel passes them through, not as UTF-8 of U+009B)
	side_channel '{"rdmadoctor_description":2,"host":{"hostname":"peer'$'\x9b''31m","kernel":"k","ports":[{"ifname":"rxe0","port":1,"netdev":"lo","mtu":1000,"driver":"rx'$'\x9b''e","addrs":[{"ip":"127.0.0.1","gid_v2":1}]}]}}'
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor connect "127.0.0.1:$SIDE_PORT" -s 127.0.0.1 -t 500
	wait "$SIDE_PID"
	assert_line --regexp '^. host +[^ ]+ +peer\\23331m$'
	assert_line --regexp '^. device +rxe0/1 \(rxe\) +rxe0/1 \(rx\\233e\)$'
	! LC_ALL=C grep -q $'\x9b' <<< "$output" || fail "a raw C1 byte reached the terminal"
}

@test "local: an IPv4 address of an RDMA netdev without its RoCE v2 GID is a warning" {
	[ -n "$(ip -4 -o addr show dev lo 2>/dev/null | grep -w 127.0.0.1)" ] || skip "lo has no 127.0.0.1 here"
	T=$BATS_TEST_TMPDIR/v4
	lofix "$T"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$(jq -r '[.findings[] | select(.cause == "gid_ipv4_missing")] | length' <<< "$output")" = 0 ]
	# the GID of 127.0.0.1 gone (another address in its place), then only as RoCE v1
	sed -i 's/7f00:0001$/c612:0001/' "$P0/gids/1"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$status" -eq 0 ]	# a warning: the verdict stays ok
	hinted
	f=$(jq -c '[.findings[] | select(.cause == "gid_ipv4_missing")][0]' <<< "$output")
	[ "$(jq -r '"\(.level) \(.check) \(.subject)"' <<< "$f")" = "warning gid rxe0/1" ]
	[ "$(jq -r .summary <<< "$f")" = "IPv4 address 127.0.0.1 of lo has no RoCE v2 GID on rxe0/1 (::ffff:127.0.0.1 is missing): rdma_cm cannot use it as a source" ]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "getifaddrs: lo inet 127.0.0.1; GIDs of rxe0/1 carrying it: none" ]
	sed -i 's/c612:0001$/7f00:0001/' "$P0/gids/1"
	echo "IB/RoCE v1" > "$P0/gid_attrs/types/1"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[[ "$(jq -r '.findings[] | select(.cause == "gid_ipv4_missing") | .summary' <<< "$output")" == *"(::ffff:127.0.0.1, only RoCE v1)"* ]]
	# a DOWN port is a problem of its own: no GID warning on top
	echo "1: DOWN" > "$P0/state"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$(jq -r '[.findings[] | select(.cause == "gid_ipv4_missing")] | length' <<< "$output")" = 0 ]
}

@test "listen --serve port|host and --max-clients N: bad values are usage errors, good ones taken" {
	for args in "--serve all listen" "--serve listen" "--max-clients 0 listen" \
		"--max-clients 1025 listen" "--max-clients x listen"; do
		run --separate-stderr rdmadoctor $args
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[[ "$stderr" == rdmadoctor:* ]] || fail "'$args': $stderr"
	done
	run --separate-stderr rdmadoctor --serve all listen
	[ "$stderr" = "rdmadoctor: bad --serve 'all' (port or host)
Try 'rdmadoctor --help' for more information." ]
	run --separate-stderr rdmadoctor --max-clients 0 listen
	[[ "$stderr" == "rdmadoctor: bad --max-clients '0' (1..1024)"* ]]
	# taken: listen goes on to need a device (the side channel itself is tested by
	# tests/unit/test_doctor_side and the VM's guest/50-doctor-ok.sh)
	for args in "--serve port --max-clients 1" "--serve HOST --max-clients 1024"; do
		RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor $args listen 127.0.0.1:7471
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[[ "$stderr" == *"cannot run: there is no RDMA device"* ]] || fail "'$args': $stderr"
	done
	run rdmadoctor --help
	assert_output --partial "--max-clients N listen: side-channel clients served at once (default 64)"
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
		"--timeout abc connect 1.2.3.4" "--ps sctp connect 1.2.3.4" "--count x listen" \
		"local extra" "listen a b"; do
		run --separate-stderr rdmadoctor $args
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[[ "$stderr" == rdmadoctor:* ]] || fail "'$args': $stderr"
	done
}

@test "paths: bad DST and bad numbers are one clear line and exit 2" {
	local args
	while IFS='|' read -r args want; do
		run --separate-stderr rdmadoctor $args
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[ "${#lines[@]}" -eq 0 ] || fail "'$args' wrote to stdout: $output"
		[[ "$stderr" == "rdmadoctor: $want"* ]] || fail "'$args': $stderr"
	done <<'EOF2'
paths|usage: paths DST[:PORT]
paths 1.2.3.4 5.6.7.8|usage: paths DST[:PORT]
paths 1.2.3.4:99999|bad port in '1.2.3.4:99999'
paths :7471|paths needs a destination address
paths [::1|bad address '[::1'
--paths 0 paths 1.2.3.4|bad --paths '0' (1..1024)
--paths 1025 paths 1.2.3.4|bad --paths '1025' (1..1024)
--probes x paths 1.2.3.4|bad --probes 'x' (1..1000)
--probes 0 paths 1.2.3.4|bad --probes '0' (1..1000)
--concurrency 65 paths 1.2.3.4|bad --concurrency '65' (1..64)
--budget 0 paths 1.2.3.4|bad --budget '0' (seconds, 1..86400)
--budget 1.5 paths 1.2.3.4|bad --budget '1.5' (seconds, 1..86400)
--tos 256 paths 1.2.3.4|bad --tos '256' (0..255)
--tos -1 paths 1.2.3.4|bad --tos '-1' (0..255)
--ps udp paths 1.2.3.4|bad --ps 'udp' for paths
paths no-such-host.invalid|cannot resolve destination 'no-such-host.invalid'
EOF2
}

@test "no RDMA device: paths exits 2 before any connection, with the explanation" {
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -j paths 198.18.0.2 --paths 4
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "rdmadoctor: cannot run: there is no RDMA device on this host"* ]]
}

@test "paths: --help, the options and the exit codes" {
	run rdmadoctor --help
	assert_success
	assert_output --partial "paths DST[:PORT]    which UDP source ports (ECMP paths) to a listener work"
	assert_output --partial "--paths N       paths: distinct source ports to cover (default 16, 1..1024)"
	assert_output --partial "paths: 0 every source port works, 1 some fail and others work, or all fail"
}

@test "--help names the three commands and the exit codes" {
	run rdmadoctor --help
	assert_success
	assert_output --partial "connect DST[:PORT]"
	assert_output --partial "listen [ADDR][:PORT]"
	assert_output --partial "local"
	assert_output --partial "2 usage error or the doctor cannot run"
	assert_output --partial "(a missing or inaccessible /dev/infiniband/rdma_cm too, for connect and local)"
	assert_output --partial "librdmacm or libibverbs"
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
	hinted
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
	hinted
	[ "$(jq -r '.findings[] | select(.check == "gid" and .subject == "rxe0/1") | .cause' <<< "$output")" = gid_roce_v1_only ]
	[ "$(jq -r '.findings[] | select(.check == "gid" and .subject == "rxe1/1") | .level' <<< "$output")" = ok ]
}

@test "modules: loaded, built in (modules.builtin, /sys/module without initstate, implied), missing, unloading" {
	T=$BATS_TEST_TMPDIR/mod
	fakeroot "$T"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	hinted
	f=$(finding modules)
	[ "$(jq -r .level <<< "$f")" = ok ]
	[ "$(jq -r .layer <<< "$f")" = host ]
	[ "$(jq -r '.evidence | join("|")' <<< "$f")" = "ib_core: loaded (initstate live)|ib_uverbs: loaded (initstate live)|ib_cm: loaded (initstate live)|rdma_cm: loaded (initstate live)|rdma_ucm: loaded (initstate live)" ]
	# built in: listed in modules.builtin, or a /sys/module entry without initstate (a
	# built-in with parameters); ib_cm without any trace is implied by rdma_cm
	mkdir -p "$T/lib/modules/$(uname -r)"
	echo kernel/drivers/infiniband/core/ib_uverbs.ko > "$T/lib/modules/$(uname -r)/modules.builtin"
	rm -r "$T/sys/module/ib_uverbs" "$T/sys/module/ib_cm"
	rm "$T/sys/module/ib_core/initstate"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	f=$(finding modules)
	[ "$(jq -r .level <<< "$f")" = ok ]
	[[ "$(jq -r '.evidence[1]' <<< "$f")" == "ib_uverbs: built in ($T/lib/modules/$(uname -r)/modules.builtin)" ]]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "ib_core: built in (/sys/module/ib_core without initstate)" ]
	[ "$(jq -r '.evidence[2]' <<< "$f")" = "ib_cm: present: built in without a /sys/module entry (rdma_cm, which needs it, is present)" ]
	# rdma_ucm not loaded and its node missing: a problem, named before the device node
	rm -r "$T/sys/module/rdma_ucm" "$T/dev/infiniband/rdma_cm"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$status" -eq 1 ]
	hinted
	f=$(finding modules)
	[ "$(jq -r '"\(.level) \(.cause) \(.subject)"' <<< "$f")" = "problem module_not_loaded rdma_ucm" ]
	[ "$(jq -r .summary <<< "$f")" = "module not loaded: rdma_ucm; without rdma_ucm user space cannot use rdma_cm (no /dev/infiniband/rdma_cm)" ]
	[[ "$(jq -r '.evidence[4]' <<< "$f")" == "rdma_ucm: not loaded, not built in (no /sys/module/rdma_ucm, not in $T/lib/modules/"*"/modules.builtin)" ]]
	[[ "$(jq -r .hint <<< "$f")" == "modprobe -a rdma_ucm"* ]]
	[ "$(jq -r .verdict.cause <<< "$output")" = module_not_loaded ]
	[[ "$(jq -r .verdict.next <<< "$output")" == "modprobe -a rdma_ucm"* ]]
	# a module being unloaded: a warning
	fakeroot "$BATS_TEST_TMPDIR/mod2"
	echo going > "$BATS_TEST_TMPDIR/mod2/sys/module/ib_uverbs/initstate"
	RDMADIAG_SYSFS_ROOT=$BATS_TEST_TMPDIR/mod2 run rdmadoctor -j local
	hinted
	f=$(finding modules)
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$f")" = "warning module_not_loaded" ]
	[ "$(jq -r .summary <<< "$f")" = "module ib_uverbs being loaded or unloaded right now" ]
	[ "$(jq -r '.evidence[1]' <<< "$f")" = "ib_uverbs: not ready (initstate going)" ]
}

@test "modules: with no RDMA device, the missing modules are a finding and in the verdict's evidence" {
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -j local
	[ "$status" -eq 2 ]
	hinted
	f=$(finding modules)
	[ "$(jq -r '"\(.level) \(.subject)"' <<< "$f")" = "problem ib_core ib_uverbs ib_cm rdma_cm rdma_ucm" ]
	[ "$(jq -r .verdict.cause <<< "$output")" = no_rdma_device ]
	[ "$(jq -r '.verdict.evidence[-1]' <<< "$output")" = "$(jq -r .summary <<< "$f")" ]
}

@test "device_nodes: present and accessible, missing, no uverbs" {
	T=$BATS_TEST_TMPDIR/dev
	fakeroot "$T"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	f=$(finding device_nodes)
	[ "$(jq -r '"\(.level) \(.summary)"' <<< "$f")" = "ok rdma_cm and 2 uverbs node(s) present and accessible" ]
	[[ "$(jq -r '.evidence[0]' <<< "$f")" == "/dev/infiniband/rdma_cm: present, rw; uverbs nodes: uverbs"[01]" uverbs"[01] ]]
	rm "$T/dev/infiniband/uverbs"*
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	hinted
	f=$(finding device_nodes)
	[ "$(jq -r '"\(.level) \(.cause) \(.subject)"' <<< "$f")" = "problem no_uverbs_device_node /dev/infiniband/uverbs*" ]
	[ "$(jq -r .verdict.cause <<< "$output")" = no_uverbs_device_node ]
	[ "$(jq -r .hint <<< "$f")" = "modprobe ib_uverbs" ]
	rm "$T/dev/infiniband/rdma_cm"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	hinted
	f=$(finding device_nodes)
	[ "$(jq -r '"\(.level) \(.cause) \(.subject)"' <<< "$f")" = "problem no_cm_device_node /dev/infiniband/rdma_cm" ]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "/dev/infiniband/rdma_cm: missing; uverbs nodes: none" ]
	# the modules are loaded, so the device node is the first host problem
	[ "$(jq -r .verdict.cause <<< "$output")" = no_cm_device_node ]
	[ "$status" -eq 1 ]	# a finding, not "cannot run"
}

@test "every cause id the sources can emit is listed in rdmadiag/doctor.h and in rdmadoctor(1)" {
	# the sources on one line: rd_doc_add(d, CHECK, LAYER, LEVEL, CAUSE, ...) (every literal
	# of CAUSE: it may be a ?: choice), set(v, LAYER, "cause"), ->cause = "cause"
	src=$(cat "$ROOT"/lib/doctor/*.c | tr -s '\n\t' '  ')
	calls=$(grep -o 'rd_doc_add(d,' <<< "$src" | wc -l)
	adds=$(grep -oE 'rd_doc_add\(d, *"[^"]*", *"[^"]*", *[^,]+, *[^,]+,' <<< "$src")
	[ "$(wc -l <<< "$adds")" -eq "$calls" ] || fail "some rd_doc_add() calls have a shape this test does not read"
	causes=$( { sed -E 's/^([^,]*,){4} *//' <<< "$adds" | grep -oE '"[a-z0-9_]+"'
		grep -oE '\bset\(v, *[^,]+, *"[a-z0-9_]+"\)' <<< "$src" | sed -E 's/.*, *//'
		grep -oE -- '->cause = "[a-z0-9_]+"' <<< "$src" | sed -E 's/.*= *//'
	} | tr -d '"()' | sort -u)
	[ "$(wc -l <<< "$causes")" -ge 25 ] || fail "too few causes found: $causes"
	for c in $causes; do
		grep -q "\"$c\"" "$ROOT/lib/include/rdmadiag/doctor.h" || fail "cause $c is not in doctor.h"
		grep -qE "^\.BR? $c( |\$)" "$ROOT/man/man1/rdmadoctor.1" || fail "cause $c is not in rdmadoctor.1"
	done
}

# run rdmadoctor as user nobody (uid/gid 65534): root passes every access() check
as_nobody() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

@test "device_nodes: nodes this user cannot open (as nobody): which node, its mode and owner" {
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv > /dev/null || skip "no setpriv to drop to user nobody"
		as_nobody "$ROOT/tools/rdmadoctor/rdmadoctor" --version > /dev/null 2>&1 ||
			skip "user nobody cannot run $ROOT/tools/rdmadoctor/rdmadoctor"
	fi
	# a root that nobody can walk through (bats' own temporary directories are private)
	PUBLIC=$(mktemp -d /tmp/rdmadoctor-bats.XXXXXX)
	T=$PUBLIC
	chmod 755 "$T"
	fakeroot "$T/r"
	# root's node as nobody sees it; without root, a mode that denies even the owner
	deny=600
	[ "$(id -u)" -eq 0 ] || deny=000
	chmod $deny "$T/r/dev/infiniband/rdma_cm"
	RDMADIAG_SYSFS_ROOT=$T/r run as_nobody "$ROOT/tools/rdmadoctor/rdmadoctor" -j local
	f=$(finding device_nodes)
	[ "$(jq -r '"\(.level) \(.cause) \(.subject)"' <<< "$f")" = "problem device_node_access /dev/infiniband/rdma_cm" ]
	[[ "$(jq -r '.evidence[0]' <<< "$f")" == "/dev/infiniband/rdma_cm: present, no access, mode 0$deny owner "* ]]
	[[ "$(jq -r '.evidence[1]' <<< "$f")" == "this process: uid $(as_nobody id -u), gid "* ]]
	[[ "$(jq -r .hint <<< "$f")" == *"group rdma"* ]]
	[ "$(jq -r .verdict.cause <<< "$output")" = device_node_access ]
	hinted
	chmod 666 "$T/r/dev/infiniband/rdma_cm"
	chmod $deny "$T/r/dev/infiniband/uverbs1"
	RDMADIAG_SYSFS_ROOT=$T/r run as_nobody "$ROOT/tools/rdmadoctor/rdmadoctor" -j local
	f=$(finding device_nodes)
	[ "$(jq -r '"\(.level) \(.cause) \(.subject)"' <<< "$f")" = "problem device_node_access /dev/infiniband/uverbs*" ]
	[ "$(jq -r .summary <<< "$f")" = "1 of 2 uverbs nodes are not readable and writable by this user" ]
	[[ "$(jq -r '.evidence[1]' <<< "$f")" == "/dev/infiniband/uverbs1: mode 0$deny owner "*"; this process: uid"* ]]
	hinted
	chmod 666 "$T/r/dev/infiniband/uverbs1"
	RDMADIAG_SYSFS_ROOT=$T/r run as_nobody "$ROOT/tools/rdmadoctor/rdmadoctor" -j local
	[ "$(jq -r '"\(.level) \(.summary)"' <<< "$(finding device_nodes)")" = "ok rdma_cm and 2 uverbs node(s) present and accessible" ]
}

@test "memlock: a low limit without CAP_IPC_LOCK is a warning; unlimited, or CAP_IPC_LOCK, is ok" {
	T=$BATS_TEST_TMPDIR/ml
	fakeroot "$T"
	drop=()
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv > /dev/null || skip "no setpriv to drop CAP_IPC_LOCK"
		drop=(setpriv --bounding-set=-ipc_lock)
	fi
	RDMADIAG_SYSFS_ROOT=$T run bash -c 'ulimit -S -l 64 && exec "$@"' _ "${drop[@]}" rdmadoctor -j local
	hinted
	f=$(finding memlock)
	[ "$(jq -r '"\(.level) \(.cause) \(.layer)"' <<< "$f")" = "warning memlock_low host" ]
	[ "$(jq -r .summary <<< "$f")" = "the memlock limit is 64 KiB: large or many registrations will fail with ENOMEM" ]
	[ "$(jq -r '.evidence | join("|")' <<< "$f")" = "RLIMIT_MEMLOCK soft limit 64 KiB|CAP_IPC_LOCK not held" ]
	[[ "$(jq -r .hint <<< "$f")" == *"ulimit -l unlimited"* ]]
	# 64 MiB and more is enough
	if [ "$(ulimit -H -l)" = unlimited ] || [ "$(ulimit -H -l)" -ge 65536 ]; then
		RDMADIAG_SYSFS_ROOT=$T run bash -c 'ulimit -S -l 65536 && exec "$@"' _ "${drop[@]}" rdmadoctor -j local
		[ "$(jq -r '"\(.level) \(.evidence[0])"' <<< "$(finding memlock)")" = "ok RLIMIT_MEMLOCK soft limit 65536 KiB" ]
	fi
	if [ "$(ulimit -H -l)" = unlimited ]; then
		RDMADIAG_SYSFS_ROOT=$T run bash -c 'ulimit -S -l unlimited && exec "$@"' _ "${drop[@]}" rdmadoctor -j local
		[ "$(jq -r '"\(.level) \(.evidence[0])"' <<< "$(finding memlock)")" = "ok RLIMIT_MEMLOCK soft limit unlimited" ]
	fi
	# CAP_IPC_LOCK lifts the limit
	if [ "$(id -u)" -eq 0 ]; then
		RDMADIAG_SYSFS_ROOT=$T run bash -c 'ulimit -S -l 64 && exec "$@"' _ rdmadoctor -j local
		f=$(finding memlock)
		[ "$(jq -r .level <<< "$f")" = ok ]
		[ "$(jq -r '.evidence | join("|")' <<< "$f")" = "RLIMIT_MEMLOCK soft limit 64 KiB|CAP_IPC_LOCK effective (limit not enforced)" ]
	fi
}

@test "netns: the port's netdev here, in another namespace, or none at all" {
	T=$BATS_TEST_TMPDIR/ns
	fakeroot "$T"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	f=$(finding netns rxe0/1)
	[ "$(jq -r '"\(.level) \(.layer) \(.summary)"' <<< "$f")" = "ok address netdev veth0 of rxe0/1 is in this network namespace" ]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "veth0 ifindex $(cat "$T/sys/class/net/veth0/ifindex")" ]
	# rxe1's GIDs name a netdev that does not exist here (nor on this host)
	P=$T/sys/class/infiniband/rxe1/ports/1
	for n in "$P"/gid_attrs/ndevs/*; do echo rdgone9 > "$n"; done
	echo rdgone9 > "$T/sys/class/infiniband/rxe1/parent"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	[ "$status" -eq 1 ]
	hinted
	f=$(finding netns rxe1/1)
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$f")" = "problem netdev_other_netns" ]
	[ "$(jq -r .summary <<< "$f")" = "netdev rdgone9 of rxe1/1 is not in this network namespace: rdma_cm will answer ENODEV" ]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "the GID table names netdev rdgone9, but no interface of that name exists here" ]
	[[ "$(jq -r .hint <<< "$f")" == *"rdma dev set DEV netns NS"* ]]
	[ "$(jq -r '"\(.verdict.cause) \(.verdict.layer)"' <<< "$output")" = "netdev_other_netns address" ]
	# no netdev bound at all
	rm "$P"/gid_attrs/ndevs/* "$T/sys/class/infiniband/rxe1/parent"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	hinted
	f=$(finding netns rxe1/1)
	[ "$(jq -r '"\(.level) \(.cause) \(.summary)"' <<< "$f")" = "warning netdev_other_netns no netdev is bound to rxe1/1 as seen from this network namespace" ]
}

@test "mtu: netdev MTU -> RoCE path MTU; too small for RoCE; active MTU unknown without verbs" {
	T=$BATS_TEST_TMPDIR/mtu
	fakeroot "$T"
	echo 9000 > "$T/sys/class/net/veth0/mtu"
	echo 300 > "$T/sys/class/net/veth1/mtu"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	hinted
	# the fixture's devices cannot be opened through verbs here: the active MTU is unknown
	f=$(finding mtu rxe0/1)
	[ "$(jq -r '"\(.level) \(.layer)"' <<< "$f")" = "info transport" ]
	[ "$(jq -r .summary <<< "$f")" = "netdev veth0 MTU 9000 allows a RoCE path MTU of 4096; the port's active MTU is unknown" ]
	[[ "$(jq -r '.evidence[0]' <<< "$f")" == "netdev veth0 mtu 9000; 9000 - 96 = 8904 -> largest IB MTU that fits 4096; port active MTU unknown ("?*")" ]]
	f=$(finding mtu rxe1/1)
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$f")" = "problem mtu_too_small" ]
	[ "$(jq -r .summary <<< "$f")" = "netdev veth1 MTU 300 is too small for RoCE (needs at least 352)" ]
	[ "$(jq -r .hint <<< "$f")" = "ip link set veth1 mtu 1500" ]
	[[ "$(jq -r '.evidence[0]' <<< "$f")" == "netdev veth1 mtu 300; 300 - 96 = 204 -> largest IB MTU that fits 0; "* ]]
	# the only problem: it is the verdict
	[ "$status" -eq 1 ]
	[ "$(jq -r '"\(.verdict.cause) \(.verdict.layer)"' <<< "$output")" = "mtu_too_small transport" ]
}

@test "roce_mode: configfs default_roce_mode RoCE v2 is ok, IB/RoCE v1 a warning, no group info" {
	T=$BATS_TEST_TMPDIR/cfs
	fakeroot "$T"
	M=$T/sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_mode
	mkdir -p "${M%/*}"
	echo "RoCE v2" > "$M"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	f=$(finding roce_mode rxe0/1)
	[ "$(jq -r '"\(.level) \(.summary)"' <<< "$f")" = "ok default RoCE mode of rxe0/1 is RoCE v2" ]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "$M: RoCE v2" ]
	f=$(finding roce_mode rxe1/1)
	[ "$(jq -r '"\(.level) \(.summary)"' <<< "$f")" = "info default RoCE mode of rxe1/1 not readable (No such file or directory)" ]
	[[ "$(jq -r .hint <<< "$f")" == *"mkdir /sys/kernel/config/rdma_cm/rxe1" ]]
	echo "IB/RoCE v1" > "$M"
	RDMADIAG_SYSFS_ROOT=$T run rdmadoctor -j local
	hinted
	f=$(finding roce_mode rxe0/1)
	[ "$(jq -r '"\(.level) \(.cause) \(.layer)"' <<< "$f")" = "warning gid_roce_v1_only address" ]
	[ "$(jq -r .summary <<< "$f")" = "default RoCE mode of rxe0/1 is 'IB/RoCE v1': rdma_cm uses RoCE v1, which a v2-only peer does not accept" ]
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "$M: IB/RoCE v1" ]
	[ "$(jq -r .hint <<< "$f")" = "echo 'RoCE v2' > $M (the same on both ends)" ]
	# a warning is not the verdict: nothing else is wrong
	[ "$(jq -r .verdict.cause <<< "$output")" = ok ]
	[ "$status" -eq 0 ]
}

@test "firewall: a fixture host's ruleset is read with the nft under its root, never this host's" {
	T=$BATS_TEST_TMPDIR/sw
	fakeroot "$T"
	fwlocal "$T" nft-input-drop
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$f")" = "warning firewall_drops_roce" ] || fail "$f"
	[ "$(jq -r '.evidence[0]' <<< "$f")" = "nft -j list ruleset: inet rdiag_test input handle 3: udp dport 4791 counter drop" ]
	# rxe: software RoCE, whose packets pass netfilter (mlx5's case: the next test)
	[ "$(jq -r '.evidence[-1]' <<< "$f")" = "rxe is software RoCE: its packets pass netfilter (rxe0, rxe1)" ]
	# without nft or iptables-save under the root, this host's own firewall is not read
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/mlx5 run --separate-stderr rdmadoctor -j local
	[ "$(jq -r .summary <<< "$(finding firewall)")" = "neither nft nor iptables-save is installed: firewall not inspected" ]
}

@test "firewall: hardware RoCE (mlx5) bypasses netfilter: a UDP 4791 drop rule is information, not blame" {
	T=$BATS_TEST_TMPDIR/hw
	cp -r "$FIX/sysfs/mlx5" "$T"
	fwlocal "$T" nft-output-drop
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$f")" = "info null" ] || fail "$f"
	[ "$(jq -r .summary <<< "$f")" = "1 firewall rule(s) can drop UDP port 4791, but no RDMA device here is software RoCE: hardware RoCE does not pass netfilter" ]
	[ "$(jq -c .evidence <<< "$f")" = '["nft -j list ruleset: inet rdiag_test output handle 3: udp dport 4791 counter drop","mlx5 is hardware RoCE: its traffic does not pass netfilter (mlx5_0)"]' ]
	[ "$(jq -r .verdict.cause <<< "$output")" != firewall_drops_roce ]
}

@test "connect on rxe with an output rule dropping UDP 4791: refused before any attempt (exit 2) unless --force" {
	[ -e /sys/class/net/lo ] || skip "no lo here"
	T=$BATS_TEST_TMPDIR/lo
	lofix "$T"
	fwnft "$T" nft-output-drop
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect 127.0.0.1 -s 127.0.0.1 --no-peer-info
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadoctor: refusing to attempt the connection: nft -j list ruleset: inet rdiag_test output handle 3: udp dport 4791 counter drop drops what rxe0 sends, and rdma_rxe leaves an rdma_cm connect through such a rule unkillable (cm_destroy_id_wait_timeout) and later rdma_cm users hanging (--force attempts it anyway)" ]
	# the findings and the reason on stdout, no step attempted
	[ "$(jq -c '[.steps, .verdict]' <<< "$output")" = '[[],null]' ]
	[ "rdmadoctor: $(jq -r .attempt_skipped <<< "$output")" = "$stderr" ]
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$(finding firewall)")" = "warning firewall_drops_roce" ]
	# --force goes on to the attempt (rdma_cm of this host: whatever it says, not the refusal)
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect 127.0.0.1 -s 127.0.0.1 --no-peer-info --force -t 1000
	[[ "$stderr" != *refusing* ]] || fail "$stderr"
	[ "$(jq -r '.steps[0].name' <<< "$output")" = create_id ]
	# an input rule does not hang rxe's sender: no refusal, the rule stays a warning
	fwnft "$T" nft-input-drop
	RDMADIAG_SYSFS_ROOT=$T run --separate-stderr rdmadoctor -j connect 127.0.0.1 -s 127.0.0.1 --no-peer-info -t 1000
	[[ "$stderr" != *refusing* ]] || fail "$stderr"
	[ "$(jq -r '"\(.level) \(.cause)"' <<< "$(finding firewall)")" = "warning firewall_drops_roce" ]
}

@test "short options -s -t -p reach the device check; --ps tcp and udp; the default timeout is 8000 ms, resolution min(timeout, 2000)" {
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -j -s 198.18.0.1 -t 3000 -p ib connect 198.18.0.2:7472
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot run: there is no RDMA device"* ]]
	[ "$(jq -r '"\(.src) \(.timeout_ms) \(.resolve_timeout_ms) \(.ps) \(.dst) \(.port)"' <<< "$output")" = "198.18.0.1 3000 2000 IB 198.18.0.2 7472" ]
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -j --ps tcp connect 198.18.0.2
	[ "$status" -eq 2 ]
	[ "$(jq -r '"\(.src) \(.timeout_ms) \(.resolve_timeout_ms) \(.ps) \(.port)"' <<< "$output")" = "null 8000 2000 TCP 7471" ]
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -j --ps udp connect 198.18.0.2
	[ "$status" -eq 2 ]
	[ "$(jq -r .ps <<< "$output")" = UDP ]
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor connect 198.18.0.2 -p TCP --timeout=1500
	[ "$status" -eq 2 ]
	assert_output --partial "connect 198.18.0.2 port 7471 (port space TCP, timeout 1500 ms, resolve 1500 ms)"
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmadoctor -c 3 listen :7471
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"cannot run: there is no RDMA device"* ]]
	run rdmadoctor -h
	assert_success
	[ "$output" = "$(rdmadoctor --help)" ]
	assert_output --partial "(default 8000: long"
	assert_output --partial "the smaller of MS and 2000"
}

@test "short options with bad values are usage errors naming the option" {
	for args in "-t 0 connect 1.2.3.4" "-t 3600001 connect 1.2.3.4" "-p sctp connect 1.2.3.4" \
		"-c -1 listen" "-c x listen" "connect 1.2.3.4 -s"; do
		run --separate-stderr rdmadoctor $args
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[[ "$stderr" == rdmadoctor:* ]] || fail "'$args': $stderr"
	done
	run --separate-stderr rdmadoctor -t 0 connect 1.2.3.4
	[[ "$stderr" == *"bad --timeout '0'"* ]]
	run --separate-stderr rdmadoctor -p sctp connect 1.2.3.4
	[[ "$stderr" == *"bad --ps 'sctp' (tcp, udp or ib)"* ]]
	run --separate-stderr rdmadoctor -c x listen
	[[ "$stderr" == *"bad --count 'x'"* ]]
}
