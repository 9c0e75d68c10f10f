# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/60-trace.sh: what rdmatrace saw, against what rping printed and what
# rdmadoctor concluded for the same faults.
cd "$VM_OUT" || exit 2
J=60-trace
[ -s "$J-conns.json" ] || { tap_fail "the guest saved $J-conns.json"; exit 0; }
scen_pid() { sed -n "s/^$1 pid=\([0-9]*\).*/\1/p" "$J-scen.txt"; }
rping_status() { sed -n 's/^cma event RDMA_CM_EVENT_[A-Z_]*, error \(-\{0,1\}[0-9]*\)$/\1/p' "$J-$1.out" | tail -1; }
conn() {	# conn DST JQ-EXPR: the rping connection to DST
	jq -r --arg d "$1" "select(.type == \"connection\" and .comm == \"rping\" and .side == \"active\" and .dst == \$d) | $2" "$J-conns.json"
}
doctor_cause() { jq -r '.verdict.cause' "$J-doctor-$1.json" 2>/dev/null; }

tap_eq "both rdmatrace runs ended by their signal with exit 1 (failures seen)" \
	"events rc=1 conns rc=1" "$(grep -E '^(events|conns) rc=' "$J-scen.txt" | tr '\n' ' ' | sed 's/ $//')"
tap_eq "every line is JSON with a type" "" \
	"$(jq -r '.type // "NONE"' "$J-events.json" "$J-conns.json" | grep -vxE 'event|connection|summary')"
tap_eq "each run wrote its summary on exit" "1 1" \
	"$(jq -r 'select(.type == "summary") | .type' "$J-events.json" | wc -l) $(jq -r 'select(.type == "summary") | .type' "$J-conns.json" | wc -l)"

# (1) success
tap_eq "the successful rping: established, cause ok" "established ok rxe0" \
	"$(conn 198.18.0.2:7180 '"\(.outcome) \(.cause) \(.device)"')"
tap_eq "the successful rping's server end is summed under its listening port, not the client's" \
	"198.18.0.2:7180 passive 1" \
	"$(jq -r 'select(.type == "summary") | .destinations[] | select(.side == "passive" and .dst == "198.18.0.2:7180") | "\(.dst) \(.side) \(.established)"' "$J-conns.json")"
tap_eq "no summary destination is a client's ephemeral port (on 198.18.0.1)" "" \
	"$(jq -r 'select(.type == "summary") | .destinations[] | select(.dst | startswith("198.18.0.1:")) | .dst' "$J-conns.json")"
# (1b) no source address bound: the device rdma_cm attached the id to at address resolution
tap_eq "a client that bound no source address: its device, from address resolution" \
	"$(grep -q '^unbound rc=0' "$J-scen.txt" && echo established || echo failed) rxe1" \
	"$(conn 198.18.0.2:7186 '"\(.outcome) \(.device)"')"
# (2) no listener: REJECTED 8, no_listener, rping's pid, rdmadoctor's cause
tap_eq "no listener: REJECTED with rping's status, cause no_listener, rping's pid" \
	"REJECTED $(rping_status nolisten) no_listener $(scen_pid nolisten)" \
	"$(conn 198.18.0.2:7499 '"\(.fail_event) \(.fail_status) \(.cause) \(.pid)"')"
tap_eq "no listener: rdmadoctor's verdict has the same cause" "no_listener" "$(doctor_cause nolisten)"
n=$(jq -r 'select(.type == "event" and .cm_event == "REJECTED" and .dst == "198.18.0.2:7499" and .status_str == "reject reason 8 INVALID_SERVICE_ID") | .cm_id' "$J-events.json" | wc -l)
tap_check "no listener: the REJECTED events with reason 8 named (rping's and rdmadoctor's: $n)" [ "$n" -ge 2 ]
# (3) ADDR_ERROR
tap_eq "unresolvable address: ADDR_ERROR with rping's status and pid" \
	"ADDR_ERROR $(rping_status addr) $(scen_pid addrerr)" \
	"$(conn 198.18.0.77:7181 '"\(.fail_event) \(.fail_status) \(.pid)"')"
tap_eq "unresolvable address: the cause is rdmadoctor's for the same address" \
	"$(doctor_cause addr)" "$(conn 198.18.0.77:7181 .cause)"
# (4) total loss
tap_eq "total loss: cause cm_no_response, rping's pid" "cm_no_response $(scen_pid loss)" \
	"$(conn 198.18.0.2:7182 '"\(.cause) \(.pid)"')"
tap_eq "total loss: the REQ resends are the IB CM's own count (cm_tx_retries/req)" \
	"$(sed -n 's/^req_retries //p' "$J-scen.txt")" "$(conn 198.18.0.2:7182 .req_resent)"
tap_check "total loss: at least one resend" [ "$(conn 198.18.0.2:7182 .req_resent)" -ge 1 ]
tap_check "total loss: rping printed no connection" bash -c "! grep -q 'ESTABLISHED' $J-loss.out"
tap_eq "the summary counts both no-listener failures (rping's, rdmadoctor's)" 2 \
	"$(jq -r 'select(.type == "summary") | .destinations[] | select(.dst == "198.18.0.2:7499") | .causes.no_listener' "$J-conns.json")"
# (5) the server's device deleted under an established connection
tap_eq "device deleted: rdma link delete succeeded" "devdel delete rc=0" "$(grep '^devdel delete' "$J-scen.txt")"
pconn() {	# the rping server's end of the connection on PORT
	jq -r --arg p "198.18.0.2:$1" "select(.type == \"connection\" and .side == \"passive\" and .src == \$p) | $2" "$J-conns.json"
}
tap_check "device deleted: rping's server printed DEVICE_REMOVAL" grep -q 'RDMA_CM_EVENT_DEVICE_REMOVAL' "$J-devdel-srv.out"
# Two endings are real (both seen): the kernel delivers DEVICE_REMOVAL to the server's
# connection, or rping's server, on DEVICE_REMOVAL of its listener, disconnects the
# connection before the kernel comes to it (a clean end of that id, DREQ sent); the verdict
# then says how long after the device's removal began the application disconnected it
glob() { [[ $1 == $2 ]]; }
srv=$(pconn 7183 '"\(.outcome) \(.fail_event) \(.cause) \(.device) \(.pid)"')
v=$(pconn 7183 .verdict)
if [ "${srv%% *}" = established ]; then
	diag "device deleted: rping's server disconnected before the kernel's DEVICE_REMOVAL came to the connection"
	tap_eq "device deleted: the server's end was disconnected by rping (established, ok), on rxe1, the server's pid" \
		"established null ok rxe1 $(scen_pid devdel-srv)" "$srv"
	tap_check "device deleted: its verdict says it was established and that rping disconnected it after rxe1's removal began ($v)" \
		glob "$v" 'established with 198.18.0.1 port *, then disconnected by its application * ms after its RDMA device rxe1 began to be removed (by rdma, pid *)'
else
	tap_eq "device deleted: the server's end failed, cause device_removed, on rxe1, the server's pid" \
		"failed DEVICE_REMOVAL device_removed rxe1 $(scen_pid devdel-srv)" "$srv"
	tap_check "device deleted: its verdict says it was established and who removed the device ($v)" \
		glob "$v" 'established with 198.18.0.1 port *, then DEVICE_REMOVAL after *its RDMA device rxe1 was removed (by rdma, pid *)'
fi

# (rping's exit status is 0 or 255 by where its ping loop was when the DREQ came)
tap_eq "device deleted: the client's end saw an ordinary disconnect (the peer's DREQ): established, ok, DISCONNECTED" \
	"established ok DISCONNECTED" \
	"$(conn 198.18.0.2:7183 '"\(.outcome) \(.cause) \([.steps[].what] | map(select(. == "DISCONNECTED")) | .[0])"')"
# (rping -d writes the event to stdout, buffered, and "client DISCONNECT EVENT..." to stderr:
# a client that then hangs waiting for a completion rxe never flushes, ended by the guest's
# wait_exit, has only the second)
tap_check "device deleted: the client's rping printed DISCONNECTED" \
	grep -qE 'RDMA_CM_EVENT_DISCONNECTED|client DISCONNECT EVENT' "$J-devdel-cli.out"
tap_eq "device deleted: the client's end is rping's (pid)" "$(scen_pid devdel-cli)" "$(conn 198.18.0.2:7183 .pid)"
# in order: rxe1's removal (rdma_cma:cm_remove_one), then the client's DISCONNECTED; the DREQ
# behind it comes either from rdma_ucm destroying the server's id after its DEVICE_REMOVAL or
# from rping's server disconnecting once its listener got DEVICE_REMOVAL (both seen)
ev_time() { jq -r --arg e "$1" --arg s "$2" 'select(.type == "event" and .cm_event == $e and .src == $s) | .time' "$J-events.json" | head -1; }
rm_t=$(jq -r 'select(.type == "event" and .event == "cm_remove_one" and .device == "rxe1") | .time' "$J-events.json" | head -1)
dc_t=$(ev_time DISCONNECTED "$(conn 198.18.0.2:7183 .src)")
before() { [ -n "$1" ] && [ -n "$2" ] && [[ $1 < $2 ]]; }	# RFC 3339, same length
tap_check "device deleted: rxe1's removal ($rm_t) came before the client's DISCONNECTED ($dc_t)" \
	before "$rm_t" "$dc_t"
tap_eq "device deleted: DEVICE_REMOVAL ran in the thread of rdma (link delete)" "rdma" \
	"$(jq -r --arg s "$(pconn 7183 .src)" 'select(.type == "event" and .cm_event == "DEVICE_REMOVAL" and .src == $s) | .comm' "$J-events.json" | head -1)"
# (6) a new connect to the address whose device is gone
tap_eq "device gone: the REQs went out and nothing answered (rping's and rdmadoctor's)" \
	"cm_tx_req +2 cm_rx_rep +0 cm_rx_rej +0" "$(sed -n 's/^gone \(cm_tx_req [^ ]* cm_rx_rep [^ ]* cm_rx_rej [^ ]*\).*/\1/p' "$J-scen.txt")"
tap_check "device gone: the REQs reached the deleted device's netdev ($(sed -n 's/^gone .* rx_packets //p' "$J-scen.txt") packets)" \
	[ "$(sed -n 's/^gone .* rx_packets +//p' "$J-scen.txt")" -ge 2 ]
tap_eq "device gone: cause cm_no_response, no resend, rping's pid" "failed cm_no_response 0 $(scen_pid gone)" \
	"$(conn 198.18.0.2:7184 '"\(.outcome) \(.cause) \(.req_resent) \(.pid)"')"
tap_eq "device gone: rdmadoctor's verdict has the same cause" "$(conn 198.18.0.2:7184 .cause)" "$(doctor_cause gone)"
tap_check "device gone: rping printed no connection" bash -c "! grep -q 'ESTABLISHED' $J-gone.out"
# (7) rdmadoctor's own device deleted under its attempt: the same cause from both tools
tap_eq "doctor's device deleted: rdmadoctor's verdict is device_removed" "device_removed" "$(doctor_cause devdel)"
tap_eq "doctor's device deleted: its connection in the trace failed by DEVICE_REMOVAL, cause device_removed, the doctor's pid" \
	"failed DEVICE_REMOVAL device_removed rxe0 $(scen_pid doctor-devdel)" \
	"$(jq -r 'select(.type == "connection" and .comm == "rdmadoctor" and .dst == "198.18.0.2:7185") | "\(.outcome) \(.fail_event) \(.cause) \(.device) \(.pid)"' "$J-conns.json")"
