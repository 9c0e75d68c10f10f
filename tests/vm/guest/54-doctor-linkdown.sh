# vm-timeout: 60
# rdmadoctor, the RDMA netdev down: rxe0's port leaves ACTIVE; 'rdmadoctor local' (no attempt
# at all) and 'connect' name the port as the cause.
J=$OUT/54-doctor-linkdown
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }

link_down "$NET0"
wait_for 5 sh -c "! grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state"
diag "rxe0 port state: $(port_state $DEV0)"
rdmadoctor -j local > "$J-local.json" 2> "$J-local.err"
lst=$?
rdmadoctor -j connect "$B" --src "$A" --timeout 2000 > "$J.json" 2> "$J.err"
st=$?
cat "$J-local.json" "$J-local.err" "$J.json" "$J.err" >&2
eval "$(jq -r '@sh "lcause=\(.verdict.cause) port=\(.findings[] | select(.check == "port" and .subject == "rxe0/1") | "\(.level) \(.summary)")
	steps=\(has("steps"))"' "$J-local.json")"
eval "$(jq -r '@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)"' "$J.json")"
tap_eq "local (host checks only) exits 1" 1 "$lst"
tap_eq "local: verdict cause port_not_active" port_not_active "$lcause"
tap_check "local: the rxe0/1 port finding is a problem and says DOWN" eval '[[ $port == "problem port rxe0/1 is DOWN"* ]]'
tap_eq "local made no attempt (no steps)" false "$steps"
tap_eq "connect exits 1" 1 "$st"
tap_eq "connect: verdict cause port_not_active" port_not_active "$cause"
tap_eq "connect: verdict layer link" link "$layer"
tap_check "connect: the verdict names rxe0/1" eval '[[ $sentence == *rxe0/1* ]]'
link_up "$NET0"
wait_port_active "$DEV1"
wait_for 5 gid_index "$DEV0" "$A"
tap_check "rxe0 and rxe1 are ACTIVE again" \
	sh -c "grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state && grep -q ACTIVE /sys/class/infiniband/$DEV1/ports/1/state"
