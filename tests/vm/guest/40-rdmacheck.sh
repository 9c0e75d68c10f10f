# vm-timeout: 240
# rdmacheck on real rxe: every test passes or skips with a reason, the RNR, access and
# misaligned-atomic outcomes are asserted from the JSON, the forced failures name their
# step and cause, nothing is left behind, and valgrind finds no leak.
RC=rdmacheck
J=$OUT/40-rdmacheck
MEM=16M		# the guest has 256 MB

res_snap() { rdma res show 2>&1; }
# jq over one test's JSON line
jt() { local f=$1 t=$2; shift 2; jq -r --arg t "$t" "select(.test == \$t) | $*" "$f"; }
# a jq condition for tap_check (its output would land in the TAP stream)
jqe() { jq -e "$@" > /dev/null; }

if ! have $RC; then
	tap_fail "rdmacheck is built and in the image"
	exit 0
fi

before=$(res_snap)
log "rdma res before: $before"

# --- 1. every test on the default device (first ACTIVE port: rxe0, loopback) -----------
log "section 1"
$RC -j --max-mem $MEM > "$J-all.json" 2> "$J-all.err"
st=$?
cat "$J-all.json" "$J-all.err" >&2
tap_eq "rdmacheck (all tests, rxe0 loopback) exits 0" 0 "$st"
# the text form of the same run, for the log and the README
$RC --max-mem $MEM > "$J-all.txt" 2>&1
st=$?
cat "$J-all.txt" >&2
tap_check "rdmacheck text output: a header and six PASS/SKIP lines (exit $st)" \
	[ "$st" = 0 -a "$(grep -cE '^(PASS|SKIP) ' "$J-all.txt")" = 6 ]
# jq is slow under TCG: one pass over the results sets every value the checks below need
eval "$(jq -r -s '
	def t($n): (map(select(.test == $n))[0] // {});
	def chk($n; $w): ((t($n).checks // []) | map(select(.what == $w))[0] // {});
	def v($x): ($x | if type == "string" then . else tojson end) | @sh;
	"verdicts=" + v([.[] | "\(.test):\(.verdict)"] | join(" ")),
	"why=" + v([.[] | select(.verdict != "pass") | "\(.test): \(.summary) \(.step) errno \(.errno) \(.hint)"] | join("; ")),
	"rnr_wc=" + v("\(t("rnr").wc_status) \(t("rnr").wc_name)"),
	"rnr_ctr=" + v([(t("rnr").counters // [])[:3][] | "\(.name) \(.delta) \(.ok)"] | join(",")),
	"n7=" + v(chk("rnr"; "rnr_retry 7").values.rnr_naks),
	"iv=" + v(chk("rnr"; "rnr_retry 7").values.nak_interval_ms),
	"tm=" + v(chk("rnr"; "rnr_retry 7").values.min_rnr_timer_ms),
	"dl=" + v(chk("rnr"; "rnr_retry 7").values.after_recv_ms),
	"acc=" + v([(t("access").checks // [])[].wc_status | tostring] | join(",")),
	"mis=" + v(chk("alignment"; "misaligned atomic").verdict),
	"mis_detail=" + v(chk("alignment"; "misaligned atomic").detail),
	"misx=" + v("\(chk("alignment"; "misaligned atomic (wr API)").verdict) \(chk("alignment"; "misaligned atomic (wr API)").wc_status)"),
	"misx_detail=" + v(chk("alignment"; "misaligned atomic (wr API)").detail),
	"atom=" + v([(t("alignment").checks // [])[] | select(.what | test("aligned$")) | .verdict] | join(" ")),
	"gidrec=" + v(t("gid-sweep").summary // "" | capture("use -g (?<g>[0-9]+)").g // ""),
	"mrn=" + v([(t("mr-cost").checks // [])[] | select(.values.reg_us > 0 and .values.reg_gbps > 0)] | length)
' "$J-all.json")"
for t in qp-states gid-sweep rnr alignment access mr-cost; do
	case " $verdicts " in
	*" $t:pass "*) tap_pass "$t passes on rxe0" ;;
	*" $t:skip "*) tap_check "$t skips with a reason" grep -q "\"test\":\"$t\".*\"summary\":\"[^\"]" "$J-all.json" ;;
	*) tap_fail "$t passes on rxe0 ($verdicts)" "$why" ;;
	esac
done

# --- 2. what the tests must have seen, asserted from the JSON ----------------------------
log "section 2"
tap_eq "rnr: rnr_retry 1 ends with WC 13 IBV_WC_RNR_RETRY_EXC_ERR" "13 IBV_WC_RNR_RETRY_EXC_ERR" "$rnr_wc"
# loopback: requester and responder counters live on the same device
tap_eq "rnr: rcvd_rnr_err +2, retry_rnr_exceeded_err +1, send_rnr_err +2 (rnr_retry 1: try + 1 retry)" \
	"rcvd_rnr_err 2 true,retry_rnr_exceeded_err 1 true,send_rnr_err 2 true" "$rnr_ctr"
diag "rnr_retry 7: $n7 RNR NAKs, one per $iv ms, min_rnr_timer $tm ms, completion $dl ms after the receive"
tap_check "rnr: rnr_retry 7 with a delayed receive saw RNR NAKs ($n7) spaced by at least min_rnr_timer ($iv >= $tm ms)" \
	awk -v n="$n7" -v i="$iv" -v t="$tm" 'BEGIN { exit !(n >= 1 && i >= t) }'
# once the receive is there, the next retry (at most one NAK interval later) succeeds
tap_check "rnr: the send completed within one RNR retry interval of the receive ($dl ms, interval $iv ms)" \
	awk -v d="$dl" -v i="$iv" -v t="$tm" 'BEGIN { m = i > t ? i : t; exit !(d <= 1.5 * m + 20) }'
tap_eq "access: three cases, each WC 10" "10,10,10" "$acc"
tap_eq "alignment: the misaligned atomic failed (WC error or refused at post)" pass "$mis"
diag "misaligned atomic: $mis_detail"
# librxe refuses it before it leaves; through ibv_wr_*() the kernel's responder must refuse
# it (IBA: misaligned atomic -> NAK invalid request -> WC 9 at the requester)
tap_eq "alignment: a misaligned atomic sent through ibv_wr_*() ends in WC 9 IBV_WC_REM_INV_REQ_ERR" \
	"pass 9" "$misx"
diag "misaligned atomic via ibv_wr_*: $misx_detail"
tap_eq "alignment: atomics aligned CAS and FAA returned the old values" "pass pass" "$atom"
tap_eq "gid-sweep recommends the IPv4 RoCE v2 GID index setup.sh found" "$GID" "$gidrec"
tap_check "mr-cost measured 4 KiB .. $MEM with us and GB/s ($mrn sizes)" [ "$mrn" -ge 4 ]

# mr-cost on huge pages: reserve 9 x 2 MiB for the run, give them back after
hp=/proc/sys/vm/nr_hugepages
hp0=$(cat $hp)
echo 9 > $hp
$RC -j --max-mem $MEM mr-cost > "$J-huge.json" 2>> "$J-all.err"
st=$?
echo "$hp0" > $hp
cat "$J-huge.json" >&2
r=$(jq -r '[.checks[] | select(.what | startswith("hugetlb")) | select(.values.reg_us > 0) | .what] | join(",")' "$J-huge.json")
tap_eq "mr-cost with 9 huge pages reserved measures hugetlb 2 MiB and 16 MiB (exit $st)" \
	"hugetlb 2 MiB,hugetlb 16 MiB" "$r"
diag "$(jq -r '.checks[] | "\(.what): \(.detail)"' "$J-huge.json" | tr '\n' ';')"
tap_eq "nr_hugepages is back to $hp0" "$hp0" "$(cat $hp)"

# --- 3. two devices: rxe0 -> rxe1 over veth, counters of both ends ----------------------
log "section 3"
$RC -j --peer "$DEV1" qp-states rnr access alignment gid-sweep > "$J-peer.json" 2> "$J-peer.err"
st=$?
cat "$J-peer.json" "$J-peer.err" >&2
tap_eq "rdmacheck --peer rxe1 (qp-states rnr access alignment gid-sweep) exits 0" 0 "$st"
r=$(jt "$J-peer.json" rnr '[.counters[:3][] | "\(.dev) \(.name) \(.delta)"] | join(",")')
diag "rnr_retry 1 counters: $r"
case $r in
"rxe0 rcvd_rnr_err 2,rxe0 retry_rnr_exceeded_err 1,rxe1 send_rnr_err "[23]) ok=yes ;;
*) ok=no ;;
esac
tap_eq "rnr with --peer: requester rxe0 rcvd_rnr_err +2 and retry_rnr_exceeded_err +1, responder rxe1 send_rnr_err +2 (+3 tolerated: see selftest_rnr.c)" yes "$ok"

# --- 4. forced failures: each names its step and cause, exit 1 --------------------------
log "section 4"
# jqv FILE COND DIAG: "true|diag" or "false|diag" for the qp-states result (one jq run)
jqv() { jq -r "select(.test == \"qp-states\") | \"\\($2)|$3\"" "$1"; }
failcase() {	# failcase NAME FILE COND DIAG
	local r
	r=$(jqv "$2" "$3" "$4")
	tap_eq "$1" true "${r%%|*}"
	diag "${r#*|}"
}
$RC -j -g 7 qp-states > "$J-badgid.json" 2>&1; st=$?
cat "$J-badgid.json" >&2
tap_eq "a bad GID index (-g 7) fails with exit 1" 1 "$st"
failcase "a bad GID index: the step is INIT->RTR and the hint says the GID is not populated" \
	"$J-badgid.json" '(.step | test("INIT->RTR")) and (.errno > 0) and (.hint | test("not a populated GID"))' \
	'\(.step): errno \(.errno) \(.error); \(.hint)'

$RC -j --force-path-mtu 4096 qp-states > "$J-mtu.json" 2>&1; st=$?
cat "$J-mtu.json" >&2
tap_eq "path MTU 4096 above the port's 1024 fails with exit 1" 1 "$st"
failcase "path MTU: the step is INIT->RTR and the hint compares path_mtu with active_mtu" \
	"$J-mtu.json" '(.step | test("INIT->RTR")) and (.hint | test("path_mtu 4096 is above .*active_mtu 1024"))' \
	'\(.step); \(.observed); \(.hint)'
$RC -j --peer "$DEV1" --force-path-mtu 4096 --timeout 1500 qp-states > "$J-mtu-peer.json" 2>&1; st=$?
cat "$J-mtu-peer.json" >&2
tap_eq "path MTU 4096 between rxe0 and rxe1 over veth (MTU 1500) fails with exit 1" 1 "$st"
failcase "path MTU between two devices: the data step fails and the hint names path_mtu vs active_mtu" \
	"$J-mtu-peer.json" '(.step | test("data exchange")) and (.hint | test("path_mtu 4096 is above"))' \
	'\(.step) (\(.error)); wc \(.wc_status); \(.hint)'

$RC -j --force-bad-dest-qpn qp-states > "$J-qpn.json" 2>&1; st=$?
cat "$J-qpn.json" >&2
tap_eq "a destination QP that does not exist fails with exit 1" 1 "$st"
failcase "missing destination QP: WC 12 retry exceeded at the data step, hint names dest_qp_num" \
	"$J-qpn.json" '.wc_status == 12 and (.step | test("data exchange")) and (.hint | test("dest_qp_num 0xfffff0 does not exist")) and .attributes.dest_qp_num == "0xfffff0"' \
	'\(.step); \(.hint)'
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

# Leak check, one way: an ASan/LSan build (rdmacheck-asan, put in the image with
# VM_EXTRA_BINS; see the README) when there is one, else valgrind's memcheck.  The image
# may carry only valgrind's tool binary (Debian's /usr/bin/valgrind is a shell wrapper
# around valgrind.bin): then memcheck runs directly.  Valgrind under TCG is slow, so it
# runs once, and its own complaints about the image turn into a skip.
vg() {
	if have valgrind.bin; then valgrind "$@"
	else VALGRIND_LAUNCHER=/usr/bin/valgrind VALGRIND_LIB=/usr/libexec/valgrind \
		/usr/libexec/valgrind/memcheck-amd64-linux "$@"; fi
}
LEAKRUN="--max-mem 1M qp-states alignment access mr-cost gid-sweep rnr"
log "leak check"
if have rdmacheck-asan; then
	ASAN_OPTIONS=detect_leaks=1:exitcode=99 rdmacheck-asan -j $LEAKRUN \
		> "$J-asan.json" 2> "$J-asan.log"
	st=$?
	cat "$J-asan.json" "$J-asan.log" >&2
	tap_check "ASan/LSan build: every test ran, no leak and no memory error (exit $st)" \
		[ "$st" = 0 -o "$st" = 1 ]
	tap_check "ASan/LSan build: six results and no sanitizer report" \
		[ "$(jq -s length "$J-asan.json")" = 6 -a "$(grep -c Sanitizer "$J-asan.log")" = 0 ]
	tap_eq "rdma res show is unchanged after the ASan run" "$before" "$(res_snap)"
elif have valgrind || [ -x /usr/libexec/valgrind/memcheck-amd64-linux ]; then
	vg --leak-check=full --show-leak-kinds=definite,indirect --read-inline-info=no \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		$RC $LEAKRUN > "$J-vg.txt" 2> "$J-vg.log"
	st=$?
	cat "$J-vg.txt" "$J-vg.log" >&2
	if ! grep -q "ERROR SUMMARY" "$J-vg.log"; then
		tap_skip "leak check" "valgrind cannot run in this image: $(grep -m1 -iE 'cannot|libc6-dbg|not found' "$J-vg.log")"
	else
		# exit 1 is allowed: the rnr timing checks may not hold at valgrind's speed
		tap_check "valgrind: rdmacheck ran all six tests without a leak or memory error (exit $st)" \
			[ \( "$st" = 0 -o "$st" = 1 \) -a "$(grep -cE '^(PASS|FAIL|SKIP) ' "$J-vg.txt")" = 6 ]
		# --errors-for-leak-kinds=definite,indirect: a leak of either kind is an error
		tap_check "valgrind: 0 bytes definitely and indirectly lost, 0 errors" \
			grep -Eq "ERROR SUMMARY: 0 errors" "$J-vg.log"
		grep -E "definitely lost|indirectly lost|ERROR SUMMARY|in use at exit|All heap" "$J-vg.log" |
			sed 's/^/# /'
		tap_eq "rdma res show is unchanged after the valgrind run" "$before" "$(res_snap)"
	fi
else
	tap_skip "leak check" "neither rdmacheck-asan nor valgrind is in the image"
fi
log "done"
