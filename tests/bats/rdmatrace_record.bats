#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatrace record / dump (the flight recorder) on the build host: counters from a writable
# copy of a sysfs fixture tree (RDMADIAG_SYSFS_ROOT) changed while the recorder runs, events
# from the QEMU tier's trace capture (--input), judged against the files written and against
# rdmatrace -c on the same capture; the ring's size, kill -9, and the one-line errors.
load helper
load wait
load record

CAP="$FIX/trace/rxe-6.1"

@test "record: the counters that moved between snapshots, with the change written to sysfs" {
	# a ring that 20 Hz snapshots cannot lap within the waits (64 KiB did in a SANITIZE
	# build under load: the port records were overwritten before the dump)
	rec_bg --ring 4M --counters 0.05 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	before=$(cat "$HW/rxe0/ports/1/hw_counters/rcvd_pkts")
	echo $((before + 1234)) > "$HW/rxe0/ports/1/hw_counters/rcvd_pkts"
	sent=$(cat "$HW/rxe1/ports/1/hw_counters/sent_pkts")
	echo $((sent + 7)) > "$HW/rxe1/ports/1/hw_counters/sent_pkts"
	wait_until 10 "the counter deltas" dump_has "$TMP/ring" counters 2
	stop_rec TERM
	[ "$(stat -c %s "$TMP/ring")" -eq 4194304 ]
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	# exactly the two counters that moved, each by what was added, on its own port
	run jq -r 'select(.type == "counters") | "\(.dev)/\(.port) \(.deltas | to_entries | map("\(.key)=\(.value)") | join(","))"' <<< "$output"
	assert_output "rxe0/1 rcvd_pkts=1234
rxe1/1 sent_pkts=7"
	# the port states as sysfs has them, a start and a clean stop
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "port") | "\(.dev)/\(.port) \(.state)"' <<< "$output"
	assert_output "rxe0/1 ACTIVE
rxe1/1 ACTIVE"
	run rdmatrace dump "$TMP/ring"
	assert_line --regexp "counters rxe0/1 over [0-9.]+ s: rcvd_pkts \+1234$"
	assert_line --regexp " stop [0-9]+ records, 0 laps$"
	assert_line --regexp " start interval 0.050 s, ring 4194304 bytes$"
}

@test "record: a port state change is a record" {
	# a ring that 20 Hz counter records cannot lap within the waits below (64 KiB did under
	# load: the first port records were overwritten before the dump)
	rec_bg --ring 4M --counters 0.05 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	echo "1: DOWN" > "$HW/rxe1/ports/1/state"
	wait_until 10 "the state change" dump_has "$TMP/ring" port 3
	stop_rec INT
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "port") | "\(.dev)/\(.port) \(.state)"' <<< "$output"
	assert_output "rxe0/1 ACTIVE
rxe1/1 ACTIVE
rxe1/1 DOWN"
}

@test "record --input: the capture's connections as rdmatrace -c sees them, failures trigger a snapshot" {
	rec_bg --ring 256k --counters 0.05 --input "$CAP" "$TMP/ring"
	wait_until 10 "the connections" dump_has "$TMP/ring" connection 3
	stop_rec TERM
	want=$(rdmatrace --input "$CAP" -c -j | jq -r 'select(.type == "connection") | "\(.cm_id) \(.dst) \(.outcome) \(.cause) \(.pid)"' | sort)
	run rdmatrace dump -j "$TMP/ring"
	[ "$status" -eq 1 ] || fail "dump exit $status (failed connections in the window: 1)"
	got=$(jq -r 'select(.type == "connection") | "\(.cm_id) \(.dst) \(.outcome) \(.cause) \(.pid)"' <<< "$output" | sort)
	[ "$got" = "$want" ] || fail "dump: $got; rdmatrace -c: $want"
	# one event per event rdmatrace prints (ib_mad left out in both)
	[ "$(jq -r 'select(.type == "event")' <<< "$output" | jq -s length)" -eq \
	  "$(rdmatrace --input "$CAP" -j | jq -r 'select(.type == "event")' | jq -s length)" ]
	# each failed connection left a marker; the first one a copy of the ring
	run jq -r 'select(.type == "marker") | .text' <<< "$output"
	assert_line "failed connection cm.id 1 to 198.18.0.2:7499: no_listener"
	[ -f "$TMP/ring.snap.1" ]
	run rdmatrace dump -j "$TMP/ring.snap.1"
	[ "$status" -eq 1 ]
	run jq -r 'select(.type == "connection" and .cause == "no_listener") | .dst' <<< "$output"
	assert_output "198.18.0.2:7499"
}

@test "record: SIGUSR1 writes a marker and FILE.snap.N; dump windows by time" {
	# (4 MiB: the start record must outlive the waits, see the first test)
	rec_bg --ring 4M --counters 0.05 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	kill -USR1 "$REC"
	wait_until 10 "the marker" dump_has "$TMP/ring" marker 1
	wait_until 10 "the snapshot" test -f "$TMP/ring.snap.1"
	stop_rec TERM
	[ "$(stat -c %s "$TMP/ring.snap.1")" -eq 4194304 ]
	run rdmatrace dump -j "$TMP/ring.snap.1"
	assert_success
	run jq -r 'select(.type == "marker") | .text' <<< "$output"
	assert_output "SIGUSR1"
	t=$(rdmatrace dump -j "$TMP/ring" | jq -r 'select(.type == "marker") | .time')
	start=$(rdmatrace dump -j "$TMP/ring" | jq -r 'select(.type == "start") | .time')
	# --until before the marker leaves it out, --since it and --around it keep it
	run rdmatrace dump -j --until "$start" "$TMP/ring"
	run jq -r .type <<< "$output"
	assert_output "start"
	run rdmatrace dump -j --since "$t" "$TMP/ring"
	assert_line --partial '"type":"marker"'
	refute_line --partial '"type":"start"'
	run rdmatrace dump -j --around "$t" "$TMP/ring"
	assert_line --partial '"type":"marker"'
	assert_line --partial '"type":"start"'
	# the epoch seconds form: long before and after
	run rdmatrace dump -j --until 1000 "$TMP/ring"
	assert_success
	assert_output ""
}

@test "record: a trigger within a second of the last copy is copied when that second is over" {
	rec_bg --ring 256k --counters 0.5 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	kill -USR1 "$REC"
	wait_until 10 "the first snapshot" test -f "$TMP/ring.snap.1"
	kill -USR1 "$REC"
	wait_until 10 "the second marker" dump_has "$TMP/ring" marker 2
	wait_until 10 "the deferred snapshot" test -f "$TMP/ring.snap.2"
	sleep 1.2
	stop_rec TERM
	[ ! -e "$TMP/ring.snap.3" ]
	[ "$(count_of "$TMP/ring.snap.1" marker)" -eq 1 ]
	[ "$(count_of "$TMP/ring.snap.2" marker)" -eq 2 ]
	# the second copy waited out the second since the first (mtimes: the copy is a new file)
	run python3 -c 'import os,sys; print(int(os.stat(sys.argv[2]).st_mtime_ns - os.stat(sys.argv[1]).st_mtime_ns >= 900000000))' "$TMP/ring.snap.1" "$TMP/ring.snap.2"
	assert_output 1
}

@test "record --snapshots 2: the newest two copies stay, the older ones are removed" {
	rec_bg --ring 64k --counters 0.5 --snapshots 2 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	for n in 1 2 3; do
		kill -USR1 "$REC"
		wait_until 10 "copy $n" test -f "$TMP/ring.snap.$n"	# one a second
	done
	stop_rec TERM
	[ ! -e "$TMP/ring.snap.1" ]
	[ "$(count_of "$TMP/ring.snap.2" marker)" -eq 2 ]
	[ "$(count_of "$TMP/ring.snap.3" marker)" -eq 3 ]
	[ ! -e "$TMP/ring.snap.4" ]
}

@test "record: a continued ring's copies stay, numbering goes on after the highest" {
	rec_bg --ring 64k --counters 0.5 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	kill -USR1 "$REC"
	wait_until 10 "the first copy" test -f "$TMP/ring.snap.1"
	stop_rec TERM
	cp "$TMP/ring.snap.1" "$TMP/ring.snap.7"
	rec_bg --ring 64k --counters 0.5 --snapshots 0 "$TMP/ring"
	wait_until 10 "the second start" dump_has "$TMP/ring" start 2
	kill -USR1 "$REC"
	wait_until 10 "the next copy" test -f "$TMP/ring.snap.8"
	stop_rec TERM
	[ "$(count_of "$TMP/ring.snap.1" marker)" -eq 1 ]
	[ "$(count_of "$TMP/ring.snap.7" marker)" -eq 1 ]
	[ "$(count_of "$TMP/ring.snap.8" marker)" -eq 2 ]
	[ ! -e "$TMP/ring.snap.2" ]
}

@test "record --snapshots: not a count is a usage error, the ring untouched" {
	for bad in x -1 1.5 1000001; do
		run --separate-stderr rdmatrace record --ring 8k --snapshots "$bad" "$TMP/ring"
		assert_failure 2
		[[ "$stderr" == "rdmatrace: invalid --snapshots '$bad': a count from 0 (keep all) to 1000000"* ]]
	done
	[ ! -e "$TMP/ring" ]
}

@test "record: a trigger just before the end is copied at the end" {
	rec_bg --ring 256k --counters 0.5 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	kill -USR1 "$REC"
	wait_until 10 "the first snapshot" test -f "$TMP/ring.snap.1"
	kill -USR1 "$REC"
	wait_until 10 "the second marker" dump_has "$TMP/ring" marker 2
	stop_rec TERM
	[ "$(count_of "$TMP/ring.snap.2" marker)" -eq 2 ]
}

@test "record: a small ring under a fast counter rate stays at its size and wraps" {
	rec_bg --ring 8k --counters 0.002 "$TMP/ring"
	wait_until 10 "the ring's header" sh -c "rdmatrace dump '$TMP/ring' > /dev/null 2>&1"
	# lapped: the start record was overwritten
	wait_until 10 "laps of the ring" sh -c "! rdmatrace dump -j '$TMP/ring' | jq -r .type | grep -qx start"
	[ "$(stat -c %s "$TMP/ring")" -eq 8192 ]
	stop_rec TERM
	[ "$(stat -c %s "$TMP/ring")" -eq 8192 ]
	run rdmatrace dump "$TMP/ring"
	assert_success
	assert_line --regexp " stop [0-9]+ records, [1-9][0-9]* laps$"
}

@test "record killed with -9: the ring still dumps, and a new run continues it" {
	rec_bg --ring 256k --counters 0.001 "$TMP/ring"
	wait_until 10 "the ring's header" sh -c "rdmatrace dump '$TMP/ring' > /dev/null 2>&1"
	# a counter that keeps moving while the recorder writes a snapshot every millisecond
	f=$HW/rxe0/ports/1/hw_counters/rcvd_pkts
	v0=$(cat "$f")
	# moved: written whole (renamed into place), so that the kill below never leaves it empty
	( i=0; while :; do i=$((i + 1)); echo "$i" > "$TMP/moved.new"; mv "$TMP/moved.new" "$TMP/moved"
	  echo $((v0 + i)) > "$f"; sleep 0.005; done ) &
	MOVER=$!
	wait_until 10 "counter deltas" dump_has "$TMP/ring" counters 1
	sleep 0.1
	stop_rec KILL || :
	kill "$MOVER"; wait "$MOVER" || :
	moved=$(cat "$TMP/moved")	# the mover may have been stopped in its next write
	[ "$(stat -c %s "$TMP/ring")" -eq 262144 ]
	run --separate-stderr rdmatrace dump -j "$TMP/ring"
	assert_success
	refute_line --partial '"type":"stop"'
	# what survives in the ring: deltas of the one counter that moved, adding up to no more
	# than was written
	run jq -r 'select(.type == "counters") | .deltas | keys[]' <<< "$output"
	[ -n "$output" ] || fail "no counter deltas in the ring"
	[ "$(sort -u <<< "$output")" = "rcvd_pkts" ]
	sum=$(rdmatrace dump -j "$TMP/ring" | jq -s '[.[] | select(.type == "counters") | .deltas.rcvd_pkts] | add')
	[ "$sum" -ge 1 ] && [ "$sum" -le "$moved" ] || fail "deltas add up to $sum, $moved written"
	rec_bg --ring 256k --counters 0.05 --duration 0.2 "$TMP/ring"
	wait "$REC"
	REC=
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	assert_line --partial '"type":"stop"'
	[ "$(stat -c %s "$TMP/ring")" -eq 262144 ]
}

@test "dump: garbage, truncated, missing: one line, exit 2" {
	head -c 9000 /dev/urandom > "$TMP/garbage"
	run --separate-stderr rdmatrace dump "$TMP/garbage"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: cannot read '$TMP/garbage': not an rdmatrace ring (bad header)" ]
	rdmatrace record --ring 8k --counters 0.05 --duration 0.1 "$TMP/ring"
	truncate -s 5000 "$TMP/ring"
	run --separate-stderr rdmatrace dump "$TMP/ring"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: cannot read '$TMP/ring': truncated: its header claims 8192 bytes but the file holds 5000" ]
	run --separate-stderr rdmatrace dump "$TMP/none"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: cannot read '$TMP/none': No such file or directory" ]
	run --separate-stderr rdmatrace dump --since yesterday "$TMP/ring"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmatrace: invalid time 'yesterday': "* ]]
	run --separate-stderr rdmatrace dump
	[ "$status" -eq 2 ]
}

@test "record: usage errors and a file that is not a ring are refused, exit 2" {
	run --separate-stderr rdmatrace record "$TMP/ring"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmatrace: record: --ring SIZE is required"* ]]
	run --separate-stderr rdmatrace record --ring 1k "$TMP/ring"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmatrace: invalid --ring '1k': "* ]]
	run --separate-stderr rdmatrace record --ring 12q "$TMP/ring"
	[ "$status" -eq 2 ]
	run --separate-stderr rdmatrace record --ring 8k --counters 0 "$TMP/ring"
	[ "$status" -eq 2 ]
	run --separate-stderr rdmatrace record --ring 8k --gid-scan 0 "$TMP/ring"
	[ "$status" -eq 2 ]
	[[ "$stderr" == "rdmatrace: invalid --gid-scan '0': seconds from 0.001 to 86400"* ]]
	[ ! -e "$TMP/ring" ]
	echo "precious" > "$TMP/notes"
	run --separate-stderr rdmatrace record --ring 8k --duration 0.1 "$TMP/notes"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmatrace: cannot record into '$TMP/notes': it exists and is not a ring of 8192 bytes" ]
	[ "$(cat "$TMP/notes")" = "precious" ]
	run --separate-stderr rdmatrace record --help
	assert_success
	[[ "$output" == *"--ring SIZE"* ]]
	run --separate-stderr rdmatrace dump --help
	assert_success
	[[ "$output" == *"--around TIME"* ]]
}

@test "record: rtnetlink link, address, route and neighbour changes, as ip monitor saw them" {
	[ "$(id -u)" = 0 ] || skip "needs root for a network namespace"
	command -v unshare > /dev/null && command -v ip > /dev/null || skip "no unshare or ip"
	unshare -n true 2> /dev/null || skip "cannot make a network namespace here"
	# in a namespace of its own: the recorder and ip monitor (the independent reader) both
	# listen while a veth pair comes up, gets an address, a route and a neighbour, goes away
	unshare -n sh -c '
		rdmatrace record --ring 64k --counters 0.5 "$1/ring" 2> "$1/err" & r=$!
		ip -o monitor link address route neigh > "$1/mon" & m=$!
		until rdmatrace dump -j "$1/ring" 2> /dev/null | grep -q "\"type\":\"start\""; do sleep 0.05; done
		sleep 0.2
		ip link add rdt0 type veth peer name rdt1 &&
		ip link set rdt0 up && ip link set rdt1 up &&
		ip addr add 198.18.5.1/24 dev rdt0 &&
		ip route add 10.77.0.0/16 via 198.18.5.9 &&
		ip neigh add 198.18.5.9 lladdr 02:00:00:00:00:09 dev rdt0 &&
		ip link del rdt0
		sleep 0.3
		kill $r $m; wait $r' sh "$TMP" || fail "the namespace's script failed"
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	run jq -r 'select(.type == "netlink") | "\(.kind) \(.action) \(.text)"' <<< "$output"
	assert_line "addr new 198.18.5.1/24 dev rdt0"
	assert_line "route new 10.77.0.0/16 via 198.18.5.9 dev rdt0"
	assert_line "neigh new 198.18.5.9 dev rdt0 lladdr 02:00:00:00:00:09 PERMANENT"
	assert_line "link del rdt0 DOWN state DOWN mtu 1500"
	# as many changes of that neighbour and that IPv4 address as ip monitor printed
	[ "$(grep -c "^neigh .* lladdr 02:00:00:00:00:09 " <<< "$output")" -eq "$(grep -c 'lladdr 02:00:00:00:00:09' "$TMP/mon")" ]
	[ "$(grep -c '^addr .* 198.18.5.1/24' <<< "$output")" -eq "$(grep -c 'inet 198.18.5.1/24' "$TMP/mon")" ]
	# and in the order they happened
	run jq -r 'select(.type == "netlink" and (.kind == "addr" or .kind == "neigh") and .action == "new" and (.text | startswith("198.18.5."))) | .kind' <<< "$(rdmatrace dump -j "$TMP/ring")"
	assert_output "addr
neigh"
}

# the dump (JSON) of RING has a port record "DEV/PORT STATE" after the first N port records
port_after() {
	rdmatrace dump -j "$1" 2> /dev/null | jq -r 'select(.type == "port") | "\(.dev)/\(.port) \(.state)"' |
		tail -n +"$(($2 + 1))" | grep -qx "$3"
}

@test "record: a device removed and re-created is GONE, then new; no delta across the two" {
	rec_bg --ring 4M --counters 0.05 "$TMP/ring"
	wait_until 10 "the first port records" dump_has "$TMP/ring" port 2
	sent=$(cat "$HW/rxe1/ports/1/hw_counters/sent_pkts")
	echo $((sent + 5)) > "$HW/rxe1/ports/1/hw_counters/sent_pkts"
	wait_until 10 "the delta of rxe1's sent_pkts" dump_has "$TMP/ring" counters 1
	# (1) rxe1 re-created at once (rdma link delete and add between two looks): a new
	# directory (the old one kept aside, so it cannot get the old inode) whose counters
	# start again, lower than the old instance's
	cp -a "$HW/rxe1" "$TMP/rxe1.new"
	echo 3 > "$TMP/rxe1.new/ports/1/hw_counters/sent_pkts"
	echo 0 > "$TMP/rxe1.new/ports/1/hw_counters/rcvd_pkts"
	mv "$HW/rxe1" "$TMP/rxe1.old" && mv "$TMP/rxe1.new" "$HW/rxe1"
	wait_until 10 "rxe1's new instance" port_after "$TMP/ring" 3 "rxe1/1 ACTIVE"
	echo 12 > "$HW/rxe1/ports/1/hw_counters/sent_pkts"
	wait_until 10 "the new instance's delta" dump_has "$TMP/ring" counters 2
	# (2) rxe0 gone for a while, then back with its counters at 0
	mv "$HW/rxe0" "$TMP/rxe0.old"
	wait_until 10 "rxe0 gone" port_after "$TMP/ring" 4 "rxe0/1 GONE"
	cp -a "$TMP/rxe0.old" "$TMP/rxe0.new"
	for f in "$TMP"/rxe0.new/ports/1/hw_counters/*; do echo 0 > "$f"; done
	mv "$TMP/rxe0.new" "$HW/rxe0"
	wait_until 10 "rxe0 back" port_after "$TMP/ring" 5 "rxe0/1 ACTIVE"
	echo 4 > "$HW/rxe0/ports/1/hw_counters/rcvd_pkts"
	wait_until 10 "rxe0's new delta" dump_has "$TMP/ring" counters 3
	stop_rec TERM
	run rdmatrace dump -j "$TMP/ring"
	assert_success
	dump=$output
	run jq -r 'select(.type == "port") | "\(.dev)/\(.port) \(.state) \(.phys_state // "-")"' <<< "$dump"
	assert_output "rxe0/1 ACTIVE LINK_UP
rxe1/1 ACTIVE LINK_UP
rxe1/1 GONE -
rxe1/1 ACTIVE LINK_UP
rxe0/1 GONE -
rxe0/1 ACTIVE LINK_UP"
	# each instance's own deltas, none across two (the first snapshot of a new one is a
	# baseline)
	run jq -r 'select(.type == "counters") | "\(.dev)/\(.port) \(.deltas | to_entries | map("\(.key)=\(.value)") | join(","))"' <<< "$dump"
	assert_output "rxe1/1 sent_pkts=5
rxe1/1 sent_pkts=9
rxe0/1 rcvd_pkts=4"
	run rdmatrace dump "$TMP/ring"
	assert_line --regexp " port rxe1/1 GONE$"
}

@test "record: no RDMA device says so once, and a device that appears later is recorded" {
	# a sysfs root without /sys/class/infiniband, as before the driver is loaded
	mkdir -p "$TMP/empty/sys/class"
	export RDMADIAG_SYSFS_ROOT=$TMP/empty
	rec_bg --ring 256k --counters 0.05 "$TMP/ring"
	wait_until 10 "the start record" dump_has "$TMP/ring" start 1
	wait_until 10 "the warning" grep -q "no RDMA device" "$TMP/err"
	# the device comes (its class directory with it, whole: the recorder looks at the
	# devices after every snapshot, and a port whose state file cp has not written yet is
	# one no kernel shows): its ports are recorded
	cp -a "$TMP/rxe/sys/class/infiniband" "$TMP/empty/sys/class/.infiniband"
	mv "$TMP/empty/sys/class/.infiniband" "$TMP/empty/sys/class/infiniband"
	wait_until 10 "the new device's ports" dump_has "$TMP/ring" port 2
	stop_rec TERM
	run grep -c "no RDMA device" "$TMP/err"
	assert_output 1
	run grep "no RDMA device" "$TMP/err"
	assert_output "rdmatrace: warning: no RDMA device under $TMP/empty/sys/class/infiniband (yet): recording rdma_cm events and rtnetlink changes, and the ports of a device that appears"
	run rdmatrace dump -j "$TMP/ring"
	run jq -r 'select(.type == "port") | "\(.dev)/\(.port) \(.state)"' <<< "$output"
	assert_output "rxe0/1 ACTIVE
rxe1/1 ACTIVE"
}

@test "record --help names every signal that ends it (SIGHUP too) and SIGUSR1" {
	run rdmatrace record --help
	assert_success
	assert_line --partial "Ends on SIGINT, SIGTERM or SIGHUP."
	assert_output --partial "SIGUSR1"
}
