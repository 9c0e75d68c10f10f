#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The flight recorder's ring against other processes (issue 27): dump of a hostile header
# (4 GiB over a sparse file) answers at once with one line.
load helper
load wait
load record

@test "dump: a header that claims 4 GiB over a sparse file: one line at once, exit 2" {
	python3 - "$TMP/big" <<'PY'
import struct, sys, zlib
h = bytearray(64)
h[0:8] = b"RDIAGRNG"
struct.pack_into("<IIQI", h, 8, 1, 64, 1 << 32, 1)
struct.pack_into("<I", h, 60, zlib.crc32(bytes(h[:60])))
open(sys.argv[1], "wb").write(h)
PY
	truncate -s 4G "$TMP/big"
	# a mapping of it all fails at once under this limit (not under ASan: its shadow)
	lim=
	ldd "$(command -v rdmatrace)" | grep -q libasan || lim="ulimit -v 1048576;"
	run --separate-stderr bash -c "$lim exec rdmatrace dump '$TMP/big'"
	[ "$status" -eq 2 ] || fail "exit $status: $stderr"
	[[ "$stderr" =~ ^"rdmatrace: cannot read '$TMP/big': no record, and its header claims 4294967296 bytes but the file holds "[0-9]+" on disk"$ ]] || fail "$stderr"
	assert_output ""
}
