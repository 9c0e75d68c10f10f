#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The output convention of rdmadiag(7), rule by rule, each run against all six tools:
# rdmadump, rdmastat, rdmatop, rdmacheck, rdmadoctor, rdmatrace.  Every tool runs offline
# here: captures from tests/fixtures, sysfs fixture trees for the others
# (RDMADIAG_SYSFS_ROOT), a saved tracefs copy for rdmatrace (--input).
load helper
load wait

TOOLS="rdmadump rdmastat rdmatop rdmacheck rdmadoctor rdmatrace"
CAP="$FIX/rxe/rxe_sample.pcap"
TRACE="$FIX/trace/rxe-6.1"
RXE="$FIX/sysfs/rxe"
MKTOP="$FIX/tui/mkfixture.sh"

setup() {
	TMP=$BATS_TEST_TMPDIR
	EMPTY=$TMP/empty
	mkdir -p "$EMPTY/sys/class/infiniband"
}

# the doctor's fake root: the rxe tree with the RDMA core modules and device nodes present
doctor_root() {
	local t=$1 m
	cp -r "$RXE" "$t"
	for m in ib_core ib_uverbs ib_cm rdma_cm rdma_ucm; do
		mkdir -p "$t/sys/module/$m"
		echo live > "$t/sys/module/$m/initstate"
	done
	mkdir -p "$t/dev/infiniband"
	touch "$t/dev/infiniband/rdma_cm" "$t/dev/infiniband/uverbs0" "$t/dev/infiniband/uverbs1"
	chmod 666 "$t/dev/infiniband/"*
}

# rdmatrace's flight record of the trace capture against the rxe sysfs fixture, 0.2 s long,
# with its counter snapshots (FILE)
trace_ring() {
	RDMADIAG_SYSFS_ROOT=$RXE rdmatrace record --ring 64k --counters 0.05 --duration 0.2 \
		--input "$TRACE" "$1" 2> /dev/null
}

no_rdma_here() {
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]
}

# the JSON each tool writes offline, JSON lines on stdout (TOOL)
json_of() {
	case $1 in
	rdmadump)
		rdmadump -j -c 40 -r "$CAP"
		rdmadump -j -q -r "$CAP" ;;
	rdmastat)
		RDMADIAG_SYSFS_ROOT=$RXE rdmastat -j | jq -c .
		RDMADIAG_SYSFS_ROOT=$RXE rdmastat -j -a -i 0.05 -n 1
		RDMADIAG_SYSFS_ROOT=$RXE rdmastat -j explain rcvd_rnr_err | jq -c . ;;
	rdmatop)
		"$MKTOP" "$TMP/top" > /dev/null
		RDMADIAG_SYSFS_ROOT=$TMP/top rdmatop -b -j -n 2 -d 0.05 ;;
	rdmacheck)
		rdmacheck --list -j ;;
	rdmadoctor)
		doctor_root "$TMP/root"
		RDMADIAG_SYSFS_ROOT=$TMP/root rdmadoctor -j local
		RDMADIAG_SYSFS_ROOT=$FIX/sysfs/broken rdmadoctor -j local || : ;;
	rdmatrace)
		# exit 1 on each: the capture has failed connections
		rdmatrace -j --input "$TRACE" || :
		rdmatrace -c -j --input "$TRACE" || :
		rm -f "$TMP/ring"
		trace_ring "$TMP/ring"
		rdmatrace dump -j "$TMP/ring" || : ;;
	esac
}

# ---- rule: time in JSON -----------------------------------------------------------------

# every value under a key that names a point in time, one per line
TIME_KEYS='.. | objects | to_entries[] | select(.key | test("^(time|ts|timestamp|when)$|_(time|ts|at)$")) | .value'
RFC3339_NS='^"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}Z"$'

@test "time in JSON: one format in every tool, RFC 3339 UTC with nanoseconds" {
	local t n bad before after
	for t in $TOOLS; do
		json_of "$t" > "$TMP/$t.json" || fail "$t: no JSON"
		[ -s "$TMP/$t.json" ] || fail "$t wrote no JSON"
		jq -c "$TIME_KEYS" "$TMP/$t.json" > "$TMP/$t.times" || fail "$t: not JSON"
		bad=$(grep -cvE "$RFC3339_NS" "$TMP/$t.times" || :)
		[ "$bad" -eq 0 ] || fail "$t: times not in the one format: $(grep -vE "$RFC3339_NS" "$TMP/$t.times" | head -3)"
		n=$(wc -l < "$TMP/$t.times")
		case $t in
		rdmadump|rdmastat|rdmatop|rdmatrace) [ "$n" -gt 0 ] || fail "$t: no time found" ;;
		esac
	done
	# the capture's time stamps are the file's, the samplers' the wall clock of the run
	[ "$(head -1 "$TMP/rdmadump.times")" = '"2026-11-29T08:13:22.475959000Z"' ] ||
		fail "rdmadump: $(head -1 "$TMP/rdmadump.times")"
	before=$(date -u +%Y-%m-%dT%H:%M:%S.000000000Z)
	for t in rdmastat rdmatop; do
		json_of "$t" | jq -r "$TIME_KEYS" > "$TMP/$t.now"
		after=$(date -u -d '+1 second' +%Y-%m-%dT%H:%M:%S.000000000Z)
		while read -r v; do
			[[ ! "$v" < "$before" && "$v" < "$after" ]] || fail "$t: $v not between $before and $after"
		done < "$TMP/$t.now"
	done
}

# ---- rule: a field that does not apply is absent ----------------------------------------

@test "fields that do not apply: absent, never null, in every tool's JSON" {
	local t nulls
	for t in $TOOLS; do
		json_of "$t" > "$TMP/$t.json" || fail "$t: no JSON"
		[ -s "$TMP/$t.json" ] || fail "$t wrote no JSON"
		nulls=$(jq -c '[paths(. == null) | map(tostring) | join(".")] | .[]' "$TMP/$t.json" |
			sort -u | head -5)
		[ -z "$nulls" ] || fail "$t writes null: $nulls"
	done
	# the cases that used to be null are there to be absent: a first frame without rates,
	# a finding without a cause id, a counter without a concept
	jq -se '.[0].ports[0] | has("rx_pps") | not' "$TMP/rdmatop.json" > /dev/null ||
		fail "rdmatop: a first frame with a rate"
	jq -se '[.[1:][] | .ports[0] | has("rx_pps")] | all' "$TMP/rdmatop.json" > /dev/null ||
		fail "rdmatop: later frames without a rate"
	jq -se '[.[].findings[] | has("cause")] | (any and (all | not))' "$TMP/rdmadoctor.json" > /dev/null ||
		fail "rdmadoctor: expected findings with and without a cause"
}

@test "fields that do not apply: no tool's source writes a JSON null" {
	# out_null() is the writer's only way to a null; the rule is that no tool calls it (the
	# writer itself, tools/common/out.c, defines it)
	local hits
	hits=$(cd "$ROOT" && grep -rn --include='*.c' 'out_null *(' tools tui |
		grep -v '^tools/common/out\.c:' || :)
	[ -z "$hits" ] || fail "out_null in tools: $hits"
}

# ---- rule: intervals ----------------------------------------------------------------------

# the one interval option of each tool that samples over time; the others have none
interval_opt() {
	case $1 in
	rdmastat) echo -i ;;
	rdmatop) echo -d ;;
	rdmatrace) echo --counters ;;
	*) return 1 ;;
	esac
}

# "TOOL ARGS": the tool's interval run on the rxe fixture, one sample after the first
# (rdmatrace: its flight recorder's counter snapshots over 0.05 s of the trace capture)
interval_run() {
	case $1 in
	rdmastat) echo "rdmastat -n 1 -i" ;;
	rdmatop) echo "rdmatop -b -n 1 -d" ;;
	rdmatrace) echo "rdmatrace record --ring 64k --duration 0.05 --input $TRACE $TMP/iring --counters" ;;
	esac
}

# "TOOL ARGS": the tool's count option (-n) last, its value to follow
count_run() {
	case $1 in
	rdmatrace) echo "rdmatrace --input $TRACE -c -n" ;;
	*) echo "$(interval_run "$1") 1 -n" ;;
	esac
}

@test "intervals: every tool that takes one parses it alike, 0.001 to 86400 s, one message" {
	local t n=0 v want
	for t in $TOOLS; do
		interval_opt "$t" > /dev/null || continue
		n=$((n + 1))
		for v in 0 0.0009 86400.5 abc 1s '' -1 nan inf 1e9; do
			RDMADIAG_SYSFS_ROOT=$RXE run --separate-stderr $(interval_run "$t") "$v"
			[ "$status" -eq 2 ] || fail "$t $(interval_opt "$t") '$v': exit $status"
			want="$t: invalid interval '$v': seconds from 0.001 to 86400"
			[ "${stderr%%$'\n'*}" = "$want" ] || fail "$t '$v': $stderr"
		done
		for v in 0.001 0.05 1e-2; do
			RDMADIAG_SYSFS_ROOT=$RXE run --separate-stderr $(interval_run "$t") "$v"
			[ "$status" -eq 0 ] || fail "$t $(interval_opt "$t") '$v': exit $status: $stderr"
		done
		for v in 0 -3 1.5 x; do
			RDMADIAG_SYSFS_ROOT=$RXE run --separate-stderr $(count_run "$t") "$v"
			[ "$status" -eq 2 ] || fail "$t -n '$v': exit $status"
			[ "${stderr%%$'\n'*}" = "$t: invalid count '$v': a whole number from 1 to 4294967295" ] ||
				fail "$t -n '$v': $stderr"
		done
	done
	[ "$n" -eq 3 ] || fail "expected rdmastat, rdmatop and rdmatrace to take an interval, saw $n"
}

@test "intervals: the man pages state the same limits" {
	local t
	for t in $TOOLS; do
		interval_opt "$t" > /dev/null || continue
		grep -q '0.001 to 86400' "$ROOT/man/man1/$t.1" || fail "$t.1 does not state 0.001 to 86400"
		grep -q 'rdmadiag (7)' "$ROOT/man/man1/$t.1" || fail "$t.1 does not point to rdmadiag(7)"
	done
}

# ---- rule: exit codes -------------------------------------------------------------------

# "TOOL ARGS" that run cleanly on the fixtures (exit 0)
ok_run() {
	case $1 in
	rdmadump) echo "rdmadump -q -r $FIX/pcap/rc_ops.pcap" ;;
	rdmastat) echo "rdmastat" ;;
	rdmatop) echo "rdmatop -b -n 1" ;;
	rdmacheck) echo "rdmacheck --list" ;;
	rdmadoctor) echo "rdmadoctor local" ;;
	rdmatrace) echo "rdmatrace -c --input $TRACE --dst 198.18.0.2:7174" ;;
	esac
}

@test "exit codes: 0 when all is well" {
	local t
	doctor_root "$TMP/root"
	for t in $TOOLS; do
		RDMADIAG_SYSFS_ROOT=$TMP/root run --separate-stderr $(ok_run "$t")
		[ "$status" -eq 0 ] || fail "$t: exit $status: $stderr"
	done
}

@test "exit codes: 1 for a finding (breach, transport errors, failed verdict)" {
	local t th=$TMP/th
	printf 'rnr_nak_received > 1\n' > "$th"
	RDMADIAG_SYSFS_ROOT=$RXE run rdmastat -t "$th"
	[ "$status" -eq 1 ] || fail "rdmastat breach: exit $status"
	RDMADIAG_SYSFS_ROOT=$RXE run rdmatop -b -n 1 --thresholds "$th"
	[ "$status" -eq 1 ] || fail "rdmatop breach: exit $status"
	run rdmadump -q --fail-on-errors -r "$CAP"
	[ "$status" -eq 1 ] || fail "rdmadump --fail-on-errors: exit $status"
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/broken run rdmadoctor local
	[ "$status" -eq 1 ] || fail "rdmadoctor failed verdict: exit $status"
	run rdmatrace -c --input "$TRACE"
	[ "$status" -eq 1 ] || fail "rdmatrace failed connections: exit $status"
	trace_ring "$TMP/ring"
	run rdmatrace dump "$TMP/ring"
	[ "$status" -eq 1 ] || fail "rdmatrace dump of failed connections: exit $status"
	# rdmacheck's failed checks need a device: the real-kernel tier runs them; here every
	# tool's --help and man page must say 0, 1 and 2 in that order
	for t in $TOOLS; do
		"$t" --help | tr '\n' ' ' | grep -qE 'Exit status: 0 [^,]+, 1 [^,]+.*[ ,]2 (usage|error)' ||
			fail "$t --help does not state the exit codes 0, 1, 2"
		grep -q '^\.SH EXIT STATUS' "$ROOT/man/man1/$t.1" || fail "$t.1 has no EXIT STATUS"
	done
}

@test "exit codes: 2 and one line for a usage error" {
	local t
	for t in $TOOLS; do
		run --separate-stderr "$t" --no-such-option
		[ "$status" -eq 2 ] || fail "$t: exit $status"
		[ -z "$output" ] || fail "$t wrote to stdout: $output"
		[[ "${stderr%%$'\n'*}" == "$t: "* ]] || fail "$t: first line does not name the tool: $stderr"
		# run by its path, getopt's own message names the tool, not the path
		run --separate-stderr "$(command -v "$t")" -x
		[ "$status" -eq 2 ] || fail "$t -x: exit $status"
		[[ "${stderr%%$'\n'*}" == "$t: "* ]] || fail "$t by path: $stderr"
	done
	for t in "rdmatrace record" "rdmadoctor connect" "rdmastat fabric"; do
		run --separate-stderr "$(command -v "${t%% *}")" ${t#* } -x
		[ "$status" -eq 2 ] || fail "$t -x: exit $status"
		[[ "${stderr%%$'\n'*}" == "${t%% *}: "* ]] || fail "$t by path: $stderr"
	done
}

@test "exit codes: 2 and one line naming the tool for a usage error of a subcommand" {
	local c
	for c in "rdmastat devices" "rdmastat qp" "rdmastat cm" "rdmastat fabric" \
		"rdmastat explain" "rdmadoctor connect" "rdmadoctor listen" "rdmadoctor local" \
		"rdmadoctor explain" "rdmadoctor env" "rdmadoctor compare" "rdmatrace record" \
		"rdmatrace dump"; do
		run --separate-stderr $c --no-such-option
		[ "$status" -eq 2 ] || fail "$c: exit $status"
		[ -z "$output" ] || fail "$c wrote to stdout: $output"
		# the subcommands' getopt names the tool too (tools/common/cmd.c gives the
		# command the program's argv[0])
		[[ "${stderr%%$'\n'*}" == "${c%% *}: "* ]] ||
			fail "$c: first line does not name the tool: $stderr"
	done
}

@test "exit codes: 2 and one line when there is no RDMA device or input" {
	local t
	run --separate-stderr rdmadump -r "$TMP/no-such.pcap"
	[ "$status" -eq 2 ] || fail "rdmadump missing file: exit $status"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "rdmadump: $stderr"
	[[ "$stderr" == "rdmadump: "* ]] || fail "rdmadump: $stderr"
	for t in rdmastat rdmatop rdmadoctor; do
		RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr $(ok_run "$t")
		[ "$status" -eq 2 ] || fail "$t with no device: exit $status"
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$t: more than one line: $stderr"
		[[ "$stderr" == "$t: "*"no RDMA device"* ]] || fail "$t: $stderr"
	done
	# a --sysfs-root that does not exist is no device either, and no frame is printed
	run --separate-stderr rdmatop -b -n 1 --sysfs-root "$TMP/does-not-exist"
	[ "$status" -eq 2 ] || fail "rdmatop --sysfs-root nowhere: exit $status"
	[ -z "$output" ] || fail "rdmatop printed a frame: $output"
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "rdmatop: $stderr"
	RDMADIAG_SYSFS_ROOT=$EMPTY run --separate-stderr rdmatop -b -j -n 1
	[ "$status" -eq 2 ] && [ -z "$output" ] || fail "rdmatop -j with no device: exit $status: $output"
	# rdmatrace: no tracefs, no saved copy, no ring
	for c in "rdmatrace --tracefs $TMP/no-such" "rdmatrace --input $TMP/no-such" \
		"rdmatrace dump $TMP/no-such"; do
		run --separate-stderr $c
		[ "$status" -eq 2 ] || fail "$c: exit $status"
		[ -z "$output" ] || fail "$c printed: $output"
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "$c: more than one line: $stderr"
		[[ "$stderr" == "rdmatrace: "*"$TMP/no-such"* ]] || fail "$c: $stderr"
	done
	# rdmacheck reads the real /sys: only where this host has no device
	if no_rdma_here; then
		run --separate-stderr rdmacheck
		[ "$status" -eq 2 ] || fail "rdmacheck with no device: exit $status"
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] || fail "rdmacheck: $stderr"
		[[ "$stderr" == "rdmacheck: no RDMA device"* ]] || fail "rdmacheck: $stderr"
	fi
}

# ---- rule: options after operands -------------------------------------------------------

@test "options: every tool takes options after its operands (as tcpdump after its expression)" {
	local a b
	# rdmadump: the expression first, then -c
	a=$(rdmadump -r "$CAP" -c 2 'host 198.18.0.2')
	b=$(rdmadump -r "$CAP" 'host 198.18.0.2' -c 2)
	[ "$(printf '%s\n' "$b" | wc -l)" -eq 2 ] || fail "rdmadump: $b"
	[ "$a" = "$b" ] || fail "rdmadump: -c after the expression differs"
	b=$(rdmadump -r "$CAP" 'dst' host 198.18.0.1 -j -c 1)
	[ "$(jq -r .dst <<< "$b")" = 198.18.0.1 ] || fail "rdmadump: a split expression then -j: $b"
	# rdmastat: a counter name, then -j
	a=$(RDMADIAG_SYSFS_ROOT=$RXE rdmastat -j rcvd_rnr_err)
	b=$(RDMADIAG_SYSFS_ROOT=$RXE rdmastat rcvd_rnr_err -j)
	jq -e . <<< "$b" > /dev/null || fail "rdmastat: not JSON: $b"
	[ "$a" = "$b" ] || fail "rdmastat: -j after the name differs"
	# rdmacheck: a test name, then --list
	a=$(rdmacheck --list rnr)
	b=$(rdmacheck rnr --list)
	[ -n "$b" ] && [ "$a" = "$b" ] || fail "rdmacheck: --list after the name: $b"
	# rdmadoctor: the command, then -j
	doctor_root "$TMP/root"
	a=$(RDMADIAG_SYSFS_ROOT=$TMP/root rdmadoctor -j local | jq -S -c 'del(.time)')
	b=$(RDMADIAG_SYSFS_ROOT=$TMP/root rdmadoctor local -j | jq -S -c 'del(.time)')
	[ -n "$b" ] && [ "$a" = "$b" ] || fail "rdmadoctor: -j after the command: $b"
	# rdmatrace: dump's ring, then -j; record's ring, then its options
	trace_ring "$TMP/ring"
	a=$(rdmatrace dump -j "$TMP/ring" || :)
	b=$(rdmatrace dump "$TMP/ring" -j || :)
	jq -e . <<< "$b" > /dev/null || fail "rdmatrace dump: not JSON: $b"
	[ -n "$b" ] && [ "$a" = "$b" ] || fail "rdmatrace dump: -j after the file differs"
	RDMADIAG_SYSFS_ROOT=$RXE run --separate-stderr rdmatrace record "$TMP/ring2" --ring 64k \
		--duration 0.05 --input "$TRACE"
	[ "$status" -eq 0 ] && [ "$(stat -c %s "$TMP/ring2")" -eq 65536 ] ||
		fail "rdmatrace record: options after the file: exit $status: $stderr"
	# rdmatop and rdmatrace take no operand: one is a usage error, not ignored
	RDMADIAG_SYSFS_ROOT=$RXE run --separate-stderr rdmatop -b stray -n 1
	[ "$status" -eq 2 ] && [[ "$stderr" == *"unexpected argument 'stray'"* ]] ||
		fail "rdmatop: exit $status: $stderr"
	run --separate-stderr rdmatrace --input "$TRACE" stray -c
	[ "$status" -eq 2 ] && [[ "$stderr" == *"unexpected argument 'stray'"* ]] ||
		fail "rdmatrace: exit $status: $stderr"
}

# ---- rule: a state is a state -----------------------------------------------------------

@test "states: a state field holds the object's state, never a condition of the tool" {
	local t
	# every tool's JSON: no state of ours (SLOW, ERROR, ...) where a port, QP or ID state goes
	for t in $TOOLS; do
		json_of "$t" > "$TMP/$t.json"
		if jq -r '.. | objects | select(has("state")) | .state | strings' "$TMP/$t.json" |
			grep -qixE 'slow|error|failed|timeout'; then
			fail "$t: a tool condition as a state"
		fi
	done
	# rdmatop with a slow sampling (opening a file of mlx5_0's counters blocks, through the shim
	# tests/fixtures/preload/block_open.c, past five intervals): the text STATE column
	# and the JSON state stay ACTIVE, the mark is apart
	"$MKTOP" "$TMP/slow" > /dev/null
	: > "$TMP/slow/sys/class/infiniband/mlx5_0/ports/1/hw_counters/zz_block_stuck"
	${CC:-cc} -shared -fPIC -o "$TMP/block.so" "$FIX/preload/block_open.c" -ldl
	# the open is released 1 s after the shim says it blocked (BLOCK_MARK): the block's
	# length is what is tested, so it is counted from the block itself (released 0.5 s
	# after start, a slow start under load had the file released before the open)
	slow_top() {
		local rc=0 pid
		rm -f "$TMP/release" "$TMP/mark"
		RDMADIAG_SYSFS_ROOT=$TMP/slow LD_PRELOAD=$TMP/block.so BLOCK_RELEASE=$TMP/release \
			BLOCK_MARK=$TMP/mark \
			ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
			rdmatop -b -n 1 -d 0.1 "$@" > "$TMP/top.out" 2> "$TMP/top.err" &
		pid=$!
		wait_until 20 "the blocked open" test -s "$TMP/mark" ||
			{ touch "$TMP/release"; wait "$pid"; return 1; }
		sleep 1
		touch "$TMP/release"
		wait "$pid" || rc=$?
		output=$(cat "$TMP/top.out")
		[ "$rc" -eq 0 ] || fail "rdmatop $*: exit $rc: $(cat "$TMP/top.err")"
	}
	slow_top
	grep -qE '^mlx5_0 +1 ACTIVE +slow ' <<< "$output" || fail "rdmatop -b: $output"
	slow_top -j
	[ "$(jq -c '.ports[0] | [.ifname, .state, .slow]' <<< "$output")" = '["mlx5_0","ACTIVE",true]' ] ||
		fail "rdmatop -j: $(jq -c '.ports[0] | [.ifname, .state, .slow]' <<< "$output")"
}

# ---- the convention is written once, in rdmadiag(7) ---------------------------------------

@test "rdmadiag(7) renders, is installed and uninstalled, and every tool's page points to it" {
	local page=$ROOT/man/man7/rdmadiag.7 t dest=$TMP/dest
	run sh -c "LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l '$page' 2>&1 >/dev/null"
	assert_output ""
	# it states each rule: exit codes, intervals, options, time, absent fields, states
	for t in '^\.SH EXIT STATUS' '0\.001 to 86400' 'before or after the operands' \
		'RFC 3339' 'is absent' '^\.SS States'; do
		grep -qE -- "$t" "$page" || fail "rdmadiag.7 does not state: $t"
	done
	for t in $TOOLS; do
		grep -qF "$t (1)" "$page" || fail "rdmadiag.7 does not name $t(1)"
		sed -n '/^\.SH SEE ALSO/,$p' "$ROOT/man/man1/$t.1" | grep -qF '.BR rdmadiag (7)' ||
			fail "$t.1: SEE ALSO does not name rdmadiag(7)"
		sed -n '/^\.SH EXIT STATUS/,/^\.SH [^E]/p' "$ROOT/man/man1/$t.1" | grep -qF 'rdmadiag (7)' ||
			fail "$t.1: EXIT STATUS does not point to rdmadiag(7)"
	done
	make -C "$ROOT" --no-print-directory -s install PREFIX=/opt/rd DESTDIR="$dest" > /dev/null
	[ -f "$dest/opt/rd/share/man/man7/rdmadiag.7" ] || fail "make install left out rdmadiag.7"
	make -C "$ROOT" --no-print-directory -s uninstall PREFIX=/opt/rd DESTDIR="$dest" > /dev/null
	[ ! -e "$dest/opt/rd/share/man/man7/rdmadiag.7" ] || fail "make uninstall left rdmadiag.7"
}
