#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build what the real-kernel tier boots: the uncompressed kernel (PVH entry) and an
# uncompressed initramfs.
#   usage: initramfs.sh KROOT CACHE OUTDIR SRCROOT
#     KROOT    a 'dpkg-deb -x' tree of linux-image-<abi>-amd64 (from kernel.sh)
#     CACHE    where the system part of the image is kept between runs
#     OUTDIR   gets vmlinux and initramfs.cpio
#     SRCROOT  the rdmadiag tree: every binary under tools/ and tui/ (self-contained: they link
#              librdmadiag.a) and lib/librdmadiag.so.0
#              go to /opt/rdmadiag/{tools,tui,lib}
# Env: VM_EXTRA_BINS  more host binaries to put in /usr/bin (with their libraries)
#      VM_EXTRA_KO    out-of-tree modules (.ko) built for KVER: into the system part under
#                     /usr/lib/modules/KVER/extra/, in modules.dep, for modprobe in the
#                     guest (tests/vm/dcbdev/build.sh makes rdmadiag_dcbdev.ko)
#
# The image is two newc archives back to back, which the kernel unpacks in order:
# the system part (busybox, modules, bash, iproute2, rdma-core, perftest, tcpdump, nft,
# valgrind... ~30 MB) is cached under CACHE keyed by this script, the kernel and the
# installed package versions; the project part (the freshly built tools, small) is
# rebuilt on every run.  Uncompressed because gunzip under TCG costs ~1 s of boot.
set -euo pipefail
trap 'echo "initramfs.sh: line $LINENO: $BASH_COMMAND failed" >&2' ERR
KROOT=$(realpath "${1:?usage: initramfs.sh KROOT CACHE OUTDIR SRCROOT}")
CACHE=$(realpath -m "$2"); OUT=$(realpath -m "$3"); SRC=$(realpath "$4")
KVER=$(ls "$KROOT/lib/modules" | sort -V | tail -1)
MA=x86_64-linux-gnu
mkdir -p "$CACHE" "$OUT"

# --- kernel: the ELF inside the bzImage, for qemu's PVH boot ---------------------------
# Skips SeaBIOS real mode and the XZ decompressor under TCG (~3.5 s).  Under pipefail
# 'tail | xz --single-stream' dies of SIGPIPE, so check the ELF magic instead.
if [ ! -s "$KROOT/vmlinux" ]; then
	pos=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$KROOT/boot/vmlinuz-$KVER" | head -1 | cut -d: -f1)
	{ tail -c +$((pos + 1)) "$KROOT/boot/vmlinuz-$KVER" |
		xz -dc --single-stream > "$KROOT/vmlinux.tmp"; } 2>/dev/null || true
	[ "$(head -c4 "$KROOT/vmlinux.tmp" | od -An -c | tr -d ' ')" = 177ELF ] ||
		{ echo "initramfs: no ELF kernel inside vmlinuz-$KVER" >&2; exit 1; }
	mv "$KROOT/vmlinux.tmp" "$KROOT/vmlinux"
fi
ln -sf "$KROOT/vmlinux" "$OUT/vmlinux"

# Copy FILE (resolving symlinks) to the same path under tree $1, keeping the link name
# as a symlink so that sonames and merged-/usr paths both resolve.
put() {
	local r=$1 f=$2 real dir
	real=$(realpath "$f")
	[ -e "$r$real" ] || install -D -m "$(stat -c %a "$real")" "$real" "$r$real"
	dir=$(realpath -m "$(dirname "$f")")
	if [ "$dir/$(basename "$f")" != "$real" ] && [ ! -e "$r$dir/$(basename "$f")" ]; then
		mkdir -p "$r$dir"; ln -sf "$real" "$r$dir/$(basename "$f")"
	fi
	return 0
}
# every shared library of the named ELF files (ldd follows the whole dependency graph)
libs_of() {
	local f
	for f in "$@"; do
		{ ldd "$f" 2>/dev/null || :; } | awk '/=> \//{print $3} /^\t\/[^ ]*ld-linux/{print $1}'
	done | sort -u
}

# --- the system part -----------------------------------------------------------------
BINS="bash ip rdma dcb tc nft tcpdump jq ibv_devinfo ibv_devices ibv_rc_pingpong ibv_uc_pingpong
	ibv_ud_pingpong ibv_srq_pingpong ibv_xsrq_pingpong ibv_asyncwatch rping ucmatose udaddy
	mckey rdma_server rdma_client rstream riostream rcopy ib_send_bw ib_send_lat ib_write_bw
	ib_write_lat ib_read_bw ib_read_lat ib_atomic_bw ib_atomic_lat xtables-nft-multi
	xtables-legacy-multi valgrind valgrind.bin ethtool"
OPTIONAL="strace tmux"		# copied when the host has them
MODS="crc32_generic rdma_rxe rdma_ucm ib_uverbs ib_umad veth dummy 8021q sch_netem sch_tbf sch_prio cls_u32
	nf_tables nft_compat nft_reject_inet nft_numgen nft_limit xt_tcpudp iptable_filter
	9p 9pnet_virtio virtio_pci
	virtio_net"	# the two-guest mode's link (pair/main.sh loads it)
PROV=/usr/lib/$MA/libibverbs/librxe-rdmav34.so
VG=/usr/libexec/valgrind

key=$( { cat "$0"; echo "$KROOT $KVER"; dpkg-query -W 2>/dev/null
	for ko in ${VM_EXTRA_KO:-}; do sha256sum < "$ko"; done; } | sha256sum | cut -c1-16)
BASE=$CACHE/initramfs-base-$key
# several runs may share the cache: one builds the system part, the others wait for it;
# held to the end, so that no run with another key removes this part before it is used
exec 9> "$CACHE/.initramfs.lock"
flock 9
if [ ! -s "$BASE.cpio" ]; then
	rm -rf "$CACHE"/initramfs-base-*	# an older key: other packages or this script changed
	R=$BASE.root
	rm -rf "$R"
	mkdir -p "$R"/{etc,proc,sys,dev,tmp,run,root,mnt/host,usr/bin,usr/lib,usr/lib64}
	for d in bin sbin; do ln -s usr/bin "$R/$d"; done	# merged /usr, like Debian 12
	for d in lib lib64; do ln -s "usr/$d" "$R/$d"; done
	ln -s bin "$R/usr/sbin"

	# kernel modules and their dependencies, with a modules.dep for busybox modprobe
	for m in $MODS; do
		modprobe -d "$KROOT" -S "$KVER" --show-depends "$m" | awk '$1=="insmod"{print $2}'
	done | awk '!seen[$0]++' | while read -r ko; do
		rel=/usr/lib/modules/${ko#*/lib/modules/}
		install -D -m644 "$ko" "$R$rel"
	done
	cp "$KROOT/lib/modules/$KVER"/modules.{builtin,builtin.modinfo,order} "$R/usr/lib/modules/$KVER/"
	for ko in ${VM_EXTRA_KO:-}; do install -D -m644 "$ko" "$R/usr/lib/modules/$KVER/extra/${ko##*/}"; done
	depmod -b "$R/usr" "$KVER"

	files=()
	for b in $BINS; do
		p=$(command -v "$b") || { echo "initramfs: $b not installed" >&2; exit 1; }
		files+=("$p")
	done
	for b in $OPTIONAL; do p=$(command -v "$b") && files+=("$p") || :; done
	for f in "${files[@]}"; do install -m755 "$(realpath "$f")" "$R/usr/bin/$(basename "$f")"; done
	# iptables is a multi-call binary picked by name; iptables-nft is Debian 12's default
	for n in iptables iptables-save iptables-restore ip6tables; do
		ln -s xtables-nft-multi "$R/usr/bin/$n"
	done
	for n in iptables-legacy iptables-legacy-save; do ln -s xtables-legacy-multi "$R/usr/bin/$n"; done
	# valgrind's launcher execs the tool binary and preloads its helpers
	for f in memcheck-amd64-linux vgpreload_core-amd64-linux.so \
		vgpreload_memcheck-amd64-linux.so default.supp getoff-amd64-linux; do
		install -D -m755 "$VG/$f" "$R$VG/$f"
	done
	# valgrind must redirect ld.so's strlen: it needs ld.so's symbols, which Debian strips
	# into libc6-dbg (found by build ID under /usr/lib/debug)
	id=$(readelf -n /lib64/ld-linux-x86-64.so.2 | awk '/Build ID/ { print $3 }')
	dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	if [ -n "$id" ] && [ -f "$dbg" ]; then install -D -m644 "$dbg" "$R$dbg"
	else echo "initramfs: no $dbg (libc6-dbg): valgrind will not start in the guest" >&2; fi
	libs_of "${files[@]}" "$PROV" "$VG/vgpreload_memcheck-amd64-linux.so" |
		while read -r l; do put "$R" "$l"; done
	put "$R" "$PROV"
	mkdir -p "$R/etc/libibverbs.d"; echo "driver rxe" > "$R/etc/libibverbs.d/rxe.driver"
	# glibc dlopen()s libgcc_s for pthread_exit/cancel (rping aborts without it)
	put "$R" /usr/lib/$MA/libgcc_s.so.1
	# dlopen()ed plugins: iptables matches, tc's netem distribution tables
	mkdir -p "$R/usr/lib/$MA"
	cp -a /usr/lib/$MA/xtables "$R/usr/lib/$MA/"
	[ ! -d /usr/lib/$MA/tc ] || cp -a /usr/lib/$MA/tc "$R/usr/lib/$MA/"
	# terminfo for the ncurses monitor (TERM is set to xterm in the guest)
	for t in x/xterm x/xterm-256color v/vt100 v/vt220 l/linux d/dumb s/screen s/tmux; do
		[ ! -e "/lib/terminfo/$t" ] || install -D -m644 "/lib/terminfo/$t" "$R/usr/lib/terminfo/$t"
		[ ! -e "/usr/share/terminfo/$t" ] || install -D -m644 "/usr/share/terminfo/$t" "$R/usr/share/terminfo/$t"
	done
	cp /etc/protocols /etc/services "$R/etc/" 2>/dev/null || true
	# tmux refuses to start without a UTF-8 locale: glibc's C.utf8 (libc-bin) lets the guest
	# drive rdmatop's curses UI through it
	mkdir -p "$R/usr/lib/locale"
	[ ! -d /usr/lib/locale/C.utf8 ] || cp -a /usr/lib/locale/C.utf8 "$R/usr/lib/locale/"

	# busybox (static) for everything else; real binaries win over its applets
	cp /bin/busybox "$R/usr/bin/busybox"
	for a in $(/bin/busybox --list); do [ -e "$R/usr/bin/$a" ] || ln -s busybox "$R/usr/bin/$a"; done
	# Debian's tcpdump drops to user 'tcpdump' unless -Z root: map that user to uid 0
	printf 'root:x:0:0:root:/root:/bin/bash\ntcpdump:x:0:0::/:/bin/sh\n' > "$R/etc/passwd"
	printf 'root:x:0:\n' > "$R/etc/group"
	printf '127.0.0.1 localhost\n198.18.0.1 rxe0-host\n198.18.0.2 rxe1-host\n' > "$R/etc/hosts"
	echo "$KVER" > "$R/etc/rdmadiag-vm-kernel"

	cat > "$R/init" <<'EOF'
#!/bin/sh
# PID 1 of the real-kernel tier: mount, load the RDMA stack, mount the host shares,
# run the guest runner named on the kernel command line, power off.
export PATH=/opt/rdmadiag/tools:/opt/rdmadiag/tui:/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp; mount -t tmpfs run /run
echo /sbin/modprobe > /proc/sys/kernel/modprobe
modprobe -a crc32_generic rdma_rxe rdma_ucm ib_umad veth dummy sch_netem sch_prio cls_u32 \
	nf_tables nft_compat xt_tcpudp virtio_pci 9pnet_virtio 9p || echo "init: modprobe failed"
ip link set lo up
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 host /mnt/host ||
	echo "init: cannot mount the host share"
echo "init: up after $(cut -d' ' -f1 /proc/uptime)s"
S=$(sed -n 's/.*rdiag.main=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -n "$S" ] && [ -f "$S" ]; then bash "$S"; st=$?; echo "init: runner exit $st"
	echo "$st" > /mnt/host/runner.status	# boot.sh returns it
else setsid cttyhack sh; fi
echo "init: done after $(cut -d' ' -f1 /proc/uptime)s"
# without ACPI there is no power-off: reboot, which qemu's -no-reboot turns into an exit
sync; reboot -f
EOF
	chmod +x "$R/init"
	# a linker cache, as on any installed system: without /etc/ld.so.cache the loader tries
	# every glibc-hwcaps subdirectory of every library directory for every library, at
	# every program start (milliseconds under TCG, for the reference tools as for ours)
	printf '/usr/lib/%s\n/lib/%s\n' "$MA" "$MA" > "$R/etc/ld.so.conf"
	/sbin/ldconfig -r "$R" || echo "initramfs: ldconfig failed: programs start without a cache" >&2
	(cd "$R" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$BASE.cpio.tmp"
	mv "$BASE.cpio.tmp" "$BASE.cpio"
fi

# --- the project part: fresh on every run ----------------------------------------------
P=$OUT/proj.root
rm -rf "$P"; mkdir -p "$P/opt/rdmadiag"/{tools,tui,lib}
pfiles=()
# each tool's binary is in its room, tools/<tool>/<tool>; the guest has them in tools/
for f in "$SRC"/tools/*/* "$SRC"/tui/*; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	head -c4 "$f" | grep -q ELF || continue
	d=$(basename "$(dirname "$f")")
	[ "$d" = tui ] || d=tools
	install -m755 "$f" "$P/opt/rdmadiag/$d/"; pfiles+=("$f")
done
if [ -e "$SRC/lib/librdmadiag.so.0" ]; then
	install -m755 "$(realpath "$SRC/lib/librdmadiag.so.0")" "$P/opt/rdmadiag/lib/librdmadiag.so.0"
	pfiles+=("$SRC/lib/librdmadiag.so.0")
fi
for b in ${VM_EXTRA_BINS:-}; do
	install -D -m755 "$(realpath "$b")" "$P/usr/bin/$(basename "$b")"; pfiles+=("$b")
done
# their libraries (libpcap, libmnl, and libasan/libubsan for a SANITIZE build) unless
# the system part has them already; librdmadiag itself comes from the tree above
if [ ${#pfiles[@]} -gt 0 ]; then
	libs_of "${pfiles[@]}" | while read -r l; do
		case $l in "$SRC"/*) continue ;; esac
		[ -e "$BASE.root$(realpath "$l")" ] || put "$P" "$l"
	done
	:
fi
(cd "$P" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$OUT/proj.cpio"
cat "$BASE.cpio" "$OUT/proj.cpio" > "$OUT/initramfs.cpio"
echo "$KVER"
