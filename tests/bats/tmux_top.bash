# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop's curses UI in tmux (load tmux_top, after load helper and load wait): a fixture
# sysfs tree whose counters a background job bumps, rdmatop in a pane of its own tmux
# server, and waits on what the pane shows.  top_setup NAME in setup(), top_teardown in
# teardown().

MK="$ROOT/tests/fixtures/tui/mkfixture.sh"

# top_setup NAME: the fixture tree, and socket names of this file (NAME) and test
top_setup() {
	command -v tmux > /dev/null || skip "tmux is not installed"
	FXD="$BATS_TEST_TMPDIR/fx"
	"$MK" "$FXD"
	# every start_top gets a tmux server of its own: a new session on a socket whose server
	# is still shutting down after kill-server fails with "server exited unexpectedly"
	SOCKBASE="$1-$$-$BATS_TEST_NUMBER"
	NSOCK=0
	SOCK="$SOCKBASE-0"
	EXITF="$BATS_TEST_TMPDIR/exit"
}

top_teardown() {
	local i
	[ -z "${FEED:-}" ] || kill "$FEED" 2> /dev/null || :
	[ -z "${POLL:-}" ] || kill "$POLL" 2> /dev/null || :
	for i in $(seq 0 "${NSOCK:-0}"); do
		tmux -L "$SOCKBASE-$i" kill-server 2> /dev/null || :
	done
}

tm() { tmux -L "$SOCK" "$@"; }

# feed DEV PORT NAME: the counter moves all along (by 500 every 0.1 s) until teardown, so that
# every refresh shows a rate for it, not only the one after a single bump
feed() {
	( while :; do "$MK" "$FXD" bump "$@" 500; sleep 0.1; done ) > /dev/null 2>&1 3>&- &
	FEED=$!
}

# start rdmatop ARGS... in a W x H pane (env: W H TERMTYPE EXTRA_ENV, LOC the locale, unset:
# the environment's); when it exits the pane records its status and the tty modes it left
# behind.  Returns once the first frame is in (START_WAIT, default a row of rxe1: the header
# alone shows before any data)
start_top() {
	NSOCK=$((NSOCK + 1))
	SOCK="$SOCKBASE-$NSOCK"
	local cmd="env TERM=${TERMTYPE:-xterm} ${LOC:+LANG=$LOC LC_ALL=$LOC} RDMADIAG_SYSFS_ROOT='$FXD' ${EXTRA_ENV:-} '$ROOT/tui/rdmatop' $*"
	tm -f /dev/null new-session -d -s t -x "${W:-120}" -y "${H:-30}" \
		"$cmd; echo \$? > '$EXITF'; stty -a > '$BATS_TEST_TMPDIR/stty'; echo AFTER-EXIT; exec sleep 600"
	tm set-option -t t status off > /dev/null
	wait_screen "${START_WAIT:-^rxe1 }" 10
}

screen() { tm capture-pane -p -t t; }
# wait_screen REGEX [TIMEOUT_S]: until the pane shows it.  The capture that showed it is left
# in $SCR: what changes from one refresh to the next (rates, the order they sort in) is
# checked on that frame, never on a later capture, which may be the next refresh's.
wait_screen() { wait_frame "${2:-10}" "$1"; }
# wait_frame TIMEOUT_S REGEX...: until one capture shows every REGEX; that capture in $SCR
wait_frame() {
	local n=$(( $1 * 20 ))
	shift
	while [ $n -gt 0 ]; do
		SCR=$(screen)
		shows "$@" && return 0
		sleep 0.05
		n=$((n - 1))
	done
	echo "screen never showed /$*/ at once:" >&2
	screen >&2
	return 1
}
# shows REGEX...: the frame $SCR matches every REGEX
shows() {
	local re
	for re; do
		grep -qE -- "$re" <<< "$SCR" || return 1
	done
}
# send keys; no pause after them: what each key does is then waited for on the screen
keys() { tm send-keys -t t "$@"; }
