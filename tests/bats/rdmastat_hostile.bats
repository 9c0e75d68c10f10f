#!/usr/bin/env bats
# rdmastat (and rdmatop -b, which reads through the same library) on sysfs trees that no
# kernel makes but a damaged or hostile tree can: a FIFO where a counter file should be, a
# read that blocks.  Nothing hangs, and a signal ends the tools.
load helper

SYS=$FIX/sysfs

setup() {
	TMP=$(mktemp -d)
	BG=
	cp -a "$SYS/rxe" "$TMP/rxe"
	export RDMADIAG_SYSFS_ROOT=$TMP/rxe
	IB=$TMP/rxe/sys/class/infiniband
}
teardown() {
	[ -z "$BG" ] || kill -KILL "$BG" 2> /dev/null || :
	rm -rf "$TMP"
}
#   wait_exit PID   until PID exits (10 s at most); its status in $st
wait_exit() {
	local pid=$1 i
	for ((i = 0; i < 200; i++)); do
		if ! kill -0 "$pid" 2> /dev/null; then
			st=0
			wait "$pid" || st=$?
			BG=
			return 0
		fi
		sleep 0.05
	done
	fail "timed out after 10 s waiting for pid $pid to exit: $(cat "$TMP/err" 2> /dev/null)"
}
#   wait_file FILE  until FILE exists and is not empty (10 s at most)
wait_file() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	fail "timed out after 10 s waiting for $1"
}

@test "a FIFO as a counter file is an unreadable counter, not a hang (rdmastat, rdmatop -b)" {
	mkfifo "$IB/rxe0/ports/1/hw_counters/zz_fifo"
	# the port's state file too: discovery reads it
	rm "$IB/rxe1/ports/1/state"
	mkfifo "$IB/rxe1/ports/1/state"
	run --separate-stderr timeout 10 rdmastat rxe0
	[ "$status" -eq 0 ] || fail "exit $status (124: it hung): $stderr"
	assert_line --regexp "^    zz_fifo +\? +\(not a regular file\)$"
	assert_line --regexp "^    sent_pkts +78  tx_packets$"
	run --separate-stderr timeout 10 rdmastat -j rxe0
	[ "$status" -eq 0 ] || fail "exit $status"
	[ "$(jq -r '.[0].errors.zz_fifo' <<< "$output")" = "not a regular file" ]
	run --separate-stderr timeout 10 rdmastat devices
	[ "$status" -eq 0 ] || fail "exit $status"
	assert_line --partial "rxe1 port 1 ==> veth1"
	run --separate-stderr timeout 10 rdmatop -b -n 1
	[ "$status" -eq 0 ] || fail "exit $status (124: it hung): $stderr"
	assert_line --regexp "^rxe0 +1 "
}

# A read that blocks and returns only to a signal, as on a hung file system: an LD_PRELOAD
# shim makes openat() of any file named zz_block* wait in read(2) on a pipe nobody writes.
# The first such open writes a line to $BLOCK_MARK, so the test signals once it is stuck.
build_shim() {
	cat > "$TMP/shim.c" << 'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

int openat(int dfd, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	const char *base = strrchr(path, '/'), *mark = getenv("BLOCK_MARK");
	mode_t mode = 0;
	int p[2], e, fd;
	ssize_t r;
	char c;

	if (flags & O_CREAT) {
		va_list ap;

		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
	base = base ? base + 1 : path;
	if (strncmp(base, "zz_block", 8))
		return real(dfd, path, flags, mode);
	if (mark && (fd = real(AT_FDCWD, mark, O_WRONLY | O_CREAT | O_APPEND, 0644)) >= 0) {
		r = write(fd, "blocked\n", 8);
		close(fd);
	}
	if (pipe(p) < 0)
		return -1;
	r = read(p[0], &c, 1);	/* until a signal: EINTR, or restarted with SA_RESTART */
	e = r < 0 ? errno : EIO;
	close(p[0]);
	close(p[1]);
	errno = e;
	return -1;
}
EOF
	${CC:-cc} -shared -fPIC -o "$TMP/shim.so" "$TMP/shim.c" -ldl ||
		fail "cannot build the openat shim"
	: > "$IB/rxe0/ports/1/hw_counters/zz_block1"
	: > "$IB/rxe0/ports/1/hw_counters/zz_block2"
}
# start "$@" in the background with the shim, wait until it is stuck, send SIG, and wait
# for it to end
signal_while_blocked() {
	local sig=$1
	shift
	BLOCK_MARK=$TMP/mark LD_PRELOAD=$TMP/shim.so \
		ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		"$@" > "$TMP/out" 2> "$TMP/err" &
	BG=$!
	wait_file "$TMP/mark"
	kill -"$sig" "$BG"
	wait_exit "$BG"
}

@test "SIGTERM and SIGINT end rdmastat -i while counter reads block (two blocking files)" {
	build_shim
	signal_while_blocked TERM rdmastat -i 0.05 rxe0
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	rm -f "$TMP/mark"
	signal_while_blocked INT rdmastat -i 0.05 -j
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	# stopped, not a failed read
	run cat "$TMP/err"
	refute_output --partial "cannot read counters"
}

@test "SIGTERM and SIGINT end rdmatop -b while a counter read blocks" {
	build_shim
	signal_while_blocked TERM rdmatop -b -d 0.1
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	rm -f "$TMP/mark"
	signal_while_blocked INT rdmatop -b -d 0.1 -j
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	run cat "$TMP/err"
	refute_output --partial "cannot read counters"
}
