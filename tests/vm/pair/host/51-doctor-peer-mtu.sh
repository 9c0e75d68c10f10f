# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/51-doctor-peer-mtu.sh: the MTU difference, against each guest's ip link.
S=$PAIR_SERVER C=$PAIR_CLIENT
J=$C/51-mtu-json
[ -s "$J" ] || { tap_fail "the client guest saved 51-mtu-json"; exit 0; }
smtu=$(jq -r '.[0].mtu' "$S/51-mtu-iplink.json"); cmtu=$(jq -r '.[0].mtu' "$C/51-mtu-iplink.json")
tap_eq "ip link: client eth0 1500, server eth0 1000 (the setup)" "1500 1000" "$cmtu $smtu"
eval "$(jq -r '@sh "row=\([.both_ends.rows[] | select(.what == "netdev MTU") | "\(.here) \(.peer) \(.differs)"][0])
	arow=\([.both_ends.rows[] | select(.what == "active MTU") | "\(.here) \(.peer) \(.differs) \(.cause)"][0])
	both=\([.both_ends.rows[] | select(.what == "RDMA MTU both allow") | .here][0])
	f=\([.findings[] | select(.check == "peer" and .cause == "peer_mtu_mismatch") | .level][0])
	vcause=\(.verdict.cause)"' "$J")"
tap_eq "the netdev MTU row shows both ends as ip link does" "$cmtu $smtu true" "$row"
tap_eq "the active MTU row: 1024 here, 512 on the peer, peer_mtu_mismatch" "1024 512 true peer_mtu_mismatch" "$arow"
tap_eq "the largest RDMA MTU both ends allow: 512 (1000 - 96 -> 512)" 512 "$both"
tap_eq "a peer_mtu_mismatch problem finding" problem "$f"
tap_check "the verdict names the MTU ($vcause)" eval '[[ $vcause == mtu_mismatch || $vcause == peer_mtu_mismatch ]]'
T=$C/51-mtu-txt
tap_check "text: the netdev MTU row marked as differing" grep -qE "^! netdev MTU +1500 +1000$" "$T"
tap_check "text: the active MTU row names its cause" grep -qE "^! active MTU +1024 +512  \(peer_mtu_mismatch\)$" "$T"
tap_check "text: the largest RDMA MTU both ends allow" grep -qE "^  RDMA MTU both allow +512 +512$" "$T"
# the data-path step: virtio-net hands the larger frames up despite MTU 1000 (Linux does not
# check the MTU on receive), so 1024 crosses this link; the verdict says so and why it is
# still a fault (a switch port or NIC that enforces 1000 drops them)
tap_eq "data path: SEND and RDMA WRITE complete at every size up to 1024 on this link" \
	"ok one packet each, sizes 256..1024; largest that completed: 1024" \
	"$(jq -r '[.findings[] | select(.check == "data_path")][0] | "\(.level) \(.evidence[0])"' "$J")"
tap_check "the verdict says this link carried them and what drops them elsewhere" \
	eval '[[ $(jq -r .verdict.sentence "$J") == *"this link carried the larger packets in the data-path step, but a switch port or NIC that enforces the smaller MTU drops them"* ]]'
