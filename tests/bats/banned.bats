#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# lib/util/banned.h (as git's banned.h): strtok, sprintf, vsprintf, strcpy, strcat, strncpy,
# strncat, gets, asctime, ctime, gmtime and localtime do not compile in lib/, tools/ or tui/.
# A probe that calls them is compiled by the tree's own GNUmakefile, with its flags for each of
# those directories, in a scratch copy of the headers: the compile fails naming every ban,
# while a probe calling what to use instead builds.  And every object of the built tree was
# compiled with the header (the compiler's .d files name it).
load helper

setup() {
	# under `make -j2 check-bats` MAKEFLAGS names the parent's jobserver, whose descriptors bats
	# does not pass on (as in build.bats)
	MAKEFLAGS=$(sed -E 's/(^| )--jobserver-(auth|fds)=[^ ]*//g' <<< "${MAKEFLAGS:-}")
	export MAKEFLAGS
	S="$BATS_TEST_TMPDIR/tree"
	mkdir -p "$S"
	cp "$ROOT/GNUmakefile" "$S/"
	# the headers only: the probe's object is all that is built
	(cd "$ROOT" && cp --parents lib/include/rdmadiag/*.h lib/*/*.h tools/*/*.h "$S/")
}

# a function calling every banned function, into $1
bad_probe() {
	mkdir -p "$(dirname "$1")"
	cat > "$1" <<'C'
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
void probe(char *b, size_t n, const char *s, time_t t, va_list ap);
void probe(char *b, size_t n, const char *s, time_t t, va_list ap)
{
	(void)strtok(b, " ");
	(void)sprintf(b, "%s", s);
	(void)vsprintf(b, "%d", ap);
	(void)strcpy(b, s);
	(void)strcat(b, s);
	(void)strncpy(b, s, n);
	(void)strncat(b, s, n);
	(void)gets(b);
	(void)asctime(NULL);
	(void)ctime(&t);
	(void)gmtime(&t);
	(void)localtime(&t);
}
C
}

# the same work with what banned.h says to use, into $1
good_probe() {
	mkdir -p "$(dirname "$1")"
	cat > "$1" <<'C'
#include <stdio.h>
#include <string.h>
#include <time.h>
size_t probe(char *b, size_t n, const char *s, time_t t);
size_t probe(char *b, size_t n, const char *s, time_t t)
{
	char *save = NULL;
	struct tm tm;

	snprintf(b, n, "%s", s);
	if (!strtok_r(b, " ", &save) || !gmtime_r(&t, &tm) || !localtime_r(&t, &tm))
		return 0;
	return strftime(b, n, "%F", &tm);
}
C
}

# make OBJ in the scratch tree, quietly
build() { make -C "$S" --no-print-directory -s "$1"; }

@test "a call of a banned function does not compile in lib/, and the error names the ban" {
	bad_probe "$S/lib/probe/probe.c"
	run build lib/probe/probe.o
	assert_failure
	assert_output --partial "strtok_is_banned_use_strtok_r"
	assert_output --partial "sprintf_is_banned_use_snprintf"
	assert_output --partial "vsprintf_is_banned_use_vsnprintf"
	assert_output --partial "strcpy_is_banned_use_snprintf_or_memcpy"
	assert_output --partial "strcat_is_banned_use_snprintf_or_memcpy"
	assert_output --partial "strncpy_is_banned_use_snprintf_or_memcpy"
	assert_output --partial "strncat_is_banned_use_snprintf_or_memcpy"
	assert_output --partial "gets_is_banned_use_fgets"
	assert_output --partial "asctime_is_banned_use_strftime"
	assert_output --partial "ctime_is_banned_use_strftime"
	assert_output --partial "gmtime_is_banned_use_gmtime_r"
	assert_output --partial "localtime_is_banned_use_localtime_r"
	[ ! -e "$S/lib/probe/probe.o" ]
	# the shared library's objects too
	run build lib/probe/probe.pic.o
	assert_failure
	assert_output --partial "strtok_is_banned_use_strtok_r"
}

@test "a call of a banned function does not compile in tools/common, a tool's room or tui/" {
	local o
	bad_probe "$S/tools/common/probe.c"
	bad_probe "$S/tools/probe/main.c"
	bad_probe "$S/tui/main.c"
	for o in tools/common/probe.o tools/probe/main.o tui/main.o; do
		run build "$o"
		assert_failure
		assert_output --partial "strtok_is_banned_use_strtok_r"
		assert_output --partial "localtime_is_banned_use_localtime_r"
		[ ! -e "$S/$o" ]
	done
}

@test "the same probe with strtok_r, snprintf and gmtime_r compiles where the ban holds" {
	local o
	good_probe "$S/lib/probe/probe.c"
	good_probe "$S/tools/common/probe.c"
	good_probe "$S/tui/main.c"
	for o in lib/probe/probe.o lib/probe/probe.pic.o tools/common/probe.o tui/main.o; do
		run build "$o"
		assert_success
		[ -s "$S/$o" ]
	done
}

@test "every object of lib/, tools/ and tui/ in the built tree was compiled with banned.h" {
	local c d missing=
	for c in "$ROOT"/lib/*/*.c "$ROOT"/tools/*/*.c "$ROOT"/tui/*.c; do
		for d in "${c%.c}.d" "${c%.c}.pic.d"; do
			case $d in *.pic.d) [[ $c == "$ROOT"/lib/* ]] || continue ;; esac
			grep -q 'lib/util/banned\.h' "$d" || missing="$missing ${d#"$ROOT"/}"
		done
	done
	[ -z "$missing" ] || { echo "compiled without lib/util/banned.h:$missing"; false; }
}
