#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat -o FILE, the textfile path for node_exporter: FILE holds what stdout would, and
# is only ever replaced whole (a temporary file next to it, fsync, rename), each interval
# with -i; a symlink at FILE is replaced, not followed; a write that fails leaves FILE as it
# was, no temporary behind, one line and exit 2 (rdmastat(1), -o).
load helper
load wait

SYS=$FIX/sysfs

setup() {
	TMP=$(mktemp -d)
	D=$TMP/textfile
	mkdir "$D"
	BG=
	export RDMADIAG_SYSFS_ROOT=$SYS/mlx5
}
teardown() {
	[ -z "$BG" ] || kill "$BG" 2> /dev/null || :
	chmod -R u+w "$TMP" 2> /dev/null || :
	rm -rf "$TMP"
}
# what DIR holds, names only, dot files too (a temporary is ".NAME.XXXXXX")
left() { ls -A "$1" | tr '\n' ' '; }
# run "$@" without the capabilities that let root write into any directory (as root a
# mode 0555 directory is no obstacle); as another user, as it is
undac() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --bounding-set=-dac_override,-dac_read_search,-fowner -- "$@"
	else
		"$@"
	fi
}

@test "-o: FILE holds what stdout gets, in every format and command, mode 0644" {
	local args
	for args in "--prom" "" "-a" "-j" "-p" "--csv" "devices" "devices -j" "fabric" \
		"explain rnr_nak_received" "mlx5_0/1 -c rnr_nak_received --prom"; do
		# shellcheck disable=SC2086
		rdmastat $args > "$TMP/stdout"
		[ -s "$TMP/stdout" ] || fail "'$args': no output to compare"
		# a umask that would hide it from node_exporter's user: the mode is set, not masked
		# shellcheck disable=SC2086
		run --separate-stderr sh -c 'umask 077; exec "$@"' sh rdmastat $args -o "$D/out"
		assert_success
		[ -z "$output" ] || fail "'$args': stdout has '$output'"
		cmp "$TMP/stdout" "$D/out" || fail "'$args': FILE differs from stdout"
		[ "$(stat -c %a "$D/out")" = 644 ] || fail "'$args': mode $(stat -c %a "$D/out")"
		[ "$(left "$D")" = "out " ] || fail "'$args': left behind: $(left "$D")"
	done
	# --output FILE, --output=FILE, and a FILE in the current directory
	rdmastat --prom --output "$D/a.prom"
	rdmastat --prom --output="$D/b.prom"
	(cd "$D" && rdmastat --prom -o c.prom)
	rdmastat --prom > "$TMP/stdout"
	for f in a b c; do cmp "$TMP/stdout" "$D/$f.prom"; done
}

@test "-o with -i: every interval replaces FILE whole (a new inode), a reader never sees part of one" {
	rdmastat --prom > "$TMP/want"
	rdmastat -i 0.02 -n 60 --prom -o "$D/rdma.prom" &
	BG=$!
	reads=0
	: > "$TMP/inodes"
	while kill -0 "$BG" 2> /dev/null; do
		# one open of FILE: what a scrape of the textfile collector reads
		{ exec 7< "$D/rdma.prom"; } 2> /dev/null || continue
		stat -L -c %i /dev/fd/7 >> "$TMP/inodes"
		cat <&7 > "$TMP/seen"
		exec 7<&-
		cmp -s "$TMP/want" "$TMP/seen" ||
			fail "read $reads: not one whole exposition ($(wc -c < "$TMP/seen") of $(wc -c < "$TMP/want") bytes)"
		reads=$((reads + 1))
	done
	wait "$BG"
	BG=
	[ "$reads" -gt 5 ] || fail "only $reads reads while rdmastat ran: nothing was tested"
	# rename gives each interval's file its own inode; a rewrite in place keeps one
	inodes=$(sort -u "$TMP/inodes" | wc -l)
	[ "$inodes" -gt 1 ] || fail "FILE kept inode $(head -1 "$TMP/inodes") over $reads reads"
	# each file is one exposition without timestamps (the textfile collector refuses them)
	cmp "$TMP/want" "$D/rdma.prom"
	[ "$(left "$D")" = "rdma.prom " ] || fail "left behind: $(left "$D")"
}

@test "-o with -i --csv: every interval's file is a whole CSV, header first" {
	rdmastat -i 0.02 -n 3 --csv -o "$D/c.csv"
	run head -1 "$D/c.csv"
	assert_output "time,interval_s,device,port,counter,value,delta,rate_per_s,state,concept,error"
	[ "$(grep -c '^time,' "$D/c.csv")" = 1 ]
	# one interval's rows only: every row has the same time and the counters once each
	[ "$(tail -n +2 "$D/c.csv" | cut -d, -f1 | sort -u | wc -l)" = 1 ]
	[ "$(tail -n +2 "$D/c.csv" | cut -d, -f3-5 | sort | uniq -d)" = "" ]
	# the same series on stdout has one header and three intervals' rows
	run rdmastat -i 0.02 -n 3 --csv
	[ "$(grep -c '^time,' <<< "$output")" = 1 ]
	[ "${#lines[@]}" = $((3 * ($(wc -l < "$D/c.csv") - 1) + 1)) ]
}

@test "-o: a symlink at FILE is replaced by the file, its target is not written" {
	echo "not rdmastat's" > "$TMP/target"
	ln -s "$TMP/target" "$D/rdma.prom"
	rdmastat --prom -o "$D/rdma.prom"
	[ "$(cat "$TMP/target")" = "not rdmastat's" ]
	[ ! -L "$D/rdma.prom" ] && [ -f "$D/rdma.prom" ]
	rdmastat --prom > "$TMP/stdout"
	cmp "$TMP/stdout" "$D/rdma.prom"
	# a dangling one: nothing is created where it points
	ln -sfn "$TMP/nowhere" "$D/dangling.prom"
	rdmastat --prom -o "$D/dangling.prom"
	[ ! -e "$TMP/nowhere" ] && [ ! -L "$D/dangling.prom" ]
	[ "$(left "$D")" = "dangling.prom rdma.prom " ]
}

@test "-o: a directory that cannot be written: one line, exit 2, FILE as it was, nothing left" {
	command -v setpriv > /dev/null || [ "$(id -u)" != 0 ] || skip "root without setpriv"
	echo old > "$D/rdma.prom"
	chmod 0555 "$D"
	run --separate-stderr undac rdmastat --prom -o "$D/rdma.prom"
	[ "$status" -eq 2 ] || fail "exit $status"
	[ -z "$output" ] || fail "stdout: $output"
	[ "${#stderr_lines[@]}" = 1 ] || fail "$stderr"
	[[ "$stderr" == "rdmastat: cannot write '$D/rdma.prom': "*"Permission denied" ]] || fail "$stderr"
	[ "$(cat "$D/rdma.prom")" = old ]
	[ "$(left "$D")" = "rdma.prom " ]
}

@test "-o: a directory that does not exist, or FILE a directory: one line, exit 2, nothing made" {
	run --separate-stderr rdmastat --prom -o "$D/nodir/rdma.prom"
	[ "$status" -eq 2 ]
	assert_equal "$stderr" "rdmastat: cannot write '$D/nodir/rdma.prom': directory '$D/nodir' does not exist"
	[ ! -e "$D/nodir" ]
	run --separate-stderr rdmastat --prom -o "$D"
	[ "$status" -eq 2 ]
	assert_equal "$stderr" "rdmastat: cannot write '$D': Is a directory"
	run --separate-stderr rdmastat --prom -o "$D/"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	# the check comes before anything is read: also with no device
	RDMADIAG_SYSFS_ROOT=$TMP/empty run --separate-stderr rdmastat -o "$D/nodir/x"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"directory '$D/nodir' does not exist" ]] || fail "$stderr"
	[ "$(left "$D")" = "" ]
}

@test "-o: a write that fails (file size limit, full disk): one line, exit 2, FILE as it was, no temporary" {
	echo old > "$D/rdma.prom"
	# RLIMIT_FSIZE of 4 KiB with SIGXFSZ ignored: the write past it fails with EFBIG
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 4; exec "$@"' sh rdmastat --prom -o "$D/rdma.prom"
	[ "$status" -eq 2 ] || fail "exit $status"
	assert_equal "$stderr" "rdmastat: cannot write '$D/rdma.prom': File too large"
	[ "$(cat "$D/rdma.prom")" = old ]
	[ "$(left "$D")" = "rdma.prom " ]
	# the same in the middle of a series: the last whole interval stays
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 4; exec "$@"' sh rdmastat -i 0.02 -n 3 -a -o "$D/rdma.prom"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[ "$(cat "$D/rdma.prom")" = old ]
	[ "$(left "$D")" = "rdma.prom " ]
	# a full file system (ENOSPC): a 16 KiB tmpfs in a mount namespace of its own
	command -v unshare > /dev/null && unshare -m true 2> /dev/null || skip "cannot make a mount namespace here"
	run --separate-stderr unshare -m sh -c 'mount -t tmpfs -o size=16k tmpfs "$1" || exit 99
		echo old > "$1/rdma.prom"
		rdmastat --prom -o "$1/rdma.prom"; st=$?
		echo "$(cat "$1/rdma.prom") $(ls -A "$1" | tr "\n" " ")" >&7
		exit $st' sh "$D" 7> "$TMP/after"
	[ "$status" != 99 ] || skip "cannot mount a tmpfs here"
	[ "$status" -eq 2 ] || fail "exit $status"
	assert_equal "$stderr" "rdmastat: cannot write '$D/rdma.prom': No space left on device"
	assert_equal "$(cat "$TMP/after")" "old rdma.prom "
}

@test "-o with -i: SIGTERM ends the series cleanly, the last whole interval stays, no temporary" {
	rdmastat --prom > "$TMP/want"
	rdmastat -i 0.05 --prom -o "$D/rdma.prom" &
	BG=$!
	wait_until 10 "the first interval's file" test -s "$D/rdma.prom"
	kill -TERM "$BG"
	st=0
	wait "$BG" || st=$?
	BG=
	[ "$st" -eq 0 ] || fail "exit $st"
	cmp "$TMP/want" "$D/rdma.prom"
	[ "$(left "$D")" = "rdma.prom " ]
}
