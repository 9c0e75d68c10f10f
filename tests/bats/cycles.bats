#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mk/check-cycles.sh (make check-cycles, part of make check): lib/, tools/ and tui/ are a
# one-way graph of files and of directories, a tool's room uses only tools/common and the
# library, and lib/'s module edges are mk/module-edges.  It passes on the tree as built, and
# fails, naming the edge, on a scratch copy of the objects into which a reference closing a
# cycle, or crossing from one room to another, has been linked.
load helper

# a copy of the object of every lib/*/*.c (not the .pic.o), tools/*/*.c and tui/*.c under
# $S; checked there with the objects named on the command line (the copy has no sources)
copy_objects() {
	S="$BATS_TEST_TMPDIR/tree"
	mkdir -p "$S"
	(
		cd "$ROOT" || exit
		objs=()
		for c in lib/*/*.c tools/*/*.c tui/*.c; do
			objs+=("${c%.c}.o")
		done
		cp --parents "${objs[@]}" "$S/"
	)
	cp "$ROOT/mk/module-edges" "$S/edges"
}
# every object of the copy
all_objects() { ls lib/*/*.o tools/*/*.o tui/*.o; }

# the global symbols an object defines / needs
defined() { nm -P --defined-only "$1" | awk '$2 ~ /^[A-TV-Z]$/ { print $1 }' | sort -u; }
needed() { nm -P --undefined-only "$1" | awk '{ print $1 }' | sort -u; }

# link into object $1 an undefined reference to symbol $2 (as a call from $1 would add)
inject_ref() {
	printf 'extern char %s[];\nvoid *rd_injected_ref(void);\nvoid *rd_injected_ref(void) { return %s; }\n' \
		"$2" "$2" > "$BATS_TEST_TMPDIR/inject.c"
	${CC:-cc} -c -o "$BATS_TEST_TMPDIR/inject.o" "$BATS_TEST_TMPDIR/inject.c"
	ld -r -o "$1.new" "$1" "$BATS_TEST_TMPDIR/inject.o"
	mv "$1.new" "$1"
	needed "$1" | grep -qx "$2"
}

@test "the built tree has no file cycle, no directory cycle, no room crossing, the declared edges" {
	local nfiles ndirs
	nfiles=$(ls "$ROOT"/lib/*/*.c "$ROOT"/tools/*/*.c "$ROOT"/tui/*.c | wc -l)
	ndirs=$(( $(ls -d "$ROOT"/lib/*/ | grep -vc '/include/$') + $(ls -d "$ROOT"/tools/*/ | wc -l) + 1 ))
	cd "$ROOT"
	run mk/check-cycles.sh -e mk/module-edges "$BATS_TEST_TMPDIR/cycles.tap"
	assert_success
	assert_output "cycles: $nfiles files in $ndirs directories, no cycle"
	run cat "$BATS_TEST_TMPDIR/cycles.tap"
	assert_line --index 0 "1..4"
	assert_line --index 1 "ok 1 - no two files depend on each other in a cycle"
	assert_line --index 2 "ok 2 - the directories (modules and rooms) depend one way"
	assert_line --index 3 "ok 3 - a room uses only the library, and a tool room tools/common too"
	assert_line --index 4 "ok 4 - the modules of lib/ use each other as mk/module-edges says"
}

@test "an injected file cycle (sysfs.c calls back into discover.c) fails and is named" {
	copy_objects
	local sym back
	# discover.c (the orchestrator) uses sysfs.c (a backend) ...
	sym=$(comm -12 <(needed "$S/lib/counters/discover.o") <(defined "$S/lib/counters/sysfs.o") | head -1)
	[ -n "$sym" ]
	# ... and now sysfs.c uses discover.c too
	back=$(defined "$S/lib/counters/discover.o" | head -1)
	[ -n "$back" ]
	inject_ref "$S/lib/counters/sysfs.o" "$back"
	cd "$S"
	run "$ROOT/mk/check-cycles.sh" "$S/cycles.tap" lib/*/*.o
	assert_failure 1
	assert_output --partial "problems found"
	assert_output --regexp "check-cycles: file cycle:.* lib/counters/discover\.c"
	assert_output --regexp "check-cycles: file cycle:.* lib/counters/sysfs\.c"
	assert_output --partial "lib/counters/sysfs.c -> lib/counters/discover.c ($back)"
	assert_output --partial "lib/counters/discover.c -> lib/counters/sysfs.c ("
	# nothing else is in that cycle, and the directory graph is still one-way
	run grep '^# cycle:' "$S/cycles.tap"
	assert_output "# cycle: lib/counters/discover.c lib/counters/sysfs.c"
	run grep -E '^(not )?ok' "$S/cycles.tap"
	assert_output "not ok 1 - no two files depend on each other in a cycle
ok 2 - the directories (modules and rooms) depend one way
ok 3 - a room uses only the library, and a tool room tools/common too"
	# make check's closing line counts it
	run "$ROOT/mk/tally.sh" "$S/cycles.tap"
	assert_failure
	assert_output "2 passed, 1 failed, 0 skipped"
}

@test "an injected directory cycle (counters uses selftest, which uses counters) fails and is named" {
	copy_objects
	local back
	# lib/selftest uses lib/counters (the counter deltas of the self-tests) ...
	local o
	[ -n "$(comm -12 <(needed "$S/lib/selftest/selftest_counters.o") \
		<(for o in "$S"/lib/counters/*.o; do defined "$o"; done | sort -u))" ]
	# ... and now a counters file uses a selftest file that does not lead back to it: a
	# cycle between the directories without any cycle between files
	back=$(defined "$S/lib/selftest/selftest_fmt.o" | head -1)
	[ -n "$back" ]
	inject_ref "$S/lib/counters/rate.o" "$back"
	cd "$S"
	run "$ROOT/mk/check-cycles.sh" "$S/cycles.tap" lib/*/*.o
	assert_failure 1
	assert_output --partial "check-cycles: directory cycle: lib/counters lib/selftest"
	assert_output --partial "lib/counters -> lib/selftest (lib/counters/rate.c -> $back)"
	assert_output --regexp "lib/selftest -> lib/counters \(lib/selftest/[a-z_]+\.c -> rd"
	run grep -E '^(not )?ok' "$S/cycles.tap"
	assert_output "ok 1 - no two files depend on each other in a cycle
not ok 2 - the directories (modules and rooms) depend one way
ok 3 - a room uses only the library, and a tool room tools/common too"
}

@test "an injected tool-to-tool edge (rdmadump uses rdmastat's room) fails and is named" {
	copy_objects
	local sym
	# a function of rdmastat's own room, not of tools/common
	sym=$(defined "$S/tools/rdmastat/fabric.o" | head -1)
	[ -n "$sym" ]
	inject_ref "$S/tools/rdmadump/print.o" "$sym"
	cd "$S"
	run "$ROOT/mk/check-cycles.sh" -e edges "$S/cycles.tap" $(all_objects)
	assert_failure 1
	assert_output --partial "check-cycles: tools/rdmadump may not use tools/rdmastat (tools/rdmadump/print.c -> $sym)"
	run grep -E '^(not )?ok' "$S/cycles.tap"
	assert_output "ok 1 - no two files depend on each other in a cycle
ok 2 - the directories (modules and rooms) depend one way
not ok 3 - a room uses only the library, and a tool room tools/common too
ok 4 - the modules of lib/ use each other as edges says"
}

@test "rdmatop's room using a tool's room, tools/common using a room, lib/ using tools/ all fail" {
	copy_objects
	local dump common
	dump=$(defined "$S/tools/rdmadump/summary.o" | head -1)
	common=$(defined "$S/tools/common/esc.o" | head -1)
	[ -n "$dump" ] && [ -n "$common" ]
	inject_ref "$S/tui/table.o" "$dump"
	inject_ref "$S/tools/common/timefmt.o" "$dump"
	inject_ref "$S/lib/packet/names.o" "$common"
	cd "$S"
	run "$ROOT/mk/check-cycles.sh" "$S/cycles.tap" $(all_objects)
	assert_failure 1
	assert_output --partial "check-cycles: tui may not use tools/rdmadump (tui/table.c -> $dump)"
	assert_output --partial "check-cycles: tools/common may not use tools/rdmadump (tools/common/timefmt.c -> $dump)"
	assert_output --partial "check-cycles: lib/packet may not use tools/common (lib/packet/names.c -> $common)"
}

@test "a module edge the code has and mk/module-edges lacks, or the other way round, fails" {
	copy_objects
	# the file loses capture's one edge and gains one the code does not have
	sed -i -e '/^capture:/d' -e 's/^flow: packet$/flow: packet counters/' "$S/edges"
	cd "$S"
	run "$ROOT/mk/check-cycles.sh" -e edges "$S/cycles.tap" $(all_objects)
	assert_failure 1
	assert_output --regexp "check-cycles: capture -> packet is in the code \(lib/capture/[a-z_]+\.c -> [a-z_0-9]+\), not in edges"
	assert_output --partial "check-cycles: flow -> counters is in edges, not in the code"
	run grep -E '^(not )?ok 4' "$S/cycles.tap"
	assert_output "not ok 4 - the modules of lib/ use each other as edges says"
}

@test "an unreadable edges file is a failure, not a pass" {
	cd "$ROOT"
	run mk/check-cycles.sh -e "$BATS_TEST_TMPDIR/none" "$BATS_TEST_TMPDIR/c.tap"
	assert_failure
	assert_output "check-cycles: cannot read the module edges file '$BATS_TEST_TMPDIR/none'"
}

@test "a source without its object is a failure, not a pass" {
	mkdir -p "$BATS_TEST_TMPDIR/empty/lib/x"
	cd "$BATS_TEST_TMPDIR/empty"
	run "$ROOT/mk/check-cycles.sh" "$BATS_TEST_TMPDIR/empty.tap"
	assert_failure
	assert_output "check-cycles: no lib/*/*.c here (run it from the top of the tree)"
	: > lib/x/y.c
	run "$ROOT/mk/check-cycles.sh" "$BATS_TEST_TMPDIR/empty.tap"
	assert_failure
	assert_output "check-cycles: lib/x/y.o is not built (make first)"
	run cat "$BATS_TEST_TMPDIR/empty.tap"
	assert_output "1..1
not ok 1 - cycles: lib/x/y.o is not built (make first)"
}
