# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench section: rdmastat / librdmadiag counters.
#  1. CPU time per snapshot of 16 ports x 64 hw counters on a fixture tree (target <= 1 ms),
#     measured in-process over many snapshots (tests/bench/stat_snapshot.c), plus the whole
#     `rdmastat -j` process for scale.
#  2. One full netlink snapshot against `rdma statistic show` on rxe (target ratio <= 1):
#     that needs the real kernel, so tests/vm/guest/21-rdmastat-bench.sh measures it in the
#     QEMU guest; this section prints the last figures it wrote ($VM_OUT or the default
#     harness work dir), or says how to produce them.
. "$(dirname "$0")/lib.bash"
cd "$BENCH_ROOT" || exit 2
W=$BENCH_WORK/rdmastat
mkdir -p "$W"
printf '\n== rdmastat: counter snapshots\n'

tests/fixtures/sysfs/make-trees.sh bench "$W/tree" 16 64 ||
	{ echo "rdmastat: cannot build the fixture tree" >> "$BENCH_FAILS"; exit 1; }
# shellcheck disable=SC2046
${CC:-cc} -O2 -Ilib/include -o "$W/stat_snapshot" tests/bench/stat_snapshot.c lib/librdmadiag.a \
	$(pkg-config --libs libmnl libibverbs librdmacm libpcap libdeflate) -lm ||
	{ echo "rdmastat: cannot build stat_snapshot.c" >> "$BENCH_FAILS"; exit 1; }
read -r n cpu wall < <(RDMADIAG_SYSFS_ROOT=$W/tree "$W/stat_snapshot" 2000)
printf '   %-52s %s counters, %s us CPU, %s us wall\n' \
	"librdmadiag snapshot, 16 ports x 64 counters" "$n" "$cpu" "$wall"
# the floor on this machine right now: one pread() per counter file on kept descriptors,
# nothing else (no listing, no parsing); the target is only meaningful against it
read -r _ floor < <("$W/stat_snapshot" 2000 "$W"/tree/sys/class/infiniband/*/ports/*/hw_counters/counter_*)
printf '   %-52s %s us CPU (load %s)\n' "floor: 1024 bare pread() calls" "$floor" \
	"$(cut -d' ' -f1 /proc/loadavg)"
bench_target "16x64 snapshot CPU time <= 1000 us" "$cpu <= 1000 && $n == 1024" "$cpu us"

t0=$(date +%s%N)
for _ in $(seq 100); do RDMADIAG_SYSFS_ROOT=$W/tree tools/rdmastat/rdmastat -j > /dev/null || exit 1; done
t1=$(date +%s%N)
printf '   %-52s %s us per process (exec + snapshot + JSON)\n' "rdmastat -j on the same tree" \
	"$(( (t1 - t0) / 100000 ))"

# the netlink figure: a fresh QEMU run's if there is one, else the committed record of the
# last measurement (tests/bench/20-rdmastat-vm.txt says when and how it was taken)
f=${VM_OUT:-tests/vm/work/last/share/out}/21-bench.txt
[ -s "$f" ] || f=tests/bench/20-rdmastat-vm.txt
if [ -s "$f" ]; then
	v() { awk -v k="$1" '$1 == k { print $2 }' "$f"; }
	printf '   %-52s %s\n' "netlink snapshot on rxe, QEMU guest ($f)" "$(head -1 "$f" | sed 's/^# //')"
	printf '   %-52s rdma %s us, rdmastat %s us\n' "  whole process, median" "$(v rdma_statistic_show_us)" "$(v rdmastat_netlink_us)"
	printf '   %-52s rdma %s us, rdmastat %s us\n' "  start-up alone (-V / --version)" "$(v rdma_startup_us)" "$(v rdmastat_startup_us)"
	printf '   %-52s rdma %s us, rdmastat %s us\n' "  the rest (netlink + output)" "$(v rdma_work_us)" "$(v rdmastat_work_us)"
	bench_target "netlink snapshot vs rdma statistic show <= 1" "$(v ratio_netlink) <= 1" "ratio $(v ratio_netlink)"
else
	printf '   %-52s %s\n' "netlink snapshot on rxe vs rdma statistic show" \
		"not measured: run 'VM_ONLY=21-rdmastat-bench tests/vm/run out.tap' (needs QEMU)"
fi
