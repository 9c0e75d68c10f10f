#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatrace record's triggers and change records on the build host: --thresholds rules on a
# writable copy of the rxe sysfs fixture (RDMADIAG_SYSFS_ROOT) whose counters the test moves,
# GID table entries written into that copy, and QP states from the QEMU tier's RES_QP
# recording (RDMADIAG_NL_REPLAY) with the pingpong QP put in ERR.
load helper
load wait
load record

NL="$FIX/netlink"

# a sysfs file replaced in one rename, so that no snapshot reads it half-written
# (the new file is made outside the directory: a FILE.new beside FILE was an entry of gids/
# for the recorder's scan, read as GID "2.new" without attributes)
put() { echo "$2" > "$TMP/put.new" && mv "$TMP/put.new" "$1"; }
# a counter's value moved by N: FILE N
add() { put "$1" $(($(cat "$1") + $2)); }

@test "record --thresholds: one marker per burst, re-armed when the rule clears" {
	printf '# bursts of received packets\nrcvd_pkts@rxe0 > +100\n' > "$TMP/rules"
	rec_bg --ring 512k --counters 0.05 --thresholds "$TMP/rules" "$TMP/ring"
	wait_until 10 "the first snapshots" dump_has "$TMP/ring" port 2
	f=$HW/rxe0/ports/1/hw_counters/rcvd_pkts
	add "$f" 500
	wait_until 10 "the first marker" dump_has "$TMP/ring" marker 1
	wait_until 10 "the snapshot copy" test -f "$TMP/ring.snap.1"
	# the same counter moving slowly, other counters moving fast: no marker
	for i in 1 2 3; do
		add "$f" 10
		add "$HW/rxe1/ports/1/hw_counters/rcvd_pkts" 5000
		sleep 0.15
	done
	[ "$(count_of "$TMP/ring" marker)" -eq 1 ]
	add "$f" 700
	wait_until 10 "the second burst's marker" dump_has "$TMP/ring" marker 2
	sleep 0.3	# snapshots after the burst, the counter standing still: nothing more
	stop_rec INT
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	run jq -r 'select(.type == "marker") | .text' <<< "$output"
	assert_output "threshold line 2 (rcvd_pkts@rxe0 > +100): rxe0/1 rcvd_pkts delta 500
threshold line 2 (rcvd_pkts@rxe0 > +100): rxe0/1 rcvd_pkts delta 700"
	# each marker at the snapshot whose deltas show the burst
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "marker" or (.type == "counters" and .dev == "rxe0")) | "\(.time) \(.type) \(.deltas.rcvd_pkts // "")"' <<< "$output"
	[ "$(grep -c ' counters 500$' <<< "$output")" -eq 1 ]
	t500=$(awk '$2 == "counters" && $3 == 500 { print $1 }' <<< "$output")
	[ "$(awk -v t="$t500" '$1 == t && $2 == "marker"' <<< "$output" | wc -l)" -eq 1 ]
	run rdmatrace dump -j "$TMP/ring.snap.1"
	assert_success
	assert_line --partial '"text":"threshold line 2 (rcvd_pkts@rxe0 > +100): rxe0/1 rcvd_pkts delta 500"'
}

@test "record --thresholds: rate and absolute rules, every port the rule matches" {
	printf 'sent_pkts > 1000/s\nduplicate_request > 41\n' > "$TMP/rules"
	rec_bg --ring 512k --counters 0.1 --thresholds "$TMP/rules" "$TMP/ring"
	wait_until 10 "the first snapshots" dump_has "$TMP/ring" port 2
	put "$HW/rxe1/ports/1/hw_counters/duplicate_request" 42
	add "$HW/rxe0/ports/1/hw_counters/sent_pkts" 100000
	wait_until 10 "two markers" dump_has "$TMP/ring" marker 2
	sleep 0.3
	stop_rec INT
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "marker") | .text' <<< "$output"
	assert_line "threshold line 2 (duplicate_request > 41): rxe1/1 duplicate_request absolute 42"
	assert_line --regexp '^threshold line 1 \(sent_pkts > 1000/s\): rxe0/1 sent_pkts rate [0-9.e+]+/s$'
	[ "${#lines[@]}" -eq 2 ]
	# the rate is the burst over the interval between the two snapshots as dump shows it
	# (5 %: the rate divides by the times the files were read, dump by the snapshots')
	rate=$(sed -n 's|.*sent_pkts rate \([0-9.e+]*\)/s$|\1|p' <<< "$output")
	over=$(rdmatrace dump -j "$TMP/ring" | jq -r 'select(.type == "counters" and .dev == "rxe0" and .deltas.sent_pkts == 100000) | .interval_s')
	awk -v r="$rate" -v s="$over" 'BEGIN { d = r * s - 100000; exit !(d < 5000 && d > -5000) }' ||
		fail "rate $rate/s over $over s is not 100000"
}

@test "record --thresholds: a rule that matches nothing warns, a bad file is refused" {
	printf 'no_such_counter > 1\n' > "$TMP/rules"
	run --separate-stderr rdmatrace record --ring 64k --counters 0.05 --duration 0.2 \
		--thresholds "$TMP/rules" "$TMP/ring"
	assert_success
	[[ "$stderr" == *"rdmatrace: warning: $TMP/rules: line 1: 'no_such_counter' matches no counter; the rule cannot breach"* ]]
	printf 'rcvd_pkts > lots\n' > "$TMP/bad"
	run --separate-stderr rdmatrace record --ring 64k --thresholds "$TMP/bad" "$TMP/ring2"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmatrace: $TMP/bad: line 1: "* ]]
	[ ! -e "$TMP/ring2" ]
	run --separate-stderr rdmatrace record --ring 64k --thresholds "$TMP/none" "$TMP/ring2"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: cannot read '$TMP/none': No such file or directory" ]
	[ ! -e "$TMP/ring2" ]
}

@test "record: GID table entries added, changed and removed, as sysfs has them" {
	# no rtnetlink change announces these: the full look every --gid-scan sees them
	rec_bg --ring 512k --counters 0.05 --gid-scan 0.2 "$TMP/ring"
	wait_until 10 "the first snapshots" dump_has "$TMP/ring" port 2
	p=$HW/rxe0/ports/1
	put "$p/gid_attrs/types/2" "RoCE v2"
	put "$p/gid_attrs/ndevs/2" veth0
	put "$p/gids/2" 0000:0000:0000:0000:0000:ffff:c612:0505
	wait_until 10 "the added GID" dump_has "$TMP/ring" gid 1
	put "$p/gids/2" 0000:0000:0000:0000:0000:ffff:c612:0506
	wait_until 10 "the changed GID" dump_has "$TMP/ring" gid 2
	put "$p/gids/2" 0000:0000:0000:0000:0000:0000:0000:0000
	wait_until 10 "the removed GID" dump_has "$TMP/ring" gid 3
	stop_rec INT
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	run jq -r 'select(.type == "gid") | "\(.dev)/\(.port) \(.index) \(.action) \(.gid) \(.old_gid // "-") \(.gid_type) \(.ndev)"' <<< "$output"
	assert_output "rxe0/1 2 added 0000:0000:0000:0000:0000:ffff:c612:0505 - RoCE v2 veth0
rxe0/1 2 changed 0000:0000:0000:0000:0000:ffff:c612:0506 0000:0000:0000:0000:0000:ffff:c612:0505 RoCE v2 veth0
rxe0/1 2 removed 0000:0000:0000:0000:0000:ffff:c612:0506 - RoCE v2 veth0"
	run rdmatrace dump "$TMP/ring"
	assert_line --regexp "Z gid rxe0/1 index 2 added 0000:0000:0000:0000:0000:ffff:c612:0505 RoCE v2 ndev veth0$"
	# the entries that were there from the start are the baseline, not records
	[ "$(count_of "$TMP/ring" gid)" -eq 3 ]
}

@test "record: the quick look sees a port state change; the GID tables wait for a full look" {
	rec_bg --ring 512k --counters 0.05 "$TMP/ring"
	wait_until 10 "the first snapshots" dump_has "$TMP/ring" port 2
	put "$HW/rxe0/ports/1/gids/2" 0000:0000:0000:0000:0000:ffff:c612:0505
	# more than one quick look later, the GID table has not been read again (default
	# --gid-scan 60, no rtnetlink change)
	sleep 2.2
	[ "$(count_of "$TMP/ring" gid)" -eq 0 ]
	# written in place as the kernel changes it (the recorder keeps the file open)
	echo "1: DOWN" > "$HW/rxe1/ports/1/state"
	wait_until 10 "the port change" dump_has "$TMP/ring" port 3
	# the change asked for a full look, which read the GID tables too
	wait_until 10 "the added GID" dump_has "$TMP/ring" gid 1
	stop_rec INT
	run rdmatrace dump "$TMP/ring"
	assert_line --regexp "Z port rxe1/1 DOWN \\(LINK_UP\\)$"
	assert_line --regexp "Z gid rxe0/1 index 2 added 0000:0000:0000:0000:0000:ffff:c612:0505"
	[ "$(count_of "$TMP/ring" port)" -eq 3 ]
}

@test "record: a QP that enters ERR is a qp record and one marker (RES_QP replayed)" {
	unset RDMADIAG_SYSFS_ROOT
	# the recording as the QEMU tier made it, then the same exchange with rxe0's pingpong
	# QP (qpn 18) in ERR (RES_STATE, attribute 0x1b, 3 RTS -> 6 ERR), which replay then
	# repeats at every later look
	cp "$NL/rxe-qp.rec" "$TMP/qp.rec"
	grep -A2 '^req 180000000a14010302' "$NL/rxe-qp.rec" > "$TMP/ex"
	[ "$(grep -c '^rep' "$TMP/ex")" -eq 2 ]
	sed '2s/05001a000200000005001b0003000000/05001a000200000005001b0006000000/' "$TMP/ex" >> "$TMP/qp.rec"
	! cmp -s "$TMP/ex" <(tail -n 3 "$TMP/qp.rec") || fail "the QP's state was not found to change"
	RDMADIAG_NL_REPLAY=$TMP/qp.rec rec_bg --ring 64k --counters 0.05 "$TMP/ring"
	wait_until 10 "the marker" dump_has "$TMP/ring" marker 1
	sleep 0.3	# more looks at the QP still in ERR: nothing more
	stop_rec INT
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	# the QP as rdma res show qp listed it in the guest, now in ERR
	want=$(jq -r '.[] | select(.ifname == "rxe0" and .lqpn == 18) | "rxe0/\(.port) \(.lqpn) \(.type) RTS ERR \(.pid)"' "$NL/rxe-qp.rdma.json")
	run jq -r 'select(.type == "qp") | "\(.dev)/\(.port) \(.qpn) \(.qp_type) \(.prev_state) \(.state) \(.pid)"' <<< "$output"
	assert_output "$want"
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "marker") | .text' <<< "$output"
	assert_output "QP in ERR: rxe0/1 qpn 18 RC pid 259/?"
	[ -f "$TMP/ring.snap.1" ]
	run rdmatrace dump "$TMP/ring"
	assert_line --regexp "Z qp rxe0/1 qpn 18 RC RTS -> ERR pid 259/\?$"
	# the replay has no process name: absent in JSON
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "qp") | has("comm")' <<< "$output"
	assert_output "false"
}

@test "record: without netlink, one warning and no QP records" {
	run --separate-stderr rdmatrace record --ring 64k --counters 0.02 --duration 0.3 "$TMP/ring"
	assert_success
	[ "$(grep -c 'recording without QP states' <<< "$stderr")" -eq 1 ]
	[ "$(count_of "$TMP/ring" qp)" -eq 0 ]
	dump_has "$TMP/ring" counters 0
	[ "$(count_of "$TMP/ring" port)" -eq 2 ]
}

# patch a ring file in place: set the header's payload format, or retype the first record of
# one type; both with their CRC-32 made right again (zlib's CRC is libdeflate's)
ring_patch() {
	python3 - "$@" << 'PY'
import struct, sys, zlib
path, what, a = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(path, 'rb').read())
if what == 'format':
    b[24:28] = struct.pack('<I', a)
    b[60:64] = struct.pack('<I', zlib.crc32(bytes(b[0:60])))
else:
    frm, to = a, int(sys.argv[4])
    off = 64
    while off + 32 <= len(b):
        magic, ln, typ = struct.unpack_from('<III', b, off)
        if magic == 0x43524452 and (typ & 0xffff) == frm:
            struct.pack_into('<I', b, off + 8, to)
            c = zlib.crc32(bytes(b[off:off + 12]) + b'\0\0\0\0' + bytes(b[off + 16:off + 32 + ln]))
            struct.pack_into('<I', b, off + 12, c)
            break
        off += 8
    else:
        sys.exit('no record of type %d' % frm)
open(path, 'wb').write(b)
PY
}

@test "dump: a ring of another payload format, or a record of an unknown type, is skipped and counted, never misread" {
	rdmatrace record --ring 256k --counters 0.05 --duration 0.3 --input "$FIX/trace/rxe-6.1" "$TMP/ring" 2> /dev/null
	run --separate-stderr rdmatrace dump -j "$TMP/ring"
	[ "$status" -eq 1 ]		# the capture has failed connections
	[ -z "$stderr" ]
	events=$(jq -r 'select(.type == "event") | .event' <<< "$output" | wc -l)
	[ "$events" -gt 0 ]
	# events are a binary payload (rdmadiag/ring.h): they decode to the fields rdmatrace
	# itself prints for the same capture
	want=$(rdmatrace --input "$FIX/trace/rxe-6.1" -j | jq -r 'select(.type == "event") | "\(.pid) \(.event) \(.cm_id // "-") \(.src // "-") \(.dst // "-") \(.status // "-")"')
	got=$(jq -r 'select(.type == "event") | "\(.pid) \(.event) \(.cm_id // "-") \(.src // "-") \(.dst // "-") \(.status // "-")"' <<< "$output")
	[ "$got" = "$want" ] || fail "dump: $got; rdmatrace: $want"
	# one event retyped to a type this build does not know
	cp "$TMP/ring" "$TMP/ring.t"
	ring_patch "$TMP/ring.t" type 3 77
	run --separate-stderr rdmatrace dump -j "$TMP/ring.t"
	[ "$status" -eq 1 ]
	[ "$(jq -r 'select(.type == "event") | .event' <<< "$output" | wc -l)" -eq $((events - 1)) ]
	[ "$stderr" = "rdmatrace: warning: 1 record(s) of a type this build does not know and 0 that did not decode skipped" ]
	# a ring of payload format 2: nothing shown, every record counted, and not recorded into
	cp "$TMP/ring" "$TMP/ring.f"
	ring_patch "$TMP/ring.f" format 2
	n=$(rdmatrace dump -j "$TMP/ring" | jq -s length)
	run --separate-stderr rdmatrace dump -j "$TMP/ring.f"
	assert_success
	assert_output ""
	[[ "$stderr" == "rdmatrace: warning: '$TMP/ring.f' is a ring of payload format 2, this build reads 1: its "*" record(s) skipped" ]]
	sum=$(md5sum < "$TMP/ring.f")
	run --separate-stderr rdmatrace record --ring 256k --duration 0.1 "$TMP/ring.f"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: cannot record into '$TMP/ring.f': it is a ring of another payload format than this build's (1); dump it, then move it away" ]
	[ "$(md5sum < "$TMP/ring.f")" = "$sum" ]
	[ "$n" -gt 0 ]
}

# the OFED fixture (mlx5_0/1 on eth0) with an ethtool -S replay of eth0: FILE
storm_root() {
	cp -r "$FIX/fabric/ofed" "$TMP/ofed"
	export RDMADIAG_SYSFS_ROOT=$TMP/ofed RDMADIAG_ETHTOOL_REPLAY=$FIX/fabric/$1
}

@test "record: a PFC pause storm is a marker with rdmastat fabric's finding, and a copy" {
	# the replay's second sample has 500 more rx_prio3_pause: at 20 Hz, about 10000/s
	storm_root eth-storm.txt
	rec_bg --ring 1M --counters 0.05 "$TMP/ring"
	wait_until 10 "the storm's marker" dump_has "$TMP/ring" marker 1
	wait_until 10 "the snapshot copy" test -f "$TMP/ring.snap.1"
	stop_rec INT
	run rdmatrace dump "$TMP/ring"
	assert_success
	assert_line --regexp ' counters mlx5_0/1 over [0-9.]+ s: rx_prio3_pause \+500$'
	assert_line --regexp ' marker pause storm: eth0 \(mlx5_0/1\) priority 3 received [0-9]+ PFC pause frames/s \(rx_prio3_pause; the threshold is 1000/s, --pause-max\) \[fabric.pause_rate\]$'
	[ "$(count_of "$TMP/ring" marker)" -eq 1 ]
	# the rate is the delta over the time between the two reads of the statistics (not the
	# record's interval_s, which is between the snapshots' starts): above the threshold
	run rdmatrace dump -j "$TMP/ring"
	got=$(jq -r 'select(.type == "marker") | .text' <<< "$output" | sed -n 's/.* received \([0-9]*\) PFC.*/\1/p')
	[ -n "$got" ] && [ "$got" -gt 1000 ] || fail "marker rate '$got', not above 1000/s"
}

@test "record --pause-max: a rate under it is no marker; a pause-storm counter that moved is" {
	storm_root eth-storm.txt
	rec_bg --ring 1M --counters 0.05 --pause-max 1e9 "$TMP/ring"
	wait_until 10 "the pause frames in a counters record" \
		bash -c "rdmatrace dump '$TMP/ring' 2> /dev/null | grep -q 'rx_prio3_pause +500'"
	stop_rec INT
	[ "$(count_of "$TMP/ring" marker)" -eq 0 ]
	export RDMADIAG_ETHTOOL_REPLAY=$FIX/fabric/eth-storm-events.txt
	rm -f "$TMP/ring"
	rec_bg --ring 1M --counters 0.05 "$TMP/ring"
	wait_until 10 "the storm counter's marker" dump_has "$TMP/ring" marker 1
	stop_rec INT
	run rdmatrace dump "$TMP/ring"
	assert_line --regexp ' marker pause storm: eth0 \(mlx5_0/1\) tx_pause_storm_error_events moved by 1: the driver.s pause-storm watchdog fired \[fabric.pause_storm\]$'
}

@test "record --pause-max: not a positive rate is a usage error, the ring untouched" {
	for v in 0 -5 abc 1e13 ''; do
		run --separate-stderr rdmatrace record --ring 64k --pause-max "$v" "$TMP/ring"
		[ "$status" -eq 2 ] || fail "--pause-max '$v' exited $status"
		[ "${#stderr_lines[@]}" -eq 2 ] || fail "--pause-max '$v': ${stderr}"
		[[ ${stderr_lines[0]} == *"invalid --pause-max"* ]]
		[ ! -e "$TMP/ring" ]
	done
}
