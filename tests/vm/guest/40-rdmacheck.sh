# vm-timeout: 240
# rdmacheck on real rxe: every test passes or skips with a reason, the RNR, access and
# misaligned-atomic outcomes are asserted from the JSON, the forced failures name their
# step and cause, nothing is left behind, and valgrind finds no leak.  The guest runs
# rdmacheck and checks exit statuses, text output, rdma res and the leak check; the JSON
# it writes ($OUT/40-rdmacheck-*.json) is judged by host/40-rdmacheck.sh.
RC=rdmacheck
J=$OUT/40-rdmacheck
MEM=16M		# the guest has 512 MiB

res_snap() { rdma res show 2>&1; }

if ! have $RC; then
	tap_fail "rdmacheck is built and in the image"
	exit 0
fi

before=$(res_snap)
log "rdma res before: $before"

# --- 1. every test on the default device (first ACTIVE port: rxe0, loopback) -----------
# One JSON run of all six tests, with 9 x 2 MiB huge pages reserved so that mr-cost also
# measures hugetlb 2 MiB and 16 MiB (given back right after).  The JSON is judged on the
# host (host/40-rdmacheck.sh: verdicts, RNR WC and counters, access WC 10, atomics,
# gid-sweep, mr-cost sizes); jq costs 0.6 s a start under TCG.
log "section 1"
hp=/proc/sys/vm/nr_hugepages
hp0=$(cat $hp)
echo 9 > $hp
$RC -j --max-mem $MEM > "$J-all.json" 2> "$J-all.err"
st_all=$?
echo "$hp0" > $hp
cat "$J-all.json" "$J-all.err" >&2
tap_eq "rdmacheck (all tests, rxe0 loopback, huge pages reserved) exits 0" 0 "$st_all"
tap_eq "nr_hugepages is back to $hp0" "$hp0" "$(cat $hp)"
# the text form: a header and six PASS/SKIP lines (without huge pages this time)
$RC --max-mem $MEM > "$J-all.txt" 2>&1
st=$?
cat "$J-all.txt" >&2
tap_check "rdmacheck text output: a header and six PASS/SKIP lines (exit $st)" \
	[ "$st" = 0 -a "$(grep -cE '^(PASS|SKIP) ' "$J-all.txt")" = 6 ]
{ echo "GID=$GID"; echo "MEM=$MEM"; echo "st_all=$st_all"; } > "$J.env"

# --- 3. two devices: rxe0 -> rxe1 over veth, counters of both ends ----------------------
# (host/40-rdmacheck.sh asserts the RNR counter deltas of both ends from the JSON)
log "section 3"
$RC -j --peer "$DEV1" qp-states rnr access alignment gid-sweep > "$J-peer.json" 2> "$J-peer.err"
st=$?
cat "$J-peer.json" "$J-peer.err" >&2
tap_eq "rdmacheck --peer rxe1 (qp-states rnr access alignment gid-sweep) exits 0" 0 "$st"

# --- 4. forced failures: each names its step and cause, exit 1 --------------------------
# the exit status here; the step, errno and hint of each from its JSON on the host
log "section 4"
$RC -j -g 7 qp-states > "$J-badgid.json" 2>&1; st=$?
cat "$J-badgid.json" >&2
tap_eq "a bad GID index (-g 7) fails with exit 1" 1 "$st"
$RC -j --force-path-mtu 4096 qp-states > "$J-mtu.json" 2>&1; st=$?
cat "$J-mtu.json" >&2
tap_eq "path MTU 4096 above the port's 1024 fails with exit 1" 1 "$st"
# the send of a packet above the veth MTU never completes: 500 ms of waiting shows it
$RC -j --peer "$DEV1" --force-path-mtu 4096 --timeout 500 qp-states > "$J-mtu-peer.json" 2>&1; st=$?
cat "$J-mtu-peer.json" >&2
tap_eq "path MTU 4096 between rxe0 and rxe1 over veth (MTU 1500) fails with exit 1" 1 "$st"
$RC -j --force-bad-dest-qpn qp-states > "$J-qpn.json" 2>&1; st=$?
cat "$J-qpn.json" >&2
tap_eq "a destination QP that does not exist fails with exit 1" 1 "$st"
$RC -g 7 qp-states > "$J-badgid.txt" 2>&1
cat "$J-badgid.txt" >&2
text_expanded() {
	grep -q '^FAIL qp-states  RC QP 0x[0-9a-f]* INIT->RTR' "$1" &&
	grep -q '^      errno     61 ' "$1" &&
	grep -q '^      attr      ah.grh.sgid_index    7 (not populated' "$1" &&
	grep -q '^      attr      path_mtu             1024 (port active_mtu 1024' "$1" &&
	grep -q '^      hint      sgid_index 7 is not a populated GID' "$1"
}
tap_check "text output expands the failure: step, errno, attributes, hint" text_expanded "$J-badgid.txt"

# --- 5. SIGINT in the middle of a test releases everything ------------------------------
log "section 5"
# A path MTU above the veth's makes rxe's send wait with no completion (seen above): a
# wait that lasts (--timeout 30 s) is the place to interrupt.
$RC -v --peer "$DEV1" --force-path-mtu 4096 --timeout 30000 qp-states > "$J-int.txt" 2>&1 &
pid=$!
wait_for 20 grep -q "RC data exchange: SEND" "$J-int.txt"
sleep 0.3
t0=$(now)
kill -INT $pid
wait $pid; st=$?
t1=$(now)
cat "$J-int.txt" >&2
tap_eq "SIGINT while waiting for a completion: exit 2" 2 "$st"
tap_check "SIGINT: rdmacheck stopped within 2 s ($t0 -> $t1)" \
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 2) }'
tap_check "SIGINT: it says it was interrupted and released everything" \
	grep -q "interrupted: everything created was released" "$J-int.txt"
tap_eq "SIGINT: rdma res show is the same as before" "$before" "$(res_snap)"

# --- 6. nothing left behind, and no leak ------------------------------------------------
log "section 6"
after=$(res_snap)
log "rdma res after: $after"
tap_eq "rdma res show is the same before and after every run above" "$before" "$after"

# Leak check, one way: when rdmacheck itself is an ASan build (make SANITIZE=address,...:
# LeakSanitizer then runs at the exit of every rdmacheck above too) or an ASan build is
# in the image as rdmacheck-asan (VM_EXTRA_BINS), that; else valgrind's memcheck.  The
# image may carry only valgrind's tool binary (Debian's /usr/bin/valgrind is a shell
# wrapper around valgrind.bin): then memcheck runs directly.
# What it covers: one process running qp-states (RC/UC/UD QPs through every state, the
# illegal transitions, ERR->RESET, data exchange), alignment (odd-address MRs, SEND/WRITE/
# READ, atomics, the refused misaligned atomic), access (three remote access errors: QPs
# left in ERR), gid-sweep (a QP per GID index) and mr-cost --max-mem 1M (4 KiB .. 1 MiB
# registrations): every create/release path of the self-test library and its error
# cleanup.  Not rnr: its resources are the qp-states pair's, and its RNR retry waits are
# what is slow under valgrind on TCG (~4 s of ~25).  Valgrind's own complaints about the
# image turn into a skip.
vg() {
	if have valgrind.bin; then valgrind "$@"
	else VALGRIND_LAUNCHER=/usr/bin/valgrind VALGRIND_LIB=/usr/libexec/valgrind \
		/usr/libexec/valgrind/memcheck-amd64-linux "$@"; fi
}
LEAKRUN="--max-mem 1M qp-states alignment access gid-sweep mr-cost"
LEAKN=5
log "leak check"
asan=
if grep -q __asan_init "$(command -v $RC)" 2>/dev/null; then asan=$RC
elif have rdmacheck-asan; then asan=rdmacheck-asan; fi
if [ -n "$asan" ]; then
	ASAN_OPTIONS=detect_leaks=1:exitcode=99 $asan -j $LEAKRUN \
		> "$J-asan.json" 2> "$J-asan.log"
	st=$?
	cat "$J-asan.json" "$J-asan.log" >&2
	tap_check "ASan/LSan build ($asan): every test ran, no leak and no memory error (exit $st)" \
		[ "$st" = 0 -o "$st" = 1 ]
	tap_check "ASan/LSan build: $LEAKN results and no sanitizer report" \
		[ "$(grep -c '"test":' "$J-asan.json")" = $LEAKN -a "$(grep -c Sanitizer "$J-asan.log")" = 0 ]
	tap_eq "rdma res show is unchanged after the ASan run" "$before" "$(res_snap)"
elif have valgrind || [ -x /usr/libexec/valgrind/memcheck-amd64-linux ]; then
	t0=$(now)
	vg --leak-check=full --show-leak-kinds=definite,indirect --read-inline-info=no \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		$RC $LEAKRUN > "$J-vg.txt" 2> "$J-vg.log"
	st=$?
	cat "$J-vg.txt" "$J-vg.log" >&2
	diag "valgrind run: $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s"
	if ! grep -q "ERROR SUMMARY" "$J-vg.log"; then
		tap_skip "leak check" "valgrind cannot run in this image: $(grep -m1 -iE 'cannot|libc6-dbg|not found' "$J-vg.log")"
	else
		tap_check "valgrind: rdmacheck ran qp-states alignment access gid-sweep mr-cost, each PASS or SKIP (exit $st)" \
			[ "$st" = 0 -a "$(grep -cE '^(PASS|SKIP) ' "$J-vg.txt")" = $LEAKN ]
		# --errors-for-leak-kinds=definite,indirect: a leak of either kind is an error
		tap_check "valgrind: 0 bytes definitely and indirectly lost, 0 errors" \
			grep -Eq "ERROR SUMMARY: 0 errors" "$J-vg.log"
		grep -E "definitely lost|indirectly lost|ERROR SUMMARY|in use at exit|All heap" "$J-vg.log" |
			sed 's/^/# /'
		tap_eq "rdma res show is unchanged after the valgrind run" "$before" "$(res_snap)"
	fi
else
	tap_skip "leak check" "neither an ASan build of rdmacheck nor valgrind is in the image"
fi
log "done"
