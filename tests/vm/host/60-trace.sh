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
