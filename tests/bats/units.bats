#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The systemd units of contrib/systemd/, as make install puts them: systemd-analyze verify
# finds nothing wrong with any (directives, the binaries ExecStart names, the man pages
# Documentation names), and the hardening of each service stays at or below the
# "systemd-analyze security" exposure level the man pages state (rdmastat(1), NODE EXPORTER
# TEXTFILE, for the textfile service; the agent's bound is AGENT_EXPOSURE below).
load helper

# the agent's measured exposure (systemd 252): rdmadiag_exporter(8) quotes it
AGENT_EXPOSURE=1.5

setup_file() {
	if ! command -v systemd-analyze > /dev/null; then
		[ -z "${CI:-}" ] || { echo "CI: systemd-analyze is missing (mk/deps.sh installs systemd)" >&2; return 1; }
		return 0
	fi
	# PREFIX is the scratch tree itself, so the installed units name the scratch binaries
	# (make install writes $(BINDIR) into ExecStart) and verify checks those
	export S="$BATS_FILE_TMPDIR/prefix"
	make -C "$ROOT" --no-print-directory -s install PREFIX="$S" > /dev/null
	export UNITS="$S/lib/systemd/system"
}

setup() {
	command -v systemd-analyze > /dev/null ||
		skip "systemd-analyze is not installed (Debian: systemd; mk/deps.sh lists it)"
}

# the exposure number of "Overall exposure level for UNIT: 1.5 OK"
exposure() {
	systemd-analyze security --offline=true --no-pager "$1" 2>&1 |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p'
}
# A <= B for decimal numbers
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 <= b + 0) }'; }

@test "units: make install puts each unit in SYSTEMDUNITDIR, naming the installed binaries" {
	for u in "$ROOT"/contrib/systemd/*.service "$ROOT"/contrib/systemd/*.timer; do
		[ -f "$UNITS/${u##*/}" ] || fail "${u##*/} not installed"
		[ "$(stat -c %a "$UNITS/${u##*/}")" = 644 ]
	done
	run grep -h '^ExecStart=' "$UNITS"/*.service
	assert_line "ExecStart=$S/bin/rdmastat --prom -o /var/lib/prometheus/node-exporter/rdmadiag.prom"
	assert_line "ExecStart=$S/bin/rdmadiag_exporter \$ARGS"
	# the sources name /usr/bin, as a package (PREFIX=/usr) installs the tools
	run grep -h '^ExecStart=' "$ROOT"/contrib/systemd/*.service
	assert_line "ExecStart=/usr/bin/rdmastat --prom -o /var/lib/prometheus/node-exporter/rdmadiag.prom"
	assert_line "ExecStart=/usr/bin/rdmadiag_exporter \$ARGS"
}

@test "units: systemd-analyze verify finds nothing in any unit" {
	local man=yes
	# The agent's binary is built on another branch until it lands: a stand-in, only so
	# that verify (which checks that ExecStart's file is executable) has one to find.
	if [ ! -x "$S/bin/rdmadiag_exporter" ]; then
		printf '#!/bin/sh\nexit 0\n' > "$S/bin/rdmadiag_exporter"
		chmod 755 "$S/bin/rdmadiag_exporter"
	fi
	# verify runs man for each Documentation=man:PAGE: the installed pages, less the
	# agent's while it has none (--man=no skips that check, and only that one)
	[ -f "$ROOT/man/man8/rdmadiag_exporter.8" ] || man=no
	run env MANPATH="$S/share/man:" systemd-analyze verify --man="$man" \
		"$UNITS"/prometheus-node-exporter-rdmadiag.service \
		"$UNITS"/prometheus-node-exporter-rdmadiag.timer "$UNITS"/rdmadiag-exporter.service
	assert_success
	assert_output ""
	# the textfile pair with every check, man pages included
	run env MANPATH="$S/share/man:" systemd-analyze verify --man=yes \
		"$UNITS"/prometheus-node-exporter-rdmadiag.service \
		"$UNITS"/prometheus-node-exporter-rdmadiag.timer
	assert_success
	assert_output ""
}

@test "units: verify fails a unit whose binary is not there (the check above can fail)" {
	sed 's|^ExecStart=[^ ]*|ExecStart=/nonexistent/rdmastat|' \
		"$UNITS"/prometheus-node-exporter-rdmadiag.service > "$BATS_TEST_TMPDIR/x.service"
	run systemd-analyze verify --man=no "$BATS_TEST_TMPDIR/x.service"
	assert_failure
	assert_output --partial "/nonexistent/rdmastat"
}

@test "units: the textfile service's exposure is at most what rdmastat(1) states" {
	local want got
	# NODE EXPORTER TEXTFILE: ... "exposure level" N
	want=$(sed -n 's/.*exposure level \([0-9][0-9.]*\).*/\1/p' "$ROOT/man/man1/rdmastat.1" | head -1)
	[ -n "$want" ] || fail "rdmastat(1) states no exposure level"
	got=$(exposure "$UNITS"/prometheus-node-exporter-rdmadiag.service)
	[ -n "$got" ] || fail "no 'Overall exposure level' line: $(systemd-analyze security --offline=true "$UNITS"/prometheus-node-exporter-rdmadiag.service 2>&1 | tail -3)"
	le "$got" "$want" || fail "exposure $got, rdmastat(1) states $want"
}

@test "units: the agent's exposure is at most $AGENT_EXPOSURE" {
	local got
	got=$(exposure "$UNITS"/rdmadiag-exporter.service)
	[ -n "$got" ] || fail "no 'Overall exposure level' line"
	le "$got" "$AGENT_EXPOSURE" || fail "exposure $got, bound $AGENT_EXPOSURE"
	# the bound bites: without the hardening the same unit is far above it
	printf '[Service]\nExecStart=%s\n' "$S/bin/rdmadiag_exporter" > "$BATS_TEST_TMPDIR/bare.service"
	got=$(exposure "$BATS_TEST_TMPDIR/bare.service")
	[ -n "$got" ] && ! le "$got" "$AGENT_EXPOSURE" || fail "an unhardened copy scores $got"
}

@test "units: no PrivateDevices for the agent (it would hide /dev/infiniband), /sys only read" {
	run grep -E '^(PrivateDevices|ProtectSystem|ProtectKernelTunables|DeviceAllow|CapabilityBoundingSet|DynamicUser|NoNewPrivileges)=' \
		"$UNITS"/rdmadiag-exporter.service
	refute_line --regexp '^PrivateDevices=(yes|true|1)'
	assert_line "ProtectSystem=strict"
	assert_line "DeviceAllow=char-infiniband_verbs rw"
	assert_line "CapabilityBoundingSet="
	assert_line "DynamicUser=yes"
	assert_line "NoNewPrivileges=yes"
	# the textfile service may write its one directory only
	run grep -E '^(ReadWritePaths|ProtectSystem)=' "$UNITS"/prometheus-node-exporter-rdmadiag.service
	assert_output "ProtectSystem=strict
ReadWritePaths=/var/lib/prometheus/node-exporter"
}
