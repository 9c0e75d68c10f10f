# vm-timeout: 60
# rdmatrace record (the flight recorder) on the real kernel: a 2 MB ring at a 50 ms counter
# interval through (1) a successful rping between two SIGUSR1 markers, with rxe0's own
# hw_counters read before and after; (2) $NET0 down and up again (port state, rtnetlink);
# (3) an rping to a port nobody listens on, whose failure triggers FILE.snap.1.  Then an 8 kB
# ring at 5 ms laps and is killed with -9 mid-write.  Judged by host/61-recorder.sh
# on the dumps made here.
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
