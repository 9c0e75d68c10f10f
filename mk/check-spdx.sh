#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Check that every source file carries the project's licence line (COPYING) in its first
# three lines:   SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
#   mk/check-spdx.sh OUT.tap    check; TAP into OUT.tap (one test, the offenders in # lines),
#                               one summary line on stdout, exit 1 when a file lacks the line
#   mk/check-spdx.sh --add      insert the line into every file that has no SPDX line
# Run from the top of the tree (make check does).
#
# The source files, out of the files git tracks (without git, as in an unpacked release
# tarball: every file, less the build's outputs and the work directories .gitignore names):
#   C                *.c *.h, lib/librdmadiag.map (a version script, C comments)
#   shell, python    *.sh *.bash *.bats *.py, any other file whose first line is #!
#                    (tests/vm/run, tests/bench/run, .ci/run), completions/bash/*,
#                    completions/zsh/* (after their #compdef line)
#   make             GNUmakefile Makefile Kbuild *.mk
#   YAML             *.yml *.yaml (contrib/prometheus's rules, tests/prom's promtool tests)
#   systemd          contrib/systemd/* (units, the /etc/default example: # comments)
# Not checked: documentation (*.md, README, man pages, COPYING, NEWS), data and settings
# (tests/fuzz/corpus-*/, tests/fixtures/ but for its *.c *.h *.sh *.py programs, *.json,
# *.tsv, *.txt, mk/lsan.supp, .gitignore, .editorconfig: JSON has no comment, so
# contrib/grafana's dashboard has no line) and generated files (lib/counters/
# catalog_index.c).  Files under tests/vm/dcbdev/, a Linux kernel module, say GPL-2.0
# instead (as the kernel's own modules do).
#
# The line is a comment of the file's language, alone on its line: "/* ... */" or "// ..."
# in C, "# ..." elsewhere.  --add writes "/* SPDX-License-Identifier: ... */" as line 1 of a
# C file and "# SPDX-License-Identifier: ..." as line 1 of the others, or as line 2 after a
# #! or #compdef line; a file whose first three lines name another licence is left alone
# (and still reported by the check).
set -u
LICENSE='GPL-2.0 OR Linux-OpenIB'
KMOD_LICENSE='GPL-2.0'
usage() { echo "usage: mk/check-spdx.sh OUT.tap | --add" >&2; exit 2; }
[ $# -eq 1 ] || usage
mode=check out=
case $1 in
--add) mode=add ;;
-*) usage ;;
*) out=$1 ;;
esac

[ -f mk/check-spdx.sh ] || { echo "check-spdx: run it from the top of the tree" >&2; exit 2; }

# every candidate file, one per line
all_files() {
	if [ -e .git ] && git rev-parse --git-dir > /dev/null 2>&1; then
		git ls-files
	else
		find . -path ./.git -prune -o -path ./tests/vm/cache -prune -o \
			-path ./tests/vm/work -prune -o -path ./tests/fuzz/build -prune -o \
			-path ./tests/bench/work -prune -o -path ./tests/results -prune -o \
			-type f ! -name '*.o' ! -name '*.d' -print | sed 's|^\./||' |
			grep -vx -e lib/counters/catalog_index.c -e 'lib/librdmadiag\.so.*' \
				-e lib/librdmadiag.a -e 'rdmadiag-.*\.tar\.gz'
	fi
}

# the source files among them
sources() {
	all_files | while IFS= read -r f; do
		[ -f "$f" ] || continue
		case $f in
		tests/fuzz/corpus-*) continue ;;
		tests/fixtures/*.c | tests/fixtures/*.h | tests/fixtures/*.sh | tests/fixtures/*.py)
			echo "$f"; continue ;;
		tests/fixtures/*) continue ;;
		*.c | *.h | *.sh | *.bash | *.bats | *.py | *.mk | *.yml | *.yaml | \
		lib/librdmadiag.map | GNUmakefile | */Makefile | Makefile | */Kbuild | \
		completions/bash/* | completions/zsh/* | contrib/systemd/*)
			echo "$f"; continue ;;
		*.md | *.json | *.jsonl | *.tsv | *.txt | *.supp | */README | README | COPYING | NEWS | \
		man/*) continue ;;
		esac
		# anything else is a script when it starts with #!
		[ "$(head -c 2 "$f")" = '#!' ] && echo "$f"
	done
}

# the expression FILE must carry
license_of() {
	case $1 in
	tests/vm/dcbdev/*) echo "$KMOD_LICENSE" ;;
	*) echo "$LICENSE" ;;
	esac
}

list=$(mktemp)
bad=$(mktemp)
trap 'rm -f "$list" "$bad"' EXIT
sources > "$list"
total=$(grep -c . "$list")

# the files whose first three lines lack their licence line: "FILE<TAB>what is there"
awk -v want="$LICENSE" -v kmod="$KMOD_LICENSE" '
function finish() {
	if (cur != "" && !ok) print cur "\t" (other != "" ? "names another licence: " other : "no SPDX line")
}
FNR == 1 { finish(); cur = FILENAME; ok = 0; other = "" }
FNR <= 3 && index($0, "SPDX-License-Identifier:") {
	line = $0
	if (sub(/^(\/\*|\/\/|#) SPDX-License-Identifier: /, "", line)) {
		if (cur ~ /\.[ch]$|\.map$/ && substr($0, 1, 1) == "/")
			sub(/ \*\/$/, "", line)
		if (line == (cur ~ /^tests\/vm\/dcbdev\// ? kmod : want)) { ok = 1; next }
	}
	if (other == "") other = line
}
FNR == 3 { nextfile }
END { finish() }' $(cat "$list") /dev/null > "$bad"
# (an empty file has no line 1: it lacks the line too)
while IFS= read -r f; do
	[ -s "$f" ] || printf '%s\tno SPDX line\n' "$f" >> "$bad"
done < "$list"
nbad=$(grep -c . "$bad")

if [ "$mode" = check ]; then
	{
		echo "1..1"
		if [ "$nbad" -eq 0 ]; then
			echo "ok 1 - every source file ($total) carries SPDX-License-Identifier: $LICENSE"
		else
			echo "not ok 1 - $nbad of $total source files lack SPDX-License-Identifier: $LICENSE (mk/check-spdx.sh --add inserts it)"
			sed 's/^/# /; s/\t/: /' "$bad"
		fi
	} > "$out"
	if [ "$nbad" -eq 0 ]; then
		echo "spdx: $total source files, each with its licence line"
		exit 0
	fi
	sed 's/^/check-spdx: /; s/\t/: /' "$bad" | head -20 >&2
	[ "$nbad" -le 20 ] || echo "check-spdx: ... and $((nbad - 20)) more (in $out)" >&2
	echo "spdx: $nbad of $total source files lack the licence line"
	exit 1
fi

# --add: insert the line into the files that have none
added=0 left=0
tmp=$(mktemp)
while IFS="$(printf '\t')" read -r f why; do
	case $why in
	"no SPDX line") ;;
	*) echo "check-spdx: $f $why: left alone" >&2; left=$((left + 1)); continue ;;
	esac
	lic=$(license_of "$f")
	case $f in
	*.c | *.h | *.map) c="/* SPDX-License-Identifier: $lic */" ;;
	*) c="# SPDX-License-Identifier: $lic" ;;
	esac
	first=$(head -n 1 "$f")
	case $first in
	'#!'* | '#compdef'*)
		{ printf '%s\n%s\n' "$first" "$c"; tail -n +2 "$f"; } > "$tmp" ;;
	*)
		{ printf '%s\n' "$c"; cat "$f"; } > "$tmp" ;;
	esac
	# written through the file itself: its mode (executable) stays
	cat "$tmp" > "$f" || { rm -f "$tmp"; exit 2; }
	added=$((added + 1))
done < "$bad"
rm -f "$tmp"
if [ "$left" -eq 0 ]; then
	echo "spdx: added the licence line to $added of $total source files"
else
	echo "spdx: added the licence line to $added of $total source files, $left left alone"
fi
[ "$left" -eq 0 ]
