#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadoctor compare: the "host" objects of many hosts' 'rdmadoctor -j local', property by
# property.  2 000 generated host files (tests/fixtures/doctor-compare/mkhosts.sh: one GID
# index, one MTU, one ToS, one missing port and one kernel apart) and real 'local -j' output of
# the fixture trees.  How fast it runs is measured by make bench (tests/bench/40-compare.sh).
load helper

MK=$FIX/doctor-compare/mkhosts.sh

setup_file() {
	export HOSTS=$BATS_FILE_TMPDIR/hosts
	"$BATS_TEST_DIRNAME/../fixtures/doctor-compare/mkhosts.sh" "$HOSTS" 2000
}

@test "2000 hosts: each outlier is found with the majority value, ranked by harm" {
	run --separate-stderr rdmadoctor -j compare "$HOSTS"/*.json
	assert_failure 1
	[ "$(jq .hosts <<< "$output")" -eq 2000 ]
	got=$(jq -c '[.properties[] | select(.differ | length > 0) | [.name, .impact, .majority, .majority_hosts, [.differ[] | "\(.host)=\(.value // "-")"]]]' <<< "$output")
	want='[["mlx5_0/1.gid_index","breaks","3",1998,["host-0017=1"]],["mlx5_0/1.present","breaks","yes",1999,["host-1234=-"]],["mlx5_1/1.present","breaks",null,1999,["host-1234=yes"]],["mlx5_0/1.mtu","large_messages","9000",1998,["host-0500=1500"]],["mlx5_0/1.tos","large_messages","106",1998,["host-0777=0"]],["host.kernel","info","6.1.0-57-amd64",1999,["host-0042=6.1.0-99-amd64"]]]'
	[ "$got" = "$want" ] || fail "got $got"
	# the properties that agree are there too, with every host that has them in the majority
	# (mlx5_0/1's fields: the 1999 hosts with the port; mlx5_1/1's: host-1234 alone)
	[ "$(jq -c '[.properties[] | select(.differ | length == 0) | .majority_hosts] | unique' <<< "$output")" = "[1,1999,2000]" ]
	# host-1234's missing port is one finding, not one per field of the port
	[ "$(jq '[.properties[].differ[] | select(.host == "host-1234")] | length' <<< "$output")" -eq 2 ]
	# fields that name the host are not compared
	[ "$(jq '[.properties[] | select(.field == "hostname" or .field == "gid_addr")] | length' <<< "$output")" -eq 0 ]
}

@test "JSON lines on stdin give the same result as the files" {
	a=$(rdmadoctor -j compare "$HOSTS"/*.json || :)
	b=$(cat "$HOSTS"/*.json | rdmadoctor -j compare - || :)
	[ -n "$a" ] && [ "$a" = "$b" ]
}

@test "text: one line per differing property, most harmful first, hosts named" {
	run rdmadoctor compare "$HOSTS"/*.json
	assert_failure 1
	assert_line --index 0 "compare: 2000 hosts, 33 properties, 6 differ"
	assert_line --index 1 "PROBLEM  mlx5_0/1.gid_index: 3 on 1998 host(s); 1 differ: host-0017=1"
	assert_line --index 2 --regexp "^         a job-wide GID index \(NCCL_IB_GID_INDEX, UCX_IB_GID_INDEX\) selects another GID"
	assert_line "PROBLEM  mlx5_0/1.mtu: 9000 on 1998 host(s); 1 differ: host-0500=1500"
	assert_line "info     host.kernel: 6.1.0-57-amd64 on 1999 host(s); 1 differ: host-0042=6.1.0-99-amd64"
	assert_line "27 properties are the same on every host (-v lists them)"
	run rdmadoctor -v compare "$HOSTS"/*.json
	assert_line "same     mlx5_0/1.state: ACTIVE on 1999 host(s)"
}

@test "hosts that agree: exit 0; a version difference alone is information, exit 0" {
	run rdmadoctor compare "$HOSTS/host-0001.json" "$HOSTS/host-0002.json"
	assert_success
	assert_line --index 0 "compare: 2 hosts, 18 properties, 0 differ"
	run rdmadoctor compare "$HOSTS/host-0001.json" "$HOSTS/host-0042.json" "$HOSTS/host-0003.json"
	assert_success
	assert_line "info     host.kernel: 6.1.0-57-amd64 on 2 host(s); 1 differ: host-0042=6.1.0-99-amd64"
}

@test "real 'local -j' of three fixture hosts: the one whose IPv4 lost its RoCE v2 GID" {
	T=$BATS_TEST_TMPDIR
	cp -r "$FIX/sysfs/mlx5" "$T/a"
	cp -r "$FIX/sysfs/mlx5" "$T/b"
	# b: 10.0.0.1's RoCE v2 entry (index 3) becomes v1; its only routable v2 GID left is
	# fd00::1's at index 5
	echo "IB/RoCE v1" > "$T/b/sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/3"
	RDMADIAG_SYSFS_ROOT=$T/a rdmadoctor -j local | jq -c '.host.hostname = "a"' > "$T/a.json" || :
	RDMADIAG_SYSFS_ROOT=$T/b rdmadoctor -j local | jq -c '.host.hostname = "b"' > "$T/b.json" || :
	RDMADIAG_SYSFS_ROOT=$T/a rdmadoctor -j local | jq -c '.host.hostname = "c"' > "$T/c.json" || :
	[ "$(jq -r '.host.ports[0].gid_index' "$T/a.json")" = 3 ]
	run rdmadoctor -j compare "$T/a.json" "$T/b.json" "$T/c.json"
	assert_failure 1
	[ "$(jq -c '.properties[0] | [.name, .majority, .differ]' <<< "$output")" = '["mlx5_0/1.gid_index","3",[{"host":"b","value":"5"}]]' ]
	[ "$(jq -r '.host.ports[0].gid_addr' "$T/b.json")" = fd00::1 ]
}

@test "a listener's description line is the same host object: compare reads it with local -j's" {
	T=$BATS_TEST_TMPDIR
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/rxe rdmadoctor -j local | jq -c '.host.hostname = "a"' > "$T/a.json" || :
	# the side channel's line: {"rdmadoctor_description":2,"host":HOST}, HOST as local -j's
	jq -c '{rdmadoctor_description: 2, host: (.host | .hostname = "b" | .ports[1].mtu = 9000)}' "$T/a.json" > "$T/b.json"
	jq -c '.host.hostname = "c"' "$T/a.json" > "$T/c.json"
	[ "$(jq -c '.host.ports[0] | [.ifname, .mtu, .gid_index, .gid_addr, .tos, .tos_from_configfs, .addrs]' "$T/a.json")" = \
		'["rxe0",1500,1,"198.18.0.1",0,false,[{"ip":"fe80::b42a:c1ff:fe00:3","gid_v2":0},{"ip":"198.18.0.1","gid_v2":1}]]' ]
	run --separate-stderr rdmadoctor -j compare "$T/a.json" "$T/b.json" "$T/c.json"
	assert_failure 1
	[ "$(jq -c '[.properties[] | select(.differ | length > 0) | [.name, .majority, .differ]]' <<< "$output")" = '[["rxe1/1.mtu","1500",[{"host":"b","value":"9000"}]]]' ]
	# an older listener's line (format 1) is refused, saying why
	echo '{"rdmadoctor_description":1,"version":"0.1.0","host":"old","ports":[]}' > "$T/old.json"
	run --separate-stderr rdmadoctor compare "$T/a.json" "$T/old.json"
	assert_failure 2
	[ "$stderr" = "rdmadoctor: $T/old.json line 1: a description in another format than 2 (an older or newer rdmadoctor: run the same rdmadiag version on both ends)" ]
}

@test "roce_mode: a configfs group on some hosts only is no difference; absent is the kernel's RoCE v2" {
	C=$FIX/doctor-compare/configfs
	# host-a made the group (to set the default ToS) and reads "RoCE v2" there; host-b and
	# host-c have none: all three use RoCE v2, where the ToS comes from is information only
	run --separate-stderr rdmadoctor -j compare "$C/host-a.json" "$C/host-b.json" "$C/host-c.json"
	assert_success
	got=$(jq -c '[.properties[] | select(.differ | length > 0) | [.name, .impact, .majority, [.differ[] | "\(.host)=\(.value // "-")"]]]' <<< "$output")
	[ "$got" = '[["mlx5_0/1.tos_from_configfs","info","false",["host-a=true"]]]' ] || fail "got $got"
	[ "$(jq -c '.properties[] | select(.name == "mlx5_0/1.roce_mode") | [.majority, .majority_hosts]' <<< "$output")" = '["RoCE v2",3]' ]
	run rdmadoctor compare "$C/host-b.json" "$C/host-a.json" "$C/host-c.json"
	assert_success
	refute_line --partial "roce_mode"
	# a group that sets RoCE v1 differs from the kernel's default: still a problem
	run --separate-stderr rdmadoctor -j compare "$C/host-b.json" "$C/host-c.json" "$C/host-d.json"
	assert_failure 1
	[ "$(jq -c '.properties[0] | [.name, .impact, .majority, .differ]' <<< "$output")" = \
		'["mlx5_0/1.roce_mode","breaks","RoCE v2",[{"host":"host-d","value":"IB/RoCE v1"}]]' ]
	# the description still says where the mode comes from: configfs's value, or no member
	[ "$(jq -c '[.host.ports[0] | .roce_mode, .tos_from_configfs]' "$C/host-a.json" "$C/host-b.json" | tr -d '\n')" = '["RoCE v2",true][null,false]' ]
}

@test "bad input: exit 2 with one line naming the file" {
	run --separate-stderr rdmadoctor compare "$HOSTS/host-0001.json"
	assert_failure 2
	[ "$stderr" = "rdmadoctor: compare needs the documents of at least 2 hosts (got 1)" ]
	echo '{"command":"connect"}' > "$BATS_TEST_TMPDIR/x.json"
	run --separate-stderr rdmadoctor compare "$HOSTS/host-0001.json" "$BATS_TEST_TMPDIR/x.json"
	assert_failure 2
	[ "$stderr" = "rdmadoctor: $BATS_TEST_TMPDIR/x.json line 1: no \"host\" object: not the output of 'rdmadoctor -j local'" ]
	echo 'not json' > "$BATS_TEST_TMPDIR/y.json"
	run --separate-stderr rdmadoctor compare "$HOSTS/host-0001.json" "$BATS_TEST_TMPDIR/y.json"
	assert_failure 2
	[ "$stderr" = "rdmadoctor: $BATS_TEST_TMPDIR/y.json line 1: not a JSON object" ]
	# the one parser of the host description: a member of the wrong type is named
	echo '{"host":{"hostname":"z","ports":[{"ifname":"mlx5_0","port":1,"mtu":"9000"}]}}' > "$BATS_TEST_TMPDIR/z.json"
	run --separate-stderr rdmadoctor compare "$HOSTS/host-0001.json" "$BATS_TEST_TMPDIR/z.json"
	assert_failure 2
	[ "$stderr" = "rdmadoctor: $BATS_TEST_TMPDIR/z.json line 1: mtu is not a number of bytes" ]
	run --separate-stderr rdmadoctor compare "$HOSTS/host-0001.json" /nonexistent.json
	assert_failure 2
	[ "$stderr" = "rdmadoctor: cannot open '/nonexistent.json': No such file or directory" ]
	run --separate-stderr rdmadoctor compare
	assert_failure 2
}

@test "local -j's host object carries the lossless chain (DSCP, priority, PFC, ECN); compare ranks its differences" {
	FX=$FIX/fabric T=$BATS_TEST_TMPDIR
	RDMADIAG_SYSFS_ROOT=$FX/ofed RDMADIAG_NL_REPLAY=$FX/dcb-pfc3.rec rdmadoctor -j local > "$T/a.json" || :
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$FX/dcb-pfc4-noapp.rec rdmadoctor -j local > "$T/b.json" || :
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$FX/dcb-none.rec rdmadoctor -j local > "$T/c.json" || :
	# the same chain as the lossless check: ToS 106 -> DSCP 26 -> priority 3 with PFC and ECN;
	# no APP entry -> DSCP 0 on priority 0, PFC only on 4; no DCB: nothing to say
	[ "$(jq -c '.host.ports[0] | [.dscp, .priority, .pfc, .ecn]' "$T/a.json")" = '[26,3,"on","on"]' ]
	[ "$(jq -c '.host.ports[0] | [.dscp, .priority, .pfc, .ecn]' "$T/b.json")" = '[0,0,"off",null]' ]
	[ "$(jq -c '.host.ports[0] | [has("dscp"), has("priority"), has("pfc"), has("ecn")]' "$T/c.json")" = '[false,false,false,false]' ]
	for n in 1 2; do jq -c --arg n "a$n" '.host.hostname = $n' "$T/a.json" > "$T/a$n.json"; done
	jq -c '.host.hostname = "b"' "$T/b.json" > "$T/b1.json"
	run --separate-stderr rdmadoctor -j compare "$T/a1.json" "$T/a2.json" "$T/b1.json"
	assert_failure 1
	got=$(jq -c '[.properties[] | select(.differ | length > 0) | select(.field | test("^(dscp|priority|pfc|ecn)$")) | [.field, .impact, .majority, [.differ[] | "\(.host)=\(.value // "-")"]]]' <<< "$output")
	[ "$got" = '[["dscp","large_messages","26",["b=0"]],["ecn","large_messages","on",["b=-"]],["pfc","large_messages","on",["b=off"]],["priority","large_messages","3",["b=0"]]]' ] || fail "got $got"
}

@test "a peer's raw C1 byte (0x9b: CSI to an 8-bit terminal) is escaped in text as C0 controls are" {
	T=$BATS_TEST_TMPDIR
	# host-0001 as a peer would describe itself: 0x9b outside any UTF-8 sequence in its
	# hostname and kernel, ESC beside it, and UTF-8 text that must pass (U+209B, é)
	c1=$'\x9b' esc=$'\033'
	sed "s/\"hostname\":\"[^\"]*\"/\"hostname\":\"peer${c1}31m\"/; s/\"kernel\":\"[^\"]*\"/\"kernel\":\"6.1${c1}2J${esc}[0m ₛé\"/" \
		"$HOSTS/host-0001.json" > "$T/peer.json"
	LC_ALL=C grep -q "$c1" "$T/peer.json"
	run rdmadoctor compare "$HOSTS/host-0000.json" "$HOSTS/host-0002.json" "$T/peer.json"
	assert_success
	assert_line 'info     host.kernel: 6.1.0-57-amd64 on 2 host(s); 1 differ: peer\23331m=6.1\2332J\033[0m ₛé'
	# (ₛ is e2 82 9b: its 0x9b is UTF-8's, not a control)
	! LC_ALL=C grep -q "[$c1$esc]" <<< "${output//ₛ/}" || fail "a raw control byte reached the terminal"
	# JSON has its own escape (\u009b): the value is the peer's, byte for byte
	run rdmadoctor -j compare "$HOSTS/host-0000.json" "$HOSTS/host-0002.json" "$T/peer.json"
	assert_success
	[[ "$output" == *'"host":"peer\u009b31m","value":"6.1\u009b2J\u001b[0m ₛé"'* ]] || fail "$output"
}
