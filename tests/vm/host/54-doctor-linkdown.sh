# Host side of guest/54-doctor-linkdown.sh: the port named, by the checks alone and by
# connect, which makes no attempt through it.
cd "$VM_OUT" || exit 2
[ -s 54-doctor-local.json ] || { tap_fail "the guest saved 54-doctor-local.json"; exit 0; }
eval "$(jq -r '@sh "lcause=\(.verdict.cause)
	port=\(.findings[] | select(.check == "port" and .subject == "rxe0/1") | "\(.level) \(.summary)")
	steps=\(has("steps"))"' 54-doctor-local.json)"
eval "$(jq -r '@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)
	skipped=\(.attempt_skipped) nsteps=\(.steps | length)"' 54-doctor-down.json)"
tap_eq "local: verdict cause port_not_active" port_not_active "$lcause"
tap_check "local: the rxe0/1 port finding is a problem and says DOWN" eval '[[ $port == "problem port rxe0/1 is DOWN"* ]]'
tap_eq "local made no attempt (no steps)" false "$steps"
tap_eq "connect: verdict cause port_not_active" port_not_active "$cause"
tap_eq "connect: verdict layer link" link "$layer"
tap_check "connect: the verdict names rxe0/1" eval '[[ $sentence == *rxe0/1* ]]'
tap_eq "connect: no attempt through a port that is not ACTIVE (no steps)" 0 "$nsteps"
tap_eq "connect: the attempt was skipped, and why" \
	"port rxe0/1 is not ACTIVE: rdma_connect through it could only fail or time out" "$skipped"
