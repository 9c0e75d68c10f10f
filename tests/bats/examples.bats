#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# examples/*.c, one program per public module, built as another project would: against the
# *installed* headers and shared library (make install into a scratch DESTDIR, then cc with
# `pkg-config --cflags --libs rdmadiag`), and run where they need no RDMA device: on the
# fixture captures (checked against tests/fixtures/pcap/MANIFEST.json), the fixture sysfs
# trees (checked against the counter files) and librdmacm's/libibverbs' own strings.
load helper

setup_file() {
	export DEST="$BATS_FILE_TMPDIR/dest" EX="$BATS_FILE_TMPDIR/ex"
	make -C "$ROOT" --no-print-directory -s install PREFIX=/opt/rd DESTDIR="$DEST" >/dev/null
	mkdir -p "$EX"
	local san pc c b
	# a library built with SANITIZE= needs its users built the same way
	san=$(grep -o -- '-fsanitize=[^ ]*' "$ROOT/.build-flags" | head -1)
	pc=$(PKG_CONFIG_PATH="$DEST/opt/rd/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$DEST" \
		pkg-config --cflags --libs rdmadiag)
	for c in "$ROOT"/examples/*.c; do
		b=$(basename "$c" .c)
		# shellcheck disable=SC2086
		cc -std=gnu11 -Wall -Wextra -Werror $san -o "$EX/$b" "$c" $pc \
			-Wl,-rpath,"$DEST/opt/rd/lib" 2> "$EX/$b.err" || :
	done
}

manifest() {	# manifest FILE KEY: one field of a fixture's MANIFEST entry, as JSON
	python3 -c 'import json,sys
m = json.load(open(sys.argv[1]))
print(json.dumps(next(c for c in m["captures"] if c["file"] == sys.argv[2])[sys.argv[3]], sort_keys=True))' \
		"$FIX/pcap/MANIFEST.json" "$1" "$2"
}

@test "every example builds against the installed header and library through pkg-config" {
	n=0
	for c in "$ROOT"/examples/*.c; do
		b=$(basename "$c" .c)
		[ -x "$EX/$b" ] || fail "$b did not build: $(cat "$EX/$b.err")"
		# the installed shared library, not the tree's static archive
		run readelf -d "$EX/$b"
		assert_output --partial "Shared library: [librdmadiag.so.0]"
		run ldd "$EX/$b"
		assert_output --partial "$DEST/opt/rd/lib/librdmadiag.so.0"
		n=$((n + 1))
	done
	[ "$n" -ge 7 ]
}

@test "every installed public header is used by an example" {
	for h in "$DEST"/opt/rd/include/rdmadiag/*.h; do
		b=$(basename "$h")
		grep -lq "#include <rdmadiag/$b>" "$ROOT"/examples/*.c ||
			fail "no example includes rdmadiag/$b"
	done
}

@test "packet: a generated frame decodes, and the ICRC the library computes checks" {
	run "$EX/packet"
	assert_success
	assert_line --index 0 --partial "RC_SEND_ONLY qp 0x000012 psn 256 A payload 8 icrc bad"
	assert_line --index 1 --partial "RC_SEND_ONLY qp 0x000012 psn 256 A payload 8 icrc ok"
	# the opcode number agrees with tshark's IBTA table for the same name
	assert_line --index 2 'opcode "rc_send_only" is 0x04'
}

@test "capture: frame and opcode counts of the fixtures are the manifest's" {
	for f in rc_ops.pcap mixed_non_roce.pcap rc_ops.pcapng; do
		run "$EX/capture" "$FIX/pcap/$f"
		assert_success
		assert_line --index 0 --regexp "^$(manifest "$f" frames) frames, "
		got=$(printf '%s\n' "$output" | tail -n +2 | python3 -c 'import json,sys
print(json.dumps({l.split()[0]: int(l.split()[1]) for l in sys.stdin}, sort_keys=True))')
		[ "$got" = "$(manifest "$f" opcodes)" ] || fail "$f: $got"
	done
}

@test "capture: the dump writer keeps exactly the RDMA frames; a failed open says why" {
	run "$EX/capture" "$FIX/pcap/mixed_non_roce.pcap" "$BATS_TEST_TMPDIR/rdma.pcap"
	assert_success
	rdma=$(printf '%s\n' "$output" | sed -n 's/^.* frames, \([0-9]*\) RDMA$/\1/p')
	run "$EX/capture" "$BATS_TEST_TMPDIR/rdma.pcap"
	assert_line --index 0 "$rdma frames, $rdma RDMA"
	[ "$(tcpdump -r "$BATS_TEST_TMPDIR/rdma.pcap" 2>/dev/null | wc -l)" -eq "$rdma" ]
	run "$EX/capture" "$BATS_TEST_TMPDIR/nonexistent.pcap"
	assert_failure 2
	assert_output "capture: cannot open '$BATS_TEST_TMPDIR/nonexistent.pcap': No such file or directory"
	run "$EX/capture" "$FIX/pcap/rc_ops.pcap" "$BATS_TEST_TMPDIR/no/such/dir/x.pcap"
	assert_failure 2
	assert_output --partial "capture: cannot create '$BATS_TEST_TMPDIR/no/such/dir/x.pcap'"
}

@test "flow: packets, PSN gaps and duplicates per flow are the manifest's" {
	for f in psn_events.pcap rc_ops.pcap mixed_non_roce.pcap; do
		run "$EX/flow" "$FIX/pcap/$f"
		assert_success
		got=$(printf '%s\n' "$output" | grep ' qp 0x' | python3 -c 'import json,re,sys
out = {}
for l in sys.stdin:
    m = re.match(r"(\S+) > (\S+) qp (0x[0-9a-f]+): (\d+) pkts, (\d+) gaps, (\d+) dup", l)
    out[f"{m[1]}>{m[2]} qp {m[3]}"] = [int(m[4]), int(m[5]), int(m[6])]
print(json.dumps(out, sort_keys=True))')
		want=$(manifest "$f" flows | python3 -c 'import json,sys
print(json.dumps({k: [v["packets"], v["gap_events"], v["duplicates"]]
                  for k, v in json.load(sys.stdin).items()}, sort_keys=True))')
		[ "$got" = "$want" ] || fail "$f: got $got, want $want"
		assert_line --partial "total: $(manifest "$f" frames) frames"
	done
}

@test "counters: every value is the sysfs file's, a breached rule exits 1, a bad rule 2" {
	export RDMADIAG_SYSFS_ROOT="$FIX/sysfs/rxe"
	ib="$RDMADIAG_SYSFS_ROOT/sys/class/infiniband"
	run "$EX/counters" 'rcvd_rnr_err@rxe0 > 0'
	assert_failure 1
	for d in "$ib"/*; do
		dev=$(basename "$d")
		assert_line --regexp "^$dev/1 ACTIVE Ethernet netdev $(cat "$d/ports/1/gid_attrs/ndevs/0"), "
		for f in "$d"/ports/1/hw_counters/*; do
			n=$(basename "$f")
			[ "$n" = lifespan ] && continue
			assert_line --regexp "^$dev/1 $n +$(cat "$f") "
		done
	done
	assert_line "breach: rxe0/1 rcvd_rnr_err: $(cat "$ib/rxe0/ports/1/hw_counters/rcvd_rnr_err") (rule on line 1)"
	run "$EX/counters" 'sent_pkts > 1000000'
	assert_success
	run "$EX/counters" 'sent_pkts >'
	assert_failure 2
	assert_output --partial "counters: rules: line 1: "
}

@test "qps: the QPs of a recorded kernel are the ones rdma res show qp printed" {
	RDMADIAG_NL_REPLAY="$FIX/netlink/rxe-qp.rec" RDMADIAG_SYSFS_ROOT=/nonexistent run "$EX/qps"
	assert_success
	got=$(printf '%s\n' "$output" | sed 's/ pid.*//' | sort)
	want=$(python3 -c 'import json,sys
for q in json.load(open(sys.argv[1])):
    rq = " rqpn %d" % q["rqpn"] if "rqpn" in q else ""
    print("%s/%d lqpn %d %s %s%s" % (q["ifname"], q["port"], q["lqpn"], q["type"], q["state"], rq))' \
		"$FIX/netlink/rxe-qp.rdma.json" | sort)
	[ -n "$got" ] && [ "$got" = "$want" ] || fail "got '$got', want '$want'"
	RDMADIAG_NL_REPLAY="$BATS_TEST_TMPDIR/none.rec" run "$EX/qps"
	assert_failure 2
	assert_output --partial "qps: "
	assert_output --partial "none.rec"
}

@test "selftest: the test table needs no device; a failed open says what to check" {
	run "$EX/selftest"
	assert_success
	got=$(printf '%s\n' "$output" | awk '{print $1}' | tr '\n' ' ')
	want=$(rdmacheck --list | awk 'NR > 0 {print $1}' | grep -v '^$' | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "example lists '$got', rdmacheck --list '$want'"
	[ -e /sys/class/infiniband ] && skip "this machine has RDMA devices"
	run "$EX/selftest" run
	assert_failure 2
	assert_output --partial "selftest: no RDMA device: /sys/class/infiniband is missing"
}

@test "doctor: the host checks find the fixture's devices, or none" {
	RDMADIAG_SYSFS_ROOT="$FIX/sysfs/rxe" run "$EX/doctor"
	n=$(ls "$FIX/sysfs/rxe/sys/class/infiniband" | wc -l)
	assert_line --regexp "^ok +devices +$n RDMA device\(s\)$"
	assert_line --regexp "^verdict: "
	[ -e /sys/class/infiniband ] && skip "this machine has RDMA devices"
	run "$EX/doctor"
	assert_failure 1
	assert_line --regexp "^problem +devices .*\[no_rdma_device\]$"
	assert_line --partial "verdict: problem (no_rdma_device, layer host)"
}

@test "strings: event and WC wording agree with librdmacm's and libibverbs' own" {
	cat > "$BATS_TEST_TMPDIR/o.c" <<'C'
#include <stdio.h>
#include <rdma/rdma_cma.h>
#include <infiniband/verbs.h>
int main(void) { printf("%s|%s\n", rdma_event_str(RDMA_CM_EVENT_REJECTED),
	ibv_wc_status_str(IBV_WC_RNR_RETRY_EXC_ERR)); return 0; }
C
	cc -o "$BATS_TEST_TMPDIR/o" "$BATS_TEST_TMPDIR/o.c" -lrdmacm -libverbs
	IFS='|' read -r ev wc < <("$BATS_TEST_TMPDIR/o")
	run "$EX/strings" "$ev" 28
	assert_success
	assert_line --index 0 --regexp "^${ev#RDMA_CM_EVENT_} \([0-9]+\) \[error\]: "
	assert_line --index 1 "status: reject reason 28 CONSUMER_DEFINED"
	run "$EX/strings" wc RNR_RETRY_EXC_ERR
	assert_success
	assert_line --index 0 "IBV_WC_RNR_RETRY_EXC_ERR (13): $wc"
	run "$EX/strings" NO_SUCH_EVENT 0
	assert_failure 2
}

@test "strings explain: a real NCCL line is the WC status libibverbs names, vendor 0x81" {
	run "$EX/strings" explain "NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129"
	assert_failure 1
	assert_line --index 0 --partial "IBV_WC_RETRY_EXC_ERR: "
	assert_line --index 1 --partial "vendor error 0x81: timeout"
	assert_line --index 2 --regexp "^likely: .*\(rdmadoctor connect PEER\)$"
	run "$EX/strings" explain "nothing to see"
	assert_success
	assert_output "no completion error in this line"
}

@test "fabric: the chain of a recorded DCB reply holds; without DCB nothing is checked" {
	RDMADIAG_SYSFS_ROOT="$FIX/fabric/ofed" RDMADIAG_NL_REPLAY="$FIX/fabric/dcb-pfc3.rec" \
		run "$EX/fabric" eth0 -1 mlx5_0 1
	assert_success
	assert_line --index 0 "pfc enabled on: 3"
	assert_line --index 1 "chain: ok"
	assert_line --index 4 --partial "priority ok            priority 3 (qos/trust dscp, qos/dscp2prio 26 -> 3)"
	RDMADIAG_SYSFS_ROOT="$FIX/fabric/upstream" RDMADIAG_NL_REPLAY="$FIX/fabric/dcb-none.rec" \
		run "$EX/fabric" eth0 106
	assert_success
	assert_line --index 0 "dcb: eth0 has no DCB (the driver does not implement dcbnl)"
	assert_line --index 1 "chain: unknown"
}

@test "trace: the QEMU capture's connections, with the shared cause ids and their meaning" {
	run "$EX/trace" "$FIX/trace/rxe-6.1"
	assert_success
	assert_line --regexp "^cm\.id 1 pid $(sed -n 's/^nolisten pid=\([0-9]*\).*/\1/p' "$FIX/trace/rxe-6.1/scen.txt") active failed: no_listener \[cm\] nothing listens"
	assert_line --partial "active failed: cm_no_response [cm]"
	assert_line --regexp "^[0-9]+ events$"
	run "$EX/trace" "$BATS_TEST_TMPDIR"
	assert_failure 2
	assert_output --partial "trace: cannot parse the event formats in"
}

@test "librdmadiag(3) names every function the installed library exports, and each header" {
	page="$DEST/opt/rd/share/man/man3/librdmadiag.3"
	[ -f "$page" ]
	missing=""
	for f in $(nm -D --defined-only "$DEST/opt/rd/lib/librdmadiag.so.0" |
		   awk '$2 == "T" {sub(/@.*/, "", $3); print $3}'); do
		grep -q "\\b$f\\b" "$page" || missing="$missing $f"
	done
	[ -z "$missing" ] || fail "not in librdmadiag(3):$missing"
	for h in "$DEST"/opt/rd/include/rdmadiag/*.h; do
		grep -q "<rdmadiag/$(basename "$h")>" "$page" || fail "librdmadiag(3) has no $(basename "$h")"
	done
	# the convention is written down
	run man -l "$page"
	assert_output --partial "Conventions"
	assert_output --regexp "rdiag_X_errmsg\(NULL\) +is +the +reason"
}

@test "ring: records written past the ring's size, the newest read back in order" {
	run "$EX/ring" "$BATS_TEST_TMPDIR/ring" 16384 5000
	assert_success
	assert_line --index 0 --regexp "^wrote 5000 records, [1-9][0-9]* laps$"
	# a contiguous run of the newest records, in a file that stayed at its size
	[[ ${lines[1]} =~ ^read\ ([0-9]+)\ records,\ seq\ ([0-9]+)\ to\ 4999,\ file\ 16384\ bytes$ ]] ||
		fail "${lines[1]}"
	[ $((4999 - BASH_REMATCH[2] + 1)) -eq "${BASH_REMATCH[1]}" ]
	[ "$(stat -c %s "$BATS_TEST_TMPDIR/ring")" -eq 16384 ]
}
