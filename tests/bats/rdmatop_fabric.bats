#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop's Ethernet side (tui/eth.c, tui/view_fabric.c): the Ports screen's PAUSE/s and
# DISC/s columns and the Fabric screen (batch --screen fabric, curses F), on the fabric
# fixture tree (mlx5_0 port 1, netdev eth0) with a replayed ethtool -S: between its two
# samples eth-prio3.txt moves priority 3 by 5000 packets / 5 120 000 bytes each way, 12 PFC
# frames received on it and 4 rx_discards_phy; eth-prio0.txt moves priority 0 the same way.
load helper

FX=$FIX/fabric

top() {
	RDMADIAG_SYSFS_ROOT=$FX/ofed RDMADIAG_ETHTOOL_REPLAY=$FX/${ETH:-eth-prio3.txt} rdmatop "$@"
}
# si CELL: "53.0k" -> 53000, "54.3MB" -> 54300000, "0B" -> 0
si() {
	awk -v c="$1" 'BEGIN { sub(/B$/, "", c); m = 1
		if (c ~ /k$/) m = 1e3; else if (c ~ /M$/) m = 1e6; else if (c ~ /G$/) m = 1e9
		sub(/[kMG]$/, "", c); printf "%.6g\n", c * m }'
}
# frame N's Fabric rows (PRIO RX-PKT TX-PKT RX-B TX-B RX-PAUSE TX-PAUSE) from batch output
fabric_rows() {
	awk -v n="$1" '/^PRIO / { f++; next } /^$/ { next } f == n && /^ +[0-7] / { print }'
}
# zero_rows: every rate cell of every row given is 0 (the PRIO column aside)
zero_rows() { awk '{ for (i = 2; i <= NF; i++) if ($i != "0" && $i != "0B") exit 1 }'; }
# ramp N < REPLAY: the replay with N samples, the first two's difference added each time
ramp() {
	python3 -c '
import sys
lines = sys.stdin.read().splitlines()
stats = [l for l in lines if l.split()[1:2] == ["stats"]]
out = [l for l in lines if l not in stats]
a, b = (bytes.fromhex(l.split()[2]) for l in stats[:2])
q = lambda x: [int.from_bytes(x[i:i + 8], sys.byteorder) for i in range(0, len(x), 8)]
a, b = q(a), q(b)
name = stats[0].split()[0]
for k in range(int(sys.argv[1])):
    v = b"".join((x + k * (y - x)).to_bytes(8, sys.byteorder) for x, y in zip(a, b))
    out.append(name + " stats " + v.hex())
print("\n".join(out))' "$1"
}
# near A B PCT: A within PCT % of B
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b != 0 && d <= b * p / 100) }'; }

@test "--screen fabric: no rates in the first frame; in the second priority 3 moves as replayed, nothing else" {
	run --separate-stderr top -b -n 2 -d 0.1 --screen fabric
	assert_success
	assert_line --index 1 'Fabric mlx5_0/1 eth0 (mlx5_core): per-priority rates'
	assert_line --index 2 --regexp '^PRIO +RX PKT/s +TX PKT/s +RX B/s +TX B/s +RX PAUSE/s +TX PAUSE/s$'
	run fabric_rows 1 <<< "$output"
	[ "${#lines[@]}" -eq 8 ]
	refute_output --regexp '[0-9] +[^ -]'	# every rate cell "-"
	assert_line --index 7 --regexp '^ +7 +- +- +- +- +- +-$'
	frame=$(top -b -n 2 -d 0.1 --screen fabric | fabric_rows 2)
	run grep -vE '^ +3 ' <<< "$frame"
	[ "${#lines[@]}" -eq 7 ]
	zero_rows <<< "$output"		# priorities 0-2 and 4-7: every rate 0
	read -r p rxp txp rxb txb rxpause txpause <<< "$(grep -E '^ +3 ' <<< "$frame")"
	# the replayed deltas over one interval: tx = rx packets, 1024 bytes a packet, 5000/12
	# packets per pause frame received, none sent
	[ "$rxp" = "$txp" ] && [ "$rxb" = "$txb" ] && [ "$txpause" = 0 ]
	near "$(si "$rxb")" "$(awk -v p="$(si "$rxp")" 'BEGIN { print p * 1024 }')" 1
	near "$(si "$rxp")" "$(awk -v p="$(si "$rxpause")" 'BEGIN { print p * 5000 / 12 }')" 1
}

@test "--screen fabric: priority-0 traffic shows on priority 0, not 3" {
	ETH=eth-prio0.txt run --separate-stderr top -b -n 2 -d 0.1 --screen fabric
	assert_success
	run fabric_rows 2 <<< "$output"
	assert_line --index 0 --regexp '^ +0 +[1-9][^ ]* +[1-9][^ ]* +[1-9][^ ]*B +[1-9][^ ]*B +0 +0$'
	assert_line --index 3 --regexp '^ +3 +0 +0 +0B +0B +0 +0$'
}

@test "Ports: PAUSE/s and DISC/s appear with Ethernet statistics (pause = 3 x discards, as replayed)" {
	run --separate-stderr top -b -n 2 -d 0.1
	assert_success
	assert_line --index 1 --regexp ' TX B/s PAUSE/s DISC/s UTIL '
	run awk '/^mlx5_0 / { n++ } n == 2 { print $10, $11; exit }' <<< "$output"
	read -r pause disc <<< "$output"
	[ "$pause" != - ] && [ "$disc" != - ]
	near "$(si "$pause")" "$(awk -v d="$(si "$disc")" 'BEGIN { print d * 3 }')" 1
	# without Ethernet statistics (a fake tree without a replay reads no netdev) no such column
	RDMADIAG_SYSFS_ROOT=$FX/ofed run --separate-stderr rdmatop -b -n 1
	assert_success
	refute_output --partial 'PAUSE/s'
	refute_output --partial 'DISC/s'
}

@test "--screen fabric when no port's netdev has statistics: one line says so" {
	RDMADIAG_SYSFS_ROOT=$FX/ofed run --separate-stderr rdmatop -b -n 1 --screen fabric
	assert_success
	assert_line --index 1 "no port's netdev has per-priority Ethernet statistics"
}

@test "--screen: an unknown screen, without -b, or with -j is a usage error (exit 2, one line)" {
	run --separate-stderr top -b -n 1 --screen qps
	assert_failure 2
	[ "${stderr_lines[0]}" = "rdmatop: invalid screen 'qps': ports or fabric" ]
	run --separate-stderr top --screen fabric
	assert_failure 2
	[ "${stderr_lines[0]}" = "rdmatop: --screen needs -b/--batch (interactively: P and F)" ]
	run --separate-stderr top -b -j -n 1 --screen fabric
	assert_failure 2
	[ "${stderr_lines[0]}" = "rdmatop: --screen fabric: text frames only (-j frames are the Ports data)" ]
	run --separate-stderr top -b -n 1 --screen ports
	assert_success
	assert_line --index 1 --regexp '^DEVICE +PORT '
}

@test "curses: F shows the selected port's Fabric screen with priority 3 moving; Esc goes back" {
	command -v tmux > /dev/null || skip "tmux is not installed"
	sock="rdmatop-fabric-$$"
	# 200 samples of the same traffic: every refresh has priority 3 moving
	ramp 200 < "$FX/eth-prio3.txt" > "$BATS_TEST_TMPDIR/ramp.txt"
	tmux -L "$sock" -f /dev/null new-session -d -s t -x 100 -y 20 \
		"env TERM=xterm RDMADIAG_SYSFS_ROOT='$FX/ofed' RDMADIAG_ETHTOOL_REPLAY='$BATS_TEST_TMPDIR/ramp.txt' '$ROOT/tui/rdmatop' -d 0.5; exec sleep 60"
	shot() { tmux -L "$sock" capture-pane -p -t t; }
	wait_for() {
		local n=100
		until shot | grep -qE -- "$1"; do
			n=$((n - 1)); [ $n -gt 0 ] || { shot >&2; tmux -L "$sock" kill-server; return 1; }
			sleep 0.05
		done
	}
	# the second sample is in: the Ports row has a pause rate
	wait_for '^mlx5_0 .* [1-9][0-9.]* +[1-9][0-9.]* +0 +- *$'
	tmux -L "$sock" send-keys -t t F
	wait_for '^Fabric mlx5_0/1 eth0 \(mlx5_core\): per-priority rates'
	run shot
	assert_line --regexp '^ +3 +[1-9][^ ]* +[1-9][^ ]* +[1-9][^ ]*B +[1-9][^ ]*B +[1-9][^ ]* +0 *$'
	assert_line --regexp '^ +0 +0 +0 +0B +0B +0 +0 *$'
	tmux -L "$sock" send-keys -t t Escape
	wait_for '^DEVICE +PORT '
	tmux -L "$sock" send-keys -t t q
	tmux -L "$sock" kill-server 2> /dev/null || :
}

@test "--thresholds on Ethernet statistics: a rate rule on priority 3's pause and a delta on its packets breach; priority 0's does not" {
	printf 'rx_prio3_pause > 0/s\nrx_prio0_pause > 0/s\nprio3_packets@mlx5_0/1 > +4999\n' > "$BATS_TEST_TMPDIR/t"
	run --separate-stderr top -b -n 2 -d 0.1 --thresholds "$BATS_TEST_TMPDIR/t"
	[ "$status" -eq 1 ] || fail "status $status: $output $stderr"
	[ -z "$stderr" ] || fail "$stderr"
	assert_line --regexp '^breach mlx5_0/1 rx_prio3_pause: [0-9.]+ \(rule line 1: rx_prio3_pause > 0/s\)$'
	assert_line 'breach mlx5_0/1 rx_prio3_packets: 5000 (rule line 3: prio3_packets@mlx5_0/1 > +4999)'
	assert_line 'breach mlx5_0/1 tx_prio3_packets: 5000 (rule line 3: prio3_packets@mlx5_0/1 > +4999)'
	refute_line --partial rx_prio0_pause
	[ "$(grep -c '^breach ' <<< "$output")" -eq 3 ] || fail "$output"
	# the same rate rule agrees with the Ports screen's PAUSE/s (one replay each, in order)
	run --separate-stderr top -b -n 2 -d 0.1 -j --thresholds "$BATS_TEST_TMPDIR/t"
	run jq -sc '.[1] | [(.breaches | length), ([.breaches[] | select(.counter == "rx_prio3_pause") | .observed > 0] | .[0])]' <<< "$output"
	assert_output '[3,true]'
	# priority-0 traffic: nothing over the priority-3 rules, exit 0
	printf 'rx_prio3_pause > 0/s\nprio3_packets > +0\n' > "$BATS_TEST_TMPDIR/t"
	ETH=eth-prio0.txt run --separate-stderr top -b -n 2 -d 0.1 --thresholds "$BATS_TEST_TMPDIR/t"
	assert_success
	refute_line --regexp '^breach '
	assert_line --regexp 'breaches 0$'
}

@test "--screen fabric: a PFC pause storm on priority 3 is a line and exit 1; --pause-max raises the threshold" {
	# eth-storm.txt: 500 frames received on priority 3 per interval of 0.1 s: 5000/s
	ETH=eth-storm.txt run --separate-stderr top -b -n 2 -d 0.1 --screen fabric
	assert_failure 1
	assert_line --regexp '^pause storm: priority 3 received [0-9.]+[kMG]? PFC pause frames/s \(the threshold is 1000/s, --pause-max\) \[fabric\.pause_rate\]$'
	[ "$(grep -c '^pause storm' <<< "$output")" = 1 ]	# frame 2 only: frame 1 has no rates
	ETH=eth-storm.txt run top -b -n 2 -d 0.1 --screen fabric --pause-max 1000000
	assert_success
	refute_output --partial 'pause storm'
	# 12 frames per 0.1 s (eth-prio3.txt): congestion control, no storm
	run top -b -n 2 -d 0.1 --screen fabric
	assert_success
	refute_output --partial 'pause storm'
	run top -b --screen fabric --pause-max 0
	assert_failure 2
	assert_output "rdmatop: invalid pause rate '0' (frames per second, above 0)
Try 'rdmatop --help' for more information."
}
