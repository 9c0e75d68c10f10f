#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat on the sysfs fixture trees (tests/fixtures/sysfs/, made by make-trees.sh in the
# kernel's layouts): every command and format, names with spaces and commas, devices and
# ports that vanish, unreadable and non-numeric counters, empty GID slots, thresholds.
load helper

SYS=$FIX/sysfs
PY=/usr/bin/python3

setup() {
	TMP=$(mktemp -d)
	BG=
}
teardown() {
	# a background rdmastat a failed test left running
	[ -z "$BG" ] || kill "$BG" 2> /dev/null || :
	rm -rf "$TMP"
}
# The interval tests change a fixture while rdmastat samples it.  They wait on what
# rdmastat writes (a record, a header) instead of guessing a delay, and every wait gives up
# after 10 s with a message saying what did not come.
#   wait_lines FILE ERE [N]   until FILE has N (default 1) lines matching ERE
#   wait_exit PID             until the background rdmastat PID exits; its status in $st
wait_lines() {
	local file=$1 re=$2 n=${3:-1} i
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -cE -- "$re" "$file" 2> /dev/null)" -ge "$n" ] && return 0
		sleep 0.05
	done
	fail "timed out after 10 s waiting for $n line(s) matching '$re' in $file: $(cat "$file")"
}
wait_exit() {
	local pid=$1 i
	for ((i = 0; i < 200; i++)); do
		if ! kill -0 "$pid" 2> /dev/null; then
			st=0
			wait "$pid" || st=$?
			return 0
		fi
		sleep 0.05
	done
	fail "timed out after 10 s waiting for rdmastat (pid $pid) to exit"
}
# start rdmastat ARGS... in the background, stdout to $TMP/out and stderr to $TMP/err
start_bg() {
	rdmastat "$@" > "$TMP/out" 2> "$TMP/err" &
	BG=$!
}
# stop it as Ctrl-C would, and wait for it
stop_bg() {
	kill -INT "$BG"
	wait_exit "$BG"
	BG=
}
on() { export RDMADIAG_SYSFS_ROOT=$SYS/$1; }
# a writable copy of a fixture tree
copy() { cp -a "$SYS/$1" "$TMP/$1"; export RDMADIAG_SYSFS_ROOT=$TMP/$1; }
hw() { cat "$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/$1/ports/$2/hw_counters/$3"; }

@test "default view: every port with its state and only its non-zero counters" {
	on rxe
	run rdmastat
	assert_success
	assert_line "rxe0/1: state ACTIVE physical_state LINK_UP netdev veth0"
	assert_line "rxe1/1: state ACTIVE physical_state LINK_UP netdev veth1"
	assert_line --regexp "^    rcvd_rnr_err +2  rnr_nak_received$"
	assert_line --regexp "^    cm_tx_retries/req +1  cm_req_retry$"
	refute_output --partial "duplicate_request"
	refute_output --partial "cm_rx_duplicates"
}

@test "-a shows the zero counters too, and every fixture file appears" {
	on rxe
	run rdmastat -a rxe0
	assert_success
	assert_line --regexp "^    duplicate_request +0  duplicate_request$"
	n=$(ls "$RDMADIAG_SYSFS_ROOT"/sys/class/infiniband/rxe0/ports/1/hw_counters | grep -vc lifespan)
	m=$(echo "$output" | grep -cE '^    [a-z_/]+ +[0-9]+')
	[ "$m" -eq $((n + 44)) ] || fail "$m lines for $n hw counters + 44 CM counters"
}

@test "DEV and DEV/PORT select; an unknown device or port is exit 2" {
	on rxe
	run rdmastat rxe1
	assert_success
	assert_output --partial "rxe1/1"
	refute_output --partial "rxe0"
	run rdmastat rxe1/1
	assert_success
	refute_output --partial "rxe0"
	run --separate-stderr rdmastat rxe7
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no RDMA device or counter 'rxe7' (have: rxe0, rxe1)" ]
	run --separate-stderr rdmastat rxe7/1
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no RDMA device 'rxe7/1' (have: rxe0, rxe1)" ]
	# the devices there are, as rdmacheck names them, whatever the subcommand
	run --separate-stderr rdmastat mlx5_0
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no RDMA device or counter 'mlx5_0' (have: rxe0, rxe1)" ]
	run --separate-stderr rdmastat devices mlx5_0
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no RDMA device 'mlx5_0' (have: rxe0, rxe1)" ]
	run --separate-stderr rdmastat rxe0 sent_pktz
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no counter 'sent_pktz' on rxe0" ]
	run --separate-stderr rdmastat rxe0/3
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: device 'rxe0' has no port 3" ]
}

@test "--concept and globs select counters across drivers" {
	on rxe
	run rdmastat --concept rnr_nak_received
	assert_success
	assert_output --partial "rcvd_rnr_err"
	refute_output --partial "sent_pkts"
	on irdma
	run rdmastat -c rnr_nak_sent -c ack_timeout
	assert_success
	assert_line --regexp "^    RNR sent +5  rnr_nak_sent$"
	assert_line --regexp "^    RTO +3  ack_timeout$"
	refute_output --partial "ip4InPkts"
	run rdmastat 'ip4*Pkts' 'RNR sent'
	assert_success
	assert_output --partial "ip4InPkts"
	assert_output --partial "ip4OutPkts"
	assert_output --partial "RNR sent"
	refute_output --partial "Octets"
}

@test "one selection rule: positional, -c and thresholds take a name, a glob or a concept" {
	on rxe
	# a concept positionally (it was an error before) and a name with -c
	run --separate-stderr rdmastat rnr_nak_received
	assert_success
	assert_line --regexp "^    rcvd_rnr_err +2  rnr_nak_received$"
	refute_output --partial "send_rnr_err"
	run --separate-stderr rdmastat -c rcvd_rnr_err
	assert_success
	assert_line --regexp "^    rcvd_rnr_err +2  rnr_nak_received$"
	refute_output --partial "sent_pkts"
	# a glob tries names and concepts: rxe's RNR counters are named *_rnr_*, their concepts rnr_*
	run --separate-stderr rdmastat -j 'rnr*'
	assert_success
	[ "$(jq -c '[.[] | del(.ifname, .port) | keys[]] | sort | unique' <<< "$output")" = \
		'["rcvd_rnr_err","retry_rnr_exceeded_err","send_rnr_err"]' ] || fail "$output"
	[ -z "$stderr" ] || fail "unexpected warning: $stderr"
	# an alias (the older kernel's spelling) selects the counter
	run rdmastat -a -j rxe0 ack_deffered
	[ "$(jq -c '.[0] | del(.ifname, .port) | keys' <<< "$output")" = '["ack_deferred"]' ]
	# the same words in a threshold file select the same counters
	printf 'rnr*@rxe0 > 1\n' > "$TMP/t"
	run rdmastat -t "$TMP/t"
	[ "$status" -eq 1 ]
	[ "$(grep -c '^BREACH' <<< "$output")" = 1 ]
	assert_line "BREACH rxe0/1 rcvd_rnr_err = 2 > 1 (line 1: rnr*)"
	# an unknown plain name stays an error, positionally and with -c
	run --separate-stderr rdmastat -c sent_pktz
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no counter 'sent_pktz'" ]
	# an unknown concept with -c is a usage error in every format and with -i: a typo in a
	# monitoring script must not read as "all counters zero", exit 0
	for args in "" -j --csv --prom "-i 0.05 -n 1" "-i 0.05 -n 1 -j" "rxe0"; do
		run --separate-stderr rdmastat $args -c rnr_nak_recieved
		[ "$status" -eq 2 ] || fail "$args: exit $status"
		[ -z "$output" ] || fail "$args: $output"
		[ "$(wc -l <<< "$stderr")" = 1 ] || fail "$args: $stderr"
		[[ $stderr == "rdmastat: no counter 'rnr_nak_recieved'"* ]] || fail "$args: $stderr"
	done
	# the first positional word may have been a device, whatever -c says
	run --separate-stderr rdmastat rxe7 -c rnr_nak_sent
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no RDMA device or counter 'rxe7' (have: rxe0, rxe1)" ]
}

@test "a glob or concept that matches nothing on a port is one warning line, not silence" {
	on irdma
	# in interval mode too (where a quiet port prints only its header)
	run --separate-stderr rdmastat -i 0.05 -n 1 'tx_ro*'
	assert_success
	[ "$stderr" = "rdmastat: warning: glob 'tx_ro*' matches no counter on irdma0/1" ] || fail "$stderr"
	run --separate-stderr rdmastat -c cnp_ignored -c icrc_error
	assert_success
	[ "$stderr" = "rdmastat: warning: concept 'cnp_ignored' matches no counter on irdma0/1" ] ||
		fail "$stderr"
	on rxe
	run --separate-stderr rdmastat -c cnp_sent
	assert_success
	[ "$stderr" = "rdmastat: warning: concept 'cnp_sent' matches no counter on rxe0/1, rxe1/1" ] ||
		fail "$stderr"
	# matched on one port and not the other: the other is named
	copy rxe
	rm "$RDMADIAG_SYSFS_ROOT"/sys/class/infiniband/rxe1/ports/1/hw_counters/rcvd_rnr_err
	run --separate-stderr rdmastat rnr_nak_received
	assert_success
	[ "$stderr" = "rdmastat: warning: concept 'rnr_nak_received' matches no counter on rxe1/1" ] ||
		fail "$stderr"
}

@test "completions offer every catalogue concept, after -c and as counter arguments" {
	# the concepts of the catalogue data, and the ones each completion lists
	want=$(sed -n 's/^\t{ "[^"]*", "[a-z0-9_]*", "\([a-z0-9_]*\)",.*/\1/p' \
		"$ROOT/lib/counters/catalog_data.c" | sort -u)
	[ "$(echo "$want" | wc -l)" -gt 40 ] || fail "catalogue parse: $want"
	bash_list=$(bash -c "source '$ROOT/completions/bash/rdmastat'; printf '%s\n' \$_rdmastat_concepts" | sort)
	[ "$bash_list" = "$want" ] || fail "bash: $(diff <(echo "$want") <(echo "$bash_list"))"
	zsh_list=$(sed -n '/concepts=(/,/)/p' "$ROOT/completions/zsh/_rdmastat" | tr -d '()\t' |
		sed 's/concepts=//' | tr ' ' '\n' | grep . | sort)
	[ "$zsh_list" = "$want" ] || fail "zsh: $(diff <(echo "$want") <(echo "$zsh_list"))"
	# bash completes a concept after -c and as the second counter argument
	run bash -c "source /usr/share/bash-completion/bash_completion 2>/dev/null
		source '$ROOT/completions/bash/rdmastat'
		complete_line() { COMP_LINE=\$1; COMP_POINT=\${#1}; read -ra COMP_WORDS <<< \"\$1\"
			COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); _rdmastat; echo \"\${COMPREPLY[*]}\"; }
		complete_line 'rdmastat -c rnr_nak_r'
		complete_line 'rdmastat rxe0 cnp_s'"
	assert_line --index 0 "rnr_nak_received"
	assert_line --index 1 "cnp_sent"
}

@test "-j: iproute2 keys (ifname, port, then counters) with the files' values" {
	on mlx5
	run rdmastat -j
	assert_success
	run jq -r '.[0] | keys_unsorted[0:2] | join(",")' <<< "$output"
	assert_output "ifname,port"
	json=$(rdmastat -j)
	d=$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/mlx5_0/ports/1
	for f in "$d"/hw_counters/* "$d"/counters/*; do
		n=${f##*/}; [ "$n" = lifespan ] && continue
		v=$(jq --arg n "$n" '.[0][$n]' <<< "$json")
		[ "$v" = "$(cat "$f")" ] || fail "$n: json $v file $(cat "$f")"
	done
	[ "$(jq '.[0]["cm_tx_msgs/req"]' <<< "$json")" = 0 ]
}

@test "-j: names with spaces (irdma) and commas (hfi1) are plain JSON keys" {
	on irdma
	run rdmastat -j
	assert_success
	[ "$(jq '.[0]["Rcvd Out of order packets"]' <<< "$output")" = 4 ]
	[ "$(jq '.[0].iwOutRdmaSends' <<< "$output")" = 30 ]
	on hfi1
	run rdmastat -j
	[ "$(jq '.[0]["SwLinkUp,32"]' <<< "$output")" = 2 ]
	[ "$(jq '.[0].port_xmit_data' <<< "$output")" = 4294967295 ]
}

@test "device-level hw_counters (bnxt_re, efa) are objects without a port" {
	on bnxt_re
	run rdmastat
	assert_success
	assert_line "bnxt_re0 (device)"
	assert_line --regexp "^    oos_drop_count +6  out_of_sequence$"
	assert_line --regexp "^    res_unaligned_atomic +1  unaligned_atomic$"
	run rdmastat -j
	[ "$(jq -c '[.[] | has("port")]' <<< "$output")" = "[false,true]" ]
	[ "$(jq '.[0].active_qps' <<< "$output")" = 4 ]
	on efa
	run rdmastat -j
	[ "$(jq '.[0].keep_alive_rcvd' <<< "$output")" = 300 ]
	[ "$(jq '.[1].unresponsive_remote_events' <<< "$output")" = 1 ]
}

@test "--csv is RFC 4180: commas and quotes escaped, values from the files" {
	on hfi1
	run rdmastat --csv
	assert_success
	assert_line --index 0 "device,port,counter,value,concept,unit,source,error"
	assert_line 'hfi1_0,1,"SwLinkUp,32",2,,events,sysfs,'
	run $PY -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
d = {r["counter"]: r for r in rows}
assert d["SwLinkUp,32"]["value"] == "2", d
assert d["port_xmit_data"]["concept"] == "tx_bytes"
assert d["port_xmit_data"]["source"] == "pma"
assert all(r["error"] == "" for r in rows), rows
print(len(rows))' <<< "$(rdmastat --csv)"
	assert_success
	on irdma
	run rdmastat --csv
	assert_line 'irdma0,1,RNR sent,5,rnr_nak_sent,packets,sysfs,'
}

@test "--prom parses with prometheus_client on every fixture, labels and HELP included" {
	$PY -c 'import prometheus_client.parser' 2>/dev/null || skip "python3-prometheus-client missing"
	for t in rxe mlx5 bnxt_re irdma hfi1 efa broken; do
		on $t
		rdmastat --prom > "$TMP/$t.prom"
		run $PY -c '
import json, sys
from prometheus_client.parser import text_string_to_metric_families as parse
out = []
for f in parse(open(sys.argv[1]).read()):
    assert f.documentation, f.name
    for s in f.samples:
        # the port gauges (state, rate: rdmastat_prom.bats) label only device and port
        if f.name in ("rdma_port_state_id", "rdma_port_physical_state_id",
                      "rdma_port_rate_bytes_per_second"):
            assert set(s.labels) == {"device", "port"}, s
            continue
        assert set(s.labels) >= {"device", "port", "counter"}, s
        # unreadable counters are their own family, compared with the JSON errors below;
        # a counter in 4-octet words is exported in bytes (x4)
        if f.name != "rdma_stat_unreadable":
            words = s.labels["counter"] in ("port_xmit_data", "port_rcv_data")
            v = s.value / 4 if words else s.value
            out.append([s.labels["device"], s.labels["port"], s.labels["counter"], v])
print(json.dumps(out))' "$TMP/$t.prom"
		assert_success
		echo "$output" > "$TMP/$t.samples"
		# every sample equals the JSON value of that counter
		bad=$(jq -n --slurpfile p "$TMP/$t.samples" --argjson j "$(rdmastat -j)" '
			[$p[0][] as $s | ($j[] | select(.ifname == $s[0] and ((.port // 0) | tostring) == $s[1]))
			 | select(.[$s[2]] != $s[3])] | length')
		[ "$bad" = 0 ] || fail "$t: $bad samples differ from -j"
	done
	on irdma
	run rdmastat --prom
	assert_line '# TYPE rdma_port_rnr_sent_total counter'
	assert_line 'rdma_port_rnr_sent_total{device="irdma0",port="1",counter="RNR sent",concept="rnr_nak_sent"} 5'
	on bnxt_re
	run rdmastat --prom
	assert_line '# TYPE rdma_device_active_qps gauge'
}

@test "--thresholds: breaches listed, exit 1; none, exit 0; a bad line names its number" {
	on rxe
	printf '# rules\nrnr_nak_received > 1\nsent_pkts@rxe1/1 > 1000\n' > "$TMP/t"
	run rdmastat -t "$TMP/t"
	[ "$status" -eq 1 ]
	assert_line "BREACH rxe0/1 rcvd_rnr_err = 2 > 1 (line 2: rnr_nak_received)"
	[ "$(echo "$output" | grep -c BREACH)" = 1 ]
	printf 'sent_pkts > 1000\n' > "$TMP/ok"
	run rdmastat -t "$TMP/ok"
	assert_success
	refute_output --partial BREACH
	run rdmastat -j -t "$TMP/t"
	[ "$status" -eq 1 ]
	[ "$(echo "$output" | tail -1 | jq -r '.breaches[0] | "\(.ifname) \(.counter) \(.line) \(.observed)"')" = "rxe0 rcvd_rnr_err 2 2" ]
	printf 'a > 1\n\nb >> 2\n' > "$TMP/bad"
	run --separate-stderr rdmastat --thresholds "$TMP/bad"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"$TMP/bad: line 3: "* ]] || fail "$stderr"
	run --separate-stderr rdmastat -t "$TMP/missing"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"No such file or directory"* ]]
	# names with spaces, and a rate rule in snapshot mode is reported as ignored
	on irdma
	printf 'RNR sent@irdma0 > 4\nRTO > 1/s\n' > "$TMP/sp"
	run --separate-stderr rdmastat -t "$TMP/sp"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"line 2: a rate rule needs --interval; ignored"* ]] || fail "$stderr"
}

@test "-i: deltas and rates; text shows what moved, a header per interval" {
	copy rxe
	f=$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/rxe0/ports/1/hw_counters/sent_pkts
	# the counter moves after the first record, so within some later interval
	start_bg -i 0.3 -j rxe0/1
	wait_lines "$TMP/out" '"sent_pkts"'
	echo 178 > "$f"
	wait_lines "$TMP/out" '"sent_pkts":\{[^}]*"delta":100'
	stop_bg
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	run jq -r '.counters.sent_pkts | "\(.state) \(.delta)"' "$TMP/out"
	[ "$(grep -c 'valid 100' <<< "$output")" = 1 ] || fail "$output"
	[ "$(grep -vc 'valid 100' <<< "$output")" = "$(grep -c 'valid 0$' <<< "$output")" ] ||
		fail "every other interval is a valid 0: $output"
	[ "$(jq -r 'select(.counters.sent_pkts.delta == 100) | .counters.sent_pkts.rate > 0' \
		"$TMP/out")" = true ]
	rate=$(rdmastat -i 0.2 -n 1 -a -j rxe0/1 | jq '.counters.sent_pkts.rate')
	[ "$rate" = 0 ] || fail "unchanged counter after the lifespan: rate $rate"
	# text: a header per interval, and only the counter that moved
	start_bg -i 0.3 rxe0/1
	wait_lines "$TMP/out" '^--- '
	echo 278 > "$f"
	wait_lines "$TMP/out" '^    sent_pkts +278 +100 +[0-9.]+$'
	stop_bg
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	run cat "$TMP/out"
	[ "$(grep -c '^--- ' <<< "$output")" -ge 2 ] || fail "$output"
	[ "$(grep -c '^    [a-z]' <<< "$output")" = 1 ] || fail "only sent_pkts moved: $output"
}

@test "-i: machine formats are time series, every counter of every port in every interval" {
	# without the hw_counters lifespan (12 ms on the fixture), so that every quiet interval is
	# a valid 0 however long it lasts: rdmastat samples at once after a late one (a stall of
	# over an interval: the next deadline has passed), and a read that soon after the last
	# is, rightly, stale ("-i: a counter read inside hw_counters/lifespan is stale" below)
	copy rxe
	d=$RDMADIAG_SYSFS_ROOT/sys/class/infiniband
	for f in "$d"/*/ports/*/hw_counters/lifespan; do echo 0 > "$f"; done
	# the counters of rxe0/1 and rxe1/1: their hw_counters files and the 44 CM counters
	n0=$(( $(ls "$d/rxe0/ports/1/hw_counters" | grep -vc lifespan) + 44 ))
	n1=$(( $(ls "$d/rxe1/ports/1/hw_counters" | grep -vc lifespan) + 44 ))
	# nothing moves on the fixture: three quiet intervals are still three records per port
	run --separate-stderr rdmastat -i 0.05 -n 3 -j
	assert_success
	[ "$(jq -r '.ifname' <<< "$output" | sort | uniq -c | awk '{print $2 $1}' | tr '\n' ' ')" = \
		"rxe03 rxe13 " ] || fail "$output"
	[ "$(jq -r 'select(.ifname == "rxe0") | .counters | length' <<< "$output" | sort -u)" = "$n0" ]
	[ "$(jq -r 'select(.ifname == "rxe1") | .counters | length' <<< "$output" | sort -u)" = "$n1" ]
	[ "$(jq -r '.counters[] | "\(.state) \(.delta)"' <<< "$output" | sort -u)" = "valid 0" ]
	# CSV: the header and one row per counter and interval
	run --separate-stderr rdmastat -i 0.05 -n 3 --csv
	assert_success
	assert_line --index 0 "time,interval_s,device,port,counter,value,delta,rate_per_s,state,concept,error"
	[ "$(( ${#lines[@]} - 1 ))" = $(( 3 * (n0 + n1) )) ] || fail "${#lines[@]} lines"
	[ "$(grep -c ',rxe0,1,sent_pkts,78,0,0.000,valid,tx_packets,$' <<< "$output")" = 3 ]
	# Prometheus: one exposition per interval, a blank line apart, each sample timed
	run --separate-stderr rdmastat -i 0.05 -n 3 --prom rxe0/1
	assert_success
	[ "$(grep -c '^$' <<< "$output")" = 2 ]
	[ "$(grep -c '^rdma_port_sent_pkts_total{device="rxe0",port="1",counter="sent_pkts",concept="tx_packets"} 78 [0-9]\{13\}$' <<< "$output")" = 3 ]
	$PY -c 'import prometheus_client.parser' 2>/dev/null || skip "python3-prometheus-client missing"
	echo "$output" > "$TMP/series.prom"
	run $PY -c '
import sys
from prometheus_client.parser import text_string_to_metric_families as parse
blocks = open(sys.argv[1]).read().split("\n\n")
counts, times = [], []
for b in blocks:
    # the samples of counters (the port gauges have no counter label: 3 per port)
    samples = [s for f in parse(b) for s in f.samples if "counter" in s.labels]
    assert len([s for f in parse(b) for s in f.samples]) == len(samples) + 3, b
    counts.append(len(samples))
    times.append({s.timestamp for s in samples})
assert all(len(t) == 1 for t in times), times
assert sorted(times, key=min) == times, times
print(len(blocks), *counts)' "$TMP/series.prom"
	assert_success
	assert_output "3 $n0 $n0 $n0"
}

@test "-i: a counter read inside hw_counters/lifespan is stale, not a zero rate" {
	copy rxe
	echo 10000 > "$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/rxe0/ports/1/hw_counters/lifespan"
	run rdmastat -i 0.05 -n 2 -a -j rxe0/1 sent_pkts
	assert_success
	[ "$(jq -r '.counters.sent_pkts.state' <<< "$output" | sort -u)" = stale ]
	run rdmastat -i 0.05 -n 1 -a rxe0/1 sent_pkts
	assert_line --regexp "^    sent_pkts +78 +stale +-$"
}

@test "-i: a device vanishing between two samples is reported, the rest goes on" {
	copy rxe
	# delete rxe1 once an interval of both ports is out; stop once its loss is reported
	start_bg -i 0.3 -a -j
	wait_lines "$TMP/out" '"ifname":"rxe1".*"counters"'
	rm -rf "$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/rxe1"
	wait_lines "$TMP/out" '"vanished":true'
	# and one more interval of rxe0 after that
	wait_lines "$TMP/out" '"ifname":"rxe0".*"counters"' \
		"$(( $(grep -c '"ifname":"rxe0".*"counters"' "$TMP/out") + 1 ))"
	stop_bg
	[ "$st" -eq 0 ] || fail "exit $st: $(cat "$TMP/err")"
	output=$(cat "$TMP/out")
	[ "$(echo "$output" | jq -c 'select(.vanished) | [.ifname, .port]')" = '["rxe1",1]' ]
	# rxe1's records all come before the vanished one, rxe0's go on after it
	echo "$output" | jq -rs 'map(if .vanished then "gone" else .ifname end) |
		(index("gone")) as $g | (.[$g + 1:] | length > 0 and all(. == "rxe0")) and
		(.[:$g] | any(. == "rxe1"))' |
		grep -qx true || fail "$output"
	# watching the device that vanishes: say so and stop with 1
	copy2=$TMP/again; cp -a "$SYS/rxe" "$copy2"; export RDMADIAG_SYSFS_ROOT=$copy2
	start_bg -i 0.3 -a rxe1
	wait_lines "$TMP/out" '^--- '
	rm -rf "$copy2/sys/class/infiniband/rxe1"
	wait_exit "$BG"
	BG=
	[ "$st" -eq 1 ] || fail "exit $st"
	grep -q "device 'rxe1' vanished" "$TMP/err" || fail "$(cat "$TMP/err")"
	grep -q "rxe1/1: gone" "$TMP/out" || fail "$(cat "$TMP/out")"
}

@test "an unreadable counter file and a non-numeric value are named, never zeros" {
	on broken
	run rdmastat
	assert_success
	assert_line --regexp "^    out_of_buffer +\? +\(not a number: 'N/A'\)$"
	assert_line --regexp "^    out_of_sequence +\? +\(Is a directory\)$"
	assert_line --regexp "^    rnr_nak_retry_err +5  rnr_nak_received$"
	run rdmastat -j
	[ "$(jq -c '.[0].errors' <<< "$output")" = '{"out_of_buffer":"not a number: '"'N/A'"'","out_of_sequence":"Is a directory"}' ] ||
		fail "$output"
	[ "$(jq '.[0] | has("out_of_buffer")' <<< "$output")" = false ]
	# CSV: a row without a value, the reason under error
	run rdmastat --csv
	assert_line "mlx5_1,1,out_of_buffer,,rnr_nak_sent,packets,sysfs,not a number: 'N/A'"
	assert_line "mlx5_1,1,out_of_sequence,,out_of_sequence,packets,sysfs,Is a directory"
	assert_line "mlx5_1,1,rnr_nak_retry_err,5,rnr_nak_received,packets,sysfs,"
	# Prometheus: no sample of the counter's family, one of rdma_stat_unreadable
	run rdmastat --prom
	refute_output --partial "rdma_port_out_of_buffer"
	assert_line "rdma_stat_unreadable{device=\"mlx5_1\",port=\"1\",counter=\"out_of_buffer\",error=\"not a number: 'N/A'\"} 1"
	assert_line "rdma_stat_unreadable{device=\"mlx5_1\",port=\"1\",counter=\"out_of_sequence\",error=\"Is a directory\"} 1"
	# every interval lists them the same way, never with a value or a rate
	run --separate-stderr rdmastat -i 0.05 -n 2 -a -j
	assert_success
	[ "$(jq -c '.errors' <<< "$output" | sort -u)" = '{"out_of_buffer":"not a number: '"'N/A'"'","out_of_sequence":"Is a directory"}' ] ||
		fail "$output"
	[ "$(jq -c '[.counters | has("out_of_buffer", "out_of_sequence")]' <<< "$output" | sort -u)" = "[false,false]" ]
	run --separate-stderr rdmastat -i 0.05 -n 2 --csv
	assert_success
	[ "$(grep -c ",mlx5_1,1,out_of_buffer,,,,,rnr_nak_sent,not a number: 'N/A'$" <<< "$output")" = 2 ] ||
		fail "$output"
	run --separate-stderr rdmastat -i 0.05 -n 2 --prom
	assert_success
	[ "$(grep -c "^rdma_stat_unreadable{device=\"mlx5_1\",port=\"1\",counter=\"out_of_buffer\",error=\"not a number: 'N/A'\"} 1 [0-9]\{13\}$" <<< "$output")" = 2 ] ||
		fail "$output"
	run --separate-stderr rdmastat -i 0.05 -n 2
	assert_success
	[ "$(grep -c "^    out_of_buffer  *?  (not a number: 'N/A')$" <<< "$output")" = 2 ] || fail "$output"
}

@test "an unreadable counter shows what its file held, in every format" {
	copy rxe
	h=$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/rxe0/ports/1/hw_counters
	printf '0x10\n' > "$h/sent_pkts"
	printf '18446744073709551616\n' > "$h/rcvd_pkts"
	printf ' \n' > "$h/rdma_sends"
	printf 'a,"b"\\\033[2J\n' > "$h/rdma_recvs"
	run --separate-stderr rdmastat rxe0
	assert_success
	assert_line --regexp "^    sent_pkts +\? +\(not a number: '0x10'\)$"
	assert_line --regexp "^    rcvd_pkts +\? +\(out of range: '18446744073709551616'\)$"
	assert_line --regexp "^    rdma_sends +\? +\(not a number: ''\)$"
	# a control byte of the file does not reach the terminal: escaped as every name is
	assert_line --regexp "^    rdma_recvs +\? +\(not a number: "
	assert_output --partial "rdma_recvs$(printf '%36s' '?')  (not a number: 'a,\"b\"\\\\\\033[2J')"
	# JSON, CSV and Prometheus carry the exact text, each escaped its own way
	rdmastat -j rxe0 > "$TMP/u.json"
	rdmastat --csv rxe0 > "$TMP/u.csv"
	rdmastat --prom rxe0 > "$TMP/u.prom"
	cat > "$TMP/check.py" << 'EOF'
import csv, json, sys
want = {
    "sent_pkts": "not a number: '0x10'",
    "rcvd_pkts": "out of range: '18446744073709551616'",
    "rdma_sends": "not a number: ''",
    "rdma_recvs": "not a number: 'a,\"b\"\\\x1b[2J'",
}
got = json.load(open(sys.argv[1]))[0]["errors"]
assert got == want, ("json", got)
rows = {r["counter"]: r for r in csv.DictReader(open(sys.argv[2], newline=""))}
for k, v in want.items():
    assert rows[k]["value"] == "" and rows[k]["error"] == v, ("csv", rows[k])
try:
    from prometheus_client.parser import text_string_to_metric_families as parse
except ImportError:
    sys.exit(0)
prom = {s.labels["counter"]: s.labels["error"]
        for f in parse(open(sys.argv[3]).read()) if f.name == "rdma_stat_unreadable"
        for s in f.samples}
assert prom == want, ("prom", prom)
EOF
	run $PY "$TMP/check.py" "$TMP/u.json" "$TMP/u.csv" "$TMP/u.prom"
	assert_success
}

@test "devices: GID table with type, netdev, IP; empty slots skipped; routable RoCEv2 marked" {
	on mlx5
	run rdmastat devices
	assert_success
	assert_line "mlx5_0: node_type ca protocol roce driver mlx5 node_guid 0c42:a103:0010:0a40 fw 20.31.1014"
	assert_line "    mlx5_0 port 1 ==> enp65s0f0 (ifindex 5, mtu 9000) (Up)"
	assert_line --regexp "^    3 +0000:0000:0000:0000:0000:ffff:0a00:0001 RoCE v2 +enp65s0f0 +10\.0\.0\.1 +routable RoCEv2 \(IPv4\)$"
	assert_line --regexp "^    2 +0000:0000:0000:0000:0000:ffff:0a00:0001 IB/RoCE v1 +enp65s0f0 +10\.0\.0\.1 *$"
	run rdmastat devices -j
	[ "$(jq -c '[.[0].ports[0].gids[].index]' <<< "$output")" = "[0,1,2,3,5]" ]
	[ "$(jq -c '[.[0].ports[0].gids[] | select(.routable) | .index]' <<< "$output")" = "[3,5]" ]
	[ "$(jq -r '.[0].ports[0].gids[1] | "\(.type) \(.ip)"' <<< "$output")" = "RoCE v2 fe80::e42:a1ff:fe10:a40" ]
	on broken
	run rdmastat devices -j
	[ "$(jq -c '[.[0].ports[0].gids[].index]' <<< "$output")" = "[1]" ]
	[ "$(jq -r '.[0].ports[0].state' <<< "$output")" = DOWN ]
	on hfi1
	run rdmastat devices -j
	[ "$(jq -r '.[0].ports[0] | "\(.link_layer) \(.lid) \(.sm_lid) \(.gids[0].ip) \(.gids[0].routable)"' <<< "$output")" = "InfiniBand 18 1 - false" ]
	on rxe
	run rdmastat devices rxe1
	assert_success
	refute_output --partial "rxe0"
	assert_line --regexp "^    1 +0000:0000:0000:0000:0000:ffff:c612:0002 RoCE v2 +veth1 +198\.18\.0\.2 +routable RoCEv2 \(IPv4\)$"
}

@test "explain: meaning, unit, what to check; aliases and concepts; unknown is exit 2" {
	run rdmastat explain rcvd_rnr_err
	assert_success
	assert_line "rcvd_rnr_err (rxe)"
	assert_line "  concept:    rnr_nak_received"
	assert_line "  check:      The remote receiver has no receive WQE posted"
	run rdmastat explain ack_deffered
	assert_success
	assert_line "ack_deferred (rxe)"
	run rdmastat explain port_xmit_data
	assert_line "  unit:       4-octet words (x4 for bytes)"
	assert_line "  width:      64 bits, saturating"
	run rdmastat -j explain cnp_sent
	assert_success
	[ "$(jq -r '[.counters[].driver] | join(",")' <<< "$output")" = "mlx5,mlx5,irdma" ]
	[[ "$(jq -r .differences <<< "$output")" == *"np_cnp_sent and the flow counter cc_tx_cnp_pkts"* ]]
	run rdmastat explain 'RNR sent'
	assert_line "RNR sent (irdma)"
	run --separate-stderr rdmastat explain vendor_magic
	[ "$status" -eq 2 ]
	[ -z "$output" ]
	[[ "$stderr" == "rdmastat: no catalogue entry for 'vendor_magic'"* ]]
	run rdmastat explain
	[ "$status" -eq 2 ]
}

@test "explain CONCEPT: which drivers' counters it puts together and how they differ" {
	run rdmastat explain ack_timeout
	assert_success
	assert_line --regexp "^concept ack_timeout: .*after a timeout, not after a NAK$"
	assert_line --regexp "^  counted by:  mlx5 +local_ack_timeout_err$"
	assert_line --regexp "^ +irdma +RTO$"
	assert_line --regexp "^  differences: .*completer_retry_err \(timeouts and NAKs\) is transport_retry$"
	# rxe's retries after a timeout or a NAK are not mlx5's timeouts
	refute_line --regexp "^ +rxe +completer_retry_err$"
	run rdmastat -j explain transport_retry
	[ "$(jq -r '[.counters[] | "\(.driver) \(.name)"] | join(",")' <<< "$output")" = "rxe completer_retry_err" ]
	# every counter of the concept is listed with its entry, in JSON under "counters"
	run rdmastat -j explain out_of_sequence
	[ "$(jq -r '[.counters[].driver] | join(",")' <<< "$output")" = "mlx5,bnxt_re,irdma,mana" ]
	[[ "$(jq -r .differences <<< "$output")" == *"nak_seq_sent"* ]]
	# a concept whose counters count alike says so
	run rdmastat explain rnr_retry_exceeded
	assert_line "  differences: none: every counter counts the same event"
}

@test "no RDMA device at all: one line saying what to check, exit 2" {
	mkdir -p "$TMP/empty/sys/class"
	export RDMADIAG_SYSFS_ROOT=$TMP/empty
	for args in "" "-j" "devices" "-i 0.1 -n 1"; do
		run --separate-stderr rdmastat $args
		[ "$status" -eq 2 ] || fail "'$args' exited $status"
		[ "$(echo "$stderr" | wc -l)" = 1 ] || fail "$stderr"
		[[ "$stderr" == "rdmastat: no RDMA devices under $TMP/empty/sys/class/infiniband: is ib_core"* ]]
		assert_output ""
	done
}

@test "usage errors are exit 2: bad source, --count without -i, qp on sysfs, devices as CSV" {
	on rxe
	run --separate-stderr rdmastat --source magic
	[ "$status" -eq 2 ]; [[ "$stderr" == *"invalid source 'magic'"* ]]
	run --separate-stderr rdmastat -n 3
	[ "$status" -eq 2 ]; [[ "$stderr" == *"--count needs --interval"* ]]
	run --separate-stderr rdmastat -i 0
	[ "$status" -eq 2 ]
	run --separate-stderr rdmastat --source sysfs qp
	[ "$status" -eq 2 ]; [[ "$stderr" == *"'qp' needs netlink"* ]]
	run --separate-stderr rdmastat qp
	[ "$status" -eq 2 ]; [[ "$stderr" == *"netlink is not in use"* ]]
	run --separate-stderr rdmastat devices --csv
	[ "$status" -eq 2 ]
}

@test "colour only on a terminal, and never with NO_COLOR" {
	on rxe
	run script -qec "$ROOT/tools/rdmastat/rdmastat rxe0" /dev/null
	assert_success
	[[ "$output" == *$'\033['* ]] || fail "no colour on a tty"
	run env NO_COLOR=1 script -qec "$ROOT/tools/rdmastat/rdmastat rxe0" /dev/null
	[[ "$output" != *$'\033['* ]] || fail "colour despite NO_COLOR"
	run rdmastat rxe0
	[[ "$output" != *$'\033['* ]] || fail "colour into a pipe"
}

@test "--thresholds: a rule that selects no counter is a warning, once, and cannot hide a breach" {
	on rxe
	printf 'rnr_nak_recieved > 0\nsend_err@mlx9 > 0\nrnr_nak_received > 1\n' > "$TMP/typo"
	run --separate-stderr rdmastat -t "$TMP/typo"
	[ "$status" -eq 1 ]		# the good rule still breaches
	assert_line "BREACH rxe0/1 rcvd_rnr_err = 2 > 1 (line 3: rnr_nak_received)"
	[ "$(grep -c . <<< "$stderr")" -eq 2 ] || fail "$stderr"
	[[ "$stderr" == *"$TMP/typo: line 1: 'rnr_nak_recieved' matches no counter; the rule cannot breach"* ]] ||
		fail "$stderr"
	[[ "$stderr" == *"line 2: 'send_err' matches no counter on mlx9"* ]] || fail "$stderr"
	# with -i: said once, not every interval
	run --separate-stderr rdmastat -t "$TMP/typo" -i 0.05 -n 3
	[ "$(grep -c 'matches no counter' <<< "$stderr")" -eq 2 ] || fail "$stderr"
	# every rule selects something: no warning
	printf 'rnr_nak_received > 100\n' > "$TMP/fine"
	run --separate-stderr rdmastat -t "$TMP/fine"
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
}

@test "-i with --thresholds: a rate rule fires on the interval that crosses it, exit 1" {
	copy rxe
	f=$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_rnr_err
	printf 'rnr_nak_received@rxe0 > 50/s\nsent_pkts > +1000\n' > "$TMP/t"
	start_bg -i 0.3 -t "$TMP/t"
	wait_lines "$TMP/out" '^--- '
	echo 500 > "$f"
	wait_lines "$TMP/out" '^BREACH'
	# one more interval after the breach: the counter no longer moves, nothing fires
	wait_lines "$TMP/out" '^--- ' "$(( $(grep -c '^--- ' "$TMP/out") + 1 ))"
	stop_bg
	[ "$st" -eq 1 ] || fail "exit $st: $(cat "$TMP/out")"
	[ "$(grep -c '^BREACH' "$TMP/out")" = 1 ] || fail "$(cat "$TMP/out")"
	grep -qE '^BREACH rxe0/1 rcvd_rnr_err rate [0-9.]+/s > 50/s \(line 1: rnr_nak_received\)$' "$TMP/out" ||
		fail "$(cat "$TMP/out")"
}

@test "-i until Ctrl-C: SIGINT stops it cleanly with exit 0 and complete output" {
	on rxe
	start_bg -i 0.2 -a -j rxe0/1
	wait_lines "$TMP/out" '^\{'
	stop_bg
	[ "$st" -eq 0 ] || fail "exit $st"
	[ ! -s "$TMP/err" ] || fail "$(cat "$TMP/err")"
	jq -e . "$TMP/out" > /dev/null || fail "truncated JSON: $(tail -c 200 "$TMP/out")"
}

@test "a user who does not own the counter files reads them too (O_NOATIME refused, opened without)" {
	[ "$(id -u)" = 0 ] && command -v setpriv > /dev/null || skip "needs root and setpriv to become another user"
	d=$(mktemp -d /tmp/rdiag-owner.XXXXXX)
	chmod 755 "$d"
	cp -a "$SYS/mlx5" "$d/mlx5"
	chmod -R a+rX "$d/mlx5"
	# 'nobody' may read but does not own them: the kernel refuses O_NOATIME with EPERM
	as_root=$(RDMADIAG_SYSFS_ROOT=$d/mlx5 "$ROOT/tools/rdmastat/rdmastat" -j -a)
	as_nobody=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env RDMADIAG_SYSFS_ROOT="$d/mlx5" "$ROOT/tools/rdmastat/rdmastat" -j -a)
	rm -rf "$d"
	[ -n "$as_root" ] && [ "$as_root" = "$as_nobody" ] || fail "root: $as_root / nobody: $as_nobody"
	[ "$(jq '.[0].port_xmit_data' <<< "$as_nobody")" != null ]
}
