# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# rdmadoctor, no listener: REJECTED with IB CM reason 8 (INVALID_SERVICE_ID); and a TCP-space
# listener against an IB-space REQ (-p ib, text output), which is rejected the same way.
# Judged by host/51-doctor-reject.sh: cause no_listener, reason named, port/port space in
# the verdict, cm_rx_msgs/rej counted, the text rendering of a failed verdict.
J=$OUT/51-doctor
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
save() { local n=$1; shift; "$@" > "$J-$n" 2> "$J-$n.err"; echo $? > "$J-$n.rc"; cat "$J-$n" "$J-$n.err" >&2; }

save reject.json rdmadoctor -j connect "$B:7499" --src "$A" --timeout 2000
tap_eq "connect to a port nobody listens on exits 1" 1 "$(cat "$J-reject.json.rc")"
rdmadoctor listen "$B:7471" > "$J-listen.txt" 2>&1 &
lp=$!
wait_cm_listen 7471 30 || tap_fail "rdmadoctor listen $B:7471 is a LISTEN cm_id"
# --no-peer-info: the listener's side channel would say it listens in TCP's port space, and
# the verdict would be peer_port_space_mismatch (pair/56-doctor-peer-ps.sh shows that); here
# the plain no_listener verdict and its text rendering are under test
save ps.txt rdmadoctor connect "$B:7471" --src "$A" -p ib --timeout 2000 --no-peer-info
kill $lp 2>/dev/null; wait $lp 2>/dev/null
cat "$J-listen.txt" >&2
tap_eq "-p ib against a TCP listener exits 1" 1 "$(cat "$J-ps.txt.rc")"
tap_eq "no cm_id left behind" "" "$(rdma res show cm_id 2>/dev/null)"
