# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/12-rdmadump-ipv6.sh: RoCE v2 over IPv6 from real rxe devices.  Every
# frame rxe sent is one -j object with encap rocev2, IPv6 link-local source and destination
# equal to the two GIDs, and an ICRC that verifies (computed in the kernel over the IPv6
# header with its variant fields masked); rdmadump -j on the host equals tshark field by
# field (tests/oracle/oracle.sh, as for the IPv4 captures).
cd "$VM_OUT" || exit 2
RD=$ROOT/tools/rdmadump/rdmadump
ORACLE=$ROOT/tests/oracle/oracle.sh
j=12-ipv6.guest.json
if [ ! -s 12-ipv6.gids ]; then
	tap_skip "RoCE v2 over IPv6" "the guest found no link-local RoCE v2 GIDs"
	exit 0
fi
[ -s "$j" ] || { tap_fail "the guest's rdmadump wrote $j"; exit 0; }
n=$(cat 12-ipv6.frames 2>/dev/null)
read -r g0 g1 < 12-ipv6.gids
# sysfs prints GIDs as 8 groups of 4 hex digits; -j prints addresses compressed
compress() { python3 -c 'import ipaddress, sys; print(ipaddress.IPv6Address(sys.argv[1]))' "$1"; }
a0=$(compress "$g0"); a1=$(compress "$g1")
r=$(jq -s -r --arg a "$a0" --arg b "$a1" '[length,
	(map(select(.encap == "rocev2" and .bth != null and .icrc != null)) | length),
	(map(select(.icrc.ok != true)) | length),
	(map(select(([.src, .dst] | sort) == ([$a, $b] | sort))) | length),
	(map(.bth.opcode) | unique | map(tostring) | join(","))] | join(" ")' "$j")
read -r objs v2 badicrc addr ops <<< "$r"
tap_eq "one RoCE v2 object with BTH and ICRC per frame rxe sent" "$n $n" "$objs $v2"
tap_eq "every ICRC over the IPv6 header verifies" 0 "$badicrc"
tap_eq "every frame is between $a0 and $a1" "$n" "$addr"
tap_eq "opcodes are SEND First/Middle/Last and ACK" "0,1,2,17" "$ops"
if [ -x "$ORACLE" ] && [ -x "$RD" ] && command -v tshark > /dev/null; then
	out=$("$ORACLE" "$VM_OUT/12-ipv6.pcap" "$RD" 2>&1)
	if [ $? -eq 0 ]; then
		tap_pass "every -j field equals tshark's ($(echo "$out" | tail -1))"
	else
		tap_fail "every -j field equals tshark's" "$(echo "$out" | head -12)"
	fi
else
	tap_skip "tshark comparison" "tshark, tools/rdmadump/rdmadump or the oracle missing"
fi
