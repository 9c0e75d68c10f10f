# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump on real SIDR (guest side): udaddy over rdma_cm's UDP port space between rxe0 and
# rxe1 - SIDR_REQ/SIDR_REP on QP1, then UD sends to the QP the SIDR_REP named - captured by
# tcpdump and read back with rdmadump -j and -q -j.  host/14-mad-sidr.sh judges: the SIDR
# bodies, the kernel's Q_Key (RDMA_UDP_QKEY) in the SIDR_REP and in every UD data packet, no
# Q_Key mismatch found, and every field against tshark.
# Then a udaddy client with no server (issue 28): the kernel's CM answers the SIDR_REQ with a
# SIDR_REP of status 1 (IB_SIDR_UNSUPPORTED: no listener for the service ID); rdmadump -q must
# list the exchange with that status and --errors must flag the SIDR_REP.
# Files in $OUT: 14-sidr.pcap, 14-sidr.guest.json (-j), 14-sidr.summary.json (-q -j),
# 14-nolisten.pcap, 14-nolisten.errors.json (--errors -j), 14-nolisten.summary.json (-q -j).

# udaddy_pair COUNT: server on rxe1 ($B), client bound to $A (without -b the CMA resolves both
# ends to rxe1 and nothing crosses the veth).  udaddy always listens on port 7174 (its -p is
# the port space: UDP by default)
udaddy_pair() {
	local n=${1:-3} t=${UDADDY_TIMEOUT:-30} s
	timeout "$t" udaddy -b "$B" -C "$n" >&2 2>&1 &
	s=$!
	wait_cm_listen 7174 || { log "udaddy server did not listen"; kill "$s"; wait "$s"; return 1; }
	timeout "$t" udaddy -s "$B" -b "$A" -C "$n" >&2 2>&1
	pair_end $? "$s"
}

log "udaddy capture"
if cap_start 14-sidr "$NET0"; then
	tap_ok "14-sidr: udaddy over rdma_cm UDP (SIDR, 3 UD messages each way) completes" \
		udaddy_pair 3
	cap_stop 14-sidr
	if have rdmadump; then
		tap_ok "14-sidr: rdmadump -j and -q -j read the capture in the guest (exit 0)" \
			sh -c 'rdmadump -j -r "$1" > /tmp/s.json && rdmadump -q -j -r "$1" > /tmp/q.json' \
			- "$OUT/14-sidr.pcap"
		cp /tmp/s.json "$OUT/14-sidr.guest.json"
		cp /tmp/q.json "$OUT/14-sidr.summary.json"
	fi
else
	tap_fail "tcpdump starts on $NET0 for 14-sidr"
fi
log "udaddy with no listener"
if cap_start 14-nolisten "$NET0"; then
	# the client alone: its SIDR_REQ finds no listener on port 7174 (exit status not judged:
	# udaddy reports the unreachable event its own way)
	timeout "${UDADDY_TIMEOUT:-30}" udaddy -s "$B" -b "$A" -C 1 >&2 2>&1
	log "udaddy with no listener: exit $?"
	cap_stop 14-nolisten
	if have rdmadump; then
		tap_ok "14-nolisten: rdmadump --errors -j and -q -j read the capture in the guest" \
			sh -c 'rdmadump --errors -j -r "$1" > /tmp/e.json; [ $? -le 1 ] &&
				rdmadump -q -j -r "$1" > /tmp/q.json' - "$OUT/14-nolisten.pcap"
		cp /tmp/e.json "$OUT/14-nolisten.errors.json"
		cp /tmp/q.json "$OUT/14-nolisten.summary.json"
	fi
else
	tap_fail "tcpdump starts on $NET0 for 14-nolisten"
fi
log "done"
