# vm-timeout: 60
# rdmadoctor, the RDMA netdev down: rxe0's port leaves ACTIVE.  'rdmadoctor local' and
# 'connect' (which then skips the attempt) must name the port: judged by
# host/54-doctor-linkdown.sh.
J=$OUT/54-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

link_down "$NET0"
await 5 "$DEV0's port leaves ACTIVE after link_down $NET0" \
	sh -c "! grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state"
diag "rxe0 port state: $(port_state $DEV0)"
save local.json rdmadoctor -j local
save down.json rdmadoctor -j connect "$B" --src "$A"
tap_eq "local (host checks only) exits 1" 1 "$(cat "$J-local.json.rc")"
tap_eq "connect exits 1" 1 "$(cat "$J-down.json.rc")"
link_up "$NET0"
wait_port_active "$DEV1" || tap_fail "$DEV1 is ACTIVE again after link_up $NET0"
await 5 "the RoCE v2 GID of $A is back on $DEV0" gid_index "$DEV0" "$A"
tap_check "rxe0 and rxe1 are ACTIVE again" \
	sh -c "grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state && grep -q ACTIVE /sys/class/infiniband/$DEV1/ports/1/state"
