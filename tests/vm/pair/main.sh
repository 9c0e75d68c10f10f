# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The guest side of the two-guest mode (bash /mnt/host/pair/main.sh, run by /init in each of
# the two guests): the role from the kernel command line (rdiag.role=server|client), the
# link (virtio-net eth0, a static address, rxe0 on it), then every pair/NN-*.sh of the plan
# the host wrote (/mnt/pair/plan), each started and ended in step with the other guest.
# Results like the single guest's: $OUT/tap/plan, tap/NAME.out, tap/NAME.status ('exit
# seconds'), log/NAME.log, status.  setup is the first entry of the plan, as there.
G=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
export OUT=/mnt/host/out
mkdir -p "$OUT/tap" "$OUT/log"
# shellcheck source=../guest/lib.sh
. "$G/../guest/lib.sh"
# shellcheck source=lib.sh
. "$G/lib.sh"
say() { echo "vm: [$(now)s] $ROLE: $*"; }

# the common share of the two guests: the plan, the barriers
mkdir -p /mnt/pair
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 pair /mnt/pair ||
	echo "pair: cannot mount the common share" >&2
{ echo setup; cat /mnt/pair/plan 2>/dev/null; } > "$OUT/tap/plan.tmp"
ME=setup
t0=$(now)
. "$G/setup.sh" > "$OUT/tap/setup.out" 2> "$OUT/log/setup.log"
echo "0 $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')" > "$OUT/tap/setup.status"
mv "$OUT/tap/plan.tmp" "$OUT/tap/plan"
say "setup done"
while read -r l; do [[ $l == "not ok"* ]] && failed=1; done < "$OUT/tap/setup.out"

while read -r name; do
	[ "$name" = setup ] && continue
	f=$G/$name.sh
	limit=
	while read -r l; do
		[[ $l =~ ^#\ vm-timeout:\ *([0-9]+) ]] && { limit=${BASH_REMATCH[1]}; break; }
	done < "$f"
	limit=${limit:-${VM_SCRIPT_TIMEOUT:-60}}
	o=$OUT/tap/$name.out
	# both guests start each script together: the other one may still be in the last
	if ! ME=runner pair_sync "start.$name" 60; then
		echo "not ok - $name: the $PEER_ROLE guest came to it within 60 s" > "$o"
		echo "1 0" > "$OUT/tap/$name.status"
		failed=1
		continue
	fi
	say "$name (limit ${limit}s)"
	t0=$(now_cs)
	rm -f "/tmp/done.$name" "/tmp/timeout.$name"
	# its own session, so that whatever it leaves running can be killed (as guest/main.sh)
	ME=$name setsid bash -c '. "$1"; . "$2"; . "$3"' "$name" \
		"$G/../guest/lib.sh" "$G/lib.sh" "$f" > "$o" 2> "$OUT/log/$name.log" < /dev/null &
	pid=$!
	( sleep "$limit"; [ -e "/tmp/done.$name" ] && exit
	  echo timeout > "/tmp/timeout.$name"
	  kill -TERM -- "-$pid" 2>/dev/null; sleep 2
	  [ -e "/tmp/done.$name" ] || kill -KILL -- "-$pid" 2>/dev/null ) &
	wd=$!
	wait "$pid"; st=$?
	touch "/tmp/done.$name"
	kill "$wd" 2>/dev/null
	kill -KILL -- "-$pid" 2>/dev/null
	[ -e "/tmp/timeout.$name" ] && st=124
	secs=$(( ($(now_cs) - t0 + 5) / 10 )); secs=$((secs / 10)).$((secs % 10))
	echo "$st $secs" > "$OUT/tap/$name.status"
	if [ "$st" = 124 ]; then
		echo "not ok - $name finished within its ${limit}s limit" >> "$o"
	elif [ "$st" -ne 0 ] && ! grep -q '^not ok' "$o"; then
		echo "not ok - $name exited with status 0 (it exited $st)" >> "$o"
	elif ! grep -qE '^(not )?ok' "$o"; then
		echo "not ok - $name reported at least one result" >> "$o"
	fi
	bad=$(pair_verify)
	if [ -n "$bad" ]; then
		{ echo "not ok - $name left the pair's setup as it found it"
		  echo "$bad" | sed 's/^/# /'; } >> "$o"
		pair_repair >> "$OUT/log/$name.log" 2>&1
	fi
	grep -q '^not ok' "$o" && failed=1
	say "$name: $(grep -c '^ok' "$o") ok, $(grep -c '^not ok' "$o") not ok, ${secs}s"
done < "$OUT/tap/plan"
echo complete > "$OUT/status"
say "all done"
exit "${failed:-0}"
