# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/50-doctor-ok.sh: the working connection, judged from the saved JSON.
cd "$VM_OUT" || exit 2
J=50-doctor-ok.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '
	def cm($n): [.counters[] | select(.dev == "rxe0" and .port == 1 and .name == $n) | .delta] | add // 0;
	@sh "cause=\(.verdict.cause) vok=\(.verdict.ok) names=\([.steps[].name] | join(" "))
	allok=\([.steps[].ok] | all) ntimed=\([.steps[] | select((.ms | type) == "number" and .ms >= 0)] | length)
	timings=\([.steps[] | "\(.name) \(.ms * 10 | round / 10)"] | join(", "))
	events=\([.steps[] | select(.event) | .event] | join(" ")) addr=\(.steps[1].detail)
	req=\(cm("cm_tx_msgs/req")) rep=\(cm("cm_rx_msgs/rep")) retries=\(cm("cm_tx_retries/req"))
	peer=\("\(.peer.dev) \(.peer.netdev_mtu) \(.peer.path_mtu)")"' "$J")"
tap_eq "verdict cause is ok" ok "$cause"
tap_eq "verdict ok is true" true "$vok"
tap_eq "steps in order" "create_id resolve_addr resolve_route create_qp connect disconnect" "$names"
tap_eq "every step ok" true "$allok"
tap_eq "every step has a timing in ms (>= 0)" 6 "$ntimed"
diag "timings (ms): $timings"
tap_eq "events ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED (clean disconnect)" \
	"ADDR_RESOLVED ROUTE_RESOLVED ESTABLISHED DISCONNECTED" "$events"
tap_check "resolve_addr bound rxe0, the source's device" eval '[[ $addr == *"device rxe0 port 1"* ]]'
ams=$(jq -r '.steps[1].ms | floor' "$J")
diag "resolve_addr: $ams ms, $addr"
tap_check "resolve_addr took its whole timeout only with the 'slow neighbour resolution' note" \
	eval '[ "$ams" -lt 900 ] || [[ $addr == *"slow neighbour resolution: completed only when rdma_cm'"'"'s 1000 ms timer fired"* ]]'
tap_check "cm_tx_msgs/req on rxe0 rose (REQ sent): +$req" [ "$req" -ge 1 ]
tap_check "cm_rx_msgs/rep on rxe0 rose (REP received): +$rep" [ "$rep" -ge 1 ]
tap_eq "no REQ retry on a working path" 0 "$retries"
tap_eq "the listener's private data: rxe1, netdev MTU 1500, path MTU 1024" "rxe1 1500 1024" "$peer"
tap_eq "the short options -s -t and --ps tcp were taken (-t 1000: resolve 1000 ms too)" \
	"198.18.0.1 1000 1000 TCP" "$(jq -r '"\(.src) \(.timeout_ms) \(.resolve_timeout_ms) \(.ps)"' "$J")"

# the host checks on a real kernel, each with its level and evidence
eval "$(jq -r '
	def f($c; $s): [.findings[] | select(.check == $c and ($s == "" or .subject == $s))][0];
	@sh "mods=\(f("modules"; "") | "\(.level) \(.evidence | join(", "))")
	nodes=\(f("device_nodes"; "") | "\(.level) \(.evidence[0])")
	netns=\(f("netns"; "rxe0/1") | "\(.level) \(.summary)")
	nsev=\(f("netns"; "rxe0/1") | .evidence[0])
	mtu=\(f("mtu"; "rxe0/1") | "\(.level) \(.summary)")
	mtuev=\(f("mtu"; "rxe0/1") | .evidence[0])
	mem=\(f("memlock"; "") | "\(.level) \(.evidence | join(", "))")"' "$J")"
tap_eq "modules: ok, the five RDMA core modules loaded (Debian builds them as modules)" \
	"ok ib_core: loaded (initstate live), ib_uverbs: loaded (initstate live), ib_cm: loaded (initstate live), rdma_cm: loaded (initstate live), rdma_ucm: loaded (initstate live)" "$mods"
tap_check "device_nodes: ok, rdma_cm rw and both uverbs nodes: $nodes" \
	eval '[[ $nodes =~ ^"ok /dev/infiniband/rdma_cm: present, rw; uverbs nodes: uverbs"[01]" uverbs"[01]$ ]]'
tap_eq "netns: veth0 of rxe0/1 is in this namespace" \
	"ok netdev veth0 of rxe0/1 is in this network namespace" "$netns"
tap_check "netns evidence: veth0's ifindex ($nsev)" eval '[[ $nsev =~ ^"veth0 ifindex "[0-9]+$ ]]'
tap_eq "mtu: the RoCE path MTU of veth0 matches rxe0's active MTU" \
	"ok netdev veth0 MTU 1500 -> RoCE path MTU 1024, active MTU 1024" "$mtu"
tap_eq "mtu evidence: the arithmetic and the port's MTUs through verbs" \
	"netdev veth0 mtu 1500; 1500 - 96 = 1404 -> largest IB MTU that fits 1024; port active_mtu 1024, max_mtu 4096" "$mtuev"
tap_check "memlock: ok as root (CAP_IPC_LOCK): $mem" \
	eval '[[ $mem =~ ^"ok RLIMIT_MEMLOCK soft limit ".*", CAP_IPC_LOCK effective (limit not enforced)"$ ]]'

T=50-doctor-ok.txt
tap_check "text: the default timeout, resolution capped at 2000 ms" \
	grep -q "^connect 198.18.0.2 port 7471 from 198.18.0.1 (port space TCP, timeout 8000 ms, resolve 2000 ms)" "$T"
tap_check "text: the verdict line says OK cause=ok" grep -q "^verdict: OK .*cause=ok" "$T"
tap_check "text: the steps with their timings" grep -qE "^  connect +ok +[0-9.]+ ms  ESTABLISHED" "$T"
tap_check "text -v: passed checks shown (port rxe0/1 ACTIVE)" grep -q "^  ok  *port  *port rxe0/1 is ACTIVE" "$T"
tap_check "text -v: the modules finding with its evidence" grep -q "^             evidence: rdma_ucm: loaded (initstate live)" "$T"

L=50-doctor-listen.json
eval "$(jq -rs '@sh "levents=\([.[].event] | join(" "))
	client=\([.[] | select(.event == "CONNECT_REQUEST") | "\(.client.dev) \(.client.netdev_mtu)"][0])"' "$L")"
tap_eq "the listener reported LISTENING, then REQUEST/ESTABLISHED/DISCONNECTED twice" \
	"LISTENING CONNECT_REQUEST ESTABLISHED DISCONNECTED CONNECT_REQUEST ESTABLISHED DISCONNECTED" "$levents"
tap_eq "the listener saw the client's record (rxe0, MTU 1500)" "rxe0 1500" "$client"
