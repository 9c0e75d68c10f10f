# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/52-doctor-peer-gid.sh: no GID for the address on the listener host,
# against the server's GID table (sysfs, saved by the guest).
S=$PAIR_SERVER C=$PAIR_CLIENT
J=$C/52-gid-json
[ -s "$J" ] || { tap_fail "the client guest saved 52-gid-json"; exit 0; }
tap_check "the server's GID table (sysfs) has no GID for 198.18.1.11 (::ffff:c612:010b)" \
	eval '! grep -q "c612:010b" "$S/52-gid-gids"'
eval "$(jq -r '@sh "fetched=\(.both_ends.fetched)
	f=\([.findings[] | select(.check == "peer") | "\(.level) \(.cause)"][0])
	vcause=\(.verdict.cause) vlayer=\(.verdict.layer)"' "$J")"
tap_eq "the side channel answered although rdma_cm could not" true "$fetched"
tap_eq "a peer finding: the listener has no RDMA port (no GID) for the address" "problem peer_addr_not_rdma" "$f"
tap_eq "the verdict names it (layer address)" "peer_addr_not_rdma address" "$vcause $vlayer"
