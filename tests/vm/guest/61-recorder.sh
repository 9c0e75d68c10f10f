# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 90
# rdmatrace record (the flight recorder) on the real kernel: a 2 MB ring at a 50 ms counter
# interval through (1) a successful rping between two SIGUSR1 markers, with rxe0's own
# hw_counters read before and after; (2) $NET0 down and up again (port state, rtnetlink);
# (3) an rping to a port nobody listens on, whose failure triggers FILE.snap.1.  Then an 8 kB
# ring at 5 ms laps and is killed with -9 mid-write.  A second ring with --thresholds sees
# (4) a threshold rule and an rping burst, (5) its QPs, (6) a GID added and removed; a third
# ring (7) a QP held in ERR; a fourth (8) $DEV1 deleted and added again (rdma link).
# Judged by host/61-recorder.sh on the dumps made here.
J=$OUT/61-recorder
have rdmatrace || { tap_fail "rdmatrace is built and in the image"; exit 0; }
T=/sys/kernel/tracing
mounted=
if ! grep -q " $T tracefs" /proc/mounts; then
	mount -t tracefs nodev $T && mounted=1
fi
R=/tmp/61.ring
rm -f $R $R.snap.*
has_type() { rdmatrace dump -j "$1" 2>/dev/null | grep -q "\"type\":\"$2\""; }

rdmatrace record --ring 2M --counters 0.05 $R 2> "$J-record.err" & rec=$!
await 10 "the recorder wrote its first port records" has_type $R port
hwc_snap "$DEV0" "$J-hwc0"
kill -USR1 $rec
sleep 0.15	# a snapshot after the marker
RPING_PORT=7190 rping_pair 1 64; echo "success rc=$?" > "$J-scen.txt"
sleep 0.15	# and one after the traffic
hwc_snap "$DEV0" "$J-hwc1"
kill -USR1 $rec
# (2) the port flaps
link_down "$NET0"
await 5 "$DEV0's port leaves ACTIVE" sh -c "! grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state"
# ports are sampled (a discovery takes up to a second under TCG): a flap shorter than that
# shows in the rtnetlink link records and link_downed, not always as port records
sleep 1.5
link_up "$NET0"
await 5 "the RoCE v2 GID of $A is back on $DEV0" gid_index "$DEV0" "$A"
sleep 1.1
# (3) nobody listens: the failed connection triggers a copy of the ring
rping -c -I "$A" -a "$B" -p 7599 -C 1 -v > "$J-nolisten.out" 2>&1 & p=$!
wait $p; echo "nolisten pid=$p rc=$?" >> "$J-scen.txt"
has_fail() { rdmatrace dump -j $R 2>/dev/null | grep -q '"text":"failed connection .* to 198.18.0.2:7599'; }
await 10 "the failed connection's marker" has_fail
sleep 0.3
snap=$(ls $R.snap.* | sort -t. -k3 -n | tail -1)
tap_eq "the ring stays at its size while recording" 2097152 "$(stat -c %s $R)"
kill -TERM $rec; wait $rec; echo "record rc=$?" >> "$J-scen.txt"
rdmatrace dump -j $R > "$J-dump.json" 2> "$J-dump.err"; echo "dump rc=$?" >> "$J-scen.txt"
rdmatrace dump -j "$snap" > "$J-snap.json" 2> "$J-snap.err"; echo "snap rc=$?" >> "$J-scen.txt"
ls -l $R* >&2

# the triggers and change records, in a second ring at a 0.5 s interval (a burst shorter
# than an interval cannot breach, clear and breach again): (4) a threshold rule on rxe0's
# rcvd_pkts and one rping burst, with sysfs read around it (a steady burst longer than an
# interval breaches in each of its full intervals); (5) the QP of a waiting ibv_rc_pingpong
# server as it comes and goes (it never enters ERR: perftest and the pingpongs ask for
# retry_cnt 7, which rxe takes as infinite, so (7) holds one in ERR with qp_hold_err);
# (6) an address added to $NET0 and removed again: a GID entry on $DEV0, as sysfs has it
RT=/tmp/61.trig
rm -f $RT $RT.snap.*
echo "rcvd_pkts@$DEV0 > +100" > /tmp/61.rules
rdmatrace record --ring 512k --counters 0.5 --thresholds /tmp/61.rules $RT 2> "$J-trig.err" & rec=$!
await 10 "the second recorder wrote its first port records" has_type $RT port
hwc_snap "$DEV0" "$J-trig-hwc0"
RPING_PORT=7191 rping_pair 10 32768; echo "burst rc=$?" >> "$J-scen.txt"
hwc_snap "$DEV0" "$J-trig-hwc1"	# the snapshots after the burst come during (6)
# (5) a QP that lives a while: an ibv_rc_pingpong server waiting for its peer holds one
timeout 30 ibv_rc_pingpong -d "$DEV1" -g "$GID" -p 18561 >&2 2>&1 & pps=$!
pp_qp() { rdma -j res show qp | jq -e --arg p "$pps" 'map(select((.pid | tostring) == $p)) | length == 1'; }
await 10 "the waiting pingpong's QP" pp_qp
rdma -j res show qp > "$J-rdma-qp.json"
echo "waiter pid=$pps" >> "$J-scen.txt"
qp_rec() { rdmatrace dump -j $RT 2>/dev/null | grep -q "\"comm\":\"ibv_rc_pingpong\""; }
await 10 "the recorder's record of its QP" qp_rec
kill $pps; wait $pps 2>/dev/null
# (6) a new address on $NET0: its RoCE v2 GID
ip addr add 198.18.0.61/24 dev "$NET0"
await 5 "the GID of 198.18.0.61 on $DEV0" gid_index "$DEV0" 198.18.0.61
echo "gid index=$(gid_index "$DEV0" 198.18.0.61) value=$(cat /sys/class/infiniband/$DEV0/ports/1/gids/$(gid_index "$DEV0" 198.18.0.61))" >> "$J-scen.txt"
gid_rec() { rdmatrace dump -j $RT 2>/dev/null | grep -q '"action":"added","gid":"0000:0000:0000:0000:0000:ffff:c612:003d"'; }
await 5 "the recorder's GID record" gid_rec
ip addr del 198.18.0.61/24 dev "$NET0"
gid_gone() { rdmatrace dump -j $RT 2>/dev/null | grep -q '"action":"removed","gid":"0000:0000:0000:0000:0000:ffff:c612:003d"'; }
await 5 "the recorder's GID removal record" gid_gone
kill -INT $rec; wait $rec; echo "trig rc=$?" >> "$J-scen.txt"
rdmatrace dump -j $RT > "$J-trig.json" 2> "$J-trig-dump.err"; echo "trig-dump rc=$?" >> "$J-scen.txt"
rm -f $RT $RT.snap.* /tmp/61.rules

# (7) a QP held in ERR (tests/vm/progs/qp_hold_err: an RC QP connected to itself) in a ring
# of its own at 0.1 s: the QP is moved on (SIGUSR1, -u) once the recorder has its RTS, then
# its ERR; rdma res show qp taken while it is held in ERR.  Its records, exactly one
# QP-in-ERR marker and one ring copy are judged on the host.
if have qp_hold_err; then
	RQ=/tmp/61.qperr
	rm -f $RQ $RQ.snap.*
	rdmatrace record --ring 256k --counters 0.1 $RQ 2> "$J-qperr.err" & rec=$!
	await 10 "the QP recorder's first port records" has_type $RQ port
	sleep 0.3	# the same snapshot's first look at the QPs (the baseline), and more
	# at most 10 s in each state: the script moves it on sooner
	qp_hold_err -d "$DEV0" -g "$GID" -u -r 10000 -s 10 > "$J-qperr.out" 2> "$J-qperr-prog.err" & qh=$!
	qpn=
	got() { grep -q "^$1 qpn " "$J-qperr.out"; }
	# (an extended regex: the recorder may have seen the QP first in INIT, before its RTS)
	rec_of() { rdmatrace dump -j $RQ 2>/dev/null | grep -qE "\"qpn\":$qpn,\"qp_type\":\"RC\",$1"; }
	if await 5 "qp_hold_err has its QP in RTS" got RTS; then
		qpn=$(sed -n 's/^RTS qpn //p' "$J-qperr.out")
		await 5 "the recorder's record of QP $qpn in RTS" rec_of '("prev_state":"[A-Z_]+",)?"state":"RTS"'
		kill -USR1 $qh
		if await 5 "qp_hold_err has its QP in ERR" got ERR; then
			rdma -j res show qp > "$J-qperr-rdma.json"
			await 5 "the recorder's record of QP $qpn into ERR" rec_of '"prev_state":"RTS","state":"ERR"'
		fi
		kill -USR1 $qh
	fi
	wait $qh; echo "qperr rc=$?" >> "$J-scen.txt"
	[ -z "$qpn" ] || await 5 "the recorder's record of QP $qpn going away" rec_of '"prev_state":"ERR","pid"'
	kill -INT $rec; wait $rec; echo "qperr-record rc=$?" >> "$J-scen.txt"
	rdmatrace dump -j $RQ > "$J-qperr.json" 2> "$J-qperr-dump.err"; echo "qperr-dump rc=$?" >> "$J-scen.txt"
	ls $RQ.snap.* > "$J-qperr-snaps.txt" 2>/dev/null
	for f in $RQ.snap.*; do [ -f "$f" ] && rdmatrace dump -j "$f" > "$J-qperr-${f##*.}.json" 2>> "$J-qperr-dump.err"; done
	rm -f $RQ $RQ.snap.*
else
	tap_fail "qp_hold_err is in the image (tests/vm/progs/build.sh: see progs.log on the host)"
fi

# (8) $DEV1 deleted and added again under a recorder (rdma link delete/add): a GONE port
# record, then the new instance's, and no counter delta across the two instances (the new
# one counts from 0: its first snapshot is a baseline), an rping's on the new one
RD=/tmp/61.devdel
rm -f $RD $RD.snap.*
rdmatrace record --ring 1M --counters 0.1 $RD 2> "$J-devdel.err" & rec=$!
await 10 "the device recorder's first port records" has_type $RD port
states() { rdmatrace dump -j $RD 2>/dev/null | jq -r --arg d "$DEV1" 'select(.type == "port" and .dev == $d) | .state' | tr '\n' ' '; }
rdma link delete "$DEV1"; echo "devdel-rec delete rc=$?" >> "$J-scen.txt"
await 5 "the recorder's GONE record of $DEV1" eval 'states | grep -q "GONE $"'
rdma link add "$DEV1" type rxe netdev "$NET1" && wait_port_active "$DEV1"
await 5 "the recorder's record of $DEV1's new instance" eval 'states | grep -q "GONE ACTIVE $"'
await 5 "the RoCE v2 GID of $B is back on $DEV1" gid_index "$DEV1" "$B"
RPING_PORT=7192 rping_pair 1 64; echo "devdel-rec rping rc=$?" >> "$J-scen.txt"
# a snapshot of $DEV1 with a delta after its new port record
new_delta() {
	rdmatrace dump -j $RD 2>/dev/null | jq -s -e --arg d "$DEV1" '(map(.type == "port" and .dev == $d and .state == "ACTIVE") | rindex(true)) as $i | $i != null and (.[$i:] | any(.type == "counters" and .dev == $d))' > /dev/null
}
await 5 "the recorder's deltas of $DEV1's new instance" new_delta
kill -INT $rec; wait $rec; echo "devdel-record rc=$?" >> "$J-scen.txt"
rdmatrace dump -j $RD > "$J-devdel.json" 2> "$J-devdel-dump.err"
tap_eq "$DEV1's port records: ACTIVE, GONE at rdma link delete, ACTIVE at add" \
	"ACTIVE GONE ACTIVE " "$(jq -r --arg d "$DEV1" 'select(.type == "port" and .dev == $d) | .state' "$J-devdel.json" | tr '\n' ' ')"
tap_eq "no counter delta is negative across the device's two instances" "" \
	"$(jq -c 'select(.type == "counters") | .deltas | to_entries[] | select(.value < 0)' "$J-devdel.json")"
rm -f $RD $RD.snap.*

# a small ring under a fast rate: laps, then kill -9
rdmatrace record --ring 8k --counters 0.005 $R.small 2> "$J-small.err" & rec=$!
await 10 "the small ring's header" sh -c "rdmatrace dump $R.small > /dev/null 2>&1"
sleep 1
tap_eq "the small ring stays at its size" 8192 "$(stat -c %s $R.small)"
kill -KILL $rec; wait $rec 2>/dev/null
rdmatrace dump -j $R.small > "$J-small.json" 2> "$J-small-dump.err"
echo "small-dump rc=$?" >> "$J-scen.txt"
rdmatrace record --ring 8k --counters 0.005 --duration 1 $R.small 2>> "$J-small.err"
rdmatrace dump -j $R.small > "$J-small2.json" 2>> "$J-small-dump.err"
echo "small-dump2 rc=$?" >> "$J-scen.txt"
tap_eq "no rdmadiag ftrace instance is left" "" "$(ls "$T/instances" | grep '^rdmadiag-')"
rm -f $R $R.snap.* $R.small
[ -n "$mounted" ] && umount $T
exit 0
