#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat fabric -i: the port's RDMA counters (packets, CNPs, ECN marks, retransmissions, by
# catalogue concept) over the same interval as the per-priority Ethernet deltas.  The fixture
# is a writable copy of the OFED tree with mlx5 counter files; the test moves them between
# rdmastat's two samples (it waits for the first read: the file's access time moves) and the
# deltas must be what it added (it waits until rdmastat has read every counter file once:
# inotify's IN_ACCESS, as the library opens them O_NOATIME).
load helper

FX=$FIX/fabric

setup() { TMP=$(mktemp -d); unset RDMADIAG_ETHTOOL_REPLAY; }
teardown() { rm -rf "$TMP"; }

fab() {
	RDMADIAG_SYSFS_ROOT=$TMP/ofed RDMADIAG_NL_REPLAY=$FX/dcb-pfc3.rec \
		RDMADIAG_ETHTOOL_REPLAY=$FX/eth-prio3.txt rdmastat fabric "$@"
}
# put VALUE into counter file NAME (hw_counters/ or counters/) of mlx5_0/1
put() { echo "$2" > "$TMP/ofed/sys/class/infiniband/mlx5_0/ports/1/$1"; }

mkfixture() {
	local p=$TMP/ofed/sys/class/infiniband/mlx5_0/ports/1
	cp -a "$FX/ofed" "$TMP/ofed"
	mkdir -p "$p/hw_counters" "$p/counters"
	put hw_counters/np_cnp_sent 5
	put hw_counters/rp_cnp_handled 7
	put hw_counters/np_ecn_marked_roce_packets 9
	put hw_counters/roce_adp_retrans 4
	put counters/port_rcv_packets 100
	put counters/port_xmit_packets 200
}
# after_first_read DIR CMD...: run CMD; once it has read every file of DIR/hw_counters and DIR/counters (inotify
# IN_ACCESS on each: its first sample is complete), run the shell commands on stdin; CMD's
# exit status
after_first_read() {
	/usr/bin/python3 - "$@" 3<&0 <<-'EOF2'
	import ctypes, glob, os, select, struct, subprocess, sys
	libc = ctypes.CDLL(None, use_errno=True)
	fd = libc.inotify_init()
	files = glob.glob(sys.argv[1] + "/hw_counters/*") + glob.glob(sys.argv[1] + "/counters/*")
	wds = {libc.inotify_add_watch(fd, f.encode(), 0x1) for f in files}  # IN_ACCESS
	if fd < 0 or not files or min(wds) < 0:
	    sys.exit("inotify: " + os.strerror(ctypes.get_errno()))
	then = os.fdopen(3).read()
	p = subprocess.Popen(sys.argv[2:])
	while wds:
	    if not select.select([fd], [], [], 20)[0]:
	        p.kill()
	        sys.exit("the command never read %d of the files" % len(wds))
	    buf = os.read(fd, 4096)
	    while buf:
	        wd, _, _, n = struct.unpack("iIII", buf[:16])
	        wds.discard(wd)
	        buf = buf[16 + n:]
	subprocess.run(["bash", "-c", then], check=True)
	sys.exit(p.wait())
	EOF2
}

@test "fabric -i: the RDMA counters' deltas over the interval are what moved between the samples" {
	mkfixture
	export -f put
	export TMP
	after_first_read "$TMP/ofed/sys/class/infiniband/mlx5_0/ports/1" \
		env RDMADIAG_SYSFS_ROOT="$TMP/ofed" RDMADIAG_NL_REPLAY="$FX/dcb-pfc3.rec" \
		RDMADIAG_ETHTOOL_REPLAY="$FX/eth-prio3.txt" rdmastat fabric -i 1 -j \
		> "$TMP/out" 2> "$TMP/err" <<-'EOS'
	put hw_counters/np_cnp_sent 17
	put hw_counters/rp_cnp_handled 10
	put counters/port_rcv_packets 160
	put counters/port_xmit_packets 250
	put hw_counters/roce_adp_retrans 6
	EOS
	[ ! -s "$TMP/err" ] || fail "stderr: $(cat "$TMP/err")"
	run jq -c '.[0].rdma_counters | map([.concept, .counter, .delta])' "$TMP/out"
	assert_output '[["rx_packets","port_rcv_packets",60],["tx_packets","port_xmit_packets",50],["cnp_sent","np_cnp_sent",12],["cnp_handled","rp_cnp_handled",3],["ecn_marked","np_ecn_marked_roce_packets",0],["adaptive_retransmission","roce_adp_retrans",2]]'
	# the rate is over the same interval as the priorities'
	run jq -r '.[0] | [(.rdma_counters[2].per_s * .seconds | round), (.seconds >= 1)] | @tsv' "$TMP/out"
	assert_output "12	true"
}

@test "fabric -i text: the RDMA block follows the priorities; without -i there is none" {
	mkfixture
	run --separate-stderr fab -i 0.05
	assert_success
	assert_line --regexp '^  RDMA counters over the interval \(delta, per second\):$'
	assert_line --regexp '^    cnp_sent +np_cnp_sent +0 +0\.0$'
	[ "$(grep -n 'per priority' <<< "$output" | cut -d: -f1)" -lt "$(grep -n 'RDMA counters' <<< "$output" | cut -d: -f1)" ]
	run fab -j
	assert_success
	run jq -c '.[0] | has("rdma_counters")' <<< "$output"
	assert_output false
	# a port without counters: measured, none
	run --separate-stderr env RDMADIAG_SYSFS_ROOT=$FX/ofed RDMADIAG_NL_REPLAY=$FX/dcb-pfc3.rec \
		RDMADIAG_ETHTOOL_REPLAY=$FX/eth-prio3.txt rdmastat fabric -i 0.05 -j
	run jq -c '.[0].rdma_counters' <<< "$output"
	assert_output '[]'
}
