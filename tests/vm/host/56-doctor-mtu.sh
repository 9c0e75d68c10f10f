# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/56-doctor-mtu.sh: the MTU mismatch reported with both sides' numbers.
cd "$VM_OUT" || exit 2
J=56-doctor-mtu.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	ev=\(.steps[] | select(.name == "connect") | .event) peer=\("\(.peer.netdev_mtu) \(.peer.path_mtu)")"' "$J")"
# proof instead of prediction: the data-path step names the size that fails and the largest
# that works; the independent truth is veth1's MTU (ip link) and veth's rule that a frame
# above the receiving end's MTU is dropped: 1024 + 58 bytes of headers > 1000 >= 512 + 58
tap_eq "ip link: veth1 MTU 1000 (the fault)" 1000 "$(jq -r '.[0].mtu' 56-doctor-veth1.json)"
tap_eq "verdict cause datapath_mtu_fails" datapath_mtu_fails "$cause"
tap_eq "the connection itself was established" ESTABLISHED "$ev"
tap_eq "peer record: netdev MTU 1000, RoCE path MTU 512" "1000 512" "$peer"
# (the guest queues veth0, so the frame is lost after rxe's transmit succeeded, as a switch
# loses it: the QP's 2 retries end it in WC 12, as on a NIC)
tap_check "the verdict names the SEND of 1024 bytes that does not complete and the largest MTU that works, 512" \
	eval '[[ $sentence == *"SEND of 1024 bytes (one packet at path MTU 1024) does not complete: "*"the largest path MTU that works is 512" ]]'
dpev=$(jq -r '[.findings[] | select(.check == "data_path")][0].evidence[0]' "$J")
tap_check "the data-path evidence: sizes 256..1024, 1024 failed with WC 12, largest 512 ($dpev)" \
	eval '[[ $dpev =~ ^"sizes 256..1024, one packet each; SEND of 1024: WC 12 IBV_WC_RETRY_EXC_ERR".*"largest that completed: 512" ]]'
moved=$(jq -r '[.counters[] | select(.delta > 0 and (.name | test("retr|timeout|seq|send_err|ack"))) | "\(.name) +\(.delta)"] | join(", ")' "$J")
diag "counters that moved with the failure: $moved"
tap_check "rxe's retry_exceeded_err moved with it ($moved)" eval '[[ ", $moved" == *", retry_exceeded_err +"* ]]'

note=$(jq -r 'select(.event == "CONNECT_REQUEST") | .note' 56-doctor-listen.json)
tap_check "the listener's note gives both MTUs" eval '[[ $note == *"netdev MTU 1500"*"netdev MTU 1000"* ]]'
