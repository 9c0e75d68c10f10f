#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the rdmadiag_dcbdev test module for the kernel the real-kernel tier boots, against
# Debian's linux-headers-<KVER> package of that very kernel.  The .ko is cached under
# CACHE/dcbdev-<KVER>-<hash of this directory>/ and reused while neither changes.
#   usage: build.sh KVER CACHE        prints the .ko's path on stdout
# The headers come from apt (mk/deps.sh installs linux-headers-amd64, whose dependency is
# the ABI kernel.sh picks; when the ABI has moved on since, root installs the matching
# linux-headers-<KVER> here).  Diagnostics go to stderr; exit 0 ok, 2 cannot build here.
set -euo pipefail
KVER=${1:?usage: build.sh KVER CACHE}
CACHE=$(realpath -m "${2:?usage: build.sh KVER CACHE}")
SRC=$(dirname "$(realpath "$0")")
mkdir -p "$CACHE"
exec 9> "$CACHE/.dcbdev.lock"	# runs sharing the cache: one build at a time
flock 9

key=$( { echo "$KVER"; cd "$SRC" && cat Kbuild ./*.c ./*.h build.sh; } | sha256sum | cut -c1-16)
DIR=$CACHE/dcbdev-$KVER-$key
KO=$DIR/rdmadiag_dcbdev.ko
if [ -s "$KO" ]; then echo "$KO"; exit 0; fi

KDIR=/usr/src/linux-headers-$KVER
if [ ! -f "$KDIR/Makefile" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "no $KDIR (as root: apt-get install linux-headers-$KVER)" >&2; exit 2
	fi
	echo "dcbdev: installing linux-headers-$KVER" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -qq --no-install-recommends "linux-headers-$KVER" >&2 ||
		{ apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends \
			"linux-headers-$KVER" >&2; } ||
		{ echo "apt-get install linux-headers-$KVER failed" >&2; exit 2; }
fi

rm -rf "$CACHE"/dcbdev-"$KVER"-*	# an older source
tmp=$(mktemp -d "$CACHE/dcbdev-build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$SRC"/Kbuild "$SRC"/*.c "$SRC"/*.h "$tmp/"
# W=1: the module is built warning-clean, as the tree is under DEVELOPER=1
make -s -C "$KDIR" M="$tmp" W=1 modules >&2 ||
	{ echo "the module does not build against $KDIR" >&2; exit 2; }
mkdir -p "$DIR"
mv "$tmp/rdmadiag_dcbdev.ko" "$KO"
echo "$KO"
