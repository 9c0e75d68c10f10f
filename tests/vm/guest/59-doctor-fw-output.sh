# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor connect on rxe with nft dropping UDP 4791 in the output hook.  rdma_rxe (Linux
# 6.1) leaves a connect through such a rule unkillable (dmesg: cm_destroy_id_wait_timeout ...
# state 2 -> 0, every 10 s) and later rdma_cm users of the host hang too, so this script
# never lets an attempt send through the rule: connect must refuse before it (exit 2, one line
# naming the rule, no rdma_cm id, no REQ).  --force is tried only towards 198.19.0.9, which
# has no route (bound to veth0 the kernel ARPs for it, unanswered: ADDR_ERROR after -t 500,
# as in 53-doctor-route.sh), so the attempt runs but no RoCE packet reaches the rule.
# host/59-doctor-fw-output.sh judges the JSON.
J=$OUT/59-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }
CMREQ=/sys/class/infiniband/$DEV0/ports/1/cm_tx_msgs/req

tap_ok "nft drops udp dport 4791 in the output hook" fw_drop_roce output
read -r r0 < "$CMREQ"
save refuse.json rdmadoctor -j connect "$B:7471" --src "$A" --no-peer-info
read -r r1 < "$CMREQ"
tap_eq "connect through the output rule on rxe is refused: exit 2" 2 "$(cat "$J-refuse.json.rc")"
tap_check "one error line naming the rule: $(cat "$J-refuse.json.err")" \
	eval '[ "$(wc -l < "$J-refuse.json.err")" -eq 1 ] &&
	      grep -qE "^rdmadoctor: refusing to attempt the connection: nft -j list ruleset: inet rdiag_test output handle [0-9]+: udp dport 4791 counter drop drops what $DEV0 sends" "$J-refuse.json.err"'
tap_eq "no CM REQ was sent (cm_tx_msgs/req $r0 -> $r1)" "$r0" "$r1"
tap_eq "no rdma_cm id is left" "" "$(rdma res show cm_id 2>/dev/null | grep -v LISTEN)"
# --force: the attempt runs (to a destination whose address never resolves)
save force.json rdmadoctor -j connect 198.19.0.9 --src "$A" -t 500 --no-peer-info --force
tap_eq "--force attempts: exit 1 (rdma_cm's address timeout), not the refusal" 1 "$(cat "$J-force.json.rc")"
nft -j list table inet rdiag_test > "$J-nft.json" 2>&1
fw_clear
ip neigh del 198.19.0.9 dev "$NET0" 2>/dev/null
tap_eq "the test rule is gone" "" "$(nft list table inet rdiag_test 2>/dev/null)"
