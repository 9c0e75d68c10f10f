# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of pair/56-doctor-peer-ps.sh: listeners in the IB and UDP port spaces, a client in
# TCP's, IB's and UDP's.  Independent truth: iproute2 on the server shows each LISTEN cm_id's
# port space (iproute2 6.1 names RDMA_PS_IB, 0x013F, "IPoIB" as it does RDMA_PS_IPOIB; the IB
# connect accepted and the TCP one rejected tell them apart), and the server's IB CM counted
# the one REJ it sent (sysfs cm_tx_msgs/rej).
S=$PAIR_SERVER C=$PAIR_CLIENT
J=$C/56-ps-tcp.json
[ -s "$J" ] || { tap_fail "the client guest saved 56-ps-tcp.json"; exit 0; }
tap_check "rdma res show cm_id on the server: the listener on 7476 is not in TCP's port space (IPoIB: iproute2's name for IB)" \
	grep -q " ps IPoIB .*src-addr 198.18.1.1:7476 " "$S/56-ps-cmid"
tap_check "rdma res show cm_id on the server: the listener on 7477 is in UDP's" \
	grep -q " ps UDP .*src-addr 198.18.1.1:7477 " "$S/56-ps-cmid"
eval "$(jq -r '@sh "row=\([.both_ends.rows[] | select(.what == "rdma_cm port space") | "\(.here)|\(.peer)|\(.differs)|\(.cause)"][0])
	f=\([.findings[] | select(.check == "peer") | "\(.level) \(.layer) \(.cause)"] | join(","))
	rej=\([.steps[] | select(.name == "connect") | "\(.event) \(.status)"][0])
	vcause=\(.verdict.cause) sentence=\(.verdict.sentence) next=\(.verdict.next)"' "$J")"
tap_eq "the port-space row: TCP here, IB on the peer (from its side channel)" \
	"TCP port 7476|IB port 7476|true|peer_port_space_mismatch" "$row"
tap_eq "one peer finding: a problem of layer cm" "problem cm peer_port_space_mismatch" "$f"
tap_eq "the kernel rejected the REQ with reason 8 (INVALID_SERVICE_ID)" "REJECTED 8" "$rej"
tap_eq "the verdict names the port-space mismatch, not a missing listener" peer_port_space_mismatch "$vcause"
tap_eq "its sentence says exactly that" \
	"REJECTED with reason 8 (INVALID_SERVICE_ID): nothing listens on 198.18.1.1 port 7476 in the TCP port space, but the listener there is in the IB port space (its side channel says so)" \
	"$sentence"
tap_eq "its fix" "use one port space on both ends: connect with --ps ib, or run the listener with --ps tcp" "$next"
b=$(cat "$S/56-ps-rej-before") a=$(cat "$S/56-ps-rej-after")
tap_check "the server's IB CM sent exactly one REJ (cm_tx_msgs/rej $b -> $a)" \
	eval '[ "$b" != none ] && [ $((a - b)) -eq 1 ]'
T=$C/56-ps-ib.txt
tap_check "connect --ps ib: the port-space row agrees (IB port 7476 on both ends)" \
	grep -qE "^  rdma_cm port space +IB port 7476 +IB port 7476$" "$T"
tap_check "connect --ps ib: verdict OK" grep -q "^verdict: OK .*cause=ok" "$T"
U=$C/56-ps-udp.json
tap_eq "connect --ps udp: a UD QP, SIDR resolved, nothing to disconnect; the row agrees; verdict ok" \
	"UD|ESTABLISHED|true|UDP port 7477|UDP port 7477|false|ok" \
	"$(jq -r '[(.steps[] | select(.name == "create_qp") | .detail | split(" ")[0]),
		(.steps[] | select(.name == "connect") | .event),
		(.steps[] | select(.name == "disconnect") | .ok),
		(.both_ends.rows[] | select(.what == "rdma_cm port space") | .here, .peer, .differs),
		.verdict.cause] | join("|")' "$U")"
tap_eq "the UDP listener saw the SIDR request from the client guest" 1 \
	"$(jq -rs '[.[] | select(.event == "CONNECT_REQUEST")] | length' "$S/56-ps-listen-udp.json")"
tap_eq "connect --ps udp to the IB listener: UNREACHABLE with SIDR status 1 (UNSUPPORTED), the verdict names the port spaces" \
	"UNREACHABLE|1|UDP port 7476|IB port 7476|true|peer_port_space_mismatch|UNREACHABLE with SIDR status 1 (UNSUPPORTED): nothing listens on 198.18.1.1 port 7476 in the UDP port space, but the listener there is in the IB port space (its side channel says so)" \
	"$(jq -r '[(.steps[] | select(.name == "connect") | .event, .status),
		(.both_ends.rows[] | select(.what == "rdma_cm port space") | .here, .peer, .differs),
		.verdict.cause, .verdict.sentence] | join("|")' "$C/56-ps-udp-ib.json")"
