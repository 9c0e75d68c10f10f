# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Shared setup of the bats tier: load bats-support/bats-assert, find the tools in the tree.
#   load helper      (at the top of every tests/bats/*.bats)
bats_require_minimum_version 1.5.0
bats_load_library bats-support
bats_load_library bats-assert

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
FIX="$ROOT/tests/fixtures"
# every tool's room (tools/<tool>/<tool>) and rdmatop's (tui/rdmatop)
for _room in "$ROOT"/tools/rdma*/; do PATH="${_room%/}:$PATH"; done
export PATH="$ROOT/tui:$PATH"
unset _room
# never let the developer's environment leak into a test
unset RDMADIAG_SYSFS_ROOT RDMADIAG_NL_REPLAY NO_COLOR
# under SANITIZE=address: ignore leaks that live inside third-party libraries (mk/lsan.supp)
export LSAN_OPTIONS="suppressions=$ROOT/mk/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# the libraries the dynamic loader initialised for "$@" (LD_DEBUG=libs, dlopen() included),
# one per line; what the command prints is dropped
loaded_libs() {
	local d
	d=$(mktemp -d)
	LD_DEBUG=libs LD_DEBUG_OUTPUT="$d/ld" "$@" > /dev/null 2>&1 || :
	cat "$d"/ld.* | sed -n 's/.*calling init: //p'
	rm -rf "$d"
}
