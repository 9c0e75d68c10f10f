#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The release artifacts, made from a scratch clone of this tree:
# - make dist: the tarball rdmadiag-VERSION.tar.gz, git archive of HEAD under the prefix
#   rdmadiag-VERSION/; make dist refuses outside a git checkout in one line;
# - the Debian packages (debian/): dpkg-buildpackage -us -uc -b in the unpacked tarball
#   builds librdmadiag0, librdmadiag-dev, rdmadiag and rdmadiag-exporter; lintian finds no
#   error and only the
#   warnings listed below; the packages, unpacked with dpkg -x, hold tools that run, a
#   library whose SONAME and symbols file agree, and a -dev whose pkg-config file and examples
#   build programs;
# - the unit tier, built in the same unpacked tarball (no git, nothing from this tree).
# One clone, one tarball, one build: the unit tier reuses the package build's objects (the
# same make arguments, read from debian/rules), and the build is at -O0 (noopt) to keep the
# tier fast: what is tested is that the tarball holds everything the build, the packages and
# the unit tier need.  The package tests skip when dpkg-buildpackage is absent, and fail
# then in CI (CI=true).
load helper

# lintian's W: lines the packages are allowed, one per entry, each with the reason it is not
# fixed (and a debian/*.lintian-overrides entry would be the other way).  Empty: none.
LINTIAN_WARNINGS=()

# dpkg-buildpackage's environment here: two jobs, -O0 and no -g (dpkg-buildflags), no
# debug-symbol packages, gzip -1 instead of xz -6 (dpkg-deb)
DEB_ENV=(DEB_BUILD_OPTIONS="parallel=2 noopt noautodbgsym" DEB_CFLAGS_STRIP=-g
	DPKG_DEB_COMPRESSOR_TYPE=gzip DPKG_DEB_COMPRESSOR_LEVEL=1)

# The work is done once, here; the tests read what it left in $T.  With dpkg-buildpackage,
# what is single-threaded overlaps what is not: once dh's build sequence is done (debian/
# debhelper-build-stamp), the unit tier builds (make -j2) and runs beside the binary
# packaging (dh_install ... dpkg-deb), and lintian beside the rest of the unit tier.
setup_file() {
	[ -e "$ROOT/.git" ] || return 0
	export T=$BATS_FILE_TMPDIR
	# a make of its own: nothing of the make that runs bats (make check's -j2, its variable
	# overrides such as SANITIZE=, which make also exports into the environment) reaches
	# the package build or the unit tier
	unset MAKEFLAGS MFLAGS GNUMAKEFLAGS MAKELEVEL MAKEOVERRIDES SANITIZE DEVELOPER OPT
	git clone -q "$ROOT" "$T/clone"
	local v
	v=$(version)
	export D="$T/unpack/rdmadiag-$v"
	# (bats runs this with set -e: a status is kept with ||, not read from $? afterwards)
	(st=0; cd "$T/clone" && make --no-print-directory dist > "$T/dist.out" 2> "$T/dist.err" ||
	 st=$?; echo "$st" > "$T/dist.rc")
	mkdir "$T/unpack"
	tar xzf "$T/clone/rdmadiag-$v.tar.gz" -C "$T/unpack" || return 0
	if ! have_dpkg; then
		(cd "$D" && RDMADIAG_SKIP_DEPS=1 make --no-print-directory -j2 OPT=-O0 check-unit \
			> "$T/unit.out" 2>&1) || :
		return 0
	fi
	# the host's Debian architecture and multiarch directory (dpkg-architecture is slow to ask)
	export ARCH MA
	ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
	MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	(st=0; cd "$D" && env "${DEB_ENV[@]}" dpkg-buildpackage -us -uc -b > "$T/deb.log" 2>&1 ||
	 st=$?; echo "$st" > "$T/deb.rc") &
	local deb=$! unit lintian rc i p
	for ((i = 0; i < 6000; i++)); do	# 20 minutes in 0.2 s steps
		[ ! -e "$D/debian/debhelper-build-stamp" ] && kill -0 "$deb" 2> /dev/null || break
		sleep 0.2
	done
	ls -l --time-style=+%s.%N "$D/lib/librdmadiag.a" > "$T/lib-a.before" 2>&1 || :
	# the unit tier with the make arguments the package is built with: nothing to rebuild
	(cd "$D" && args=$(env "${DEB_ENV[@]}" make -s -f debian/rules \
		--eval 'print-make-args: ; $(info $(MAKE_ARGS))@:' print-make-args) &&
	 eval "make --no-print-directory -j2 check-unit $args" > "$T/unit.out" 2>&1) &
	unit=$!
	wait "$deb" || :
	mkdir "$T/root"
	for p in "$T"/unpack/*.deb; do [ ! -e "$p" ] || dpkg -x "$p" "$T/root"; done
	lintian "$T/unpack/rdmadiag_${v}_$ARCH.changes" \
		> "$T/lintian.out" 2> "$T/lintian.err" &
	lintian=$!
	wait "$unit" || :
	rc=0
	wait "$lintian" || rc=$?
	echo "$rc" > "$T/lintian.rc"
}

version() { sed -n 's/^VERSION *:= *//p' "$ROOT/GNUmakefile"; }
have_dpkg() { command -v dpkg-buildpackage > /dev/null; }
need_deb() {
	[ -e "$ROOT/.git" ] || skip "not a git checkout"
	if ! have_dpkg; then
		[ "${CI:-}" != true ] || fail "no dpkg-buildpackage in CI (mk/deps.sh installs dpkg-dev)"
		skip "no dpkg-buildpackage (apt-get install dpkg-dev debhelper lintian)"
	fi
	[ "$(cat "$T/deb.rc")" = 0 ] || fail "dpkg-buildpackage failed: $(tail -30 "$T/deb.log")"
}

@test "make dist: the tarball of HEAD under rdmadiag-VERSION/" {
	[ -e "$ROOT/.git" ] || skip "not a git checkout"
	local d=rdmadiag-$(version)
	[ "$(cat "$T/dist.rc")" = 0 ] || fail "make dist: $(cat "$T/dist.err")"
	[ "$(cat "$T/dist.out")" = "  DIST   $d.tar.gz" ] || fail "$(cat "$T/dist.out")"
	[ ! -s "$T/dist.err" ] || fail "a fresh clone has no uncommitted change: $(cat "$T/dist.err")"
	# every entry under the one prefix, every file git tracks and nothing else
	tar tzf "$T/clone/$d.tar.gz" > "$T/list"
	run grep -v "^$d/" "$T/list"
	assert_output ""
	diff <(grep -v '/$' "$T/list" | sed "s|^$d/||" | sort) <(git -C "$T/clone" ls-files | sort) ||
		fail "the tarball is not git's HEAD"
}

@test "the unpacked tarball alone builds and passes check-unit, on the package build's objects" {
	[ -e "$ROOT/.git" ] || skip "not a git checkout"
	[ ! -e "$D/.git" ]
	run tail -1 "$T/unit.out"
	[[ "$output" =~ ^([0-9]+)\ passed,\ 0\ failed ]] ||
		fail "check-unit in the tarball: $(grep -A6 '^not ok' "$T/unit.out"; tail -3 "$T/unit.out")"
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "no unit test ran: $output"
	have_dpkg || return 0
	# the library the package holds was not built again for the unit tier: debian/rules'
	# MAKE_ARGS are the package build's only make arguments (else this file takes a second
	# full build longer)
	[ "$(ls -l --time-style=+%s.%N "$D/lib/librdmadiag.a")" = "$(cat "$T/lib-a.before")" ] ||
		fail "check-unit rebuilt the library: $(grep -m3 ' CC ' "$T/unit.out")"
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

@test "dpkg-buildpackage -us -uc -b: the four packages, hardened, no apt inside" {
	need_deb
	local v a
	v=$(version)
	a=$ARCH
	for p in librdmadiag0 librdmadiag-dev rdmadiag rdmadiag-exporter; do
		[ -f "$T/unpack/${p}_${v}_$a.deb" ] || fail "no $p package"
		grep -q " ${p}_${v}_$a.deb\$" "$T/unpack/rdmadiag_${v}_$a.changes" ||
			fail "$p is not in the .changes"
	done
	# debian/rules passes dpkg-buildflags' hardening (CPPFLAGS inside CFLAGS) to the make
	grep -q -- "-fstack-protector-strong .*-Wl,-z,relro -Wl,-z,now" "$D/.build-flags" ||
		fail "no hardening flags: $(cat "$D/.build-flags")"
	# mk/deps.sh never ran (it says "deps: ..." and calls apt-get)
	run grep -E "deps: |apt-get" "$T/deb.log"
	assert_output ""
	# what the build leaves in debian/ is git's or .gitignore's: a build in a checkout
	# leaves git status clean
	# (the clone has no such directory: "debian/tmp/" says it is one)
	run bash -c 'cd "$D" && for f in debian/* debian/.[!.]*; do
		[ -e "$f" ] || continue
		[ -d "$f" ] && g=$f/ || g=$f
		git -C "$T/clone" ls-files --error-unmatch "$f" > /dev/null 2>&1 ||
			git -C "$T/clone" check-ignore -q "$g" || echo "$f"; done'
	assert_output ""
	# dpkg-gensymbols -c4 compared the library with debian/librdmadiag0.symbols
	grep -q "dh_makeshlibs -- -c4" "$T/deb.log"
	run grep "dpkg-gensymbols: warning" "$T/deb.log"
	assert_output ""
}

@test "lintian: no error, and the warnings are the expected ones" {
	need_deb
	run grep '^E: ' "$T/lintian.out"
	assert_output ""
	[ "$(cat "$T/lintian.rc")" = 0 ] || fail "lintian exit $(cat "$T/lintian.rc"): $(cat "$T/lintian.err")"
	diff <(grep '^W: ' "$T/lintian.out" | sort) \
		<(printf '%s\n' ${LINTIAN_WARNINGS[@]+"${LINTIAN_WARNINGS[@]}"} | grep . | sort) ||
		fail "lintian's warnings (<) are not the expected list (>)"
}

@test "the packaged tools run from an unpacked root, with their man pages and completions" {
	need_deb
	local R=$T/root t n
	n=0
	for t in rdmacheck rdmadoctor rdmadump rdmastat rdmatop rdmatrace; do
		run "$R/usr/bin/$t" --version
		assert_success
		assert_output "$t (rdmadiag) $(version)"
		[ -f "$R/usr/share/man/man1/$t.1.gz" ] || fail "no man page for $t"
		[ -f "$R/usr/share/bash-completion/completions/$t" ] || fail "no bash completion for $t"
		[ -f "$R/usr/share/zsh/vendor-completions/_$t" ] || fail "no zsh completion for $t"
		n=$((n + 1))
	done
	# and the node agent, in its own package (below)
	[ "$(ls "$R/usr/bin" | wc -l)" -eq $((n + 1)) ] || fail "unexpected: $(ls "$R/usr/bin")"
	[ -f "$R/usr/share/man/man7/rdmadiag.7.gz" ]
	# on a fixture sysfs tree, the counters are the files'
	RDMADIAG_SYSFS_ROOT="$FIX/sysfs/rxe" run "$R/usr/bin/rdmastat" -j rxe0
	assert_success
	local f="$FIX/sysfs/rxe/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_rnr_err"
	[ "$(jq '.[0].rcvd_rnr_err' <<< "$output")" = "$(cat "$f")" ] || fail "$output"
	[ "$(jq -r '.[0].ifname' <<< "$output")" = rxe0 ]
}

@test "librdmadiag0: the SONAME, the package name and the symbols file agree" {
	need_deb
	local lib=$T/root/usr/lib/$MA/librdmadiag.so.0
	run objdump -p "$lib"
	assert_line --regexp '^  SONAME +librdmadiag\.so\.0$'
	# Debian policy 8.1: librdmadiag.so.0 is in librdmadiag0, the only file of its own
	run dpkg-deb -c "$T/unpack/librdmadiag0_$(version)_$ARCH.deb"
	assert_output --partial "./usr/lib/$MA/librdmadiag.so.0"
	refute_line --regexp 'librdmadiag\.so$'
	# the committed file is mk/gen-symbols.sh's output on the library just built: an export
	# added without regenerating it fails here (and dh_makeshlibs -c4 fails the build)
	cd "$D"
	diff -u debian/librdmadiag0.symbols <(mk/gen-symbols.sh "$lib") ||
		fail "debian/librdmadiag0.symbols is stale: mk/gen-symbols.sh > debian/librdmadiag0.symbols"
	# and it is what the package carries, less the comments
	diff <(grep -v '^#' debian/librdmadiag0.symbols) "$D/debian/librdmadiag0/DEBIAN/symbols"
	run head -1 "$D/debian/librdmadiag0/DEBIAN/symbols"
	assert_output "librdmadiag.so.0 librdmadiag0 #MINVER#"
}

@test "librdmadiag-dev: pkg-config names /usr, and a shipped example builds and runs" {
	need_deb
	local R=$T/root ma=$MA pc
	run env PKG_CONFIG_PATH="$R/usr/lib/$ma/pkgconfig" pkg-config --variable=prefix rdmadiag
	assert_output /usr
	run env PKG_CONFIG_PATH="$R/usr/lib/$ma/pkgconfig" pkg-config --variable=libdir rdmadiag
	assert_output "/usr/lib/$ma"
	[ -L "$R/usr/lib/$ma/librdmadiag.so" ]
	[ "$(readlink "$R/usr/lib/$ma/librdmadiag.so")" = librdmadiag.so.0 ]
	# every example is in the package's documentation
	diff <(cd "$ROOT/examples" && ls -- *.c) <(cd "$R/usr/share/doc/librdmadiag-dev/examples" && ls -- *.c)
	pc=$(PKG_CONFIG_PATH="$R/usr/lib/$ma/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$R" \
		pkg-config --cflags --libs rdmadiag)
	[[ " $pc " == *" -I$R/usr/include "* && " $pc " == *" -L$R/usr/lib/$ma "* ]] || fail "$pc"
	# shellcheck disable=SC2086
	cc -std=gnu11 -Wall -Wextra -Werror -o "$BATS_TEST_TMPDIR/packet" \
		"$R/usr/share/doc/librdmadiag-dev/examples/packet.c" $pc
	LD_LIBRARY_PATH="$R/usr/lib/$ma" run ldd "$BATS_TEST_TMPDIR/packet"
	assert_output --partial "$R/usr/lib/$ma/librdmadiag.so.0"
	LD_LIBRARY_PATH="$R/usr/lib/$ma" run "$BATS_TEST_TMPDIR/packet"
	assert_success
	assert_line --index 1 --partial "RC_SEND_ONLY qp 0x000012 psn 256 A payload 8 icrc ok"
}

@test "rdmadiag-exporter: the agent, its units and defaults, the rules and dashboard" {
	need_deb
	local R=$T/root x=$D/debian/rdmadiag-exporter
	run "$R/usr/bin/rdmadiag_exporter" --version
	assert_success
	assert_output "rdmadiag_exporter (rdmadiag) $(version)"
	[ -f "$R/usr/share/man/man8/rdmadiag_exporter.8.gz" ]
	[ -f "$R/usr/share/bash-completion/completions/rdmadiag_exporter" ]
	[ -f "$R/usr/share/zsh/vendor-completions/_rdmadiag_exporter" ]
	# the units name the packaged binaries
	for u in rdmadiag-exporter.service prometheus-node-exporter-rdmadiag.service \
		prometheus-node-exporter-rdmadiag.timer; do
		[ -f "$R/lib/systemd/system/$u" ] || fail "no $u"
	done
	grep -q '^ExecStart=/usr/bin/rdmadiag_exporter ' "$R/lib/systemd/system/rdmadiag-exporter.service"
	grep -q '^ExecStart=/usr/bin/rdmastat ' "$R/lib/systemd/system/prometheus-node-exporter-rdmadiag.service"
	# /etc/default/rdmadiag-exporter is a conffile, the example of contrib/
	cmp "$R/etc/default/rdmadiag-exporter" "$ROOT/contrib/systemd/rdmadiag-exporter.default"
	grep -qx /etc/default/rdmadiag-exporter "$x/DEBIAN/conffiles"
	# the agent and the timer are enabled on install, the timer's service is not
	grep -q "deb-systemd-helper .*enable 'rdmadiag-exporter.service'" "$x/DEBIAN/postinst" ||
		grep -q "enable.*rdmadiag-exporter.service" "$x/DEBIAN/postinst"
	grep -q "prometheus-node-exporter-rdmadiag.timer" "$x/DEBIAN/postinst"
	# the dashboard and the rules as documentation, not compressed
	for f in rdmadiag-dashboard.json rdmadiag-rules.yml rdmadiag-exporter-daemonset.yaml; do
		[ -f "$R/usr/share/doc/rdmadiag-exporter/$f" ] || fail "no $f"
	done
	run dpkg-deb -f "$T/unpack/rdmadiag-exporter_$(version)_$ARCH.deb" Depends
	assert_output --regexp "^rdmadiag \(= $(version)\), "
}
