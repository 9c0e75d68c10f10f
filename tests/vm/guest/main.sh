# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The guest side of the real-kernel tier, run by /init (bash /mnt/host/guest/main.sh):
# setup.sh, then every NN-*.sh here in sort order, each in its own session with a
# timeout.  Results go to $OUT (the host's $VM_OUT):
#   tap/plan           the scripts this run meant to run, in order
#   tap/NAME.out       a script's TAP lines (stdout), plus the runner's own verdicts on it
#   log/NAME.log       its stderr (command output, helpers' log lines)
#   tap/NAME.status    'exit-status seconds'
#   status             'complete' once every script has run
# A script may ask for a longer limit with a line '# vm-timeout: SECONDS' (default 60).
G=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
export OUT=/mnt/host/out
mkdir -p "$OUT/tap" "$OUT/log"
# shellcheck source=lib.sh
. "$G/lib.sh"
say() { echo "vm: [$(now)s] $*"; }		# the serial console (console.log on the host)

scripts=()
for f in "$G"/[0-9][0-9]-*.sh; do [ -f "$f" ] && scripts+=("$f"); done
only=$(sed -n 's/.*rdiag.only=\([^ ]*\).*/\1/p' /proc/cmdline)	# VM_ONLY=10-rdmadump,00-stack
read -r cmdline < /proc/cmdline
# one of two guests side by side (tests/vm/run): rdiag.part=first|second and rdiag.second=RE,
# the numbers the second guest runs (an extended regex); the first runs the others
part=$(sed -n 's/.*rdiag.part=\([^ ]*\).*/\1/p' /proc/cmdline)
second=$(sed -n 's/.*rdiag.second=\([^ ]*\).*/\1/p' /proc/cmdline)
# NN-*-bench.sh are measurements, not tests: they run when VM_ONLY names them or
# RDMASTAT_BENCH_N is given (rdiag.bench_n=), never in a plain make check
{ echo setup; for f in "${scripts[@]}"; do
	n=$(basename "$f" .sh)
	[[ $n == *-bench && -z $only && $cmdline != *rdiag.bench_n=* ]] && continue
	if [ -n "$part" ]; then
		[[ ${n%%-*} =~ ^($second)$ ]] && mine=second || mine=first
		[ "$mine" = "$part" ] || continue
	fi
	[ -z "$only" ] || [[ ",$only," == *",$n,"* ]] && echo "$n"
done; } > "$OUT/tap/plan"

say "setup (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource))"
ME=setup
t0=$(now)
# sourced: its exports (GID, addresses) reach every script
. "$G/setup.sh" > "$OUT/tap/setup.out" 2> "$OUT/log/setup.log"
echo "0 $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')" > "$OUT/tap/setup.status"
while read -r l; do [[ $l == "not ok"* ]] && failed=1; done < "$OUT/tap/setup.out"

while read -r name; do
	[ "$name" = setup ] && continue
	f=$G/$name.sh
	# (bash builtins where a fork would do: each costs tens of ms under TCG, per script)
	limit=
	while read -r l; do
		[[ $l =~ ^#\ vm-timeout:\ *([0-9]+) ]] && { limit=${BASH_REMATCH[1]}; break; }
	done < "$f"
	limit=${limit:-${VM_SCRIPT_TIMEOUT:-60}}
	say "$name (limit ${limit}s)"
	t0=$(now_cs)
	rm -f "/tmp/done.$name"
	# its own session, so that the whole process group (servers, captures left in the
	# background) can be killed when it hangs or ends
	ME=$name setsid bash -c '. "$1"; . "$2"' "$name" "$G/lib.sh" "$f" \
		> "$OUT/tap/$name.out" 2> "$OUT/log/$name.log" < /dev/null &
	pid=$!
	( sleep "$limit"; [ -e "/tmp/done.$name" ] && exit
	  echo "timeout" > "/tmp/timeout.$name"
	  kill -TERM -- "-$pid" 2>/dev/null; sleep 2
	  [ -e "/tmp/done.$name" ] || kill -KILL -- "-$pid" 2>/dev/null ) &
	wd=$!
	wait "$pid"; st=$?
	touch "/tmp/done.$name"
	kill "$wd" 2>/dev/null
	kill -KILL -- "-$pid" 2>/dev/null		# whatever it left running
	secs=$(( ($(now_cs) - t0 + 5) / 10 )); secs=$((secs / 10)).$((secs % 10))
	echo "$st $secs" > "$OUT/tap/$name.status"
	o=$OUT/tap/$name.out
	if [ -e "/tmp/timeout.$name" ]; then
		echo "not ok - $name finished within its ${limit}s limit" >> "$o"
	elif [ "$st" -ne 0 ] && ! grep -q '^not ok' "$o"; then
		echo "not ok - $name exited with status 0 (it exited $st)" >> "$o"
	elif ! grep -qE '^(not )?ok' "$o"; then
		echo "not ok - $name reported at least one result" >> "$o"
	fi
	# 90-99 are destructive by design; the others must leave the setup as they found it
	if [ "${name%%-*}" -lt 90 ]; then
		bad=$(setup_verify)
		if [ -n "$bad" ]; then
			{ echo "not ok - $name left the setup as it found it"
			  echo "$bad" | sed 's/^/# /'; } >> "$o"
			setup_repair >> "$OUT/log/$name.log" 2>&1
		fi
	fi
	nok=0 nnot=0
	while read -r l; do
		case $l in "ok"*) nok=$((nok + 1)) ;; "not ok"*) nnot=$((nnot + 1)) ;; esac
	done < "$o"
	say "$name: $nok ok, $nnot not ok, ${secs}s"
	[ "$nnot" = 0 ] || failed=1
done < "$OUT/tap/plan"
echo complete > "$OUT/status"
say "all done"
exit "${failed:-0}"	# 1 when any guest result was 'not ok' (boot.sh returns it)
