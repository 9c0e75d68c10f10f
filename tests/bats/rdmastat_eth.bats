#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat's counter selection, deltas, formats and thresholds on the Ethernet statistics of
# each RDMA port's netdev (issue 15: "counter selection and thresholds work on Ethernet
# statistics too").  The expected values are decoded here, independently of the C code,
# from the ethtool -S replay file itself (32-byte names, u64 values per stats line).
load helper

FX=$FIX/fabric
PY=/usr/bin/python3

# a copy of the OFED fixture whose port also has two RDMA hw counters, so the Ethernet
# statistics are shown next to RDMA counters
setup() {
	TMP=$(mktemp -d)
	cp -r "$FX/ofed" "$TMP/root"
	hw="$TMP/root/sys/class/infiniband/mlx5_0/ports/1/hw_counters"
	mkdir -p "$hw"
	echo 7 > "$hw/out_of_sequence"
	echo 0 > "$hw/rnr_nak_retry_err"
	export RDMADIAG_SYSFS_ROOT=$TMP/root RDMADIAG_ETHTOOL_REPLAY=$FX/eth-prio3.txt
}
teardown() { rm -rf "$TMP"; }

# value FILE SAMPLE NAME: statistic NAME in stats line SAMPLE (0 the first) of replay FILE
value() {
	$PY - "$@" <<-'EOF2'
	import struct, sys
	names, samples = [], []
	for line in open(sys.argv[1]):
	    w = line.split()
	    if len(w) == 3 and w[1] == "strings":
	        b = bytes.fromhex(w[2])
	        names = [b[i:i + 32].split(b"\0")[0].decode() for i in range(0, len(b), 32)]
	    elif len(w) == 3 and w[1] == "stats":
	        b = bytes.fromhex(w[2])
	        samples.append(struct.unpack("<%dQ" % (len(b) // 8), b))
	print(samples[int(sys.argv[2])][names.index(sys.argv[3])])
	EOF2
}

# a replay of eth0 with the names of DRIVER and two samples: priority 3 paused 40 times
bnxt_replay() {
	$PY - "$1" <<-'EOF2'
	import struct, sys
	names = ["rx_packets_pri0", "rx_packets_pri3", "rx_pfc_ena_frames_pri0",
	         "rx_pfc_ena_frames_pri3", "tx_pfc_ena_frames_pri3", "rx_pause_frames"]
	with open(sys.argv[1], "w") as f:
	    f.write("eth0 driver bnxt_en\n")
	    f.write("eth0 strings %s\n" % b"".join(n.encode().ljust(32, b"\0") for n in names).hex())
	    for v in ([10, 20, 0, 5, 1, 0], [10, 920, 0, 45, 1, 0]):
	        f.write("eth0 stats %s\n" % struct.pack("<6Q", *v).hex())
	EOF2
}

@test "without --eth or an Ethernet name the output is what it was: no statistic is read" {
	for args in "" "-j" "--csv" "-a" "out_of_sequence" "-c out_*" "-i 0.05 -n 1 -j"; do
		# shellcheck disable=SC2086
		with=$(rdmastat $args 2>&1 | sed 's/"time":"[^"]*"//; s/"interval":[0-9.e-]*//')
		# shellcheck disable=SC2086
		without=$(RDMADIAG_ETHTOOL_REPLAY=/nonexistent rdmastat $args 2>&1 |
			sed 's/"time":"[^"]*"//; s/"interval":[0-9.e-]*//')
		[ "$with" = "$without" ] || fail "rdmastat $args: '$with' vs '$without'"
		[[ "$with" != *ethtool* && "$with" != *prio* ]] || fail "rdmastat $args: $with"
	done
}

@test "-c rx_prio3_packets: the driver's name, under the port after its netdev line, = ethtool -S" {
	want=$(value "$FX/eth-prio3.txt" 0 rx_prio3_packets)
	run --separate-stderr rdmastat -c rx_prio3_packets -c out_of_sequence
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	assert_line --index 0 --regexp '^mlx5_0/1: state ACTIVE .* netdev eth0$'
	assert_line --index 1 --regexp '^    out_of_sequence +7  out_of_sequence$'
	assert_line --index 2 '  netdev eth0 (ethtool -S)'
	assert_line --index 3 --regexp "^    rx_prio3_packets +$want  prio_packets \(priority 3\)$"
	[ "${#lines[@]}" -eq 4 ] || fail "$output"
}

@test "-c prio3_pause: the per-priority concept selects priority 3's pause frames, rx and tx; JSON under ethtool" {
	rx=$(value "$FX/eth-prio3.txt" 0 rx_prio3_pause)
	tx=$(value "$FX/eth-prio3.txt" 0 tx_prio3_pause)
	run --separate-stderr rdmastat -j prio3_pause
	assert_success
	assert_output "[{\"ifname\":\"mlx5_0\",\"port\":1,\"ethtool\":{\"netdev\":\"eth0\",\"counters\":{\"rx_prio3_pause\":$rx,\"tx_prio3_pause\":$tx}}}]"
	# the concept without a priority: all eight priorities, both directions
	run rdmastat -j -c prio_pause
	assert_success
	[ "$(grep -o '[rt]x_prio[0-7]_pause"' <<< "$output" | sort -u | wc -l)" -eq 16 ] || fail "$output"
}

@test "a concept selects the statistic of another driver's naming (bnxt_en rx_pfc_ena_frames_pri3)" {
	bnxt_replay "$TMP/bnxt"
	run --separate-stderr env RDMADIAG_ETHTOOL_REPLAY="$TMP/bnxt" rdmastat -i 0.05 -n 1 --csv prio3_pause
	assert_success
	assert_line --index 0 'time,interval_s,device,port,counter,value,delta,rate_per_s,state,concept,error,source'
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
	assert_line --index 1 --regexp '^[0-9TZ:-]+,[0-9.]+,mlx5_0,1,rx_pfc_ena_frames_pri3,45,40,[0-9.]+,valid,prio_pause,,ethtool$'
	assert_line --index 2 --regexp ',tx_pfc_ena_frames_pri3,1,0,0.000,valid,prio_pause,,ethtool$'
	# an ethtool row's interval_s is its own, the one its rate is over (to its 3 decimals):
	# interval_s is off by 0.0005 at most, and so is the rate, which moves delta / rate by up
	# to delta * 0.0005 / (rate * (rate - 0.0005)); the bound is the row's own, 0.0005 at
	# 0.05 s, more in a long interval (a stall under load) where the rate is small
	IFS=, read -r _ secs _ _ _ _ delta rate _ <<< "${lines[1]}"
	awk -v s="$secs" -v d="$delta" -v r="$rate" 'BEGIN { e = d / r - s; if (e < 0) e = -e;
		exit !(s >= 0.05 && e <= 0.0005 + d * 0.0005 / (r * (r - 0.0005)) + 1e-9) }' ||
		fail "${lines[1]}"
}

@test "-i -j: deltas and rates of every priority's packets = the replay's two samples" {
	run --separate-stderr rdmastat -i 0.05 -n 1 -j -c prio_packets -c out_of_sequence
	assert_success
	printf '%s\n' "$output" > "$TMP/j"
	$PY - "$TMP/j" "$FX/eth-prio3.txt" <<-'EOF2'
	import json, re, struct, sys
	o = json.loads(open(sys.argv[1]).read())
	names, samples = [], []
	for line in open(sys.argv[2]):
	    w = line.split()
	    if len(w) == 3 and w[1] == "strings":
	        b = bytes.fromhex(w[2])
	        names = [b[i:i + 32].split(b"\0")[0].decode() for i in range(0, len(b), 32)]
	    elif len(w) == 3 and w[1] == "stats":
	        b = bytes.fromhex(w[2])
	        samples.append(struct.unpack("<%dQ" % (len(b) // 8), b))
	want = {n: (b, b - a) for n, a, b in zip(names, samples[0], samples[1])
	        if re.fullmatch(r"(rx|tx)_prio[0-7]_packets", n)}
	assert o["ifname"] == "mlx5_0" and o["port"] == 1, o
	assert list(o["counters"]) == ["out_of_sequence"], o["counters"]
	e = o["ethtool"]
	assert e["netdev"] == "eth0", e
	got = {n: (c["value"], c["delta"]) for n, c in e["counters"].items()}
	assert got == want, (got, want)
	# the statistics' rates are over their own interval (read after the RDMA counters)
	assert 0.05 <= e["interval"] < 10, e["interval"]
	for n, c in e["counters"].items():
	    assert c["state"] == "valid" and abs(c["rate"] - c["delta"] / e["interval"]) <= 1e-3 * max(1, c["rate"]), (n, c, e["interval"])
	assert want["rx_prio3_packets"][1] == 5000 and want["rx_prio0_packets"][1] == 0
	EOF2
}

@test "text -i: the moved statistics under the netdev line, with delta and rate" {
	run --separate-stderr rdmastat -i 0.05 -n 1 -c rx_prio3_packets -c rx_prio0_packets
	assert_success
	assert_line --index 1 'mlx5_0/1'
	assert_line --index 3 '  netdev eth0 (ethtool -S)'
	assert_line --index 4 --regexp '^    rx_prio3_packets +6000 +5000 +[0-9.]+$'
	refute_line --partial rx_prio0_packets	# it did not move
}

@test "--csv: the source column says ethtool, with the catalogue's concept and unit" {
	run --separate-stderr rdmastat --csv rx_prio3_bytes out_of_sequence
	assert_success
	assert_output "device,port,counter,value,concept,unit,source,error
mlx5_0,1,out_of_sequence,7,out_of_sequence,packets,sysfs,
mlx5_0,1,rx_prio3_bytes,$(value "$FX/eth-prio3.txt" 0 rx_prio3_bytes),prio_bytes,bytes,ethtool,"
}

@test "--eth: every statistic of the netdev, the ones the catalogue does not know too" {
	n=$($PY -c 'import sys; print(len([l for l in open(sys.argv[1]) if " strings " in l][0].split()[2]) // 64)' "$FX/eth-prio3.txt")
	run --separate-stderr rdmastat --eth --csv
	assert_success
	[ "$(grep -c ',ethtool,$' <<< "$output")" -eq "$n" ] || fail "want $n: $output"
	assert_line 'mlx5_0,1,rx_packets,1000,,,ethtool,'
	# ETHTOOL_GSTRINGS' 32 bytes without a NUL: the name is kept whole, as ethtool -S prints it
	assert_line 'mlx5_0,1,a_name_of_exactly_32_bytes_xxxxx,7,,,ethtool,'
	# a name the catalogue does not know needs --eth, and a glob selects statistics only with it
	run --separate-stderr rdmastat -c a_name_of_exactly_32_bytes_xxxxx
	[ "$status" -eq 2 ] || fail "status $status"
	[ "$stderr" = "rdmastat: no counter 'a_name_of_exactly_32_bytes_xxxxx'" ] || fail "$stderr"
	run --separate-stderr rdmastat --eth -c a_name_of_exactly_32_bytes_xxxxx -j
	assert_success
	assert_output '[{"ifname":"mlx5_0","port":1,"ethtool":{"netdev":"eth0","counters":{"a_name_of_exactly_32_bytes_xxxxx":7}}}]'
	run --separate-stderr rdmastat -j 'rx_prio3_*'
	assert_success
	refute_output --partial ethtool
	run --separate-stderr rdmastat -j --eth 'rx_prio3_p*'
	assert_output '[{"ifname":"mlx5_0","port":1,"ethtool":{"netdev":"eth0","counters":{"rx_prio3_packets":1000,"rx_prio3_pause":0}}}]'
}

@test "thresholds: a rate rule on priority 3's pause breaches, priority 0's does not; exit 1" {
	printf 'rx_prio3_pause > 0/s\nrx_prio0_pause > 0/s\nprio3_packets@mlx5_0/1 > +4999\n' > "$TMP/t"
	run --separate-stderr rdmastat -i 0.05 -n 1 -t "$TMP/t"
	[ "$status" -eq 1 ] || fail "status $status: $output $stderr"
	[ -z "$stderr" ] || fail "$stderr"
	assert_line --regexp '^BREACH mlx5_0/1 rx_prio3_pause rate [0-9.]+/s > 0/s \(line 1: rx_prio3_pause\)$'
	assert_line 'BREACH mlx5_0/1 rx_prio3_packets delta 5000 > 4999 (line 3: prio3_packets)'
	assert_line 'BREACH mlx5_0/1 tx_prio3_packets delta 5000 > 4999 (line 3: prio3_packets)'
	refute_line --partial 'rx_prio0_pause'
	[ "$(grep -c ^BREACH <<< "$output")" -eq 3 ] || fail "$output"
	# JSON: the breach says where the statistic comes from
	run --separate-stderr rdmastat -i 0.05 -n 1 -j -t "$TMP/t"
	[ "$status" -eq 1 ]
	assert_line --regexp '^\{"breaches":\[\{"ifname":"mlx5_0","port":1,"counter":"rx_prio3_packets","source":"ethtool","netdev":"eth0","rule":"prio3_packets","line":3,"kind":"delta","limit":4999,"observed":5000\}'
	# the same traffic on priority 0: no breach, exit 0
	run --separate-stderr env RDMADIAG_ETHTOOL_REPLAY="$FX/eth-prio0.txt" rdmastat -i 0.05 -n 1 -t "$TMP/t"
	assert_success
	refute_output --partial BREACH
}

@test "an absolute rule on an Ethernet statistic breaches in a snapshot" {
	v=$(value "$FX/eth-prio3.txt" 0 rx_prio3_packets)
	printf 'rx_prio3_packets > %d\ntx_prio3_packets > %d\n' $((v - 1)) "$v" > "$TMP/t"
	run --separate-stderr rdmastat -t "$TMP/t" -c out_of_sequence -c prio3_packets
	[ "$status" -eq 1 ] || fail "status $status"
	assert_line "BREACH mlx5_0/1 rx_prio3_packets = $v > $((v - 1)) (line 1: rx_prio3_packets)"
	refute_line --partial 'line 2'
}

@test "unknown Ethernet names and a netdev that cannot be read: exit 2 with one line, as for counters" {
	run --separate-stderr rdmastat -c rx_prio9_pause
	[ "$status" -eq 2 ] || fail "status $status"
	[ "$stderr" = "rdmastat: no counter 'rx_prio9_pause'" ] || fail "$stderr"
	run --separate-stderr rdmastat mlx5_0/1 rx_prio8_pause
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmastat: no counter 'rx_prio8_pause' on mlx5_0" ] || fail "$stderr"
	# no replay under a sysfs root: the netdev is a skipped entry, the name then unknown
	run --separate-stderr env -u RDMADIAG_ETHTOOL_REPLAY rdmastat -c rx_prio3_pause
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "rdmastat: warning: skipped '$TMP/root/sys/class/net/eth0': eth0: a sysfs root without RDMADIAG_ETHTOOL_REPLAY: this host's statistics are not read" ] ||
		fail "$stderr"
	[ "${stderr_lines[1]}" = "rdmastat: no counter 'rx_prio3_pause'" ] || fail "$stderr"
	# a concept that selects nothing is a warning, as an RDMA concept is
	run --separate-stderr env -u RDMADIAG_ETHTOOL_REPLAY rdmastat -c prio_pause -c out_of_sequence
	assert_success
	[ "${stderr_lines[1]}" = "rdmastat: warning: concept 'prio_pause' matches no counter on mlx5_0/1" ] || fail "$stderr"
}

@test "--eth is for the counter view: with --prom or a command it is a usage error" {
	run --separate-stderr rdmastat --eth --prom
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "rdmastat: --prom exports the Ethernet statistics as rdma_eth_* (without --eth or Ethernet names)" ] || fail "$stderr"
	run --separate-stderr rdmastat --prom -c rx_prio3_pause
	[ "$status" -eq 2 ]
	run --separate-stderr rdmastat --eth devices
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "rdmastat: --eth applies to counters, not to 'devices'" ] || fail "$stderr"
}

@test "completions offer every Ethernet catalogue concept" {
	want=$(sed -n 's/^\t*{ [a-z"_0-9]*, "[^"]*", "\([a-z_]*\)",.*/\1/p; s/.*{ drv, "[^"]*", "\([a-z_]*\)",.*/\1/p' \
		"$ROOT/lib/fabric/eth_catalog_data.c" | sort -u)
	[ "$(echo "$want" | wc -l)" -ge 10 ] || fail "catalogue parse: $want"
	bash_list=$(bash -c "source '$ROOT/completions/bash/rdmastat'; printf '%s\n' \$_rdmastat_eth_concepts" | sort)
	[ "$bash_list" = "$want" ] || fail "bash: $(diff <(echo "$want") <(echo "$bash_list"))"
	zsh_list=$(sed -n '/eth_stats=(/,/)/p' "$ROOT/completions/zsh/_rdmastat" | tr -d '()\t' |
		sed 's/eth_stats=//' | tr ' ' '\n' | grep . | sort)
	[ "$zsh_list" = "$want" ] || fail "zsh: $(diff <(echo "$want") <(echo "$zsh_list"))"
	# bash offers them after -c and as counter arguments, not after explain (the RDMA
	# catalogue's command)
	run bash -c "source /usr/share/bash-completion/bash_completion 2>/dev/null
		source '$ROOT/completions/bash/rdmastat'
		complete_line() { COMP_LINE=\$1; COMP_POINT=\${#1}; read -ra COMP_WORDS <<< \"\$1\"
			COMP_CWORD=\$((\${#COMP_WORDS[@]} - 1)); _rdmastat; echo \"[\${COMPREPLY[*]}]\"; }
		complete_line 'rdmastat -c prio_pause_d'
		complete_line 'rdmastat rxe0 discards_p'
		complete_line 'rdmastat explain prio_pause_d'"
	assert_line --index 0 "[prio_pause_duration]"
	assert_line --index 1 "[discards_phy]"
	assert_line --index 2 "[]"
}
