# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/95-rdmatop-delete.sh: rdmatop -b -j's frames taken while rxe1 was
# deleted (rdma link delete) and added back: every frame written, rxe1 greyed out as gone
# while rxe0 was still sampled, the header's device count dropping to 1, and rxe1 back and
# ACTIVE in the last frame.
cd "$VM_OUT" || exit 2
J=95-rdmatop.jsonl
DEV1=rxe1
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
tap_eq "it wrote all 24 frames" 24 "$(jq -s length "$J")"
tap_check "some frame shows $DEV1 as gone (greyed out), with rxe0 still sampled" \
	eval 'jq -se --arg d "$DEV1" "map(select(any(.ports[]; .ifname == \$d and .gone) and any(.ports[]; .ifname == \"rxe0\" and (.gone | not)))) | length >= 1" "$J" > /dev/null'
tap_check "the last frame shows $DEV1 back and not gone" \
	eval 'jq -se --arg d "$DEV1" ".[-1].ports | any(.ifname == \$d and (.gone | not) and .state == \"ACTIVE\")" "$J" > /dev/null'
tap_check "while gone it had fewer devices in the header" \
	eval 'jq -se "map(.devices) | (min == 1 and max == 2)" "$J" > /dev/null'
