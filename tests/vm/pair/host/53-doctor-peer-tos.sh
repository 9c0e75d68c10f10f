# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/53-doctor-peer-tos.sh: the ToS row against each guest's configfs.
S=$PAIR_SERVER C=$PAIR_CLIENT
J=$C/53-tos-json
[ -s "$J" ] || { tap_fail "the client guest saved 53-tos-json"; exit 0; }
tap_eq "configfs: server default_roce_tos 106, client has no rdma_cm group (kernel default 0)" \
	"106 none" "$(cat "$S/53-tos-configfs") $(cat "$C/53-tos-configfs")"
eval "$(jq -r '@sh "row=\([.both_ends.rows[] | select(.what == "default ToS") | "\(.here)|\(.peer)|\(.differs)"][0])
	f=\([.findings[] | select(.check == "peer") | "\(.level) \(.cause)"][0])
	vcause=\(.verdict.cause)"' "$J")"
tap_eq "the default ToS row: 0 (kernel default) here, 106 on the peer" "0 (kernel default)|106|true" "$row"
tap_eq "a peer_tos_mismatch warning" "warning peer_tos_mismatch" "$f"
tap_eq "the verdict names it" peer_tos_mismatch "$vcause"
