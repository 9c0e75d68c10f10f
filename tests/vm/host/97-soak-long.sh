# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/97-soak-long.sh: the checks of host/96-soak.sh on the long soak's
# figures, when it ran (VM_SOAK / make soak); nothing to judge otherwise.
cd "$VM_OUT" || exit 2
if [ ! -e 97-soak-long.txt ]; then
	tap_skip "the long soak's figures" "it did not run (VM_SOAK=SECS tests/vm/run, or make soak)"
	exit 0
fi
SOAK_NAME=97-soak-long
. "$(dirname "${BASH_SOURCE[0]}")/96-soak.sh"
