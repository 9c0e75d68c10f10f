# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/55-doctor-gid.sh: the missing source address named as the GID problem.
cd "$VM_OUT" || exit 2
J=55-doctor-gid.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)
	errno=\(.steps[] | select(.name == "resolve_addr") | .errno)"' "$J")"
tap_eq "verdict cause no_gid_for_source" no_gid_for_source "$cause"
tap_eq "verdict layer address" address "$layer"
tap_check "the verdict names the source and the GID" eval '[[ $sentence == *198.18.0.1*GID* ]]'
tap_eq "rdma_resolve_addr failed with EADDRNOTAVAIL" -99 "$errno"
