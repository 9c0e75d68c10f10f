#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Install what rdmadiag needs to build and test, on Debian 12.  Idempotent: installs only
# what is missing.  As non-root, or without apt, print the exact command and exit 2.
set -u
BUILD="gcc make pkg-config libibverbs-dev librdmacm-dev libpcap-dev libncurses-dev libmnl-dev libdeflate-dev libtracefs-dev libtraceevent-dev libmicrohttpd-dev \
libyaml-dev libgnutls28-dev libcrypt-dev"
# dpkg-dev, debhelper, lintian: tests/bats/dist.bats builds and checks the Debian packages;
# parallel: the bats tier runs two files at once (mk/run-bats.sh); prometheus-node-exporter:
# make bench compares the agent with it (tests/bench/60-exporter.sh); libxml2-utils: xmllint
# parses rdmadump --graph's SVG (tests/bats/rdmadump_graph.bats)
TEST="bats bats-assert bats-support jq prometheus bash-completion zsh man-db groff-base tshark python3-scapy python3-prometheus-client tmux tcpdump iproute2 \
parallel procps python3-yaml psmisc time wireshark-common libcap2-bin util-linux systemd \
openssl apache2-utils curl dpkg-dev debhelper lintian prometheus-node-exporter libxml2-utils"
VM="qemu-system-x86 busybox-static xz-utils kmod cpio rdma-core ibverbs-utils ibverbs-providers \
rdmacm-utils perftest nftables iptables valgrind libc6-dbg ethtool linux-headers-amd64"
FUZZ="clang libclang-rt-14-dev"
WANT="$BUILD $TEST $VM"
[ "${RDMADIAG_DEPS_FUZZ:-0}" = 1 ] && WANT="$WANT $FUZZ"
[ "${RDMADIAG_SKIP_DEPS:-0}" = 1 ] && exit 0

missing=""
for p in $WANT; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)
	case "$st" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: apt-get not found; on Debian 12 install:$missing" >&2
	exit 2
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages; run as root: apt-get update && $cmd" >&2
	exit 2
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; answer it up front
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections 2>/dev/null
apt-get update -qq >/dev/null || { echo "deps: apt-get update failed" >&2; exit 2; }
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/tmp/rdmadiag-deps.log 2>&1 || {
	tail -20 /tmp/rdmadiag-deps.log >&2
	echo "deps: apt-get install failed (log: /tmp/rdmadiag-deps.log)" >&2
	exit 2
}
echo "deps: done"
