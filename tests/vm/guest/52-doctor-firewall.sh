# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# rdmadoctor, UDP 4791 dropped by nft on the receiving side (input hook): the REQ never
# arrives and the attempt times out with the default --timeout (8000 ms).
# host/52-doctor-firewall.sh judges: cause firewall_drops_roce, the rule as evidence,
# ETIMEDOUT as the doctor's own give-up, cm_tx_retries/req rose, no REP; with --ps udp the
# SIDR REQs the kernel counted, quoted as such.
# rdma_cm's REQ retry timing is measured here from rxe0's sent_pkts while the doctor waits
# (ib_cm adds sends and retries to its cm_tx_* counters only when a MAD send completes, after
# the last retry or the cancel, so those cannot tell when each retry went out).
J=$OUT/52-doctor
P=7471
# the doctor's default wait (8000 ms per step) is long enough for one REQ retry: rdma_cm's REQ
# is resent ~6.3 s after the first (packet lifetimes + the CM response timeout; measured
# +6.31 s on the TSC clock, +6.22 s on jiffies), and cm_tx_retries only counts once the MAD
# is cancelled
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

rdmadoctor listen "$B:$P" > "$J-listen.txt" 2>&1 &
lp=$!
wait_cm_listen $P 30 || tap_fail "rdmadoctor listen $B:$P is a LISTEN cm_id"
tap_ok "nft drops udp dport 4791 in the input hook" fw_drop_roce input
# builtin reads in the loop (a fork costs tens of ms under TCG); sent_pkts is cached ~12 ms
SP=/sys/class/infiniband/$DEV0/ports/1/hw_counters/sent_pkts
( read -r s0 < "$SP"; while :; do read -r s < "$SP"
	if [ "$s" != "$s0" ]; then echo "$EPOCHREALTIME $((s - s0))"; s0=$s; fi
	sleep 0.1; done ) > "$J-sends.txt" 2>&1 &
wp=$!
save fw.json rdmadoctor -j connect "$B:$P" --src "$A"
kill $wp 2>/dev/null; wait $wp 2>/dev/null
# the first send is the REQ; then its retries; the last one is the REJ ib_cm sends when the
# doctor gives up and destroys the id
diag "rxe0 sends while the doctor waited, s after the REQ: $(awk '{ if (NR == 1) t = $1; printf "%s+%.2f", (NR == 1 ? "" : ", "), $1 - t }' "$J-sends.txt")"
cat "$J-sends.txt" >&2
tap_eq "connect through the firewall exits 1" 1 "$(cat "$J-fw.json.rc")"
# the same in the UDP port space (a UD QP: rdma_cm resolves the remote QP with a SIDR REQ),
# 3 s; ib_cm's own SIDR REQ count around it (counted once the send is cancelled)
CMC=/sys/class/infiniband/$DEV0/ports/1/cm_tx_msgs/sidr_req
read -r q0 < $CMC
save fw-udp.json rdmadoctor -j connect "$B:$P" --src "$A" --ps udp --timeout 3000
read -r q1 < $CMC
echo "$((q1 - q0))" > "$J-fw-udp.sidr_req"
nft -j list table inet rdiag_test > "$J-nft.json" 2>&1
fw_clear
save after.json rdmadoctor -j connect "$B:$P" --src "$A"
tap_eq "with the rule removed the same connect exits 0" 0 "$(cat "$J-after.json.rc")"
kill $lp 2>/dev/null; wait $lp 2>/dev/null
