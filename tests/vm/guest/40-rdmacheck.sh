# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 240
# rdmacheck on real rxe: every test passes or skips with a reason, the RNR, access and
# misaligned-atomic outcomes are asserted from the JSON, the options choose what they say,
# the default is the first ACTIVE port, the forced failures name their step and cause,
# nothing is left behind, and valgrind finds no leak.  "Nothing left behind" is checked
# inside each process, before it exits (the kernel frees every uverbs object at exit, so
# rdma res afterwards cannot see a leak of the process): every JSON result carries the
# library's live_objects after that test, and the run ends with exit 2 when it is not 0 -
# asserted on the host after passing runs, a failing one and the SIGINT one.  The guest
# runs rdmacheck and checks exit statuses and rdma res; what it wrote ($OUT/40-rdmacheck-*: JSON, -v steps, text,
# valgrind's log) is judged by host/40-rdmacheck.sh (jq costs 0.6 s a start under TCG, and
# every grep a fork).
RC=rdmacheck
J=$OUT/40-rdmacheck
MEM=16M		# the guest has 512 MiB

res_snap() { rdma res show 2>&1; }

if ! have $RC; then
	tap_fail "rdmacheck is built and in the image"
	exit 0
fi

before=$(res_snap)
log "rdma res before: $before"

# --- 1. every test on the default device (first ACTIVE port: rxe0, loopback) -----------
# One JSON run of all six tests, with 9 x 2 MiB huge pages reserved so that mr-cost also
# measures hugetlb 2 MiB and 16 MiB (given back right after).  Judged on the host
# (verdicts, the device chosen, RNR WC and counters and NAK spacing, access WC 10 and
# counters, odd addresses, atomics, gid-sweep, mr-cost sizes).  The text form of the
# output is checked on the valgrind run below.
log "section 1"
hp=/proc/sys/vm/nr_hugepages
read -r hp0 < $hp
echo 9 > $hp
$RC -j --max-mem $MEM > "$J-all.json" 2> "$J-all.err"
st_all=$?
echo "$hp0" > $hp
read -r hp1 < $hp
tap_eq "rdmacheck (all tests, default device, huge pages reserved) exits 0" 0 "$st_all"
tap_eq "nr_hugepages is back to $hp0" "$hp0" "$hp1"

# --- 2. every device option at once, two devices, -v ------------------------------------
# rxe0 -> rxe1 over veth: the counters of both ends (the RNR deltas are asserted on the
# host).  -g 0 and --peer-gid-index 0 are the link-local fe80:: RoCE v2 GIDs, not the
# default IPv4 one, so the JSON shows that -g was obeyed; -v's steps go to stderr, here
# into the same file as the JSON lines, so that their order shows they came as each test
# ran.
log "section 2"
$RC -v -j -d "$DEV0" -p 1 -g 0 --peer "$DEV1" --peer-port 1 --peer-gid-index 0 \
	qp-states rnr access alignment gid-sweep > "$J-peer.out" 2>&1
st_peer=$?
tap_eq "rdmacheck -v -j -d rxe0 -p 1 -g 0 --peer rxe1 --peer-port 1 --peer-gid-index 0 (qp-states rnr access alignment gid-sweep) exits 0" 0 "$st_peer"

# --- 3. forced failures: each names its step and cause, exit 1 --------------------------
# the exit status here; the step, errno and hint of each from its JSON on the host
log "section 3"
$RC -j -g 7 qp-states > "$J-badgid.json" 2>&1; st=$?
tap_eq "a bad GID index (-g 7) fails with exit 1" 1 "$st"
$RC -j --force-path-mtu 4096 qp-states > "$J-mtu.json" 2>&1; st=$?
tap_eq "path MTU 4096 above the port's 1024 fails with exit 1" 1 "$st"
# the send of a packet above the veth MTU never completes: 200 ms of waiting shows it
$RC -j --peer "$DEV1" --force-path-mtu 4096 --timeout 200 qp-states > "$J-mtu-peer.json" 2>&1; st=$?
tap_eq "path MTU 4096 between rxe0 and rxe1 over veth (MTU 1500) fails with exit 1" 1 "$st"
$RC -j --force-bad-dest-qpn qp-states > "$J-qpn.json" 2>&1; st=$?
tap_eq "a destination QP that does not exist fails with exit 1" 1 "$st"
# -p without -d: the first device whose port 2 is ACTIVE (rxe has one port), exit 2
$RC -p 2 qp-states > "$J-port2.err" 2>&1; st=$?
tap_eq "-p 2 without -d: no device has an ACTIVE port 2, exit 2" 2 "$st"
# the text form of a failure (its expansion is checked on the host)
$RC -g 7 qp-states > "$J-badgid.txt" 2>&1; st=$?
tap_eq "the same bad GID index in text form: exit 1" 1 "$st"

# --- 4. SIGINT in the middle of a test releases everything ------------------------------
log "section 4"
# A path MTU above the veth's makes rxe's send wait with no completion (seen above): a
# wait that lasts (--timeout 30 s) is the place to interrupt.  -j: the interrupted
# result's live_objects (after its release) is judged on the host; -v's steps and the
# closing line go to stderr, into the same file.
$RC -v -j --peer "$DEV1" --force-path-mtu 4096 --timeout 30000 qp-states > "$J-int.txt" 2>&1 &
pid=$!
await 20 "rdmacheck -v reaches the RC data exchange" grep -q "RC data exchange: SEND" "$J-int.txt"
sleep 0.1
t0=$(now)
kill -INT $pid
wait $pid; st=$?
t1=$(now)
tap_eq "SIGINT while waiting for a completion: exit 2" 2 "$st"
tap_check "SIGINT: rdmacheck stopped within 2 s ($t0 -> $t1)" \
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a < 2) }'

# --- 5. no leak, and the text form ----------------------------------------------------
# Leak check, one way: when rdmacheck itself is an ASan build (make SANITIZE=address,...:
# LeakSanitizer then runs at the exit of every rdmacheck above too) or an ASan build is
# in the image as rdmacheck-asan (VM_EXTRA_BINS), that; else valgrind's memcheck.  The
# image may carry only valgrind's tool binary (Debian's /usr/bin/valgrind is a shell
# wrapper around valgrind.bin): then memcheck runs directly.
# What it covers: one process running qp-states (RC/UC/UD QPs through every state, the
# illegal transitions, ERR->RESET, data exchange), gid-sweep (a QP per GID index),
# alignment (odd-address MRs, SEND/WRITE/READ, atomics, the refused misaligned atomic),
# access (three remote access errors: QPs left in ERR) and mr-cost --max-mem 64K (4 and
# 64 KiB registrations, huge pages, ODP): every create/release path of the self-test
# library on passing tests.  Not the cleanup after a failed step: every test here passes
# (one -g or fault applies to the whole process, and a second valgrind run costs ~10 s
# under TCG).  That cleanup is covered by the ASan build when there is one (LeakSanitizer
# then checks the forced-failure and SIGINT runs above at their exit too) and, in every
# run, by their live_objects of 0.  Not rnr: it creates and releases nothing the others
# do not, and its waits cost 4 s under valgrind on TCG (a fifth more on the run).
# Valgrind's own start costs ~7 s here, so this one run also gives the text output that
# the host checks (a header and five PASS/SKIP lines).  Valgrind's complaints about the
# image turn into a skip.
log "section 5"
vg() {
	if have valgrind.bin; then valgrind "$@"
	else VALGRIND_LAUNCHER=/usr/bin/valgrind VALGRIND_LIB=/usr/libexec/valgrind \
		/usr/libexec/valgrind/memcheck-amd64-linux "$@"; fi
}
LEAKRUN="--max-mem 64K qp-states gid-sweep alignment access mr-cost"
leak=none
asan=
if grep -q __asan_init "$(command -v $RC)" 2>/dev/null; then asan=$RC
elif have rdmacheck-asan; then asan=rdmacheck-asan; fi
t0=$(now)
if [ -n "$asan" ]; then
	leak=asan
	ASAN_OPTIONS=detect_leaks=1:exitcode=99 $asan $LEAKRUN > "$J-leak.txt" 2> "$J-leak.log"
	st_leak=$?
elif have valgrind || [ -x /usr/libexec/valgrind/memcheck-amd64-linux ]; then
	leak=valgrind
	vg --leak-check=full --show-leak-kinds=definite,indirect --read-inline-info=no \
		--errors-for-leak-kinds=definite,indirect --error-exitcode=99 \
		$RC $LEAKRUN > "$J-leak.txt" 2> "$J-leak.log"
	st_leak=$?
else
	$RC $LEAKRUN > "$J-leak.txt" 2> "$J-leak.log"
	st_leak=$?
fi
t1=$(now)
# judged on the host: valgrind's summary (or ASan's silence), five PASS/SKIP lines
# after the processes exited: what the kernel itself kept (a leak inside a process is the
# live_objects check above)
tap_eq "rdma res show is the same before and after every run above" "$before" "$(res_snap)"

# --- 6. the default device is the first one with an ACTIVE port --------------------------
# Run 1 took rxe0 port 1 (asserted on the host).  To see a later device chosen, the first
# ones must not be ACTIVE: veth0 down takes rxe0 down, and rxe1 too (the peer of a downed
# veth loses its carrier), so a third device, rxe2 on a dummy netdev, is the first ACTIVE
# one then.  Last in this script: link_down flushes the neighbour entries of both veths
# (the IPv4 ones are put back as STALE, so the next script's first connection does not
# wait for ARP) and veth0's link-local address is new after link_up.
log "section 6"
neigh=$(ip -4 neigh show)
log "neighbours: $neigh"
ip -b - <<-EOF
	link add rdchk0 type dummy
	link set rdchk0 up
EOF
rdma link add rxe2 type rxe netdev rdchk0
wait_port_active rxe2 || tap_fail "rxe2 on rdchk0 becomes ACTIVE"
link_down "$NET0"
read -r s0 < /sys/class/infiniband/$DEV0/ports/1/state
read -r s1 < /sys/class/infiniband/$DEV1/ports/1/state
read -r s2 < /sys/class/infiniband/rxe2/ports/1/state
$RC -j gid-sweep > "$J-first.json" 2>&1
st_first=$?
link_up "$NET0"
wait_port_active "$DEV1" || tap_fail "$DEV1 is ACTIVE again after link_up $NET0"
rdma link delete rxe2
# the neighbour entries as they were (STALE: the kernel confirms them on use); the GIDs
# and addresses are back by themselves (the runner checks)
{
	echo "link del rdchk0"
	while read -r ip _ dev _ mac _; do
		[ "$dev" = "$NET0" ] || [ "$dev" = "$NET1" ] || continue
		[ -n "$mac" ] && echo "neigh replace $ip lladdr $mac dev $dev nud stale"
	done <<< "$neigh"
} | ip -force -b -
tap_eq "with veth0 down, rdmacheck (no -d) runs on the first ACTIVE device (exit 0; ports: rxe0 $s0, rxe1 $s1, rxe2 $s2)" 0 "$st_first"

{ echo "GID=$GID"; echo "MEM=$MEM"; echo "st_all=$st_all"; echo "leak=$leak"
  echo "st_leak=$st_leak"; echo "leak_s='$t0 $t1'"; echo "LEAKRUN='$LEAKRUN'"
  echo "s0='$s0'"; echo "s1='$s1'"; echo "s2='$s2'"; } > "$J.env"
log "done"
