# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatrace record's bats files: a writable copy of the rxe sysfs fixture per test
# (RDMADIAG_SYSFS_ROOT, $HW its class/infiniband), the recorder in the background, its dump.
setup() {
	TMP=$(mktemp -d)
	cp -a "$FIX/sysfs/rxe" "$TMP/rxe"
	export RDMADIAG_SYSFS_ROOT=$TMP/rxe
	HW=$TMP/rxe/sys/class/infiniband
	REC=
}
teardown() {
	[ -z "$REC" ] || kill -9 "$REC" 2> /dev/null || :
	[ -z "${MOVER:-}" ] || kill "$MOVER" 2> /dev/null || :
	[ -z "${NS:-}" ] || kill "$NS" 2> /dev/null || :
	rm -rf "$TMP"
}
# start the recorder in the background: ARGS...
rec_bg() {
	rdmatrace record "$@" > "$TMP/out" 2> "$TMP/err" &
	REC=$!
}
# end it with SIGNAL (TERM) and return its exit status
stop_rec() {
	kill -"${1:-TERM}" "$REC"
	local rc=0
	wait "$REC" || rc=$?
	REC=
	return "$rc"
}
# how many records of TYPE the dump (JSON) of RING has: RING TYPE
count_of() { rdmatrace dump -j "$1" 2> /dev/null | jq -r .type | grep -cx "$2" || :; }
# the dump has at least N records of TYPE: RING TYPE N
dump_has() { [ "$(count_of "$1" "$2")" -ge "$3" ]; }
