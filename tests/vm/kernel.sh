#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Fetch Debian's kernel for the real-kernel tier without installing it: the
# linux-image-<abi>-amd64 package that the linux-image-amd64 metapackage depends on,
# downloaded with apt-get and unpacked with dpkg-deb into CACHE/kernel-<abi>/.
# The unpacked tree is reused between runs; a fresh machine starts from nothing.
#   usage: kernel.sh CACHE        prints the unpacked tree (KROOT) on stdout
# Diagnostics go to stderr; exit 0 ok, 2 the kernel cannot be had here.
set -euo pipefail
CACHE=$(realpath -m "${1:?usage: kernel.sh CACHE}")
mkdir -p "$CACHE"
# several runs may share the cache (developers in one tree): one fetch at a time
exec 9> "$CACHE/.kernel.lock"
flock 9
rm -rf "$CACHE"/dl.*		# left by an interrupted run

# The ABI name (6.1.0-NN) moves with every Debian point release, so ask apt.
abi_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
PKG=$(abi_pkg || true)
if [ -z "$PKG" ]; then
	# no package lists yet (fresh container): refresh them once, as root only
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq >&2 || true
		PKG=$(abi_pkg || true)
	fi
fi
if [ -z "$PKG" ]; then
	# offline, or apt lists gone: an earlier download is still good enough
	KROOT=$(ls -d "$CACHE"/linux-image-*-amd64 2>/dev/null | sort -V | tail -1 || true)
	if [ -n "$KROOT" ] && [ -d "$KROOT/lib/modules" ]; then
		echo "$KROOT"; exit 0
	fi
	echo "cannot find the linux-image-amd64 dependency with apt-cache" >&2
	exit 2
fi

KROOT=$CACHE/$PKG
if [ -d "$KROOT/lib/modules" ] && ls "$KROOT"/boot/vmlinuz-* >/dev/null 2>&1; then
	echo "$KROOT"; exit 0
fi

tmp=$(mktemp -d "$CACHE/dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt-get download as root warns that _apt cannot read the directory: harmless
if ! (cd "$tmp" && apt-get download -qq "$PKG" >&2 2>/dev/null); then
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq >&2 || true
		(cd "$tmp" && apt-get download -qq "$PKG" >&2) || {
			echo "apt-get download $PKG failed" >&2; exit 2; }
	else
		echo "apt-get download $PKG failed (not root, cannot apt-get update)" >&2
		exit 2
	fi
fi
dpkg-deb -x "$tmp"/"$PKG"_*.deb "$tmp/root"
# the .deb carries no modules.dep (postinst makes it); build it once here
kver=$(ls "$tmp/root/lib/modules")
depmod -b "$tmp/root" "$kver"
rm -rf "$KROOT"
mv "$tmp/root" "$KROOT"
echo "$KROOT"
