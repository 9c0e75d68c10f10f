# Host side of guest/40-rdmacheck.sh: what rdmacheck's JSON from the real rxe devices says,
# asserted here with jq at native speed (the guest checked exit statuses, text output,
# rdma res and the leak check):
#   - every test passes on rxe0, or skips with a reason;
#   - rnr: rnr_retry 1 ends in WC 13 with the counter deltas of a try and one retry, and
#     with rnr_retry 7 the RNR NAKs are spaced by min_rnr_timer and the send completes
#     within one retry interval of the delayed receive; the same counters on both ends of
#     a two-device run (--peer rxe1);
#   - access: WC 10 three times; alignment: the misaligned atomic refused (at post, and by
#     the responder through ibv_wr_*: WC 9), aligned CAS and FAA ok;
#   - gid-sweep recommends the GID index setup.sh found; mr-cost measured every size
#     (4 KiB .. --max-mem) and hugetlb 2 MiB and 16 MiB with huge pages reserved;
#   - the forced failures (bad GID index, path MTU above the port's, between two devices,
#     missing destination QP) name their step and cause.
cd "$VM_OUT" || exit 2
J=40-rdmacheck
[ -s "$J-all.json" ] && [ -s "$J.env" ] || { tap_fail "the guest saved $J-all.json and $J.env"; exit 0; }
# GID MEM st_all
. "./$J.env"

# one jq pass sets every value the checks below need
eval "$(jq -r -s '
	def t($n): (map(select(.test == $n))[0] // {});
	def chk($n; $w): ((t($n).checks // []) | map(select(.what == $w))[0] // {});
	def v($x): ($x | if type == "string" then . else tojson end) | @sh;
	"verdicts=" + v([.[] | "\(.test):\(.verdict)"] | join(" ")),
	"skipwhy=" + v([.[] | select(.verdict == "skip" and (.summary // "") != "") | .test] | join(" ")),
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
diag "mr-cost: $mrdetail"
tap_check "mr-cost measured 4 KiB .. $MEM with us and GB/s ($mrn of 4: $mr4k)" [ "$mrn" -ge 4 ]
tap_eq "mr-cost with 9 huge pages reserved measures hugetlb 2 MiB and 16 MiB (exit $st_all)" \
	"hugetlb 2 MiB,hugetlb 16 MiB" "$huge"

# --- two devices -------------------------------------------------------------------------
r=$(jq -r 'select(.test == "rnr") | [.counters[:3][] | "\(.dev) \(.name) \(.delta)"] | join(",")' "$J-peer.json")
diag "rnr_retry 1 counters: $r"
case $r in
"rxe0 rcvd_rnr_err 2,rxe0 retry_rnr_exceeded_err 1,rxe1 send_rnr_err "[23]) ok=yes ;;
*) ok=no ;;
esac
tap_eq "rnr with --peer: requester rxe0 rcvd_rnr_err +2 and retry_rnr_exceeded_err +1, responder rxe1 send_rnr_err +2 (+3 tolerated: see selftest_rnr.c)" yes "$ok"

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
failcase "missing destination QP: WC 12 retry exceeded at the data step, hint names dest_qp_num" \
	"$J-qpn.json" '.wc_status == 12 and (.step | test("data exchange")) and (.hint | test("dest_qp_num 0xfffff0 does not exist")) and .attributes.dest_qp_num == "0xfffff0"' \
	'\(.step); \(.hint)'
