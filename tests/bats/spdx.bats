#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# mk/check-spdx.sh (part of make check): every source file carries the licence line of
# COPYING in its first three lines.  On a small scratch tree: a file without it fails the
# check and is named, --add inserts it where each language wants it, and a file naming
# another licence is reported, never rewritten; on a clone of this tree, --add leaves every
# source file with its line and every script with its first line.
load helper

LINE='SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB'

# a scratch tree with the checker, some files with the line and some without: $S
mini_tree() {
	S=$BATS_TEST_TMPDIR/tree
	mkdir -p "$S/mk" "$S/lib/x" "$S/tools" "$S/completions/zsh" "$S/tests/vm/dcbdev" \
		"$S/tests/fixtures/gen" "$S/tests/fuzz/corpus-x" "$S/scripts"
	cp "$ROOT/mk/check-spdx.sh" "$S/mk/"
	printf '/* %s */\n/* a.c */\nint a;\n' "$LINE" > "$S/lib/x/a.c"
	printf '/* b.c: no licence line */\nint b;\n' > "$S/lib/x/b.c"
	printf '#!/bin/sh\necho t\n' > "$S/tools/t.sh"
	chmod 755 "$S/tools/t.sh"
	printf '#compdef t\n_arguments -s\n' > "$S/completions/zsh/_t"
	printf 'all:\n\ttrue\n' > "$S/GNUmakefile"
	printf '// SPDX-License-Identifier: GPL-2.0\nint m;\n' > "$S/tests/vm/dcbdev/m.c"
	printf 'import sys\n' > "$S/tests/fixtures/gen/mk.py"
	printf 'not source\n' > "$S/tests/fixtures/gen/data.txt"
	printf '#!/bin/sh\n' > "$S/tests/fuzz/corpus-x/seed-00"
	printf '# readme\n' > "$S/README.md"
	printf '#!/usr/bin/env python3\nprint(1)\n' > "$S/scripts/run"
	printf '# SPDX-License-Identifier: MIT\necho mit\n' > "$S/scripts/mit.sh"
	git -C "$S" init -q
	git -C "$S" add -A
}

@test "make check runs the SPDX check into its own TAP file" {
	run sed -n '/^check: /,/^$/p' "$ROOT/GNUmakefile"
	assert_line --partial 'mk/check-spdx.sh $(TAPDIR)/spdx.tap'
}

@test "a source file without the line fails the check, each one named in the TAP" {
	mini_tree
	cd "$S"
	run --separate-stderr mk/check-spdx.sh "$S/spdx.tap"
	assert_failure 1
	assert_output "spdx: 7 of 10 source files lack the licence line"
	run cat "$S/spdx.tap"
	assert_output "1..1
not ok 1 - 7 of 10 source files lack $LINE (mk/check-spdx.sh --add inserts it)
# GNUmakefile: no SPDX line
# completions/zsh/_t: no SPDX line
# lib/x/b.c: no SPDX line
# scripts/mit.sh: names another licence: MIT
# scripts/run: no SPDX line
# tests/fixtures/gen/mk.py: no SPDX line
# tools/t.sh: no SPDX line"
	# make check's closing line counts it as one failure
	run "$ROOT/mk/tally.sh" "$S/spdx.tap"
	assert_failure
	assert_output "0 passed, 1 failed, 0 skipped"
}

@test "--add inserts the line where each language wants it, once, and leaves another licence alone" {
	mini_tree
	cd "$S"
	run --separate-stderr mk/check-spdx.sh --add
	assert_failure 1
	assert_output "spdx: added the licence line to 6 of 10 source files, 1 left alone"
	[ "$stderr" = "check-spdx: scripts/mit.sh names another licence: MIT: left alone" ]
	[ "$(head -2 lib/x/b.c)" = "/* $LINE */
/* b.c: no licence line */" ]
	[ "$(cat tools/t.sh)" = "#!/bin/sh
# $LINE
echo t" ]
	[ -x tools/t.sh ]
	[ "$(head -2 completions/zsh/_t)" = "#compdef t
# $LINE" ]
	[ "$(head -1 GNUmakefile)" = "# $LINE" ]
	[ "$(head -2 scripts/run)" = "#!/usr/bin/env python3
# $LINE" ]
	[ "$(head -1 tests/fixtures/gen/mk.py)" = "# $LINE" ]
	# what is not checked, or already has a line, is untouched
	[ "$(cat tests/fixtures/gen/data.txt)" = "not source" ]
	[ "$(cat tests/fuzz/corpus-x/seed-00)" = "#!/bin/sh" ]
	[ "$(cat README.md)" = "# readme" ]
	[ "$(head -1 tests/vm/dcbdev/m.c)" = "// SPDX-License-Identifier: GPL-2.0" ]
	[ "$(grep -c SPDX lib/x/a.c)" -eq 1 ]
	[ "$(cat scripts/mit.sh)" = "# SPDX-License-Identifier: MIT
echo mit" ]
	run --separate-stderr mk/check-spdx.sh "$S/spdx.tap"
	assert_failure 1
	assert_output "spdx: 1 of 10 source files lack the licence line"
	# a second --add changes nothing
	sum=$(git ls-files | xargs cat | md5sum)
	mk/check-spdx.sh --add 2> /dev/null || :
	[ "$(git ls-files | xargs cat | md5sum)" = "$sum" ]
	# without the odd one out the tree passes
	git rm -q -f scripts/mit.sh
	run mk/check-spdx.sh "$S/spdx.tap"
	assert_success
	assert_output "spdx: 9 source files, each with its licence line"
	run cat "$S/spdx.tap"
	assert_output "1..1
ok 1 - every source file (9) carries $LINE"
}

@test "a YAML file is a source (a # line, as --add writes it); a JSON file is data" {
	mini_tree
	cd "$S"
	mkdir -p contrib
	printf 'groups: []\n' > contrib/rules.yml
	printf 'tests: []\n' > contrib/t.yaml
	printf '{"uid": "x"}\n' > contrib/d.json
	git add -A
	run --separate-stderr mk/check-spdx.sh "$S/spdx.tap"
	assert_failure 1
	assert_output "spdx: 9 of 12 source files lack the licence line"
	run grep -c -e '^# contrib/rules.yml: no SPDX line$' -e '^# contrib/t.yaml: no SPDX line$' \
		"$S/spdx.tap"
	assert_output 2
	run grep -c 'd\.json' "$S/spdx.tap"
	assert_output 0
	mk/check-spdx.sh --add > /dev/null 2>&1 || :
	[ "$(cat contrib/rules.yml)" = "# $LINE
groups: []" ]
	[ "$(cat contrib/d.json)" = '{"uid": "x"}' ]
}

@test "without git (an unpacked tarball) every file is looked at, less the build's outputs" {
	mini_tree
	rm -rf "$S/.git" "$S/scripts/mit.sh"
	cd "$S"
	mk/check-spdx.sh --add > /dev/null
	# generated and built files are not sources
	printf 'int generated;\n' > lib/x/b.o
	mkdir -p lib/counters tests/results
	printf 'int idx;\n' > lib/counters/catalog_index.c
	printf '#!/bin/sh\n' > tests/results/x.sh
	run mk/check-spdx.sh "$S/spdx.tap"
	assert_success
	assert_output "spdx: 9 source files, each with its licence line"
	printf 'int c;\n' > lib/x/c.c
	run mk/check-spdx.sh "$S/spdx.tap"
	assert_failure 1
	run grep '^#' "$S/spdx.tap"
	assert_output "# lib/x/c.c: no SPDX line"
}

@test "--add on a clone of this tree: every source file gets its line, no script its first line moved" {
	[ -e "$ROOT/.git" ] || skip "not a git checkout"
	local c=$BATS_TEST_TMPDIR/clone f
	git clone -q "$ROOT" "$c"
	cd "$c"
	mk/check-spdx.sh --add > /dev/null
	run mk/check-spdx.sh "$c/spdx.tap"
	assert_success
	# one line added to a file, nothing taken away, and a #! or #compdef stays line 1
	run sh -c 'git diff --numstat | awk "\$1 != 1 || \$2 != 0"'
	assert_output ""
	for f in $(git diff --name-only); do
		case $(git show "HEAD:$f" | head -1) in
		'#!'* | '#compdef'*) [ "$(head -1 "$f")" = "$(git show "HEAD:$f" | head -1)" ] ||
			fail "$f: first line moved" ;;
		esac
	done
}

@test "bad usage is one line, exit 2" {
	run --separate-stderr "$ROOT/mk/check-spdx.sh"
	[ "$status" -eq 2 ]
	[ "$stderr" = "usage: mk/check-spdx.sh OUT.tap | --add" ]
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$ROOT/mk/check-spdx.sh" x.tap
	[ "$status" -eq 2 ]
	[ "$stderr" = "check-spdx: run it from the top of the tree" ]
}

@test "contrib/systemd: a unit or /etc/default file without the line fails, --add puts it first" {
	S=$BATS_TEST_TMPDIR/units
	mkdir -p "$S/mk" "$S/contrib/systemd"
	cp "$ROOT/mk/check-spdx.sh" "$S/mk/"
	printf '# %s\n[Unit]\nDescription=ok\n' "$LINE" > "$S/contrib/systemd/ok.service"
	printf '[Timer]\nOnBootSec=0\n' > "$S/contrib/systemd/x.timer"
	printf 'ARGS=""\n' > "$S/contrib/systemd/x.default"
	git -C "$S" init -q
	git -C "$S" add -A
	cd "$S"
	run --separate-stderr mk/check-spdx.sh "$S/spdx.tap"
	assert_failure 1
	assert_output "spdx: 2 of 4 source files lack the licence line"
	grep -qx '# contrib/systemd/x.timer: no SPDX line' "$S/spdx.tap"
	grep -qx '# contrib/systemd/x.default: no SPDX line' "$S/spdx.tap"
	mk/check-spdx.sh --add > /dev/null
	[ "$(head -1 contrib/systemd/x.timer)" = "# $LINE" ]
	[ "$(sed -n 2p contrib/systemd/x.timer)" = "[Timer]" ]
	run mk/check-spdx.sh "$S/spdx.tap"
	assert_success
}
