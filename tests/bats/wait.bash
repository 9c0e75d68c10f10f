# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Waiting on a real signal instead of sleeping a guessed time (load wait, after load helper).
#
# wait_until SECONDS WHAT CMD...: run CMD every 50 ms until it succeeds.  When SECONDS pass
# first, say on stderr what was awaited and return 1, which fails the test there (bats runs
# test bodies with set -e): a wait that times out never falls through to the next step.
wait_until() {
	local limit=$1 what=$2 start now
	shift 2
	start=${EPOCHREALTIME//[.,]/}
	until "$@"; do
		now=${EPOCHREALTIME//[.,]/}
		if (( now - start >= limit * 1000000 )); then
			echo "timed out after $limit s waiting for $what" >&2
			return 1
		fi
		sleep 0.05
	done
}

# has_lines FILE N: FILE exists and has at least N lines (a background job may not have
# created it yet)
has_lines() {
	local n
	n=$(wc -l < "$1" 2> /dev/null) || return 1
	[ "${n:-0}" -ge "$2" ]
}
