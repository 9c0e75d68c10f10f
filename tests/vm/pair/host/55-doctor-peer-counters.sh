# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/55-doctor-peer-counters.sh: after the data-path failure connect shows the
# peer's counters that moved (from its side channel) next to its own; against the server's
# own sysfs rcvd_pkts around the connection and its nft drop count.
S=$PAIR_SERVER C=$PAIR_CLIENT
J=$C/55-pc-json
[ -s "$J" ] || { tap_fail "the client guest saved 55-pc-json"; exit 0; }
tap_eq "the data path failed: datapath_mtu_fails" "problem datapath_mtu_fails" \
	"$(jq -r '[.findings[] | select(.check == "data_path")][0] | "\(.level) \(.cause)"' "$J")"
eval "$(jq -r '@sh "np=\(.peer_counters | length)
	prcv=\([.peer_counters[] | select(.dev == "rxe0" and .port == 1 and .name == "rcvd_pkts") | .delta][0])
	hsent=\([.counters[] | select(.dev == "rxe0" and .port == 1 and .name == "sent_pkts") | .delta][0])"' "$J")"
diag "peer rcvd_pkts +$prcv, here sent_pkts +$hsent, $np peer counters moved"
tap_check "the peer's counters that moved are listed (peer_counters)" [ "$np" -gt 0 ]
read -r b < "$S/55-pc-rcvd-before"; read -r a < "$S/55-pc-rcvd-after"; read -r drops < "$S/55-pc-drops"
diag "server sysfs rcvd_pkts $b -> $a, nft dropped $drops"
tap_check "nft on the server dropped the large packets" [ "${drops:-0}" -gt 0 ]
# the side channel's set is taken before the disconnect: the server's sysfs, read after it,
# has at most the disconnect's MADs more
tap_check "peer rcvd_pkts (side channel) = the server's sysfs delta, but the disconnect" \
	eval '[ "$prcv" -gt 0 ] && [ "$prcv" -le $((a - b)) ] && [ $((a - b - prcv)) -le 2 ]'
tap_check "here sent_pkts exceeds the peer's rcvd_pkts by at least the packets nft dropped" \
	eval '[ $((hsent - prcv)) -ge "$drops" ]'
