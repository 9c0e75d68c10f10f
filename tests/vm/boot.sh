#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Boot the real-kernel tier's VM once: Debian's kernel (PVH ELF) + the initramfs, QEMU/TCG,
# no network device at all, SHARE read-write on /mnt/host (9p) and nothing else.  The guest's /init runs 'bash /mnt/host/RUNNER' and powers off.
#   usage: boot.sh BUILD SHARE RUNNER     (RUNNER empty: interactive shell)
# Env: VM_TIMEOUT (hard limit in s, default 600), VM_MEM (MiB, default 512), VM_SMP (1),
#      VM_APPEND (more kernel command line), VM_QEMU_ARGS (more qemu arguments, split on
#      blanks: the two-guest mode's network device and common share, see pair/run.sh)
# The serial console goes to SHARE/console.log.  Exit: the guest runner's exit status (the
# guest's /init writes it to SHARE/runner.status); qemu's status when qemu failed (124 on
# the hard timeout); 125 when the guest ended without reporting one.
set -uo pipefail
BUILD=$(realpath "$1"); SHARE=$(realpath "$2"); RUNNER=${3:-}
# KVM is unusable on the CI machines (kvm_pvm runs only PVM-aware guests): TCG.
# mitigations=off: a throw-away test guest; retpolines and friends only cost TCG time.
# acpi=off: ACPI table parsing and PCI interrupt-link setup took half the boot under TCG;
# virtio-pci works with the BIOS's PIR table (the guest reboots to end: -no-reboot exits).
# 512 MiB: an ASan build maps its shadow lazily but still needs headroom.
# One vCPU: on a 2-core host shared with compilers it boots and runs faster than two, and
# packets then reach a capture and rxe in one order (with two, the per-CPU receive
# backlogs can interleave differently at the packet tap and at rxe's queue).
# The guest's clock: under TCG with acpi=off the kernel finds no HPET/PM timer, cannot
# calibrate the TSC against the PIT, marks it unstable and falls back to refined-jiffies
# (CLOCK_MONOTONIC in 4 ms steps, and jiffies lose ticks when the host is busy: rdmacheck
# mr-cost measured 0 us, the scripts' uptime stamps ran slow).  TCG's rdtsc is the host's
# TSC, so the host's TSC rate is the guest's: given that (and no watchdog against the
# lossy jiffies) the guest runs on the tsc clocksource, 1 ns resolution, host time.
tsc_khz() {
	local m
	m=$(dmesg 2>/dev/null | sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p;
		s/.*tsc: Detected \([0-9.]*\) MHz processor.*/\1/p' | tail -1)
	# no dmesg (restricted): cpu MHz is the TSC rate where the TSC is constant
	[ -n "$m" ] || ! grep -qw constant_tsc /proc/cpuinfo ||
		m=$(awk -F': *' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)
	[ -n "$m" ] && awk -v m="$m" 'BEGIN { if (m > 100) printf "%d\n", m * 1000 }'
}
khz=$(tsc_khz)
args=(-accel tcg -cpu max -m "${VM_MEM:-512}" -smp "${VM_SMP:-1}"
	-nodefaults -nographic -serial stdio -no-reboot
	-kernel "$BUILD/vmlinux" -initrd "$BUILD/initramfs.cpio"
	-append "console=ttyS0 quiet panic=-1 mitigations=off acpi=off reboot=t ${khz:+tsc_early_khz=$khz tsc=reliable} rdiag.main=${RUNNER:+/mnt/host/$RUNNER} ${VM_APPEND:-}"
	-virtfs "local,path=$SHARE,mount_tag=host,security_model=none,id=host")
# shellcheck disable=SC2206 # split on blanks on purpose: no argument of ours has one
[ -z "${VM_QEMU_ARGS:-}" ] || args+=(${VM_QEMU_ARGS})
Q=${VM_QEMU:-qemu-system-x86_64}
if [ -z "$RUNNER" ]; then exec "$Q" "${args[@]}"; fi
rm -f "$SHARE/runner.status"
# -k: SIGKILL if qemu ignores the TERM; the console keeps only printable text
timeout -k 5 "${VM_TIMEOUT:-600}" "$Q" "${args[@]}" </dev/null 2>&1 |
	tr -d '\r' | sed -u 's/\x1b[[(][0-9;?]*[A-Za-z]//g' > "$SHARE/console.log"
q=${PIPESTATUS[0]}
[ "$q" = 0 ] || exit "$q"
read -r st < "$SHARE/runner.status" 2>/dev/null && [[ $st =~ ^[0-9]+$ ]] || exit 125
exit "$st"
