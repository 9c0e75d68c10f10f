# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/62-trace-causes.sh: each connection's cause id against what the
# programs did, and rdmatrace's id against rdmadoctor's for the same unrouted destination.
cd "$VM_OUT" || exit 2
J=62-trace
[ -s "$J-conns.json" ] || { tap_fail "the guest saved $J-conns.json"; exit 0; }
scen() { sed -n "s/^$1 pid=\([0-9]*\) rc=\([0-9]*\).*/\\$2/p" "$J-scen.txt"; }
pid() { scen "$1" 1; }
rc() { scen "$1" 2; }
conn() {	# conn FILE PID JQ-EXPR: the connection of process PID
	jq -r --argjson p "$2" "select(.type == \"connection\" and .pid == \$p) | $3" "$1"
}
c() { conn "$J-conns.json" "$@"; }

# (a) UD success
tap_eq "udaddy client and server both exit 0" "0 0" "$(rc udcli) $(rc udsrv)"
# (the server's SIDR REP: an accept, but no tracepoint says so: answered, never ok)
tap_eq "UD success, server: answered, cause ud_answered, its SIDR REP a step" \
	"passive answered ud_answered true" \
	"$(c "$(pid udsrv)" '"\(.side) \(.outcome) \(.cause) \([.steps[].what] | index("SIDR REP sent") != null)"')"
tap_eq "UD success, client: established, cause ok, its SIDR REQ a step" \
	"active established ok true" \
	"$(c "$(pid udcli)" '"\(.side) \(.outcome) \(.cause) \([.steps[].what] | index("SIDR REQ sent") != null)"')"
tap_eq "a trace of the UD pair alone: one established, one answered, no failure, exit 0" \
	"1 1 0 rc=0" \
	"$(jq -r 'select(.type == "summary") | "\(.established) \(.answered) \(.failed)"' "$J-ud.json") $(grep '^udtrace' "$J-scen.txt" | cut -d' ' -f2)"

# (b) UD, no listener: SIDR REP status 1 is the UDP port space's no_listener
tap_eq "UD no listener: UNREACHABLE status 1, cause no_listener" "UNREACHABLE 1 no_listener" \
	"$(c "$(pid udnolisten)" '"\(.fail_event) \(.fail_status) \(.cause)"')"
v=$(c "$(pid udnolisten)" .verdict)
tap_check "UD no listener: the verdict speaks of no retries ($v)" \
	sh -c 'case $1 in *retries*|"") exit 1;; esac' - "$v"

# (c) UD, rejected by the server's rdma_reject(): SIDR REP status 2
tap_eq "UD rejected: the client's UNREACHABLE status 2 is rejected_by_application" \
	"UNREACHABLE 2 rejected_by_application" \
	"$(c "$(pid udrejcli)" '"\(.fail_event) \(.fail_status) \(.cause)"')"
tap_eq "UD rejected: the server's side is answered, ud_answered, as the accepting server's (no tracepoint has the SIDR REP's status)" \
	"passive answered ud_answered" \
	"$(c "$(pid udrejsrv)" '"\(.side) \(.outcome) \(.cause)"')"

# (d) RC, rejected by the server's rdma_reject(): both ends
tap_eq "RC rejected: the client's REJECTED 28 is rejected_by_application" \
	"REJECTED 28 rejected_by_application" \
	"$(c "$(pid rejcli)" '"\(.fail_event) \(.fail_status) \(.cause)"')"
tap_eq "RC rejected: the server's side is rejected_here, with the reason it sent" \
	"passive failed rejected_here true true" \
	"$(c "$(pid rejsrv)" '"\(.side) \(.outcome) \(.cause) \([.steps[].what] | index("REJ sent") != null) \(.verdict | test("reason 28"))"')"

# (e) no route: the same id from rdmatrace and rdmadoctor
tap_check "ip route get 198.19.0.9 fails (unreachable)" grep -q "^route rc=[1-9]" "$J-scen.txt"
tap_eq "no route: rdmadoctor says no_route" "no_route" \
	"$(jq -r '.verdict.cause' "$J-doctor-noroute.json" 2>/dev/null)"
# (rping's connection by its command and destination: live, the trace names the process of
# the thread that did the first traced step, but rping fails at once here, and a thread
# that had ended before rdmatrace read its events is named by its own id)
tap_eq "no route: rdmatrace says what rdmadoctor says, for rping's ADDR_ERROR" \
	"ADDR_ERROR no_route" \
	"$(jq -r 'select(.type == "connection" and .comm == "rping" and (.dst | startswith("198.19.0.9"))) | "\(.fail_event) \(.cause)"' "$J-conns.json" | sort -u)"
tap_eq "no route: rdmadoctor's own id, traced, has the same cause" "no_route" \
	"$(jq -r 'select(.type == "connection" and .comm == "rdmadoctor" and (.dst | startswith("198.19.0.9"))) | .cause' "$J-conns.json" | sort -u)"

# (f) SIGKILL while connected
tap_eq "the killed client: established, destroyed without a disconnect" \
	"established ended_without_disconnect false true" \
	"$(c "$(pid killed)" '"\(.outcome) \(.cause) \([.steps[].what] | index("disconnect") != null) \(.verdict | test("destroyed without a disconnect: the process ended"))"')"

# MRA: rdma_cm arms a deferred MRA (sent only on a duplicate REQ/REP); none went out here
tap_eq "no connection shows an MRA sent (no ib_cma:icm_send_mra)" "0" \
	"$(jq -r 'select(.type == "connection") | .steps[].what' "$J-conns.json" | grep -c '^MRA sent$')"
tap_check "the armed MRA is shown as armed" \
	grep -q '"what":"MRA armed"' "$J-conns.json"
