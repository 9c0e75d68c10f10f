# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/96-soak.sh (and, sourced with SOAK_NAME, of guest/97-soak-long.sh):
# rdmatop -b -j, rdmastat -i, rdmatrace record and rdmadiag_exporter ran through the churn,
# kept producing output (every scrape of the agent answered), exited 0 on SIGINT (the agent
# on SIGTERM), and their VmRSS and descriptor counts at the end are within explicit bounds of
# those at the start.  The figures are printed as diagnostics for the notes.
#   RSS: end - start <= SOAK_RSS_KB (default 1024 kB: rdmatop's first rounds with the Fabric
#        sampling (ethtool statistics of every port's netdev) take about 600 kB once, measured
#        at 560 and 616 kB in two runs and then flat; a leak of 100 bytes per sample still shows
#        within a few minutes at 5 samples a second)
#   and, on a soak of a minute or more, the steady state: the last sample along the way minus
#        the first <= 256 kB (the long soak's figures after its first 15 s)
#   descriptors: end <= start (the churn device is absent at both readings)
cd "$VM_OUT" || exit 2
SOAK_NAME=${SOAK_NAME:-96-soak}
F=$SOAK_NAME.txt
BOUND_RSS=${SOAK_RSS_KB:-1024}
BOUND_STEADY=256
[ -s "$F" ] || { tap_fail "the guest wrote $F (the soak ran)"; exit 0; }
get() { sed -n "s/^$1=//p" "$F"; }
# all numbers, and the test holds: within BOUND A B (B - A <= BOUND), le A B (A <= B)
isnum() { [[ $1 =~ ^[0-9]+$ ]]; }
within() { isnum "$2" && isnum "$3" && [ $(($3 - $2)) -le "$1" ]; }
le() { isnum "$1" && isnum "$2" && [ "$1" -le "$2" ]; }
secs=$(get secs)
diag "$SOAK_NAME: $secs s, $(get adds) device adds/deletes, $(get qp_pairs) QP pairs (pingpong + rping)"
[ -s "$SOAK_NAME-trace.txt" ] &&
	diag "along the way (s, rdmatop kB fds, rdmastat kB fds, rdmatrace kB fds ring-bytes, agent kB fds): $(tr '\n' ';' < "$SOAK_NAME-trace.txt")"
for t in rdmatop rdmastat rdmatrace rdmadiag_exporter; do
	[ $t = rdmatrace ] && [ "$(get rdmatrace_exit)" = - ] && { tap_skip "$SOAK_NAME: the recorder" "rdmatrace is not built"; continue; }
	[ $t = rdmadiag_exporter ] && [ "$(get rdmadiag_exporter_exit)" = - ] &&
		{ tap_skip "$SOAK_NAME: the agent" "rdmadiag_exporter is not built"; continue; }
	read -r r0 r1 <<< "$(get ${t}_rss_kb)"
	read -r f0 f1 <<< "$(get ${t}_fds)"
	diag "$t: VmRSS ${r0} kB -> ${r1} kB (before the warm-up round: $(get ${t}_rss_cold_kb) kB), descriptors $f0 -> $f1"
	if [ "$(get sanitized)" = yes ]; then
		tap_skip "$SOAK_NAME: $t's RSS stayed flat ($r0 -> $r1 kB)" \
			"a SANITIZE build: ASan's quarantine holds freed memory; LeakSanitizer judges leaks at exit"
	else
		tap_check "$SOAK_NAME: $t's RSS stayed flat ($r0 -> $r1 kB, bound +$BOUND_RSS kB, over $secs s)" \
			within "$BOUND_RSS" "$r0" "$r1"
	fi
	if [ "$(get sanitized)" != yes ] && [ "${secs:-0}" -ge 60 ] && [ -s "$SOAK_NAME-trace.txt" ]; then
		col=2; [ $t = rdmastat ] && col=4; [ $t = rdmatrace ] && col=6; [ $t = rdmadiag_exporter ] && col=9
		s0=$(head -1 "$SOAK_NAME-trace.txt" | cut -d' ' -f$col)
		s1=$(tail -1 "$SOAK_NAME-trace.txt" | cut -d' ' -f$col)
		tap_check "$SOAK_NAME: $t's RSS was steady along the way ($s0 -> $s1 kB, bound +$BOUND_STEADY kB)" \
			within "$BOUND_STEADY" "$s0" "$s1"
	fi
	tap_check "$SOAK_NAME: $t's open descriptors did not grow ($f0 -> $f1)" \
		le "$f1" "$f0"
	tap_eq "$SOAK_NAME: $t was running at the end and exited 0 on SIG$([ $t = rdmadiag_exporter ] && echo TERM || echo INT) (no crash)" 0 "$(get ${t}_exit)"
done
tap_eq "$SOAK_NAME: the tools were still running when the churn ended" yes "$(get alive_at_end)"
# the recorder's ring: 512 kB at every reading (start, along the way, end, after SIGINT), and
# it dumps afterwards (0, or 1 when a churn connection failed: a failed connection in it)
if [ "$(get rdmatrace_exit)" != - ]; then
	sizes="$(get rdmatrace_ring_sizes) $(cut -d' ' -f8 "$SOAK_NAME-trace.txt" 2>/dev/null | tr '\n' ' ')"
	tap_eq "$SOAK_NAME: the ring stayed at its 524288 bytes at every reading ($sizes)" "" \
		"$(tr ' ' '\n' <<< "$sizes" | grep -v '^$' | grep -vx 524288)"
	tap_check "$SOAK_NAME: rdmatrace dump read the ring afterwards (exit $(get rdmatrace_dump); $(get rdmatrace_dump_types))" \
		bash -c "case '$(get rdmatrace_dump)' in 0|1) exit 0;; *) exit 1;; esac"
	# (GID records only when a look at the ports fell within a churn device's short life)
	tap_check "$SOAK_NAME: the ring has the churn in it: counter deltas and qp records" \
		bash -c "grep -q 'counters:' <<< '$(get rdmatrace_dump_types)' && grep -q 'qp:' <<< '$(get rdmatrace_dump_types)'"
fi
# output all along.  rdmatop -b waits for its sample, and while the kernel unregisters an rxe
# device (rdma link delete: 1-3 s under TCG) the RDMA netlink queries wait for it: a frame
# can be that late, never much later (bound: 10 s between two frames)
gap=$(/usr/bin/python3 - "$SOAK_NAME-frames.txt" <<'PYEOF'
import sys, datetime
ts = []
for l in open(sys.argv[1]):
    l = l.strip()
    try:
        ts.append(datetime.datetime.fromisoformat(l.replace("Z", "+00:00")).timestamp())
    except ValueError:
        pass
print("%.1f" % max((b - a for a, b in zip(ts, ts[1:])), default=-1))
PYEOF
)
diag "rdmatop -b: $(get rdmatop_frames) frames (one per 0.2 s asked), longest gap between two ${gap} s; $(grep -c deleted "$SOAK_NAME-churn.txt" 2>/dev/null) device deletions"
tap_check "$SOAK_NAME: rdmatop -b wrote frames all along (longest gap ${gap} s <= 10 s)" \
	awk -v g="$gap" 'BEGIN { exit !(g >= 0 && g <= 10) }' 
tap_check "$SOAK_NAME: rdmastat -i wrote intervals all along ($(get rdmastat_lines) lines in $secs s)" \
	le "$secs" "$(get rdmastat_lines)"
tap_check "$SOAK_NAME: devices were added and deleted ($(get adds) times)" le 1 "$(get adds)"
tap_check "$SOAK_NAME: QPs came and went ($(get qp_pairs) pingpong/rping pairs)" le 1 "$(get qp_pairs)"
if [ "$(get rdmadiag_exporter_exit)" != - ]; then
	read -r sok sfail <<< "$(get rdmadiag_exporter_scrapes)"
	tap_check "$SOAK_NAME: the agent answered every scrape through the churn ($sok answered, ${sfail:-?} failed)" \
		bash -c "[ '${sok:-0}' -ge 2 ] && [ '${sfail:-1}' = 0 ]"
fi
