#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Build the tier's test programs (tests/vm/progs/*.c, libibverbs and librdmacm) for the QEMU image,
# never in 'make all'.  The binaries are cached under CACHE/progs-<key>/, the key made of
# their sources, this script and the installed libibverbs-dev, and reused while none changes.
#   usage: build.sh CACHE        prints the binaries' paths on stdout, one a line
# tests/vm/run puts them into the image's /usr/bin (VM_EXTRA_BINS).  Diagnostics go to
# stderr; exit 0 ok, 2 cannot build here.
set -euo pipefail
CACHE=$(realpath -m "${1:?usage: build.sh CACHE}")
SRC=$(dirname "$(realpath "$0")")
mkdir -p "$CACHE"
exec 9> "$CACHE/.progs.lock"	# runs sharing the cache: one build at a time
flock 9

key=$( { cd "$SRC" && cat build.sh ./*.c; dpkg-query -W libibverbs-dev librdmacm-dev 2>/dev/null || :; } |
	sha256sum | cut -c1-16)
DIR=$CACHE/progs-$key
if [ ! -f "$DIR/.done" ]; then
	rm -rf "$CACHE"/progs-*	# an older source
	tmp=$(mktemp -d "$CACHE/progs-build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	for c in "$SRC"/*.c; do
		b=$(basename "$c" .c)
		# warning-clean, as the tree is under DEVELOPER=1
		gcc -std=gnu11 -O2 -g -Wall -Wextra -Wshadow -Wformat=2 -Werror -o "$tmp/$b" "$c" \
			-lrdmacm -libverbs >&2 || { echo "progs: $b does not build" >&2; exit 2; }
	done
	touch "$tmp/.done"
	mv "$tmp" "$DIR"
fi
for c in "$SRC"/*.c; do echo "$DIR/$(basename "$c" .c)"; done
