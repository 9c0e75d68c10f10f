#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make install PREFIX= DESTDIR= puts binaries, library, headers, pkg-config file, man pages
# and completions in place; the installed tools are self-contained (they link librdmadiag.a,
# as tcpdump links libnetdissect.a), the shared library is there for other programs.
load helper

setup_file() {
	export DEST="$BATS_FILE_TMPDIR/dest"
	make -C "$ROOT" --no-print-directory -s install PREFIX=/opt/rd DESTDIR="$DEST" >/dev/null
}

@test "library installed with its soname link, static archive and headers" {
	[ -f "$DEST/opt/rd/lib/librdmadiag.so.0" ]
	[ -L "$DEST/opt/rd/lib/librdmadiag.so" ]
	[ -f "$DEST/opt/rd/lib/librdmadiag.a" ]
	[ -f "$DEST/opt/rd/include/rdmadiag/packet.h" ]
	# the tools' text/JSON writer is theirs, not the library's
	[ ! -e "$DEST/opt/rd/include/rdmadiag/out.h" ]
	run objdump -p "$DEST/opt/rd/lib/librdmadiag.so.0"
	assert_output --partial "SONAME               librdmadiag.so.0"
}

@test "only rdiag_ symbols are exported from the shared library" {
	run sh -c "nm -D --defined-only '$DEST/opt/rd/lib/librdmadiag.so.0' | awk '\$2 ~ /[TDBR]/ {print \$3}' | grep -v '^rdiag_' | grep -v '^RDMADIAG_'"
	assert_output ""
}

@test "pkg-config file points at the prefix" {
	run env PKG_CONFIG_PATH="$DEST/opt/rd/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$DEST" pkg-config --cflags --libs rdmadiag
	assert_success
	assert_output --partial "-I$DEST/opt/rd/include"
	assert_output --partial "-L$DEST/opt/rd/lib"
	assert_output --partial "-lrdmadiag"
	# programs built against the installed library: tests/bats/examples.bats
}

@test "installed tools run on their own: no librdmadiag.so needed, no RUNPATH to search" {
	n=0
	mv "$DEST/opt/rd/lib" "$DEST/opt/rd/lib.away"
	for t in "$DEST"/opt/rd/bin/*; do
		[ -e "$t" ] || continue
		run "$t" --version
		assert_success
		assert_output --partial "$(basename "$t")"
		run readelf -d "$t"
		assert_success
		assert_output --partial "libc.so.6"
		refute_output --partial librdmadiag
		refute_output --partial RUNPATH
		refute_output --partial RPATH
		n=$((n + 1))
	done
	mv "$DEST/opt/rd/lib.away" "$DEST/opt/rd/lib"
	[ "$n" -gt 0 ]
}

@test "man pages and completions installed for every installed tool" {
	for t in "$DEST"/opt/rd/bin/*; do
		[ -e "$t" ] || continue
		b=$(basename "$t")
		[ -f "$DEST/opt/rd/share/man/man1/$b.1" ] || [ -f "$DEST/opt/rd/share/man/man8/$b.8" ] ||
			fail "no man page for $b"
		[ -f "$DEST/opt/rd/share/bash-completion/completions/$b" ] || fail "no bash completion for $b"
		[ -f "$DEST/opt/rd/share/zsh/site-functions/_$b" ] || fail "no zsh completion for $b"
	done
}

@test "systemd units installed to SYSTEMDUNITDIR, naming the installed tools" {
	local u n=0
	for u in "$ROOT"/contrib/systemd/*.service "$ROOT"/contrib/systemd/*.timer; do
		[ -f "$DEST/opt/rd/lib/systemd/system/${u##*/}" ] || fail "${u##*/} not installed"
		n=$((n + 1))
	done
	[ "$n" -ge 3 ]
	# ExecStart names $(BINDIR), where the tools are: /usr/bin in the sources (PREFIX=/usr)
	run grep -h '^ExecStart=' "$DEST"/opt/rd/lib/systemd/system/*.service
	assert_line --partial "ExecStart=/opt/rd/bin/rdmastat --prom -o "
	refute_output --partial /usr/bin/
	# the knob: another directory, and nothing in the default one
	make -C "$ROOT" --no-print-directory -s install PREFIX=/opt/rd DESTDIR="$BATS_TEST_TMPDIR/d" \
		SYSTEMDUNITDIR=/etc/systemd/system > /dev/null
	[ -f "$BATS_TEST_TMPDIR/d/etc/systemd/system/prometheus-node-exporter-rdmadiag.timer" ]
	[ ! -e "$BATS_TEST_TMPDIR/d/opt/rd/lib/systemd" ]
}

@test "uninstall removes what install put there" {
	make -C "$ROOT" --no-print-directory -s uninstall PREFIX=/opt/rd DESTDIR="$DEST" >/dev/null
	run find "$DEST" -type f
	assert_output ""
}
