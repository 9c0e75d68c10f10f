# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, the source IP removed from veth0: its RoCE v2 GID (::ffff:198.18.0.1) goes with
# it.  host/55-doctor-gid.sh judges: cause no_gid_for_source, EADDRNOTAVAIL from
# rdma_resolve_addr.
J=$OUT/55-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

addr_del "$NET0" "$A/24"
tap_check "the IPv4 GID of $A left rxe0's table" wait_for 5 sh -c "! grep -q c612:0001 /sys/class/infiniband/$DEV0/ports/1/gids/*"
save gid.json rdmadoctor -j connect "$B" --src "$A" --timeout 2000
tap_eq "source address without its RoCE v2 GID: connect exits 1 (a problem found)" 1 "$(cat "$J-gid.json.rc")"
addr_add "$NET0" "$A/24"
tap_eq "the RoCE v2 GID of $A is back at index $GID" "$GID" "$(gid_index "$DEV0" "$A")"
