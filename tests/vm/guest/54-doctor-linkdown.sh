# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, the RDMA netdev down: rxe0's port leaves ACTIVE.  'rdmadoctor local' and
# 'connect' (which then skips the attempt) must name the port: judged by
# host/54-doctor-linkdown.sh.  The veth peer of the netdev taken down stays up without a
# carrier: its port (rxe1) must be told that the far end is down, not to bring it up.
# Then, links up again, a static neighbour entry for $B with a MAC that is not $NET1's: the
# CM REQ goes to no one, and the verdict must name the static entry as evidence.
J=$OUT/54-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

link_down "$NET0"
await 5 "$DEV0's port leaves ACTIVE after link_down $NET0" \
	sh -c "! grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state"
await 5 "$DEV1's port leaves ACTIVE: $NET1 is up without a carrier" \
	sh -c "! grep -q ACTIVE /sys/class/infiniband/$DEV1/ports/1/state"
diag "rxe0 port state: $(port_state $DEV0), rxe1: $(port_state $DEV1) phys $(cat /sys/class/infiniband/$DEV1/ports/1/phys_state), $NET1 carrier $(cat /sys/class/net/$NET1/carrier 2>&1)"
save local.json rdmadoctor -j local
save down.json rdmadoctor -j connect "$B" --src "$A"
tap_eq "local (host checks only) exits 1" 1 "$(cat "$J-local.json.rc")"
tap_eq "connect exits 1" 1 "$(cat "$J-down.json.rc")"
link_up "$NET0"
wait_port_active "$DEV1" || tap_fail "$DEV1 is ACTIVE again after link_up $NET0"
await 5 "the RoCE v2 GID of $A is back on $DEV0" gid_index "$DEV0" "$A"
tap_check "rxe0 and rxe1 are ACTIVE again" \
	sh -c "grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state && grep -q ACTIVE /sys/class/infiniband/$DEV1/ports/1/state"
ip neigh replace "$B" lladdr 02:00:00:00:00:99 nud permanent dev "$NET0"
save static.json rdmadoctor -j connect "$B" --src "$A" -t 1500
ip neigh del "$B" dev "$NET0"
tap_eq "a static neighbour entry with another MAC: connect exits 1" 1 "$(cat "$J-static.json.rc")"
