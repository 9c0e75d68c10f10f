#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Sum the TAP results of every tier into the one closing line CI reads.
pass=0 fail=0 skip=0
for f in "$@"; do
	[ -f "$f" ] || continue
	p=$(grep -E '^ok' "$f" | grep -vc '# [Ss][Kk][Ii][Pp]')
	s=$(grep -E '^ok' "$f" | grep -c '# [Ss][Kk][Ii][Pp]')
	n=$(grep -c '^not ok' "$f")
	pass=$((pass + p)); skip=$((skip + s)); fail=$((fail + n))
done
if [ $((pass + fail)) -eq 0 ]; then
	echo "no test ran"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
