#!/usr/bin/env bats
# mk/check-cycles.sh (make check-cycles, part of make check): lib/ is a one-way graph of files
# and of directories.  It passes on the tree as built, and fails, naming the cycle, on a
# scratch copy of the objects into which a reference closing a cycle has been linked.
load helper

# a copy of the object of every lib/*/*.c (not the .pic.o) under $S/lib; checked there with
# the objects named on the command line (the copy has no sources)
copy_objects() {
	S="$BATS_TEST_TMPDIR/tree"
	local c
	for c in "$ROOT"/lib/*/*.c; do
		mkdir -p "$S/lib/$(basename "$(dirname "$c")")"
		cp "${c%.c}.o" "$S/lib/$(basename "$(dirname "$c")")/"
	done
}

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

@test "the built tree has no file cycle and no directory cycle in lib/" {
	local nfiles ndirs
	nfiles=$(ls "$ROOT"/lib/*/*.c | wc -l)
	ndirs=$(ls -d "$ROOT"/lib/*/ | grep -vc '/include/$')
	cd "$ROOT"
	run mk/check-cycles.sh "$BATS_TEST_TMPDIR/cycles.tap"
	assert_success
	assert_output "cycles: $nfiles files in $ndirs directories, no cycle"
	run cat "$BATS_TEST_TMPDIR/cycles.tap"
	assert_line --index 0 "1..2"
	assert_line --index 1 "ok 1 - no two files of lib/ depend on each other in a cycle"
	assert_line --index 2 "ok 2 - the directories (modules) of lib/ depend one way"
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
	assert_output --partial "cycles found"
	assert_output --regexp "check-cycles: file cycle:.* lib/counters/discover\.c"
	assert_output --regexp "check-cycles: file cycle:.* lib/counters/sysfs\.c"
	assert_output --partial "lib/counters/sysfs.c -> lib/counters/discover.c ($back)"
	assert_output --partial "lib/counters/discover.c -> lib/counters/sysfs.c ("
	# nothing else is in that cycle, and the directory graph is still one-way
	run grep '^# cycle:' "$S/cycles.tap"
	assert_output "# cycle: lib/counters/discover.c lib/counters/sysfs.c"
	run grep -E '^(not )?ok' "$S/cycles.tap"
	assert_output "not ok 1 - no two files of lib/ depend on each other in a cycle
ok 2 - the directories (modules) of lib/ depend one way"
	# make check's closing line counts it
	run "$ROOT/mk/tally.sh" "$S/cycles.tap"
	assert_failure
	assert_output "1 passed, 1 failed, 0 skipped"
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
	assert_output "ok 1 - no two files of lib/ depend on each other in a cycle
not ok 2 - the directories (modules) of lib/ depend one way"
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
