# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The long soak: guest/96-soak.sh for minutes (SOAK_SECS from the kernel command line's
# rdiag.soak=SECS, which tests/vm/run sets under VM_SOAK; `make soak`).  Without it this
# script only says it was not asked for: the tier's 5 minutes have no room for it.
# vm-timeout: 3600
soak=$(sed -n 's/.*rdiag\.soak=\([0-9]*\).*/\1/p' /proc/cmdline)
if [ -z "$soak" ]; then
	tap_skip "the long soak (minutes of device and QP churn)" "VM_SOAK=SECS tests/vm/run, or make soak"
	exit 0
fi
SOAK_SECS=$soak SOAK_NAME=97-soak-long
. "$(dirname "${BASH_SOURCE[0]}")/96-soak.sh"
