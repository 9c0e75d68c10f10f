# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, MTU mismatch between the veth ends (veth1 1000, veth0 1500): the connection is
# established, but the MTU records the two sides exchange in the CM private data differ, and
# the data-path step proves it: veth drops a frame above the receiving end's MTU, so the
# SEND of 1024 bytes (one packet at path MTU 1024) ends in WC 12 and 512 is the largest
# size that works.  host/56-doctor-mtu.sh judges: cause datapath_mtu_fails with both MTUs in
# the evidence, and the listener's note.
# veth0 gets a queue (pfifo) for the test: without one, veth1's refusal of the frame is
# returned to rxe's own transmit, and rxe 6.1 resends it at once and for ever from its tasklet
# (no completion, send_err racing), a loop that twice locked the single-vCPU guest up
# ("soft lockup ... [rdmadoctor]") when the doctor tore its QP down.  With the queue the
# refusal happens after rxe's transmit has succeeded: the frame is lost on the way, as a
# switch with a smaller MTU loses it, and the QP's retries end it in WC 12.
J=$OUT/56-doctor
P=7471
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

mtu_set "$NET1" 1000
tc qdisc replace dev "$NET0" root pfifo || tap_fail "a pfifo queue on $NET0"
ip -j link show "$NET1" > "$J-veth1.json"
rdmadoctor -j listen "$B:$P" --count 1 > "$J-listen.json" 2> "$J-listen.err" &
lp=$!
wait_cm_listen $P 30 || tap_fail "rdmadoctor listen $B:$P is a LISTEN cm_id"
save mtu.json rdmadoctor -j connect "$B:$P" --src "$A" --timeout 1000
wait $lp
cat "$J-listen.json" "$J-listen.err" >&2
tap_eq "exit 1 (a problem: the MTUs differ)" 1 "$(cat "$J-mtu.json.rc")"
tap_check "the listener noted the mismatch" grep -q '"note":"MTU mismatch' "$J-listen.json"
mtu_restore "$NET1"
netem_clear "$NET0"
wait_port_active "$DEV1" || tap_fail "$DEV1 is ACTIVE again after its MTU is restored"
tap_eq "veth1 MTU restored" 1500 "$(cat /sys/class/net/$NET1/mtu)"
