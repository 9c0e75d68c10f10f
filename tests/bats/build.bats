#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The build follows header edits into the shared library: GNUmakefile includes the .pic.d
# dependency files beside the .d ones, so touching a private header recompiles the .pic.o
# files that include it (and only those) and relinks librdmadiag.so.0.  Checked with make -n
# in a scratch copy of the built tree (timestamps kept), never in the tree itself.
load helper

# The make run here is a make of its own, whatever make runs bats (make -j2 check-bats) or none
# (bats tests/bats/build.bats): nothing of the outer make's MAKEFLAGS, MFLAGS, GNUMAKEFLAGS or
# MAKELEVEL reaches it but its variable overrides (make check-bats DEVELOPER=1 SANITIZE=...:
# the tree was built with them).  Inherited, -j2 brought the outer jobserver (whose
# descriptors bats does not pass on: "jobserver unavailable" or "-jN forced in submake"
# warnings in the output compared here), -B made every target out of date, -k, -i, -e, -w
# changed what make does and says.
inner_make() {
	local m=" ${MAKEFLAGS:-}" vars=
	# GNU make writes the overrides after the options, behind " -- ", escaped as it reads them
	[[ $m != *" -- "* ]] || vars=${m#*" -- "}
	env -u MAKEFLAGS -u MFLAGS -u GNUMAKEFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		${vars:+"MAKEFLAGS=-- $vars"} make "$@"
}

setup() {
	S="$BATS_TEST_TMPDIR/tree"
	mkdir -p "$S"
	cp -a "$ROOT/GNUmakefile" "$ROOT/.build-flags" "$ROOT/lib" "$ROOT/mk" "$ROOT/tools" \
		"$ROOT/tui" "$S/"
	# up to date as the tree was built (a no-op unless the copy's flags differ: make check
	# passes SANITIZE=/DEVELOPER= down through MAKEFLAGS)
	inner_make -C "$S" --no-print-directory -s all > /dev/null
	run inner_make -C "$S" --no-print-directory -q all
	assert_success
	HDR=lib/packet/cursor.h
	# the objects of the shared and of the static library that include it, as the compiler
	# recorded them (for the sources there are: a merge may leave a stale .d behind)
	local c
	WANT= WANT_STATIC=
	for c in "$S"/lib/*/*.c; do
		c=${c#"$S"/}
		! grep -qF "$HDR" "$S/${c%.c}.pic.d" || WANT="$WANT ${c%.c}.pic.o"
		! grep -qF "$HDR" "$S/${c%.c}.d" || WANT_STATIC="$WANT_STATIC ${c%.c}.o"
	done
	[ -n "$WANT" ] && [ -n "$WANT_STATIC" ]
}

# what make -n would build in lib/ after $HDR changed: objects and shared library (-o FILE)
rebuilt() {
	touch "$S/$HDR"
	inner_make -C "$S" --no-print-directory -n V=1 all | grep -oE -- '-o lib/[^ ]+' |
		awk '{ print $2 }' | sort -u
}

@test "a header edit recompiles the .pic.o files that include it and relinks librdmadiag.so.0" {
	run rebuilt
	assert_success
	assert_output "$(printf '%s\n' $WANT $WANT_STATIC lib/librdmadiag.so.0 | sort)"
}

@test "without the .pic.d include the same edit leaves the shared library stale (what the test above guards)" {
	sed -i 's/ \$(LIB_SRC:\.c=\.pic\.d)//' "$S/GNUmakefile"
	! grep -q 'pic\.d)' "$S/GNUmakefile"
	run rebuilt
	assert_success
	assert_output "$(printf '%s\n' $WANT_STATIC | sort)"
}
