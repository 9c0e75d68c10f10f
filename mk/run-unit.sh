#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Run each C unit-test binary (each prints TAP) and gather the TAP into one file.
# A binary that exits non-zero without a 'not ok' line of its own (a crash, a sanitizer
# report) still counts as one failure.
out=$1; shift
: > "$out"
rc=0
tmp=$(mktemp)
for t in "$@"; do
	echo "# unit: $t" >> "$out"
	"./$t" > "$tmp" 2>&1
	st=$?
	cat "$tmp" >> "$out"
	if [ $st -ne 0 ]; then
		rc=1
		grep -q '^not ok' "$tmp" || echo "not ok - $t exited with status $st" >> "$out"
		sed -n '/^not ok/,+3p' "$tmp" >&2
	fi
done
rm -f "$tmp"
printf 'unit: %s passed, %s failed\n' "$(grep -c '^ok' "$out")" "$(grep -c '^not ok' "$out")"
exit $rc
