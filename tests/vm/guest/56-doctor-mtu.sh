# vm-timeout: 60
# rdmadoctor, MTU mismatch between the veth ends (veth1 1000, veth0 1500): the connection is
# established, but the two MTU records exchanged in the CM private data differ; the client's
# verdict is mtu_mismatch (exit 1) and the listener notes it too.
J=$OUT/56-doctor-mtu
P=7471
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }

mtu_set "$NET1" 1000
rdmadoctor -j listen "$B:$P" --count 1 > "$J-listen.json" 2> "$J-listen.err" &
lp=$!
wait_cm_listen $P
rdmadoctor -j connect "$B:$P" --src "$A" --timeout 2000 > "$J.json" 2> "$J.err"
st=$?
wait $lp
cat "$J.json" "$J.err" "$J-listen.json" "$J-listen.err" >&2
eval "$(jq -r '@sh "cause=\(.verdict.cause) sentence=\(.verdict.sentence)
	ev=\(.steps[] | select(.name == "connect") | .event) peer=\("\(.peer.netdev_mtu) \(.peer.path_mtu)")"' "$J.json")"
note=$(grep CONNECT_REQUEST "$J-listen.json")
tap_eq "exit 1" 1 "$st"
tap_eq "verdict cause mtu_mismatch" mtu_mismatch "$cause"
tap_eq "the connection itself was established" ESTABLISHED "$ev"
tap_eq "peer record: netdev MTU 1000, RoCE path MTU 512" "1000 512" "$peer"
tap_check "the verdict gives both sides (1500 -> 1024 here, 1000 -> 512 there)" \
	eval '[[ $sentence == *"MTU 1500 -> RoCE path MTU 1024"*"MTU 1000 -> 512"* ]]'
tap_check "the listener noted the mismatch" eval '[[ $note == *"MTU mismatch"* ]]'
mtu_restore "$NET1"
wait_port_active "$DEV1"
tap_eq "veth1 MTU restored" 1500 "$(cat /sys/class/net/$NET1/mtu)"
