# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/14-mad-sidr.sh: what rdmadump made of a real SIDR exchange and the UD
# traffic that followed it.  The independent truth: the kernel's rdma_cm answers a SIDR_REQ
# of the UDP port space with RDMA_UDP_QKEY (0x01234567, drivers/infiniband/core/cma.c) and
# its UD QPs send with it; tshark decodes the same frames (the oracle of the bats tier).
cd "$VM_OUT" || exit 2
ORACLE=$ROOT/tests/oracle/oracle.sh
RD=$ROOT/tools/rdmadump/rdmadump
j=14-sidr.guest.json
if [ ! -s "$j" ]; then
	tap_skip "14-sidr: rdmadump on a real SIDR capture" "the guest wrote no $j"
	exit 0
fi
# the SIDR_REP: its QPN and Q_Key, from the decoded body
read -r qpn qkey < <(jq -r 'select(.mad.cm_sidr_rep) | .mad.cm_sidr_rep | "\(.qpn) \(.q_key)"' "$j" | head -1)
tap_eq "14-sidr: SIDR_REQ then SIDR_REP decoded (their attribute names)" "SIDR_REQ SIDR_REP" \
	"$(jq -r 'select(.mad.attr_name == "SIDR_REQ" or .mad.attr_name == "SIDR_REP") | .mad.attr_name' "$j" | head -2 | tr '\n' ' ' | sed 's/ $//')"
tap_eq "14-sidr: the SIDR_REP's Q_Key is the kernel's RDMA_UDP_QKEY" 19088743 "${qkey:-none}"
# UD data (SEND Only 100, with immediate 101: udaddy's) to that QP on the server's address
# (the SIDR_REP's source): every DETH Q_Key is the SIDR_REP's
srv=$(jq -r 'select(.mad.cm_sidr_rep) | .src' "$j" | head -1)
read -r n bad < <(jq -s -r --argjson q "${qpn:-0}" --argjson k "${qkey:-0}" --arg s "$srv" '
	map(select((.bth.opcode == 100 or .bth.opcode == 101) and .bth.destqp == $q and
		   .dst == $s)) |
	"\(length) \(map(select(.deth.qkey != $k)) | length)"' "$j")
tap_check "14-sidr: UD sends to QP $qpn carry the SIDR_REP's Q_Key ($n packets, $bad others)" \
	[ "${n:-0}" -ge 3 ] && [ "${bad:-1}" -eq 0 ]
tap_eq "14-sidr: rdmadump finds no Q_Key or P_Key mismatch" 0 \
	"$(jq -r '.summary.mad.key_mismatches // [] | length' 14-sidr.summary.json)"
tap_ok "14-sidr: rdmadump -j equals tshark field by field (tests/oracle)" "$ORACLE" 14-sidr.pcap "$RD"

# issue 28: the SIDR exchanges in -q's CM section (status 0 with the kernel's Q_Key), and the
# unanswered service: status 1 as tshark reads it (byte 4 of the SIDR_REP's MAD data), in -q
# and flagged by --errors
tap_eq "14-sidr: rdmadump -q lists the SIDR exchange: status 0, the kernel's Q_Key" \
	"0 SUCCESS 19088743" "$(jq -r '.summary.sidr[0] | "\(.status) \(.status_name) \(.qkey)"' \
		14-sidr.summary.json 2>/dev/null)"
if [ -s 14-nolisten.pcap ]; then
	if command -v tshark > /dev/null; then
		tap_eq "14-nolisten: tshark reads a SIDR_REP of status 1 (no listener)" 01 \
			"$(tshark -n -r 14-nolisten.pcap -Y 'infiniband.mad.attributeid == 0x0018' \
				-T fields -e infiniband.mad.data 2>/dev/null | head -1 | cut -c9-10)"
	fi
	tap_eq "14-nolisten: rdmadump -q lists the exchange with status 1 UNSUPPORTED" \
		"1 UNSUPPORTED" "$(jq -r '.summary.sidr[0] | "\(.status) \(.status_name)"' \
			14-nolisten.summary.json 2>/dev/null)"
	tap_check "14-nolisten: rdmadump --errors flags the SIDR_REP (sidr_status 1)" \
		[ "$(jq -r 'select(.analysis.sidr_status) | .analysis.sidr_status' \
			14-nolisten.errors.json 2>/dev/null | head -1)" = 1 ]
else
	tap_fail "14-nolisten: the guest captured the unanswered SIDR" "no 14-nolisten.pcap"
fi
