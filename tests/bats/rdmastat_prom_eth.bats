#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat --prom's Ethernet families (issue 15): each RDMA port's netdev's ethtool -S
# statistics that lib/fabric's catalogue knows, per priority where the driver counts so.
# The expected samples are decoded here, independently of the C code, from the replay file
# itself (names = 32-byte strings, values = the stats line's u64s) with the driver's own
# naming (mlx5 en_stats.c); the exposition is parsed by python3-prometheus-client.
load helper

FX=$FIX/fabric
PY=/usr/bin/python3

setup() { TMP=$(mktemp -d); unset RDMADIAG_ETHTOOL_REPLAY; }
teardown() { rm -rf "$TMP"; }

ofed() { RDMADIAG_SYSFS_ROOT=$FX/ofed RDMADIAG_ETHTOOL_REPLAY=$1 "${@:2}"; }

# expected FILE SAMPLE: "family labels value" of every mlx5 statistic of sample SAMPLE (0 the
# first stats line) that rdmastat must export, sorted
expected() {
	$PY - "$1" "$2" <<-'EOF2'
	import re, struct, sys
	names, samples = [], []
	for line in open(sys.argv[1]):
	    w = line.split()
	    if len(w) == 3 and w[1] == "strings":
	        b = bytes.fromhex(w[2])
	        names = [b[i:i + 32].split(b"\0")[0].decode() for i in range(0, len(b), 32)]
	    elif len(w) == 3 and w[1] == "stats":
	        b = bytes.fromhex(w[2])
	        samples.append(struct.unpack("<%dQ" % (len(b) // 8), b))
	vals = samples[int(sys.argv[2])]
	per = {"packets": "packets", "bytes": "bytes", "pause": "pause_frames",
	       "pause_duration": "pause_seconds", "pause_transition": "pause_transitions",
	       "discards": "discards", "buf_discard": "discards", "cong_discard": "discards",
	       "marked": "ecn_marked_packets"}
	other = {"rx_discards_phy": "discards", "tx_discards_phy": "discards",
	         "rx_pause_ctrl_phy": "pause_frames", "tx_pause_ctrl_phy": "pause_frames",
	         "tx_pause_storm_warning_events": "pause_storm_events",
	         "tx_pause_storm_error_events": "pause_storm_events"}
	out = []
	for n, v in zip(names, vals):
	    m = re.fullmatch(r"(rx|tx)_prio([0-7])_(\w+)", n)
	    lab = "device=mlx5_0,direction=%s,netdev=eth0,port=1" % n[:2]
	    if m and m.group(3) in per:
	        fam, lab = "rdma_eth_priority_" + per[m.group(3)], lab.replace(",netdev", ",netdev") + ",priority=" + m.group(2)
	    elif n in other:
	        fam = "rdma_eth_" + other[n]
	    else:
	        continue
	    val = v / 1e6 if fam.endswith("seconds") else float(v)
	    labs = sorted(lab.split(",") + ["statistic=" + n])
	    out.append("%s %s %r" % (fam + "_total", ",".join(labs), val))
	print("\n".join(sorted(out)))
	EOF2
}

# the rdma_eth_ samples of exposition FILE as "name labels value", sorted (prometheus_client)
parsed() {
	$PY -c 'import prometheus_client.parser' 2>/dev/null || skip "python3-prometheus-client missing"
	$PY - "$1" <<-'EOF2'
	import sys
	from prometheus_client.parser import text_string_to_metric_families as parse
	out = []
	for f in parse(open(sys.argv[1]).read()):
	    if not f.name.startswith("rdma_eth_"):
	        continue
	    assert f.type == "counter", (f.name, f.type)
	    for s in f.samples:
	        out.append("%s %s %r" % (s.name, ",".join("%s=%s" % kv for kv in sorted(s.labels.items())), s.value))
	print("\n".join(sorted(out)))
	EOF2
}

# a replay of eth0 (DRIVER) with the mlx5 names beyond eth-prio3.txt's: pause duration,
# the three discard counters, ECN marks, link pause, a name the catalogue does not know
mkreplay() {
	$PY - "$1" "$2" <<-'EOF2'
	import struct, sys
	names = ["rx_packets", "rx_prio3_packets", "tx_prio3_bytes", "rx_prio3_pause",
	         "rx_prio3_pause_duration", "tx_prio5_pause_duration", "rx_prio3_discards",
	         "rx_prio3_buf_discard", "rx_prio3_cong_discard", "rx_prio3_marked",
	         "rx_pause_ctrl_phy", "tx_discards_phy", "tx_pause_storm_warning_events",
	         "rx_prio9_packets", "not_in_the_catalogue"]
	vals = [[100 + 7 * i + 1500000 * (i == 4) + (2**64 - 1 - 100 - 7 * i) * (i == 2) for i in range(len(names))]]
	with open(sys.argv[1], "w") as f:
	    f.write("eth0 driver %s\n" % sys.argv[2])
	    f.write("eth0 strings %s\n" % b"".join(n.encode().ljust(32, b"\0") for n in names).hex())
	    for v in vals:
	        f.write("eth0 stats %s\n" % struct.pack("<%dQ" % len(v), *v).hex())
	EOF2
}

@test "--prom: eth0's per-priority packets, bytes and pause frames = the replayed ethtool -S values" {
	run --separate-stderr ofed "$FX/eth-prio3.txt" rdmastat --prom
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	printf '%s\n' "$output" > "$TMP/p"
	expected "$FX/eth-prio3.txt" 0 > "$TMP/want"
	[ "$(wc -l < "$TMP/want")" -ge 50 ] || fail "the fixture gives only $(wc -l < "$TMP/want") samples"
	parsed "$TMP/p" > "$TMP/got"
	diff -u "$TMP/want" "$TMP/got"
	# the priority-3 line as an operator would grep it
	assert_line 'rdma_eth_priority_pause_frames_total{device="mlx5_0",port="1",netdev="eth0",priority="3",direction="rx",statistic="rx_prio3_pause"} 0'
	assert_line '# TYPE rdma_eth_priority_packets_total counter'
}

@test "--prom -i: each exposition carries the next ethtool -S sample (priority 3 moved by 5000)" {
	run --separate-stderr ofed "$FX/eth-prio3.txt" rdmastat --prom -i 0.05 -n 2
	assert_success
	# the second exposition: after the blank line
	awk 'p; /^$/ { p = 1 }' <<< "$output" | sed 's/ [0-9]\{13\}$//' > "$TMP/p2"
	expected "$FX/eth-prio3.txt" 1 > "$TMP/want"
	parsed "$TMP/p2" > "$TMP/got"
	diff -u "$TMP/want" "$TMP/got"
	grep -q '^rdma_eth_priority_packets_total{.*statistic="tx_prio3_packets"} 6000 [0-9]\{13\}$' <<< "$output" ||
		fail "no timestamped tx_prio3_packets 6000: $(grep tx_prio3_packets <<< "$output")"
}

@test "--prom: pause duration in seconds, every discard counter, ECN marks; unknown names left out" {
	mkreplay "$TMP/r" mlx5_core
	run --separate-stderr ofed "$TMP/r" rdmastat --prom
	assert_success
	printf '%s\n' "$output" > "$TMP/p"
	expected "$TMP/r" 0 > "$TMP/want"
	parsed "$TMP/p" > "$TMP/got"
	diff -u "$TMP/want" "$TMP/got"
	assert_line 'rdma_eth_priority_pause_seconds_total{device="mlx5_0",port="1",netdev="eth0",priority="3",direction="rx",statistic="rx_prio3_pause_duration"} 1.500128'
	# a 64-bit value stays exact
	assert_line 'rdma_eth_priority_bytes_total{device="mlx5_0",port="1",netdev="eth0",priority="3",direction="tx",statistic="tx_prio3_bytes"} 18446744073709551615'
	[ "$(grep -c 'statistic="rx_prio3_\(discards\|buf_discard\|cong_discard\)"' "$TMP/p")" = 3 ]
	refute_output --partial not_in_the_catalogue
	refute_output --partial rx_prio9_packets
	refute_output --partial 'statistic="rx_packets"'
}

@test "--prom: a driver the catalogue does not know, a fake tree without a replay, another device: no rdma_eth_ family" {
	mkreplay "$TMP/r" some_nic
	run --separate-stderr ofed "$TMP/r" rdmastat --prom
	assert_success
	refute_output --partial rdma_eth_
	# without the replay a fake tree is another machine: nothing asked, nothing printed
	run --separate-stderr env RDMADIAG_SYSFS_ROOT=$FX/ofed rdmastat --prom
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	refute_output --partial rdma_eth_
	assert_line --partial 'rdma_port_state_id{device="mlx5_0",port="1"} 4'
	# the device/port selection applies; a counter selection exports the counters only
	run --separate-stderr ofed "$FX/eth-prio3.txt" rdmastat --prom mlx5_0/2
	refute_output --partial rdma_eth_
	run --separate-stderr ofed "$FX/eth-prio3.txt" rdmastat --prom mlx5_0/1
	assert_output --partial rdma_eth_priority_packets_total
}

@test "--prom: a malformed ethtool replay for the port is one warning (with -i too), the rest of the exposition stays" {
	run --separate-stderr ofed "$FX/eth-bad.txt" rdmastat --prom
	assert_success
	refute_output --partial rdma_eth_
	assert_line --partial 'rdma_port_state_id{device="mlx5_0",port="1"} 4'
	[ "$(wc -l <<< "$stderr")" = 1 ] || fail "stderr: $stderr"
	[[ $stderr == rdmastat:\ *eth0* ]] || fail "stderr: $stderr"
	# -i: the same failure in every interval is still one line
	run --separate-stderr ofed "$FX/eth-bad.txt" rdmastat --prom -i 0.05 -n 3
	assert_success
	[ "$(grep -c '^rdma_port_state_id{' <<< "$output")" = 3 ] || fail "$output"
	[ "$(wc -l <<< "$stderr")" = 1 ] || fail "stderr: $stderr"
}

# the standard pause statistics through ethtool netlink: the pause recording (mk_pause.py)
# after the dcbnl one, as --nl-record writes them into one file
withpause() {
	cat "$FX/dcb-pfc3.rec" "$FX/$1" > "$TMP/nl.rec"
	RDMADIAG_NL_REPLAY=$TMP/nl.rec ofed "$FX/eth-prio3.txt" "${@:2}"
}
# the rdma_eth_standard_pause_frames_total samples of exposition FILE, parsed
std_pause() {
	parsed "$1" | grep '^rdma_eth_standard_pause_frames_total ' || true
}

@test "--prom: ethtool netlink's standard pause frames, a family of their own (rx 12, tx 5; -i: the next sample)" {
	run --separate-stderr withpause pause-stats.rec rdmastat --prom
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	printf '%s\n' "$output" > "$TMP/p"
	run std_pause "$TMP/p"
	assert_output "rdma_eth_standard_pause_frames_total device=mlx5_0,direction=rx,netdev=eth0,port=1 12.0
rdma_eth_standard_pause_frames_total device=mlx5_0,direction=tx,netdev=eth0,port=1 5.0"
	# the ethtool -S families are unchanged beside it
	expected "$FX/eth-prio3.txt" 0 > "$TMP/want"
	parsed "$TMP/p" | grep -v '^rdma_eth_standard_pause_frames_total ' > "$TMP/got"
	diff -u "$TMP/want" "$TMP/got"
	run --separate-stderr withpause pause-stats.rec rdmastat --prom -i 0.05 -n 2
	assert_success
	awk 'p; /^$/ { p = 1 }' <<< "$output" | sed 's/ [0-9]\{13\}$//' > "$TMP/p2"
	run std_pause "$TMP/p2"
	assert_output "rdma_eth_standard_pause_frames_total device=mlx5_0,direction=rx,netdev=eth0,port=1 112.0
rdma_eth_standard_pause_frames_total device=mlx5_0,direction=tx,netdev=eth0,port=1 9.0"
}

@test "--prom: no standard pause family where the driver counts none or has no pause settings (no 0 samples, no warning)" {
	for rec in pause-nostats.rec pause-none.rec pause-nofamily.rec; do
		run --separate-stderr withpause $rec rdmastat --prom
		assert_success
		[ -z "$stderr" ] || fail "$rec: stderr: $stderr"
		refute_output --partial rdma_eth_standard_pause
		assert_output --partial rdma_eth_priority_packets_total
	done
	run --separate-stderr withpause pause-bad-short-stat.rec rdmastat --prom
	assert_success
	assert_equal "$stderr" "rdmastat: warning: malformed ethtool pause reply for eth0: pause statistic shorter than 8 bytes"
	refute_output --partial rdma_eth_standard_pause
}
