#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The flight recorder's ring against other processes (issue 27): a symbolic link planted at
# the ring or at a copy's name by another user is never written through, a ring truncated or
# replaced while recording stops the recorder with one line, a full disk says so, and dump
# of a hostile header (4 GiB over a sparse file) answers at once with one line.
load helper
load wait
load record

# a sticky world-writable directory $PUB with a symbolic link NAME in it owned by nobody,
# pointing at TARGET: NAME TARGET
plant_link() {
	[ "$(id -u)" = 0 ] || skip "needs root (a link owned by another user, the recorder as root)"
	PUB=$TMP/pub
	mkdir -p "$PUB"
	chmod 1777 "$PUB"
	ln -s "$2" "$PUB/$1"
	chown -h 65534:65534 "$PUB/$1"
}
# a root-only file that must stay as it is: $SECRET, its content in $SECRET_WAS
make_secret() {
	SECRET=$TMP/secret
	printf 'root only\n' > "$SECRET"
	chmod 600 "$SECRET"
	SECRET_WAS=$(stat -c '%s %a %U' "$SECRET"; cat "$SECRET")
}
secret_unchanged() {
	[ "$(stat -c '%s %a %U' "$SECRET"; cat "$SECRET")" = "$SECRET_WAS" ]
}
# the recorder is gone (it stopped by itself)
rec_gone() { ! kill -0 "$REC" 2> /dev/null; }
# wait until the recorder stops by itself, with exit 2
stopped_alone() {
	local rc=0
	wait_until 10 "the recorder to stop" rec_gone
	wait "$REC" || rc=$?
	REC=
	[ "$rc" -eq 2 ] || fail "the recorder's exit status: $rc"
}

@test "record: a symbolic link at FILE (another user's, to a root file) is refused, exit 2" {
	make_secret
	plant_link ring "$SECRET"
	run --separate-stderr rdmatrace record --ring 8k --counters 0.05 --duration 0.2 "$PUB/ring"
	[ "$status" -eq 2 ] || fail "exit $status"
	[ "$stderr" = "rdmatrace: cannot record into '$PUB/ring': it is a symbolic link (a ring is never written through one)" ]
	secret_unchanged
	[ -L "$PUB/ring" ]
}

@test "record: a dangling symbolic link at FILE is refused, its target never made" {
	plant_link ring "$TMP/made"
	run --separate-stderr rdmatrace record --ring 8k --counters 0.05 --duration 0.2 "$PUB/ring"
	[ "$status" -eq 2 ] || fail "exit $status"
	[ "$stderr" = "rdmatrace: cannot record into '$PUB/ring': it is a symbolic link (a ring is never written through one)" ]
	[ ! -e "$TMP/made" ]
}

@test "record: links planted at a copy's temporary and final names are not followed" {
	make_secret
	# where the copy's temporary file used to be made (FILE.snap.N.tmp, O_TRUNC)
	plant_link ring.snap.1.tmp "$SECRET"
	rec_bg --ring 64k --counters 0.05 "$PUB/ring"
	wait_until 10 "the first port records" dump_has "$PUB/ring" port 2
	# and the copy's own name, once the recorder has counted the copies there (a link
	# there before the start would only move the numbering on)
	ln -s "$SECRET" "$PUB/ring.snap.1"
	chown -h 65534:65534 "$PUB/ring.snap.1"
	kill -USR1 "$REC"
	# the copy replaces the link (rename), never writes through it
	wait_until 10 "the copy as a file of its own" sh -c "[ -f '$PUB/ring.snap.1' ] && [ ! -L '$PUB/ring.snap.1' ]"
	stop_rec TERM
	secret_unchanged
	[ "$(count_of "$PUB/ring.snap.1" marker)" -eq 1 ]
	[ "$(stat -c %a "$PUB/ring.snap.1")" = 644 ]
	# no temporary file left behind; the planted one is still a link to the secret
	run ls "$PUB"
	assert_output "ring
ring.snap.1
ring.snap.1.tmp"
	[ -L "$PUB/ring.snap.1.tmp" ]
}

@test "record: the ring truncated while recording stops the recorder, one line, exit 2" {
	rec_bg --ring 64k --counters 0.05 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	truncate -s 4096 "$TMP/ring"
	stopped_alone
	run grep -v ': warning: ' "$TMP/err"
	assert_output "rdmatrace: '$TMP/ring' was truncated to 4096 bytes by another process (the ring is 65536): recording stopped"
	[ "$(stat -c %s "$TMP/ring")" -eq 4096 ]	# not written again (no hole up to 64k)
}

@test "record: the ring replaced while recording stops the recorder; the old file keeps its records" {
	rec_bg --ring 64k --counters 0.05 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	mv "$TMP/ring" "$TMP/ring.old"
	printf 'another file\n' > "$TMP/ring"
	stopped_alone
	run grep -v ': warning: ' "$TMP/err"
	assert_output "rdmatrace: '$TMP/ring' was removed or replaced by another process: recording stopped"
	[ "$(cat "$TMP/ring")" = "another file" ]
	dump_has "$TMP/ring.old" port 2
}

# a mount namespace of the test's own holding a tmpfs of SIZE at $SMALL (gone with it)
small_fs() {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a tmpfs"
	unshare -m true 2> /dev/null || skip "cannot make a mount namespace here"
	SMALL=$TMP/small
	mkdir "$SMALL"
	unshare -m --propagation private sleep 600 &
	NS=$!
	wait_until 10 "the mount namespace" sh -c "[ \"\$(readlink /proc/$NS/ns/mnt)\" != \"\$(readlink /proc/self/ns/mnt)\" ]"
	nsenter -t "$NS" -m mount -t tmpfs -o "size=$1" tmpfs "$SMALL"
}
in_ns() { nsenter -t "$NS" -m "$@"; }

@test "record: a ring that does not fit the disk is refused at once with ENOSPC, nothing left" {
	small_fs 64k
	run --separate-stderr in_ns rdmatrace record --ring 1M --counters 0.05 --duration 0.3 "$SMALL/ring"
	[ "$status" -eq 2 ] || fail "exit $status"
	[ "$stderr" = "rdmatrace: cannot record into '$SMALL/ring': No space left on device" ]
}

@test "record: a copy on a full disk says No space left on device, no temporary file left" {
	small_fs 400k
	nsenter -t "$NS" -m rdmatrace record --ring 256k --counters 0.05 "$SMALL/ring" > "$TMP/out" 2> "$TMP/err" &
	REC=$!
	wait_until 10 "the first port records" sh -c "nsenter -t $NS -m rdmatrace dump -j '$SMALL/ring' 2> /dev/null | grep -q '\"type\":\"port\"'"
	kill -USR1 "$REC"
	wait_until 10 "the warning" grep -q "snap.1" "$TMP/err"
	stop_rec TERM
	run grep snap "$TMP/err"
	assert_output "rdmatrace: warning: cannot write '$SMALL/ring.snap.1': No space left on device"
	run in_ns ls "$SMALL"
	assert_output "ring"
}

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
