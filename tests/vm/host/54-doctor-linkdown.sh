# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/54-doctor-linkdown.sh: the port named, by the checks alone and by
# connect, which makes no attempt through it.
cd "$VM_OUT" || exit 2
[ -s 54-doctor-local.json ] || { tap_fail "the guest saved 54-doctor-local.json"; exit 0; }
eval "$(jq -r '@sh "lcause=\(.verdict.cause)
	port=\(.findings[] | select(.check == "port" and .subject == "rxe0/1") | "\(.level) \(.summary)")
	hint0=\(.findings[] | select(.check == "port" and .subject == "rxe0/1") | .hint)
	hint1=\(.findings[] | select(.check == "port" and .subject == "rxe1/1") | .hint)
	steps=\(has("steps"))"' 54-doctor-local.json)"
eval "$(jq -r '@sh "cause=\(.verdict.cause) layer=\(.verdict.layer) sentence=\(.verdict.sentence)
	skipped=\(.attempt_skipped) nsteps=\(.steps | length)"' 54-doctor-down.json)"
tap_eq "local: verdict cause port_not_active" port_not_active "$lcause"
tap_check "local: the rxe0/1 port finding is a problem and says DOWN" eval '[[ $port == "problem port rxe0/1 is DOWN"* ]]'
tap_eq "local made no attempt (no steps)" false "$steps"
tap_check "local: rxe0/1, its netdev down, is told to bring it up" eval '[[ $hint0 == "bring the netdev "*" up and check its carrier"* ]]'
tap_check "local: rxe1/1, its netdev up without a carrier, is told the far end is down" \
	eval '[[ $hint1 == "the link partner, cable or switch port is down: "*" is up but has no carrier;"* ]]'
tap_eq "connect: verdict cause port_not_active" port_not_active "$cause"
tap_eq "connect: verdict layer link" link "$layer"
tap_check "connect: the verdict names rxe0/1" eval '[[ $sentence == *rxe0/1* ]]'
tap_eq "connect: no attempt through a port that is not ACTIVE (no steps)" 0 "$nsteps"
tap_eq "connect: the attempt was skipped, and why" \
	"port rxe0/1 is not ACTIVE: rdma_connect through it could only fail or time out" "$skipped"
[ -s 54-doctor-static.json ] || { tap_fail "the guest saved 54-doctor-static.json"; exit 0; }
eval "$(jq -r '@sh "scause=\(.verdict.cause) sev=\(.verdict.evidence | join("|"))
	snext=\(.verdict.next)"' 54-doctor-static.json)"
tap_eq "static neighbour with another MAC: verdict cause cm_no_response" cm_no_response "$scause"
tap_check "the verdict's evidence names the static entry and its MAC" \
	eval '[[ $sev == *"static neighbour entry: check that it is the peer'"'"'s MAC: 198.18.0.2 dev veth0 lladdr 02:00:00:00:00:99 PERMANENT"* ]]'
tap_check "next: check the static entry first" eval '[[ $snext == "check that the static neighbour entry of the next hop is the peer'"'"'s MAC"* ]]'
