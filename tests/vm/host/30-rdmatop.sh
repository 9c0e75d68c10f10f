# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/30-rdmatop.sh: rdmatop's batch JSON taken during real RC pingpong
# traffic between rxe0 and rxe1, judged with jq at native speed:
#   - 3 frames; frames 2 and 3 carry non-zero rx and tx packet rates for both devices, the
#     first none (null, not a fake zero); the tx rate is rxe's sent_pkts counter;
#   - the QP data lists the pingpong RC QPs on both devices in RTS with their pid, crossed,
#     and the QP list equals rdma res show qp taken around it;
#   - the rdma_cm ID data shows rping's listener as rdma res show cm_id does;
#   - a netlink-only run sees both devices and the pingpong QPs; none is left afterwards.
cd "$VM_OUT" || exit 2
J=30-rdmatop.jsonl
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
DEV0=rxe0 DEV1=rxe1 B=198.18.0.2

tap_eq "it writes 3 JSON frames" 3 "$(jq -s length "$J" 2>/dev/null)"
for d in "$DEV0" "$DEV1"; do
	read -r rx tx first < <(jq -rs --arg d "$d" '[
		([.[1:][] | .ports[] | select(.ifname == $d) | .rx_pps] | min),
		([.[1:][] | .ports[] | select(.ifname == $d) | .tx_pps] | min),
		(.[0].ports[] | select(.ifname == $d) | .rx_pps)] | map(tostring) | join(" ")' "$J")
	diag "$d: rx_pps min $rx, tx_pps min $tx over frames 2-3"
	tap_check "$d: non-zero rx and tx packet rates in frames 2 and 3 (JSON)" \
		awk -v a="$rx" -v b="$tx" 'BEGIN { exit !(a > 0 && b > 0) }'
	tap_eq "$d: the first frame has no rate yet (null, not a fake zero)" null "$first"
done
# what the packet rate is made of: rxe's own counters, not a guess
tap_eq "rxe0's tx packets come from the sent_pkts counter" tx_packets \
	"$(jq -rs '.[2].ports[] | select(.ifname == "rxe0") | .counters[] | select(.name == "sent_pkts") | .concept' "$J")"

# --- QPs (the QP screen's data) --------------------------------------------------------
# any frame will do: between two pingpong runs there is a moment without QPs
q=$(jq -sc '[.[] | [.qps[] | select(.comm == "ibv_rc_pingpong" and .type == "RC")]] | max_by(length)' "$J")
diag "pingpong QPs: $q"
[ -n "$q" ] || q='[]'
for d in "$DEV0" "$DEV1"; do
	tap_check "the QP data lists the pingpong RC QP on $d in RTS with its pid" \
		eval 'jq -e --arg d "$d" "map(select(.ifname == \$d and .state == \"RTS\" and .pid != null)) | length >= 1" <<< "$q" > /dev/null'
done
# the two ends point at each other
l0=$(jq -r --arg d "$DEV0" 'map(select(.ifname == $d))[0].lqpn // "none"' <<< "$q")
r1=$(jq -r --arg d "$DEV1" 'map(select(.ifname == $d))[0].rqpn // "none"' <<< "$q")
tap_check "rxe1's pingpong QP has rxe0's QP as its remote QPN" test "$l0" != none -a "$l0" = "$r1"
qpkeys='[.[] | [.ifname, .lqpn, .type]] | sort'
before=$(jq -c "$qpkeys" 30-rdma-res-qp.json)
after=$(jq -c "$qpkeys" 30-rdma-res-qp-after.json)
[ "$before" = "$after" ] || diag "rdma res show qp changed around rdmatop's read in all 5 tries"
ours=$(jq -c '[.qps[] | [.ifname, .lqpn, .type]] | sort' 30-qps-now.json)
tap_eq "the QP list equals 'rdma res show qp' (device, lqpn, type)" "$before" "$ours"

# --- rdma_cm IDs (the cm screen's data) -------------------------------------------------
cm=$(jq -c '[.cm_ids[] | select(.state == "LISTEN" and (."src-addr" | endswith(":7199")))]' 30-cm-now.json)
diag "listening cm_ids: $cm"
tap_check "the rdma_cm ID data shows rping's listener: LISTEN, TCP port space, $B:7199, its pid" \
	eval 'jq -e --arg a "$B:7199" "length >= 1 and (.[0].\"src-addr\" == \$a) and (.[0].ps == \"TCP\") and (.[0].pid != null) and (.[0].comm == \"rping\")" <<< "$cm" > /dev/null'
theirs=$(jq -c '[.[] | select(."src-addr" == "'"$B"':7199") | .state] | sort' 30-rdma-res-cm.json 2>/dev/null)
tap_eq "the same listener as 'rdma res show cm_id'" "$theirs" "$(jq -c '[.[] | .state] | sort' <<< "$cm")"
tap_check "a netlink-only run (empty sysfs root) sees both devices and pingpong QPs" \
	eval 'jq -se ".[-1] | (.devices == 2) and ([.qps[] | select(.type == \"RC\")] | length >= 1)" 30-rdmatop-netlink.jsonl > /dev/null'
tap_eq "after the traffic stops no pingpong QP is left" 0 \
	"$(jq -c '[.qps[] | select(.comm == "ibv_rc_pingpong")] | length' 30-after.json 2>/dev/null)"
