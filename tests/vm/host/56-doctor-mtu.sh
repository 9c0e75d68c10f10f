# Host side of guest/56-doctor-mtu.sh: the MTU mismatch reported with both sides' numbers.
cd "$VM_OUT" || exit 2
J=56-doctor-mtu.json
[ -s "$J" ] || { tap_fail "the guest saved $J"; exit 0; }
eval "$(jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	ev=\(.steps[] | select(.name == "connect") | .event) peer=\("\(.peer.netdev_mtu) \(.peer.path_mtu)")"' "$J")"
tap_eq "verdict cause mtu_mismatch" mtu_mismatch "$cause"
tap_eq "the connection itself was established" ESTABLISHED "$ev"
tap_eq "peer record: netdev MTU 1000, RoCE path MTU 512" "1000 512" "$peer"
tap_check "the verdict gives both sides (1500 -> 1024 here, 1000 -> 512 there)" \
	eval '[[ $sentence == *"MTU 1500 -> RoCE path MTU 1024"*"MTU 1000 -> 512"* ]]'
note=$(jq -r 'select(.event == "CONNECT_REQUEST") | .note' 56-doctor-listen.json)
tap_check "the listener's note gives both MTUs" eval '[[ $note == *"netdev MTU 1500"*"netdev MTU 1000"* ]]'
