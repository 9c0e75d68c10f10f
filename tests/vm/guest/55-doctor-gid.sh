# vm-timeout: 60
# rdmadoctor, the source IP removed from veth0: its RoCE v2 GID (::ffff:198.18.0.1) goes
# with it; the doctor names the GID problem (and rdma_resolve_addr's EADDRNOTAVAIL).
J=$OUT/55-doctor-gid
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }

addr_del "$NET0" "$A/24"
wait_for 5 sh -c "! grep -q c612:0001 /sys/class/infiniband/$DEV0/ports/1/gids/*"
rdmadoctor -j connect "$B" --src "$A" --timeout 2000 > "$J.json" 2> "$J.err"
st=$?
cat "$J.json" "$J.err" >&2
eval "$(jq -r '@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)
	errno=\(.steps[] | select(.name == "resolve_addr") | .errno)"' "$J.json")"
tap_eq "exit 1" 1 "$st"
tap_eq "verdict cause no_gid_for_source" no_gid_for_source "$cause"
tap_eq "verdict layer address" address "$layer"
tap_check "the verdict names the source and the GID" eval '[[ $sentence == *198.18.0.1*GID* ]]'
tap_eq "rdma_resolve_addr failed with EADDRNOTAVAIL" -99 "$errno"
addr_add "$NET0" "$A/24"
tap_eq "the RoCE v2 GID of $A is back at index $GID" "$GID" "$(gid_index "$DEV0" "$A")"
