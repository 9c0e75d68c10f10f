# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/59-doctor-fw-output.sh: connect refused before any step with the output
# rule on rxe (the firewall finding a warning, the reason in attempt_skipped); with --force
# the attempt ran and failed at address resolution, the rule dropping nothing.
cd "$VM_OUT" || exit 2
J=59-doctor-refuse.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
tap_eq "refused: no step attempted, no verdict" "[[],null]" "$(jq -c '[.steps, .verdict]' "$J")"
tap_check "attempt_skipped names the rule and rxe0" \
	eval '[[ "$(jq -r .attempt_skipped "$J")" == "refusing to attempt the connection: nft -j list ruleset: inet rdiag_test output handle "*": udp dport 4791 counter drop drops what rxe0 sends"* ]]'
tap_eq "the firewall finding is a warning with its cause" "warning firewall_drops_roce" \
	"$(jq -r '.findings[] | select(.check == "firewall") | "\(.level) \(.cause)"' "$J")"
tap_check "its evidence says rxe is software RoCE" \
	eval 'jq -e ".findings[] | select(.check == \"firewall\") | .evidence | index(\"rxe is software RoCE: its packets pass netfilter (rxe0, rxe1)\")" "$J" > /dev/null'
F=59-doctor-force.json
tap_eq "--force: the attempt ran, resolve_addr failed" "create_id true resolve_addr false" \
	"$(jq -r '[.steps[0:2][] | "\(.name) \(.ok)"] | join(" ")' "$F")"
dropped=$(jq '[.nftables[].rule? | select(.) | .expr[] | .counter? | select(.) | .packets] | add // 0' 59-doctor-nft.json)
tap_eq "the output rule dropped nothing" 0 "$dropped"
