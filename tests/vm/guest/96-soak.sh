# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Soak (issue 18): rdmatop -b -j and rdmastat -i sample every 0.2 s while, for SOAK_SECS (8
# s here, about 20 s in all; guest/97-soak-long.sh runs the same for minutes), an rxe device
# is added and deleted in a loop (rxes0 on a veth pair of its own) and QPs come and go
# (ibv_rc_pingpong and rping pairs between rxe0 and rxe1, one after the other).  Each tool's
# VmRSS and open descriptors are read from /proc at the start (after one warm-up round of
# the same churn, with the churn device absent) and at the end (churn stopped, the device
# deleted again), and along the way; both tools must still be running and then exit 0 on
# SIGINT.  The figures go to $OUT/NN-soak.txt (rdmatop's frame times to NN-soak-frames.txt,
# the churn's to NN-soak-churn.txt, guest uptime), which host/NN-soak*.sh judges against
# explicit bounds and prints.
# The flight recorder runs next to them (rdmatrace record --ring 512k at its default 1 s: under
# TCG a look at the ports costs most of a second of the guest's one CPU): its VmRSS and descriptors the same way,
# the ring file's size at every reading, exit 0 on SIGINT, and a dump of the ring afterwards.
# The agent, rdmadiag_exporter (every collector, on 127.0.0.1:14792), runs beside them too,
# scraped by wget all through the churn: its figures the same way, every scrape
# answered (200), exit 0 on SIGTERM.
# Destructive in the 9x sense only: it adds and deletes its own device and veth pair.
# vm-timeout: 60
SOAK_SECS=${SOAK_SECS:-8}
SOAK_NAME=${SOAK_NAME:-96-soak}
F=$OUT/$SOAK_NAME.txt
T=/tmp/$SOAK_NAME; rm -rf "$T"; mkdir -p "$T"
TOP=$(command -v rdmatop) && STAT=$(command -v rdmastat) ||
	{ tap_skip "rdmatop and rdmastat survive the soak" "tools not built"; exit 0; }
CDEV=rxes0 CNET0=vsoak0 CNET1=vsoak1

# VmRSS (kB) and descriptor count of PID: the least of 3 readings 0.1 s apart (a sample in
# flight holds a counter file open for a moment; a leak is there at every reading)
rss_fds() {
	local pid=$1 i r f best_r= best_f= l
	for i in 1 2 3; do
		r=
		while read -r l; do [[ $l == VmRSS:* ]] && { r=${l//[!0-9]/}; break; }; done < "/proc/$pid/status"
		f=$(ls "/proc/$pid/fd" | wc -l)
		{ [ -z "$best_r" ] || [ "$r" -lt "$best_r" ]; } && best_r=$r
		{ [ -z "$best_f" ] || [ "$f" -lt "$best_f" ]; } && best_f=$f
		sleep 0.1
	done
	echo "$best_r $best_f"
}
alive() { kill -0 "$top" 2>/dev/null && kill -0 "$stat" 2>/dev/null &&
	{ [ -z "$rec" ] || kill -0 "$rec" 2>/dev/null; } && { [ -z "$ag" ] || kill -0 "$ag" 2>/dev/null; }; }
# the recorder's figures (RSS kB, descriptors, the ring's size), "- - -" without it
rec_figs() { if [ -n "$rec" ]; then echo "$(rss_fds $rec) $(stat -c %s "$T/ring")"; else echo "- - -"; fi; }
# the agent's (RSS kB, descriptors), "- -" without it
ag_figs() { if [ -n "$ag" ]; then rss_fds $ag; else echo "- -"; fi; }
AGENT=http://127.0.0.1:14792/metrics
# scrape: one scrape of the agent, counted in $T/scrapes.ok or $T/scrapes.failed
scrape() {
	if wget -q -O /dev/null "$AGENT"; then echo >> "$T/scrapes.ok"; else echo >> "$T/scrapes.failed"; fi
}
# scrape3: three scrapes at once (the warm-up: the agent's threads and their malloc arenas
# at what concurrent scrapes need)
scrape3() {
	local a b c
	[ -n "$ag" ] || return 0
	scrape & a=$!; scrape & b=$!; scrape & c=$!
	wait $a $b $c
}

ip link add "$CNET0" type veth peer name "$CNET1" && ip link set "$CNET0" up && ip link set "$CNET1" up
# the tools' output is not kept (minutes of frames would fill the guest's RAM): rdmastat's
# lines are counted, rdmatop's frames reduced to their times
mkfifo "$T/top.fifo" "$T/stat.fifo"
# rdmatop's frames as their times (the longest gap between two is a stall), counted
awk -F'"time":"' '{ split($2, a, "\""); print a[1] }' < "$T/top.fifo" > "$OUT/$SOAK_NAME-frames.txt" &
wc -l < "$T/stat.fifo" > "$T/stat.lines" &
"$TOP" -b -j -d 0.2 > "$T/top.fifo" 2> "$OUT/$SOAK_NAME-rdmatop.err" &
top=$!
"$STAT" -i 0.2 -a > "$T/stat.fifo" 2> "$OUT/$SOAK_NAME-rdmastat.err" &
stat=$!
rec= unmount_tracefs=
if have rdmatrace; then
	grep -q " /sys/kernel/tracing tracefs" /proc/mounts ||
		{ mount -t tracefs nodev /sys/kernel/tracing && unmount_tracefs=1; }
	rdmatrace record --ring 512k "$T/ring" 2> "$OUT/$SOAK_NAME-rdmatrace.err" &
	rec=$!
fi
ag=
if have rdmadiag_exporter; then
	rdmadiag_exporter --web.listen-address=127.0.0.1:14792 --scrape.timeout=5 \
		2> "$OUT/$SOAK_NAME-agent.err" &
	ag=$!
	wait_tcp_listen 14792 15 || log "the agent does not listen on 14792"
fi
log "pids: rdmatop $top, rdmastat $stat, rdmatrace record ${rec:-none}, rdmadiag_exporter ${ag:-none}"
# warm-up: one round of what the soak repeats (a device added and deleted, a pingpong and an
# rping pair), so that the caches, the model and the QP and cm ID lists have had what they
# hold at their largest; the start figures are taken after it (the ones before it are kept
# for the notes: the growth from them is the warm-up, which levels off)
sleep 1
# a SANITIZE build (libasan mapped into rdmatop): ASan's allocator keeps freed memory in
# quarantine, so VmRSS grows by design there (the host judges leaks by LeakSanitizer then)
sanitized=no
grep -q libasan "/proc/$top/maps" 2> /dev/null && sanitized=yes
read -r top_rss_cold _ <<< "$(rss_fds $top)"
read -r stat_rss_cold _ <<< "$(rss_fds $stat)"
read -r rec_rss_cold _ _ <<< "$(rec_figs)"
[ -n "$ag" ] && scrape
read -r ag_rss_cold _ <<< "$(ag_figs)"
rdma link add "$CDEV" type rxe netdev "$CNET0" && scrape3 && sleep 0.4 && rdma link delete "$CDEV"
PP_TIMEOUT=20 pp_pair 20 1024 2>> "$T/qp.err" &
pp=$!
scrape3
wait $pp
RPING_TIMEOUT=20 rping_pair 5 64 2>> "$T/qp.err"
scrape3
sleep 1
read -r top_rss0 top_fd0 <<< "$(rss_fds $top)"
read -r stat_rss0 stat_fd0 <<< "$(rss_fds $stat)"
read -r rec_rss0 rec_fd0 rec_size0 <<< "$(rec_figs)"
read -r ag_rss0 ag_fd0 <<< "$(ag_figs)"
rm -f "$T/scrapes.ok" "$T/scrapes.failed"
t_start=$(now_cs)
end=$(( t_start + SOAK_SECS * 100 ))
# one QP that lives through the whole churn (tests/vm/progs/qp_hold_err, held in RTS until
# SIGUSR1), so that the recorder's QP records never depend on a short pingpong falling on
# a snapshot (4 QP pairs in 15 s of a busy guest once gave none)
hold=
if have qp_hold_err; then
	qp_hold_err -d "$DEV0" -g "$GID" -u -r 600000 -s 600 > "$T/hold.out" 2> "$T/hold.err" &
	hold=$!
fi

# device churn: add, let the tools see it, delete
( n=0
  while [ "$(now_cs)" -lt "$end" ]; do
	rdma link add "$CDEV" type rxe netdev "$CNET0" 2>> "$T/churn.err" && n=$((n + 1))
	echo "$(now) add" >> "$OUT/$SOAK_NAME-churn.txt"
	sleep 0.4
	rdma link delete "$CDEV" 2>> "$T/churn.err"
	echo "$(now) deleted" >> "$OUT/$SOAK_NAME-churn.txt"
	sleep 0.3
  done
  echo "$n" > "$T/adds" ) &
churn=$!
# QPs coming and going: RC pingpong (verbs QPs) and rping (rdma_cm IDs and their QPs)
( n=0
  while [ "$(now_cs)" -lt "$end" ]; do
	PP_TIMEOUT=20 pp_pair 20 1024 2>> "$T/qp.err" && n=$((n + 1))
	RPING_TIMEOUT=20 rping_pair 5 64 2>> "$T/qp.err" && n=$((n + 1))
  done
  echo "$n" > "$T/pairs" ) &
qps=$!
# the agent scraped all along, 0.5 s between a scrape's end and the next (under TCG a scrape
# takes 0.2 to 2 s: back to back, they took most of the guest's one CPU from the churn)
scraper=
if [ -n "$ag" ]; then
	( while [ "$(now_cs)" -lt "$end" ]; do scrape; sleep 0.5; done ) &
	scraper=$!
fi
# the figures along the way (ten readings): a leak climbs, a warm-up levels off
( step=$(( SOAK_SECS / 10 )); [ "$step" -ge 1 ] || step=1
  while [ "$(now_cs)" -lt "$end" ]; do
	sleep "$step"
	echo "$(( ($(now_cs) - t_start) / 100 )) $(rss_fds $top) $(rss_fds $stat) $(rec_figs) $(ag_figs)"
  done > "$OUT/$SOAK_NAME-trace.txt" ) &
trace=$!
wait "$churn"
wait "$qps"
wait "$trace"
[ -z "$scraper" ] || wait "$scraper"
if [ -n "$hold" ]; then
	# its RTS seen by the recorder (a snapshot a second), then released: ERR, then gone
	held() { grep -q '^RTS qpn ' "$T/hold.out"; }
	rec_rts() { rdmatrace dump -j "$T/ring" 2> /dev/null | grep -q '"type":"qp".*"state":"RTS"'; }
	await 10 "qp_hold_err has its QP in RTS" held && await 10 "the recorder saw a QP in RTS" rec_rts
	kill -USR1 "$hold"
	await 5 "qp_hold_err has its QP in ERR" grep -q '^ERR qpn ' "$T/hold.out" && kill -USR1 "$hold"
	wait "$hold"
fi
rdma link delete "$CDEV" 2> /dev/null
# the agent notices the device gone at its next scrapes: each of its two warm counters
# handles keeps the churn device's files open until it samples again (two rounds of three
# scrapes at once, as in the warm-up, sample with both)
scrape3
scrape3
# the tools notice the device gone (a frame or two), then the end figures
sleep 1.5
up=no
alive && up=yes
read -r top_rss1 top_fd1 <<< "$(rss_fds $top)"
read -r stat_rss1 stat_fd1 <<< "$(rss_fds $stat)"
read -r rec_rss1 rec_fd1 rec_size1 <<< "$(rec_figs)"
read -r ag_rss1 ag_fd1 <<< "$(ag_figs)"
secs=$(( ($(now_cs) - t_start) / 100 ))
kill -INT "$top" "$stat" 2>/dev/null
wait "$top"; top_st=$?
wait "$stat"; stat_st=$?
rec_st=- rec_dump=-
if [ -n "$rec" ]; then
	kill -INT "$rec"
	wait "$rec"; rec_st=$?
	# 0, or 1 when a connection of the churn failed: either way the ring read back whole
	rdmatrace dump -j "$T/ring" > "$T/dump.json" 2> "$OUT/$SOAK_NAME-dump.err"; rec_dump=$?
	rec_types=$(jq -r .type "$T/dump.json" 2>/dev/null | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')
	rec_size2=$(stat -c %s "$T/ring")
	rm -f "$T"/ring*
fi
ag_st=-
if [ -n "$ag" ]; then
	kill -TERM "$ag"
	wait "$ag"; ag_st=$?
fi
[ -n "$unmount_tracefs" ] && umount /sys/kernel/tracing
wait
ip link del "$CNET0" 2>/dev/null

{
	echo "secs=$secs"
	echo "adds=$(cat "$T/adds" 2>/dev/null || echo 0)"
	echo "qp_pairs=$(cat "$T/pairs" 2>/dev/null || echo 0)"
	echo "alive_at_end=$up"
	echo "sanitized=$sanitized"
	echo "rdmatop_rss_kb=$top_rss0 $top_rss1"
	echo "rdmatop_rss_cold_kb=$top_rss_cold"
	echo "rdmatop_fds=$top_fd0 $top_fd1"
	echo "rdmatop_exit=$top_st"
	echo "rdmatop_frames=$(wc -l < "$OUT/$SOAK_NAME-frames.txt")"
	echo "rdmastat_rss_kb=$stat_rss0 $stat_rss1"
	echo "rdmastat_rss_cold_kb=$stat_rss_cold"
	echo "rdmastat_fds=$stat_fd0 $stat_fd1"
	echo "rdmastat_exit=$stat_st"
	echo "rdmastat_lines=$(cat "$T/stat.lines" 2>/dev/null || echo 0)"
	echo "rdmatrace_rss_kb=$rec_rss0 $rec_rss1"
	echo "rdmatrace_rss_cold_kb=$rec_rss_cold"
	echo "rdmatrace_fds=$rec_fd0 $rec_fd1"
	echo "rdmatrace_exit=$rec_st"
	echo "rdmatrace_ring_sizes=$rec_size0 $rec_size1 ${rec_size2:--}"
	echo "rdmatrace_dump=$rec_dump"
	echo "rdmatrace_dump_types=${rec_types:-}"
	echo "rdmadiag_exporter_rss_kb=$ag_rss0 $ag_rss1"
	echo "rdmadiag_exporter_rss_cold_kb=${ag_rss_cold:--}"
	echo "rdmadiag_exporter_fds=$ag_fd0 $ag_fd1"
	echo "rdmadiag_exporter_exit=$ag_st"
	echo "rdmadiag_exporter_scrapes=$(wc -l < "$T/scrapes.ok" 2>/dev/null || echo 0) $(wc -l < "$T/scrapes.failed" 2>/dev/null || echo 0)"
} > "$F"
cat "$F" >&2
tap_check "rdmatop -b, rdmastat -i, rdmatrace record and rdmadiag_exporter ran through ${secs}s of device and QP churn ($(cat "$T/adds" 2>/dev/null) adds, $(cat "$T/pairs" 2>/dev/null) QP pairs); figures in $SOAK_NAME.txt" \
	[ "$up" = yes ]
[ -s "$T/churn.err" ] && diag "rdma link: $(head -c 400 "$T/churn.err")"
[ -s "$OUT/$SOAK_NAME-rdmatop.err" ] && diag "rdmatop stderr: $(head -c 400 "$OUT/$SOAK_NAME-rdmatop.err")"
[ -s "$OUT/$SOAK_NAME-rdmatrace.err" ] && diag "rdmatrace record stderr: $(head -c 400 "$OUT/$SOAK_NAME-rdmatrace.err")"
[ -s "$OUT/$SOAK_NAME-agent.err" ] && diag "rdmadiag_exporter stderr: $(head -c 400 "$OUT/$SOAK_NAME-agent.err")"
[ -s "$OUT/$SOAK_NAME-rdmastat.err" ] && diag "rdmastat stderr: $(head -c 400 "$OUT/$SOAK_NAME-rdmastat.err")"
exit 0
