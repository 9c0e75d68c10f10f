#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make dist: the release tarball rdmadiag-VERSION.tar.gz, git archive of HEAD under the
# prefix rdmadiag-VERSION/.  Made in a scratch clone of this tree, unpacked elsewhere, it
# builds and its unit tier passes there (no git, nothing from this tree); make dist refuses
# outside a git checkout in one line.  The build is at -O0 to keep the tier fast: what is
# tested is that the tarball holds everything the build and the unit tier need.
load helper

setup_file() {
	[ -e "$ROOT/.git" ] || return 0
	export DIST_T=$BATS_FILE_TMPDIR
	git clone -q "$ROOT" "$DIST_T/clone"
}

version() { sed -n 's/^VERSION *:= *//p' "$ROOT/GNUmakefile"; }

@test "make dist: the tarball of HEAD under rdmadiag-VERSION/, and it builds and passes check-unit" {
	[ -e "$ROOT/.git" ] || skip "not a git checkout"
	local v d
	v=$(version)
	[ -n "$v" ]
	d=rdmadiag-$v
	cd "$DIST_T/clone"
	run --separate-stderr make --no-print-directory dist
	assert_success
	assert_output "  DIST   $d.tar.gz"
	[ -z "$stderr" ] || fail "a fresh clone has no uncommitted change: $stderr"
	[ -f "$d.tar.gz" ]
	# every entry under the one prefix, every file git tracks and nothing else
	tar tzf "$d.tar.gz" > "$DIST_T/list"
	run grep -v "^$d/" "$DIST_T/list"
	assert_output ""
	diff <(grep -v '/$' "$DIST_T/list" | sed "s|^$d/||" | sort) <(git ls-files | sort) ||
		fail "the tarball is not git's HEAD"
	mkdir "$DIST_T/unpack"
	tar xzf "$d.tar.gz" -C "$DIST_T/unpack"
	cd "$DIST_T/unpack/$d"
	[ ! -e .git ]
	# the unit tier, built from the tarball alone
	RDMADIAG_SKIP_DEPS=1 run make --no-print-directory -j2 OPT=-O0 check-unit
	local last=${lines[${#lines[@]} - 1]}
	[[ "$last" =~ ^([0-9]+)\ passed,\ 0\ failed ]] || fail "check-unit in the tarball: $last"
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "no unit test ran: $last"
	assert_success
}

@test "make dist outside a git checkout: one line, exit 2, no tarball" {
	local t=$BATS_TEST_TMPDIR/nogit
	mkdir "$t"
	cp "$ROOT/GNUmakefile" "$t/"
	cd "$t"
	run --separate-stderr make --no-print-directory -s dist
	[ "$status" -eq 2 ] || fail "exit $status"
	[ "${stderr%%$'\n'*}" = "make dist: not a git checkout (the tarball is made with git archive)" ] ||
		fail "$stderr"
	[ -z "$output" ]
	run ls "$t"
	assert_output "GNUmakefile"
}
