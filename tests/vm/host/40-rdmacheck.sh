# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/40-rdmacheck.sh: what rdmacheck wrote on the real rxe devices,
# asserted here with jq at native speed (the guest checked exit statuses and rdma res):
#   - every test passes on the default device, which is rxe0 port 1 with the IPv4 GID,
#     or skips with a reason;
#   - qp-states: the RC, UC and UD walks all ran, and each type went to ERR and back from
#     RTS, INIT and RTR (RESET->ERR recorded);
#   - rnr: rnr_retry 1 ends in WC 13 with the counter deltas of a try and one retry, and
#     with rnr_retry 7 the RNR NAKs are spaced consistently with min_rnr_timer (not closer,
#     not further apart than twice it plus 20 ms) and the send completes within one retry
#     interval of the delayed receive; the same counters on both ends of a two-device run;
#   - access: WC 10 three times, and "not counted by this driver" (rxe has no remote
#     access error counter); alignment: SEND, WRITE and READ between odd addresses at both
#     ends, the misaligned atomic refused (at post, and by the responder through ibv_wr_*:
#     WC 9), aligned CAS and FAA ok;
#   - gid-sweep recommends the GID index setup.sh found; mr-cost measured every size
#     (4 KiB .. --max-mem) and hugetlb 2 MiB and 16 MiB with huge pages reserved;
#   - the options run (-v -d -p -g --peer --peer-port --peer-gid-index): the devices, ports
#     and GID indexes chosen, and -v's steps printed as each test ran;
#   - the forced failures (bad GID index, path MTU above the port's, between two devices,
#     missing destination QP) name their step and cause, also in text form; SIGINT says
#     it released everything;
#   - live_objects, the library's count of what the process still holds after each test,
#     is 0 in every result of a passing run, a failing run and the SIGINT run (checked in
#     the process: after its exit the kernel frees everything anyway);
#   - the leak run: no leak, no memory error, and the text output (a header, five lines);
#   - with rxe0 and rxe1 not ACTIVE, the default is the next ACTIVE device (rxe2).
cd "$VM_OUT" || exit 2
J=40-rdmacheck
[ -s "$J-all.json" ] && [ -s "$J.env" ] || { tap_fail "the guest saved $J-all.json and $J.env"; exit 0; }
# GID MEM st_all leak st_leak leak_s LEAKRUN s0 s1 s2
. "./$J.env"

# qp-states: the walk of each type and its ERR cycle, as "what:verdict" in check order
QPJQ='def qp($r): ($r.checks // []) | map(select(.what | test("^(RC|UC|UD)( from |$)")) | "\(.what):\(.verdict)") | join(" ");'
QPWANT="RC:pass UC:pass UD:pass RC from RTS:pass RC from INIT:pass RC from RTR:pass RC from RESET:pass UC from RTS:pass UC from INIT:pass UC from RTR:pass UC from RESET:pass UD from RTS:pass UD from INIT:pass UD from RTR:pass UD from RESET:pass"

# one jq pass sets every value the checks below need
eval "$(jq -r -s "$QPJQ"'
	def t($n): (map(select(.test == $n))[0] // {});
	def chk($n; $w): ((t($n).checks // []) | map(select(.what == $w))[0] // {});
	def v($x): ($x | if type == "string" then . else tojson end) | @sh;
	"verdicts=" + v([.[] | "\(.test):\(.verdict)"] | join(" ")),
	"live=" + v([.[] | .live_objects | tostring] | join(",")),
	"skipwhy=" + v([.[] | select(.verdict == "skip" and (.summary // "") != "") | .test] | join(" ")),
	"why=" + v([.[] | select(.verdict != "pass") | "\(.test): \(.summary) \(.step) errno \(.errno) \(.hint)"] | join("; ")),
	"chosen=" + v([.[] | "\(.device) \(.port) \(.gid_index) \(.peer)"] | unique | join(",")),
	"qp=" + v(qp(t("qp-states"))),
	"qpsum=" + v(t("qp-states").summary),
	"illegal=" + v([(t("qp-states").checks // [])[] | select(.what | test("^(RC|UC|UD) (RESET->RTR|INIT->RTS|RTS->RTR)$")) | "\(.what):\(.verdict)"] | join(" ")),
	"rnr_wc=" + v("\(t("rnr").wc_status) \(t("rnr").wc_name)"),
	"rnr_ctr=" + v([(t("rnr").counters // [])[:3][] | "\(.name) \(.delta) \(.ok)"] | join(",")),
	"n7=" + v(chk("rnr"; "rnr_retry 7").values.rnr_naks),
	"iv=" + v(chk("rnr"; "rnr_retry 7").values.nak_interval_ms),
	"ivmax=" + v(chk("rnr"; "rnr_retry 7").values.max_interval_ms),
	"tm=" + v(chk("rnr"; "rnr_retry 7").values.min_rnr_timer_ms),
	"dl=" + v(chk("rnr"; "rnr_retry 7").values.after_recv_ms),
	"acc=" + v([(t("access").checks // [])[].wc_status | tostring] | join(",")),
	"acc_nc=" + v([(t("access").checks // [])[] | select(.detail | test("remote access errors not counted by this driver$"))] | length),
	"acc_ctr=" + v((t("access").counters // []) | length),
	"acc_sum=" + v(t("access").summary),
	"odd=" + v([(t("alignment").checks // [])[] | select(.what | test("^(SEND|WRITE|READ) odd")) | "\(.what | split(" ")[0]):\(.verdict):\(.values.bytes % 2):\(.values.local_page_off % 2):\(.values.remote_page_off % 2)"] | join(" ")),
	"odd_detail=" + v([(t("alignment").checks // [])[] | select(.what | test("^(SEND|WRITE|READ) odd")) | .detail] | join("; ")),
	"mis=" + v(chk("alignment"; "misaligned atomic").verdict),
	"mis_detail=" + v(chk("alignment"; "misaligned atomic").detail),
	"misx=" + v("\(chk("alignment"; "misaligned atomic (wr API)").verdict) \(chk("alignment"; "misaligned atomic (wr API)").wc_status)"),
	"misx_detail=" + v(chk("alignment"; "misaligned atomic (wr API)").detail),
	"atom=" + v([(t("alignment").checks // [])[] | select(.what | test("aligned$")) | .verdict] | join(" ")),
	"gidrec=" + v(t("gid-sweep").summary // "" | capture("use -g (?<g>[0-9]+)").g // ""),
	"mrn=" + v([(t("mr-cost").checks // [])[] | select(.what | startswith("4k ")) | select(.values.reg_us > 0 and .values.reg_gbps > 0)] | length),
	"mr4k=" + v([(t("mr-cost").checks // [])[] | select(.what | startswith("4k ")) | .what] | join(",")),
	"huge=" + v([(t("mr-cost").checks // [])[] | select(.what | startswith("hugetlb")) | select(.values.reg_us > 0) | .what] | join(",")),
	"mrdetail=" + v([(t("mr-cost").checks // [])[] | "\(.what): \(.detail)"] | join("; "))
' "$J-all.json")"

for t in qp-states gid-sweep rnr alignment access mr-cost; do
	case " $verdicts " in
	*" $t:pass "*) tap_pass "$t passes on rxe0" ;;
	*" $t:skip "*) tap_check "$t skips with a reason" eval '[[ " $skipwhy " == *" $t "* ]]' ;;
	*) tap_fail "$t passes on rxe0 ($verdicts)" "$why" ;;
	esac
done
tap_eq "live_objects after each of the six tests of a passing run (nothing held)" \
	"0,0,0,0,0,0" "$live"
tap_eq "the default device is the first ACTIVE port: rxe0 port 1, the IPv4 GID $GID, loopback (every result)" \
	"rxe0 1 $GID null" "$chosen"

tap_eq "qp-states: the RC, UC and UD walks ran, and each type went ERR->RESET->INIT from RTS, INIT, RTR, and from RESET" \
	"$QPWANT" "$qp"
tap_check "qp-states: the summary names RC, UC and UD ($qpsum)" eval '[[ $qpsum == "RC, UC, UD: "* ]]'
tap_eq "qp-states: RESET->RTR, INIT->RTS and RTS->RTR are refused for RC, UC and UD alike" \
	"RC RESET->RTR:pass RC INIT->RTS:pass RC RTS->RTR:pass UC RESET->RTR:pass UC INIT->RTS:pass UC RTS->RTR:pass UD RESET->RTR:pass UD INIT->RTS:pass UD RTS->RTR:pass" "$illegal"

tap_eq "rnr: rnr_retry 1 ends with WC 13 IBV_WC_RNR_RETRY_EXC_ERR" "13 IBV_WC_RNR_RETRY_EXC_ERR" "$rnr_wc"
# loopback: requester and responder counters live on the same device
tap_eq "rnr: rcvd_rnr_err +2, retry_rnr_exceeded_err +1, send_rnr_err +2 (rnr_retry 1: try + 1 retry)" \
	"rcvd_rnr_err 2 true,retry_rnr_exceeded_err 1 true,send_rnr_err 2 true" "$rnr_ctr"
diag "rnr_retry 7: $n7 RNR NAKs, one per $iv ms, min_rnr_timer $tm ms (at most $ivmax ms apart), completion $dl ms after the receive"
# The spacing is the delay over the NAKs counted in it.  Not closer than min_rnr_timer,
# and not further apart than twice it plus 20 ms: rxe rounds the timer up to jiffies and
# fires on a tick (15.1 ms measured for 10.24 ms at HZ=250 under QEMU/TCG; 20-30 ms at
# HZ=100), while a requester that waited for its ACK timeout (67 ms) would be far above.
# The library applies the same bound (selftest_rnr.c) and reports it as max_interval_ms.
tap_check "rnr: rnr_retry 7 with a delayed receive saw RNR NAKs ($n7) spaced consistently with min_rnr_timer ($tm <= $iv <= 2 * $tm + 20 ms)" \
	awk -v n="$n7" -v i="$iv" -v t="$tm" -v m="$ivmax" \
	'BEGIN { d = m - (2 * t + 20); exit !(n >= 1 && i >= t && i <= 2 * t + 20 && d * d < 1e-6) }'
# once the receive is there, the next retry (at most one NAK interval later) succeeds
tap_check "rnr: the send completed within one RNR retry interval of the receive ($dl ms, interval $iv ms)" \
	awk -v d="$dl" -v i="$iv" -v t="$tm" 'BEGIN { m = i > t ? i : t; exit !(d <= 1.5 * m + 20) }'
tap_eq "access: three cases, each WC 10" "10,10,10" "$acc"
# rxe has no remote access error counter (catalogue concept remote_access_error): each case
# must say so, not pass silently
tap_eq "access: each case says remote access errors are not counted by this driver, none recorded" \
	"3 0" "$acc_nc $acc_ctr"
diag "access: $acc_sum"
# verdict : length odd : local address odd : remote address odd
tap_eq "alignment: SEND, WRITE and READ with odd lengths between odd local and odd remote addresses, verified" \
	"SEND:pass:1:1:1 WRITE:pass:1:1:1 READ:pass:1:1:1" "$odd"
diag "alignment: $odd_detail"
tap_eq "alignment: the misaligned atomic failed (WC error or refused at post)" pass "$mis"
diag "misaligned atomic: $mis_detail"
# librxe refuses it before it leaves; through ibv_wr_*() the kernel's responder must refuse
# it (IBA: misaligned atomic -> NAK invalid request -> WC 9 at the requester)
tap_eq "alignment: a misaligned atomic sent through ibv_wr_*() ends in WC 9 IBV_WC_REM_INV_REQ_ERR" \
	"pass 9" "$misx"
diag "misaligned atomic via ibv_wr_*: $misx_detail"
tap_eq "alignment: atomics aligned CAS and FAA returned the old values" "pass pass" "$atom"
tap_eq "gid-sweep recommends the IPv4 RoCE v2 GID index setup.sh found" "$GID" "$gidrec"
diag "mr-cost: $mrdetail"
tap_check "mr-cost measured 4 KiB .. $MEM with us and GB/s ($mrn of 4: $mr4k)" [ "$mrn" -ge 4 ]
tap_eq "mr-cost with 9 huge pages reserved measures hugetlb 2 MiB and 16 MiB (exit $st_all)" \
	"hugetlb 2 MiB,hugetlb 16 MiB" "$huge"

# --- every device option, two devices, -v -------------------------------------------------
P=$J-peer.out
grep '^{' "$P" > "$J-peer.json"
r=$(jq -r -s "$QPJQ"'
	(map("\(.test):\(.verdict)") | join(" ")),
	(map("\(.device) \(.port) \(.gid_index) \(.peer) \(.peer_port) \(.peer_gid_index)") | unique | join(",")),
	qp(map(select(.test == "qp-states"))[0] // {}),
	(map(select(.test == "rnr"))[0] // {} | [(.counters // [])[:3][] | "\(.dev) \(.name) \(.delta)"] | join(","))' "$J-peer.json")
{ read -r pv; read -r pchosen; read -r pqp; read -r pr; } <<< "$r"
# (in run order, whatever the order on the command line)
tap_eq "--peer run: the five tests pass" \
	"qp-states:pass gid-sweep:pass rnr:pass alignment:pass access:pass" "$pv"
tap_eq "--peer run: -d rxe0 -p 1 -g 0, --peer rxe1 --peer-port 1 --peer-gid-index 0 are what every result used" \
	"rxe0 1 0 rxe1 1 0" "$pchosen"
tap_eq "--peer run: the RC, UC and UD walks and ERR cycles ran between rxe0 and rxe1" "$QPWANT" "$pqp"
diag "rnr_retry 1 counters: $pr"
case $pr in
"rxe0 rcvd_rnr_err 2,rxe0 retry_rnr_exceeded_err 1,rxe1 send_rnr_err "[23]) ok=yes ;;
*) ok=no ;;
esac
tap_eq "rnr with --peer: requester rxe0 rcvd_rnr_err +2 and retry_rnr_exceeded_err +1, responder rxe1 send_rnr_err +2 (+3 tolerated: see selftest_rnr.c)" yes "$ok"

# -v: "  .. SECONDS TEST STEP" lines on stderr, in the same file as the JSON lines.  Each
# test's steps come after the previous test's result and before its own, stamped in time
# order; the steps name both devices and the masks; and the stamps are real time: the step
# after rnr's 150 ms delayed receive comes at least 150 ms after the one announcing it.
vsteps=$(awk '
	/^\{/ { if (match($0, /"test":"[^"]*"/)) { t = substr($0, RSTART + 8, RLENGTH - 9)
		for (k in blk) if (k != t) res = res "(" k " before " t ") "
		res = res t "=" (blk[t] + 0) " "; delete blk }
		next }
	/^  \.\. / { s = $2 + 0; if (s < last) back++; last = s; blk[$3]++
		if (rnr7 != "" && first_after == "" && $3 != "rnr") first_after = s
		if (index($0, "SEND with rnr_retry 7")) rnr7 = s }
	END { printf "%s| back %d | rnr gap %.3f\n", res, back, first_after - rnr7 }' "$P")
diag "-v: $vsteps"
tap_check "-v: steps of each test printed before its result, none out of time order" \
	awk -v s="$vsteps" 'BEGIN { split(s, p, "|"); exit !(p[1] ~ /^qp-states=[1-9][0-9]* gid-sweep=[1-9][0-9]* rnr=[1-9][0-9]* alignment=[1-9][0-9]* access=[1-9][0-9]* $/ && p[2] == " back 0 ") }'
tap_check "-v: the step after rnr's delayed receive is stamped at least 150 ms after it ($vsteps)" \
	awk -v s="$vsteps" 'BEGIN { split(s, p, "rnr gap "); exit !(p[2] + 0 >= 0.150) }'
# E: an extended regular expression, F: a fixed string
vwant=("E:qp-states +rxe0: allocate PD, CQ, RC QP" "E:qp-states +rxe1: allocate PD, CQ, UC QP"
	"F:INIT->RTR: ibv_modify_qp INIT->RTR mask STATE|AV|PATH_MTU|RQ_PSN|MIN_RNR_TIMER|MAX_DEST_RD_ATOMIC|DEST_QPN"
	"E:UD QP 0x[0-9a-f]+ INIT->RTR: ibv_modify_qp INIT->RTR mask STATE$"
	"E:qp-states +illegal RESET->RTR must be refused" "E:qp-states +UC QP 0x[0-9a-f]+ RESET->ERR$"
	"E:rnr +SEND with rnr_retry 1 to a QP with no receive posted"
	"E:access +WRITE with a wrong rkey: 64 bytes"
	"E:alignment +READ odd offset/length 3001 bytes b\+15 -> a\+10007$")
missing=
for w in "${vwant[@]}"; do grep -q "-${w%%:*}" -- "${w#?:}" "$P" || missing+="[$w] "; done
tap_eq "-v: the steps name both devices, the masks, the illegal and RESET->ERR transitions, rnr, access and alignment steps" "" "$missing"

# --- forced failures ------------------------------------------------------------------
# failcase NAME FILE COND DIAG: COND holds for the qp-states result in FILE
failcase() {
	local r
	r=$(jq -r "select(.test == \"qp-states\") | \"\\($3)|$4\"" "$2")
	tap_eq "$1" true "${r%%|*}"
	diag "${r#*|}"
}
failcase "a bad GID index: the step is INIT->RTR and the hint says the GID is not populated" \
	"$J-badgid.json" '(.step | test("INIT->RTR")) and (.errno > 0) and (.hint | test("not a populated GID"))' \
	'\(.step): errno \(.errno) \(.error); \(.hint)'
failcase "path MTU: the step is INIT->RTR and the hint compares path_mtu with active_mtu" \
	"$J-mtu.json" '(.step | test("INIT->RTR")) and (.hint | test("path_mtu 4096 is above .*active_mtu 1024"))' \
	'\(.step); \(.observed); \(.hint)'
failcase "path MTU between two devices: the data step fails and the hint names path_mtu vs active_mtu" \
	"$J-mtu-peer.json" '(.step | test("data exchange")) and (.hint | test("path_mtu 4096 is above"))' \
	'\(.step) (\(.error)); wc \(.wc_status); \(.hint)'
# the failure asserts no counter of its own: every counter that moved on both ends is its
# evidence (the requester's retransmissions and timeouts, the responder's drops)
mtuctr=$(jq -r 'select(.test == "qp-states") | [.counters[] | "\(.dev) \(.name) \(.delta)"] | join(", ")' "$J-mtu-peer.json" 2>/dev/null)
diag "counters of the path-MTU failure: $mtuctr"
tap_check "path MTU between two devices: the failure lists the counters that moved (the requester rxe0's at least)" \
	eval '[[ $mtuctr == *"rxe0 "* ]]'
failcase "missing destination QP: WC 12 retry exceeded at the data step, hint names dest_qp_num" \
	"$J-qpn.json" '.wc_status == 12 and (.step | test("data exchange")) and (.hint | test("dest_qp_num 0xfffff0 does not exist")) and .attributes.dest_qp_num == "0xfffff0"' \
	'\(.step); \(.hint)'
tap_check "-p 2 without -d says that no device has an ACTIVE port 2 and that -d is needed for one that is not ($(cat "$J-port2.err"))" \
	grep -q "no RDMA device has an ACTIVE port 2 (have: .*); a port that is not ACTIVE is used only with -d" "$J-port2.err"
text_expanded() {
	grep -q '^FAIL qp-states  RC QP 0x[0-9a-f]* INIT->RTR' "$1" &&
	grep -q '^      errno     61 ' "$1" &&
	grep -q '^      attr      ah.grh.sgid_index    7 (not populated' "$1" &&
	grep -q '^      attr      path_mtu             1024 (port active_mtu 1024' "$1" &&
	grep -q '^      hint      sgid_index 7 is not a populated GID' "$1"
}
tap_check "text output expands the failure: step, errno, attributes, hint" text_expanded "$J-badgid.txt"
r=$(jq -r -s '[.[] | select(.test == "qp-states") | .live_objects] | tostring' "$J-badgid.json")
tap_eq "a failing run (bad GID index): live_objects 0 after the failed qp-states" "[0]" "$r"
tap_check "SIGINT: it says it was interrupted and released everything (0 live objects)" \
	grep -q "interrupted: everything created was released (0 live objects)" "$J-int.txt"
r=$(grep '^{' "$J-int.txt" | jq -r '"\(.test) \(.verdict) errno \(.errno) live_objects \(.live_objects)"')
tap_eq "SIGINT: the interrupted qp-states fails with EINTR, live_objects 0 after its release" \
	"qp-states fail errno 4 live_objects 0" "$r"

# --- the leak run and the text output ---------------------------------------------------
L=$J-leak
diag "$leak run of rdmacheck $LEAKRUN: $(awk -v s="$leak_s" 'BEGIN { split(s, t); printf "%.1f", t[2] - t[1] }') s"
ltests=$(awk '/^(PASS|SKIP) / { printf "%s ", $2 } /^FAIL / { printf "FAIL:%s ", $2 }' "$L.txt")
lhead=$(head -1 "$L.txt")
case $leak in
valgrind)
	if ! grep -q "ERROR SUMMARY" "$L.log"; then
		tap_skip "leak check" "valgrind cannot run in this image: $(grep -m1 -iE 'cannot|libc6-dbg|not found' "$L.log")"
	else
		grep -E "definitely lost|indirectly lost|ERROR SUMMARY|in use at exit|All heap" "$L.log" |
			sed 's/^/# /'
		# --errors-for-leak-kinds=definite,indirect --error-exitcode=99: a leak of either
		# kind or a memory error is exit 99
		tap_eq "valgrind: rdmacheck exits 0: every test passed or skipped, no leak, no memory error" 0 "$st_leak"
		tap_check "valgrind: 0 errors, nothing definitely or indirectly lost" \
			grep -Eq "ERROR SUMMARY: 0 errors" "$L.log"
	fi ;;
asan)
	tap_eq "ASan/LSan build: rdmacheck exits 0 (99: a leak or memory error)" 0 "$st_leak"
	tap_check "ASan/LSan build: no sanitizer report" eval '! grep -q Sanitizer "$L.log"' ;;
*)
	tap_skip "leak check" "neither an ASan build of rdmacheck nor valgrind is in the image" ;;
esac
tap_eq "text output: a header and one PASS/SKIP line per test" \
	"rdmacheck: rxe0 port 1, GID index $GID, loopback|qp-states gid-sweep alignment access mr-cost " \
	"$lhead|$ltests"

# --- the default device when the first ones are not ACTIVE --------------------------------
r=$(jq -r '"\(.test) \(.verdict) \(.device) \(.port)"' "$J-first.json" 2>&1)
tap_eq "with veth0 down (rxe0 '$s0', rxe1 '$s1' not ACTIVE), the default run took rxe2 port 1 ('$s2')" \
	"DOWN DOWN ACTIVE|gid-sweep pass rxe2 1" "${s0#*: } ${s1#*: } ${s2#*: }|$r"
