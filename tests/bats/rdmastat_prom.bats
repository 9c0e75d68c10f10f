#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat --prom, issue 15's points: the PMA data counters (4-octet words) exported in bytes
# under _bytes_total names, no metric name that repeats a prefix (rdma_cm_cm_...), and the
# port gauges (state, physical state, link rate) an alert on "port not ACTIVE" needs.  The
# values are checked against the fixture's own sysfs files, the parse against
# python3-prometheus-client.
load helper

SYS=$FIX/sysfs
PY=/usr/bin/python3

setup() { TMP=$(mktemp -d); }
teardown() { rm -rf "$TMP"; }
on() { export RDMADIAG_SYSFS_ROOT=$SYS/$1; }
# a writable copy of a fixture tree
copy() { cp -a "$SYS/$1" "$TMP/$1"; export RDMADIAG_SYSFS_ROOT=$TMP/$1; }
port() { echo "$RDMADIAG_SYSFS_ROOT/sys/class/infiniband/$1/ports/$2"; }
# the families of an exposition, one per line
families() { sed -n 's/^# TYPE \([^ ]*\) .*/\1/p'; }
# "name type" of every family and every sample as "name{labels} value", parsed by
# prometheus_client (the test is skipped without it)
parse() {
	$PY -c 'import prometheus_client.parser' 2>/dev/null || skip "python3-prometheus-client missing"
	$PY -c '
import sys
from prometheus_client.parser import text_string_to_metric_families as parse
for f in parse(open(sys.argv[1]).read()):
    print("TYPE", f.name, f.type)
    for s in f.samples:
        print(s.name, ",".join("%s=%s" % kv for kv in sorted(s.labels.items())), repr(s.value))
' "$1"
}

@test "--prom: the PMA data counters are bytes (the sysfs words x4), named _bytes_total" {
	for t in mlx5 hfi1; do
		on $t
		rdmastat --prom > "$TMP/p"
		dev=$(ls "$RDMADIAG_SYSFS_ROOT/sys/class/infiniband")
		for c in port_xmit_data port_rcv_data; do
			words=$(cat "$(port "$dev" 1)/counters/$c")
			[ "$words" -gt 0 ] || fail "$t: the fixture's $c is 0: nothing to compare"
			want="rdma_pma_${c}_bytes_total{device=\"$dev\",port=\"1\",counter=\"$c\",concept=\"$([ $c = port_xmit_data ] && echo tx || echo rx)_bytes\"} $((words * 4))"
			grep -qxF "$want" "$TMP/p" || fail "$t: no line '$want' in: $(grep "$c" "$TMP/p")"
			grep -q "^# HELP rdma_pma_${c}_bytes_total .*(exported in bytes: the counter's 4-octet words x4)$" "$TMP/p" ||
				fail "$t: HELP of $c: $(grep "HELP.*$c" "$TMP/p")"
		done
		# the words form is gone (one family per counter)
		! grep -q '^rdma_pma_port_\(xmit\|rcv\)_data_total' "$TMP/p"
		run parse "$TMP/p"
		assert_success
		assert_line "TYPE rdma_pma_port_xmit_data_bytes counter"
		words=$(cat "$(port "$dev" 1)/counters/port_xmit_data")
		assert_line "rdma_pma_port_xmit_data_bytes_total concept=tx_bytes,counter=port_xmit_data,device=$dev,port=1 $((words * 4)).0"
	done
	# -i carries the same bytes in every exposition
	on mlx5
	words=$(cat "$(port mlx5_0 1)/counters/port_rcv_data")
	run --separate-stderr rdmastat -i 0.05 -n 2 --prom mlx5_0/1 port_rcv_data
	assert_success
	[ "$(grep -c "^rdma_pma_port_rcv_data_bytes_total{.*} $((words * 4)) [0-9]\{13\}$" <<< "$output")" = 2 ] || fail "$output"
}

@test "--prom: a 64-bit word count whose x4 passes 2^64 is a float, not a wrapped integer" {
	copy mlx5
	echo 18446744073709551615 > "$(port mlx5_0 1)/counters/port_xmit_data"
	run rdmastat --prom mlx5_0/1 port_xmit_data
	assert_success
	assert_line 'rdma_pma_port_xmit_data_bytes_total{device="mlx5_0",port="1",counter="port_xmit_data",concept="tx_bytes"} 7.3786976294838206e+19'
	echo 4611686018427387903 > "$(port mlx5_0 1)/counters/port_xmit_data"	# (2^64-4)/4
	run rdmastat --prom mlx5_0/1 port_xmit_data
	assert_line 'rdma_pma_port_xmit_data_bytes_total{device="mlx5_0",port="1",counter="port_xmit_data",concept="tx_bytes"} 18446744073709551612'
}

@test "--prom: no metric name repeats a prefix (rdma_cm_cm_..., rdma_port_rdma_...) on any fixture" {
	for t in rxe mlx5 bnxt_re irdma hfi1 efa broken; do
		on $t
		rdmastat --prom > "$TMP/$t"
		[ -s "$TMP/$t" ] || fail "$t: no output"
		# rdma_GROUP_GROUP_... or rdma_GROUP_rdma_...
		bad=$(families < "$TMP/$t" | grep -E '^rdma_([a-z]+)_(\1|rdma)_' || :)
		[ -z "$bad" ] || fail "$t: $bad"
	done
	# the cm group: counter cm_rx_msgs/req is rdma_cm_rx_msgs_req_total
	grep -qxF 'rdma_cm_rx_msgs_req_total{device="rxe0",port="1",counter="cm_rx_msgs/req",concept="cm_req_received"} 0' "$TMP/rxe" ||
		fail "$(grep 'rx_msgs/req' "$TMP/rxe")"
	# rxe's rdma_sends is rdma_port_sends_total; the counter label keeps the kernel's name
	grep -q '^rdma_port_sends_total{device="rxe0",port="1",counter="rdma_sends"' "$TMP/rxe" ||
		fail "$(grep rdma_sends "$TMP/rxe")"
	# efa's rdma_read_bytes is rdma_port_read_bytes_total
	grep -q '^rdma_port_read_bytes_total{device="efa_0",port="1",counter="rdma_read_bytes"' "$TMP/efa" ||
		fail "$(grep rdma_read_bytes "$TMP/efa")"
	# the families are still one per counter name: as many as before the renaming
	for t in rxe efa mlx5; do
		names=$(grep -v '^#' "$TMP/$t" | grep -v '^rdma_port_\(state_id\|physical_state_id\|rate_bytes_per_second\){' |
			sed 's/.*,counter="\([^"]*\)".*/\1/' | sort -u | wc -l)
		fams=$(families < "$TMP/$t" | grep -vc '^rdma_port_\(state_id\|physical_state_id\|rate_bytes_per_second\)$')
		[ "$names" = "$fams" ] || fail "$t: $names counter names, $fams families"
	done
}

@test "--prom: port state, physical state and link rate gauges, from the port's sysfs files" {
	for t in rxe mlx5 broken; do
		on $t
		rdmastat --prom > "$TMP/p"
		for d in "$RDMADIAG_SYSFS_ROOT"/sys/class/infiniband/*; do
			dev=${d##*/}
			st=$(cut -d: -f1 < "$(port "$dev" 1)/state")
			ph=$(cut -d: -f1 < "$(port "$dev" 1)/phys_state")
			rate=$(awk '$2 == "Gb/sec" { printf "%.0f", $1 * 1e9 / 8 }' "$(port "$dev" 1)/rate")
			[ -n "$rate" ] || fail "$t: rate file: $(cat "$(port "$dev" 1)/rate")"
			for want in "rdma_port_state_id{device=\"$dev\",port=\"1\"} $st" \
				    "rdma_port_physical_state_id{device=\"$dev\",port=\"1\"} $ph" \
				    "rdma_port_rate_bytes_per_second{device=\"$dev\",port=\"1\"} $rate"; do
				grep -qxF "$want" "$TMP/p" || fail "$t: no '$want' in: $(grep "^rdma_port_[a-z_]*{device=\"$dev\",port=\"1\"}" "$TMP/p")"
			done
		done
		run parse "$TMP/p"
		assert_success
		assert_line "TYPE rdma_port_state_id gauge"
		assert_line "TYPE rdma_port_physical_state_id gauge"
		assert_line "TYPE rdma_port_rate_bytes_per_second gauge"
	done
	# "port not ACTIVE": the broken fixture's DOWN port is the one sample != 4
	on broken
	run parse <(rdmastat --prom)
	assert_success
	[ "$(grep '^rdma_port_state_id ' <<< "$output" | grep -vc ' 4.0$')" = 1 ]
	assert_line "rdma_port_state_id device=mlx5_1,port=1 1.0"
}

@test "--prom: the port gauges follow the state, the device/port selection, and an absent file" {
	copy rxe
	echo "2: INIT" > "$(port rxe1 1)/state"
	echo "25 Gb/sec (1X EDR)" > "$(port rxe1 1)/rate"
	run rdmastat --prom
	assert_success
	assert_line 'rdma_port_state_id{device="rxe1",port="1"} 2'
	assert_line 'rdma_port_rate_bytes_per_second{device="rxe1",port="1"} 3125000000'
	# a device or port selection keeps its own ports' gauges only
	run rdmastat --prom rxe1/1
	assert_success
	[ "$(grep -c '^rdma_port_state_id{' <<< "$output")" = 1 ]
	assert_line 'rdma_port_state_id{device="rxe1",port="1"} 2'
	# a selection of counters is those counters only
	run rdmastat --prom sent_pkts
	assert_success
	! grep -q '^rdma_port_\(state_id\|physical_state_id\|rate_bytes_per_second\)' <<< "$output"
	grep -q '^rdma_port_sent_pkts_total{' <<< "$output"
	# no rate file, or one that says no rate: no rate sample (never a made-up 0)
	rm "$(port rxe1 1)/rate"
	echo "unknown" > "$(port rxe0 1)/rate"
	run rdmastat --prom
	assert_success
	! grep -q '^rdma_port_rate_bytes_per_second{' <<< "$output"
	! grep -q '^# TYPE rdma_port_rate_bytes_per_second' <<< "$output"
	assert_line 'rdma_port_state_id{device="rxe0",port="1"} 4'
	# -i: the gauges are in every exposition, with its time
	run --separate-stderr rdmastat -i 0.05 -n 2 --prom rxe1
	assert_success
	[ "$(grep -c '^rdma_port_state_id{device="rxe1",port="1"} 2 [0-9]\{13\}$' <<< "$output")" = 2 ] || fail "$output"
}

@test "--prom: promtool check metrics finds nothing to lint on any fixture (snake_case names)" {
	# promtool is Prometheus's own linter (Debian's prometheus package, from make deps):
	# metric names in snake_case, no counter named like a gauge or the other way round
	command -v promtool > /dev/null || fail "promtool missing (apt-get install prometheus)"
	local t n=0
	for t in "$SYS"/*/; do
		t=$(basename "$t")
		on "$t"
		rdmastat --prom > "$TMP/$t.prom" 2> /dev/null || [ $? -eq 1 ]
		[ -s "$TMP/$t.prom" ] || fail "$t: no exposition"
		run promtool check metrics < "$TMP/$t.prom"
		[ "$status" -eq 0 ] && [ -z "$output" ] || fail "$t: $output"
		n=$((n + 1))
	done
	[ "$n" -ge 7 ] || fail "only $n fixtures"
	# irdma's and hfi1's camelCase counters (the raw name stays in the counter label)
	on irdma
	run rdmastat --prom
	assert_line --regexp '^rdma_port_in_rdma_reads_total\{device="irdma0",port="1",counter="InRdmaReads"'
	assert_line --regexp '^rdma_port_rx_ecn_mrkd_total\{.*counter="RxECNMrkd"'
	on hfi1
	run rdmastat --prom
	assert_line --regexp '^rdma_port_rc_resend_total\{.*counter="RcResend"'
	refute_output --regexp '^rdma_[a-z_]*[A-Z]'
	# an unreadable counter: a gauge not named like a counter
	on broken
	run rdmastat --prom
	assert_line '# TYPE rdma_stat_unreadable gauge'
}
