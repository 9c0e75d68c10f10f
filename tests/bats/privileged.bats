#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Privileged installs: a setuid or setgid copy of a tool, or one with file capabilities that
# override file permissions, would open the paths its user names (rdmadump -w, --nl-record,
# --thresholds ...) with rights the user does not have.  Every tool refuses to run so, in one
# line, exit 2; a copy with only CAP_NET_RAW runs (rdmadump -i), as does root.
load helper

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root to make setuid copies"
	command -v setpriv > /dev/null && command -v setcap > /dev/null || skip "no setpriv/setcap"
	D=$(mktemp -d /tmp/rdmadiag-priv.XXXXXX)
	chmod 755 "$D"
}

teardown() {
	[ -n "${D:-}" ] && rm -rf "$D"
}

as_nobody() {
	run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

tools() { echo "$ROOT/tools/rdmadump/rdmadump $ROOT/tools/rdmastat/rdmastat $ROOT/tui/rdmatop $ROOT/tools/rdmacheck/rdmacheck $ROOT/tools/rdmadoctor/rdmadoctor $ROOT/tools/rdmatrace/rdmatrace"; }

@test "a setuid-root or setgid copy of every tool refuses to run: one line, exit 2" {
	for t in $(tools); do
		n=$(basename "$t")
		install -m 4755 "$t" "$D/$n"
		as_nobody "$D/$n" --version
		[ "$status" -eq 2 ] || fail "$n setuid: exit $status"
		[ "$stderr" = "$n: refusing to run setuid or setgid: it would open the files you name with rights you do not have (run it as root, or grant only CAP_NET_RAW, CAP_NET_ADMIN or CAP_IPC_LOCK)" ] ||
			fail "$n: $stderr"
		[ -z "$output" ]
		chmod 2755 "$D/$n"
		as_nobody "$D/$n" --version
		[ "$status" -eq 2 ] || fail "$n setgid: exit $status"
	done
}

@test "no file is written through a setuid copy: rdmadump -w onto a root-only path" {
	install -m 4755 "$ROOT/tools/rdmadump/rdmadump" "$D/rdmadump"
	install -m 600 /dev/null "$D/root-only"
	echo keep > "$D/root-only"
	as_nobody "$D/rdmadump" -r "$FIX/pcap/aeth_naks.pcap" -w "$D/root-only"
	[ "$status" -eq 2 ]
	[ "$(cat "$D/root-only")" = keep ]
}

@test "capabilities: CAP_DAC_OVERRIDE is refused, CAP_NET_RAW alone runs" {
	install -m 755 "$ROOT/tools/rdmastat/rdmastat" "$D/rdmastat"
	setcap cap_dac_override+ep "$D/rdmastat"
	as_nobody "$D/rdmastat" --version
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmastat: refusing to run with capabilities that override file permissions"* ]] ||
		fail "$stderr"
	setcap cap_net_raw+ep "$D/rdmastat"
	as_nobody "$D/rdmastat" --version
	assert_success
	[[ "$output" == "rdmastat (rdmadiag) "* ]]
	# and a plain copy, as nobody or as root
	setcap -r "$D/rdmastat"
	as_nobody "$D/rdmastat" --version
	assert_success
	run "$D/rdmastat" --version
	assert_success
}

@test "rdmadump -i without CAP_NET_RAW: libpcap's reason and a hint naming CAP_NET_RAW, exit 2" {
	install -m 755 "$ROOT/tools/rdmadump/rdmadump" "$D/rdmadump"
	as_nobody "$D/rdmadump" -i lo -c 1
	[ "$status" -eq 2 ] || fail "exit $status"
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$stderr"
	[[ "$stderr" == "rdmadump: cannot capture on 'lo': "*" (capturing needs CAP_NET_RAW: run as root, or setcap cap_net_raw+ep on rdmadump)" ]] ||
		fail "$stderr"
}
