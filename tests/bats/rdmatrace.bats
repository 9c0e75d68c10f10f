#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatrace on the build host: the QEMU tier's capture (tests/fixtures/trace/rxe-6.1, made by
# capture.sh there) decoded with --input and judged against what the kernel and rping
# themselves printed (trace.txt, scen.txt, rping-*.out); the one-line errors of a host
# without tracing; stale instances in a stand-in tracefs.  Live tracing runs in the QEMU tier
# (tests/vm/guest/60-trace.sh).
load helper

CAP="$FIX/trace/rxe-6.1"

scen_pid() { sed -n "s/^$1 pid=\([0-9]*\).*/\1/p" "$CAP/scen.txt"; }
rping_status() { sed -n 's/^cma event RDMA_CM_EVENT_[A-Z_]*, error \(-\{0,1\}[0-9]*\)$/\1/p' "$CAP/rping-$1.out"; }

@test "--input -c -j: the four scenarios' connections, each with what rping reported" {
	run --separate-stderr rdmatrace --input "$CAP" -c -j
	[ "$status" -eq 1 ] || fail "exit $status (failed connections seen: 1)"
	# every line a JSON object with a type
	[ "$(jq -r .type <<< "$output" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')" = "connection=5 summary=1 " ]
	# no listener: REJECTED with rping's status, cause no_listener, rping's pid
	run jq -r 'select(.type == "connection" and .dst == "198.18.0.2:7499") |
		"\(.cause) \(.fail_event) \(.fail_status) \(.pid) \(.comm) \(.peer_no_listener)"' <<< "$output"
	assert_output "no_listener REJECTED $(rping_status nolisten) $(scen_pid nolisten) rping true"
	run --separate-stderr rdmatrace --input "$CAP" -c -j
	run jq -r 'select(.type == "connection" and .fail_event == "ADDR_ERROR") |
		"\(.cause) \(.fail_status) \(.pid) \(.dst)"' <<< "$output"
	assert_output "neighbour_unresolved $(rping_status addr) $(scen_pid addrerr) 198.18.0.77:7174"
	# total loss: REQ resent as often as the kernel's ib_mad shows "14/15 retries", then given up
	local resends
	resends=$(grep -c 'ib_mad_ib_send_mad: .*; 14/15 retries' "$CAP/trace.txt")
	run --separate-stderr rdmatrace --input "$CAP" -c -j --dst 198.18.0.2:7175
	run jq -r 'select(.type == "connection") | "\(.cause) \(.req_sent) \(.req_resent) \(.pid)"' <<< "$output"
	assert_output "cm_no_response 1 $resends $(scen_pid loss)"
}

@test "--input -c: a device deleted under an established connection (rxe-6.1-devdel)" {
	local dd="$FIX/trace/rxe-6.1-devdel" srv cli
	srv=$(sed -n 's/^devdel-srv pid=\([0-9]*\).*/\1/p' "$dd/scen.txt")
	cli=$(sed -n 's/^devdel-cli pid=\([0-9]*\).*/\1/p' "$dd/scen.txt")
	grep -q 'RDMA_CM_EVENT_DEVICE_REMOVAL' "$dd/rping-devdel-srv.out"
	grep -q 'RDMA_CM_EVENT_DISCONNECTED' "$dd/rping-devdel-cli.out"
	run --separate-stderr rdmatrace --input "$dd" -c -j
	[ "$status" -eq 1 ] || fail "exit $status (failed connections seen: 1)"
	# the server's end failed by its device's removal, the rping server's, not rdma's
	run jq -r 'select(.type == "connection" and .side == "passive") |
		"\(.outcome) \(.fail_event) \(.cause) \(.layer) \(.device) \(.pid) \(.comm)"' <<< "$output"
	assert_output "failed DEVICE_REMOVAL device_removed host rxe1 $srv rping"
	# the client's end: the DREQ its peer's rdma_cm sent as the id was destroyed
	run --separate-stderr rdmatrace --input "$dd" -c -j --dst 198.18.0.2:7183
	run jq -r 'select(.type == "connection") | [.steps[].what] as $s |
		"\(.outcome) \(.cause) \(.pid) \($s | index("DISCONNECTED") > ($s | index("RTU sent")))"' <<< "$output"
	assert_output "established ok $cli true"
	# text, failures only: the server's end and the unanswered connect to the address
	run --separate-stderr rdmatrace --input "$dd" -c --failed
	assert_line --regexp "^[0-9.]+ $srv/rping cm\.id 1 198\.18\.0\.2:7183 -> 198\.18\.0\.1:[0-9]+ rxe1 tos 0 passive failed cause=device_removed "
	assert_line --regexp '^  verdict: established with 198\.18\.0\.1 port [0-9]+, then DEVICE_REMOVAL after [0-9.]+ ms: its RDMA device rxe1 was removed \(by rdma, pid [0-9]+\)$'
	assert_line --regexp "cause=cm_no_response"
	assert_line 'summary: 2 connection(s): 0 established, 2 failed, 0 open'
}

@test "--input -c: the summary groups a passive end by the address it listens on, not the client's port" {
	# scenario 1: rping's client 198.18.0.1:<ephemeral> to the server's 198.18.0.2:7174, both
	# ends on this host: two entries for 7174, one per side, and no entry for the client's
	# ephemeral port
	cport=$(rdmatrace --input "$CAP" -c -j | jq -r 'select(.type == "connection" and .side == "passive") | .dst | sub(".*:"; "")')
	[ -n "$cport" ]
	run --separate-stderr rdmatrace --input "$CAP" -c -j
	run jq -r 'select(.type == "summary") | .destinations[] | "\(.dst) \(.side) \(.established)"' <<< "$output"
	assert_output "198.18.0.2:7174 active 1
198.18.0.2:7174 passive 1
198.18.0.2:7499 active 0
198.18.0.77:7174 active 0
198.18.0.2:7175 active 0"
	run --separate-stderr rdmatrace --input "$CAP" -c
	assert_line "  198.18.0.2:7174: 1 established, 0 failed, 0 open (ok 1)"
	assert_line "  198.18.0.2:7174 (passive): 1 established, 0 failed, 0 open (ok 1)"
	refute_line --partial "198.18.0.1:$cport:"
	# the device-removal capture: the server's end under its listening port 7183
	run --separate-stderr rdmatrace --input "$FIX/trace/rxe-6.1-devdel" -c
	assert_line "  198.18.0.2:7183 (passive): 0 established, 1 failed, 0 open (device_removed 1)"
}

@test "--input -c -j: the summary counts what the connection lines say" {
	run --separate-stderr rdmatrace --input "$CAP" -c -j
	local conns sum
	conns=$(jq -r 'select(.type == "connection") | .outcome' <<< "$output" | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ')
	sum=$(jq -r 'select(.type == "summary") | "established=\(.established) failed=\(.failed) "' <<< "$output")
	[ "$conns" = "$sum" ] || fail "connections: $conns, summary: $sum"
	run jq -r 'select(.type == "summary") | .destinations[] | select(.dst == "198.18.0.2:7499") | .causes.no_listener' <<< "$output"
	assert_output 1
	# the cause ids come with rdmadoctor's layer and meaning
	run jq -r 'select(.type == "connection" and .cause == "no_listener") | .layer' <<< "$(rdmatrace --input "$CAP" -c -j)"
	assert_output cm
}

@test "--input -j: one event per kernel record of rdma_cma and ib_cma, as the kernel printed it" {
	run --separate-stderr rdmatrace --input "$CAP" -j
	[ "$status" -eq 1 ]
	local want got
	# cm_event_done is shown only when the consumer refused the event (result != 0)
	want=$(grep -E '^ *[^#].* (cm_|icm_)[a-z_]*: ' "$CAP/trace.txt" | grep -vc 'consumer returns 0$')
	got=$(jq -r 'select(.type == "event") | .event' <<< "$output" | wc -l)
	[ "$got" -eq "$want" ] || fail "$got events, the kernel printed $want"
	# the REJECTED event: reason 8 named, with its meaning
	run jq -r 'select(.cm_event == "REJECTED") | "\(.cm_id) \(.status) \(.status_str)"' <<< "$output"
	assert_output "1 8 reject reason 8 INVALID_SERVICE_ID"
	# -a adds the ib_mad records
	run --separate-stderr rdmatrace --input "$CAP" -j -a
	got=$(jq -r 'select(.system == "ib_mad") | .event' <<< "$output" | wc -l)
	[ "$got" -eq "$(grep -c ' ib_mad_[a-z_]*: ' "$CAP/trace.txt")" ]
}

@test "text: the event line and the connection lines" {
	run --separate-stderr rdmatrace --input "$CAP" --failed
	assert_line --regexp '^12\.237229 47/kworker/0:2 cm\.id 1 198\.18\.0\.1:42899 -> 198\.18\.0\.2:7499 tos 0 REJECTED status reject reason 8 INVALID_SERVICE_ID: no listener'
	refute_line --partial 'ESTABLISHED'
	run --separate-stderr rdmatrace --input "$CAP" -c --failed
	assert_line --regexp "^[0-9.]+ $(scen_pid nolisten)/rping cm\.id 1 198\.18\.0\.1:42899 -> 198\.18\.0\.2:7499 rxe0 tos 0 active failed cause=no_listener "
	assert_line --partial '  verdict: REJECTED, reject reason 8 INVALID_SERVICE_ID: nothing listens on 198.18.0.2 port 7499'
	assert_line --regexp '^  steps: \+0\.0 ms attached to rxe0, .* REQ sent, .* REQ resent, \+[0-9.]+ ms destroyed$'
	assert_line 'summary: 3 connection(s): 0 established, 3 failed, 0 open'
}

@test "filters: --pid, --comm, --dst, -n" {
	run --separate-stderr rdmatrace --input "$CAP" -c -j --pid "$(scen_pid loss)"
	[ "$(jq -r 'select(.type == "connection") | .cause' <<< "$output")" = cm_no_response ]
	run --separate-stderr rdmatrace --input "$CAP" -c -j --comm no-such-comm
	[ "$status" -eq 0 ]
	[ "$(jq -r .type <<< "$output")" = summary ]
	run --separate-stderr rdmatrace --input "$CAP" -c -j --dst 198.18.0.2
	[ "$(jq -r 'select(.type == "connection") | .dst' <<< "$output" | sort | tr '\n' ' ')" = "198.18.0.2:7174 198.18.0.2:7175 198.18.0.2:7499 " ]
	run --separate-stderr rdmatrace --input "$CAP" -j -n 3
	[ "$(jq -r 'select(.type == "event") | .type' <<< "$output" | wc -l)" -eq 3 ]
}

@test "--list: the kernel's tracepoints" {
	run --separate-stderr rdmatrace --input "$CAP" -l -j
	assert_success
	[ "$(jq -r 'select(.present) | .event' <<< "$output" | wc -l)" -eq "$(ls -d "$CAP"/events/*/*/ | wc -l)" ]
	run rdmatrace --input "$CAP" --list
	assert_line rdma_cma:cm_event_handler
	assert_line ib_cma:icm_no_listener_err
}

@test "no tracing here: one line, exit 2, what to do" {
	local d
	d=$(mktemp -d)
	run --separate-stderr rdmatrace --tracefs "$d/none"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: no tracefs at '$d/none': No such file or directory" ]
	mkdir -p "$d/events/sched"
	run --separate-stderr rdmatrace --tracefs "$d"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: no rdma_cma tracepoints in '$d/events': load rdma_cm (modprobe rdma_cm); the kernel needs CONFIG_INFINIBAND_ADDR_TRANS=y and CONFIG_TRACEPOINTS=y" ]
	run --separate-stderr rdmatrace --input "$d"
	[ "$status" -eq 2 ]
	[[ $stderr == "rdmatrace: cannot read '$d': "* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	rm -rf "$d"
	if ! grep -qw tracefs /proc/mounts && ! grep -qw debugfs /proc/mounts; then
		run --separate-stderr rdmatrace
		[ "$status" -eq 2 ]
		[ "$stderr" = "rdmatrace: tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing" ]
	fi
}

@test "a stale instance of a dead run is removed; a live run's and another user's are not" {
	local d dead=4194000
	[ ! -e /proc/$dead ] || skip "pid $dead exists"
	d=$(mktemp -d)
	mkdir -p "$d/instances/rdmadiag-$dead" "$d/instances/rdmadiag-$$" "$d/instances/someone-else"
	cp -r "$CAP/events" "$d/"
	# a directory is no tracefs: the instance cannot be set up (exit 2), but the stale one
	# went first, and the half-made one of this run is removed again
	run --separate-stderr rdmatrace --tracefs "$d"
	[ "$status" -eq 2 ]
	[[ $stderr == "rdmatrace: cannot set up the ftrace instance rdmadiag-"* ]]
	[ "$(ls "$d/instances" | sort | tr '\n' ' ')" = "rdmadiag-$$ someone-else " ]
	rm -rf "$d"
}

@test "bad arguments: exit 2 and one line" {
	local a
	for a in "--dst 1.2.3" "--dst 1.2.3.4:0" "--dst [::1" "--pid 0" "--pid x" \
		"--comm 0123456789abcdef" "--duration 0" "-n 0" "--input /x --tracefs /y" \
		"--input $CAP --duration 1" "extra"; do
		run --separate-stderr rdmatrace $a
		[ "$status" -eq 2 ] || fail "$a: exit $status"
		[[ $stderr == "rdmatrace: "* ]] || fail "$a: $stderr"
	done
}
