# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Helpers for the guest scripts of the real-kernel tier (bash; sourced before each
# tests/vm/guest/NN-*.sh).  The guest has two Soft-RoCE devices on one veth pair:
#
#   rxe0 -- veth0 198.18.0.1  <====>  veth1 198.18.0.2 -- rxe1
#
# and these variables (exported by setup.sh):
#   OUT      results directory, shared with the host (the host sees it as $VM_OUT);
#            put pcaps and JSON there under names that start with your script's number
#   A B      198.18.0.1 198.18.0.2        DEV0 DEV1  rxe0 rxe1     NET0 NET1  veth0 veth1
#   GID      the GID index of the IPv4 (RoCE v2) address on both devices, from sysfs
#   ME       this script's name without .sh (e.g. 10-rdmadump)
#
# Keep the guest's work small: under TCG every fork costs, jq costs 0.6 s just to start.
# Save JSON to $OUT and judge it in a host/NN-*.sh script when there is much of it.
#
# TAP: print 'ok - what it proves' / 'not ok - what it proves' (no numbers: the harness
# numbers them) and '# diagnostics'.  Command output goes to stderr, which is the
# script's log ($OUT/log/$ME.log); stdout is TAP only.
# Every script must leave the setup as it found it: use the undo helpers below (the
# runner checks after every script below 90 and reports 'not ok' when it was not).

# defaults, so that the helpers also work in a script run by hand
: "${OUT:=/tmp/out}" "${A:=198.18.0.1}" "${B:=198.18.0.2}" "${DEV0:=rxe0}" "${DEV1:=rxe1}"
: "${NET0:=veth0}" "${NET1:=veth1}" "${GID:=1}" "${ME:=adhoc}"

# --- TAP ---------------------------------------------------------------------------
diag() { local l; for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done; }
tap_pass() { echo "ok - $1"; }
tap_fail() { echo "not ok - $1"; shift; [ $# -gt 0 ] && diag "$@"; return 1; }
tap_skip() { echo "ok - $1 # SKIP ${2:-}"; }

# tap_ok NAME CMD...: run CMD; ok when it exits 0.  Its output goes to the log, and
# the last lines of it become diagnostics when it fails.  Returns CMD's status.
tap_ok() {
	# (names with a prefix: bash scoping is dynamic, and CMD is often a shell function)
	local _tap_name=$1 _tap_st _tap_out
	shift
	_tap_out=$(mktemp)
	"$@" > "$_tap_out" 2>&1
	_tap_st=$?
	cat "$_tap_out" >&2
	if [ $_tap_st -eq 0 ]; then
		echo "ok - $_tap_name"
	else
		echo "not ok - $_tap_name"
		diag "command: $* (exit $_tap_st)"
		tail -n 8 "$_tap_out" | sed 's/^/#   /'
	fi
	rm -f "$_tap_out"
	return $_tap_st
}

# tap_check NAME TEST...: like tap_ok for a condition, e.g.
#   tap_check "pingpong sent 100 packets" [ "$n" -eq 100 ]
# A failure shows the condition with its values expanded.
tap_check() {
	local name=$1
	shift
	if "$@"; then
		echo "ok - $name"
	else
		echo "not ok - $name"
		diag "failed: $*"
		return 1
	fi
}

# tap_eq NAME EXPECTED ACTUAL: string equality with both values on failure
tap_eq() {
	if [ "$2" = "$3" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		diag "expected: $2" "     got: $3"
		return 1
	fi
}

# have NAME: is a tool there?  (tools/ binaries may be absent until their issue lands)
have() { command -v "$1" > /dev/null 2>&1; }

# elapsed-time stamps for the log
now() { local u; read -r u _ < /proc/uptime; echo "$u"; }
log() { echo "[$(now)] $*" >&2; }

# --- waiting -----------------------------------------------------------------------
# uptime in centiseconds, without a fork (forks are slow under TCG on a busy host)
now_cs() { local u; read -r u _ < /proc/uptime; u=${u/./}; echo $((10#$u)); }

# wait_for TIMEOUT_S CMD...: poll CMD every 50 ms until it succeeds or the time is up
# (then 1, and a line in the log); for a caller that handles the timeout itself
wait_for() {
	local secs=$1 end=$(( $(now_cs) + $1 * 100 ))
	shift
	while :; do
		"$@" > /dev/null 2>&1 && return 0
		if [ "$(now_cs)" -ge "$end" ]; then
			log "wait_for: still failing after $secs s: $*"
			return 1
		fi
		sleep 0.05
	done
}
# PID has ended (gone, or a zombie its parent has not reaped yet)
pid_ended() {
	local st
	read -r _ _ st _ < "/proc/$1/stat" 2> /dev/null || return 0
	[ "$st" = Z ]
}
# wait_exit TIMEOUT_S PID: wait for the child PID and return its status; when the time is up
# it is ended (TERM, then KILL) and that is logged: a program that hangs after a fault the
# test made costs seconds, not the script's whole limit
wait_exit() {
	local secs=$1 pid=$2
	if ! wait_for "$secs" pid_ended "$pid"; then
		log "wait_exit: pid $pid still running after $secs s: TERM"
		kill -TERM "$pid" 2> /dev/null
		wait_for 2 pid_ended "$pid" || kill -KILL "$pid" 2> /dev/null
	fi
	wait "$pid"
}
# await TIMEOUT_S WHAT CMD...: wait_for, and a 'not ok - WHAT' when the time is up: a wait
# that times out is a failure with its reason, never a silent fall-through
await() {
	local secs=$1 what=$2
	shift 2
	wait_for "$secs" "$@" || tap_fail "$what" "timed out after $secs s: $*"
}

# a TCP listener on PORT (the out-of-band exchange of ibv_*_pingpong and perftest)
tcp_listening() {
	local hex sl local rem st rest f
	hex=$(printf '%04X' "$1")
	for f in /proc/net/tcp /proc/net/tcp6; do
		[ -r "$f" ] || continue
		while read -r sl local rem st rest; do
			[ "$st" = 0A ] && [ "${local##*:}" = "$hex" ] && return 0
		done < "$f"
	done
	return 1
}
wait_tcp_listen() { wait_for "${2:-10}" tcp_listening "$1"; }

# an rdma_cm listener on PORT (rping, ib_*_bw -R, rdma_server, ...)
cm_listening() {
	rdma res show cm_id 2>/dev/null | grep "state LISTEN" | grep -q ":$1 "
}
wait_cm_listen() { wait_for "${2:-10}" cm_listening "$1"; }

# --- hw_counters -------------------------------------------------------------------
# sysfs hw_counters are a snapshot cached for 'lifespan' ms (10-12 ms on rxe): wait
# longer than that so the next read is fresh.
wait_lifespan() {
	local ms=0 l d
	for d in /sys/class/infiniband/*/ports/1/hw_counters/lifespan; do
		[ -r "$d" ] || continue
		read -r l < "$d"; [ "$l" -gt "$ms" ] && ms=$l
	done
	ms=$((ms * 2 + 20))
	sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
}
# hwc DEV NAME: one counter (call wait_lifespan first after traffic)
hwc() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
# hwc_snap DEV FILE: every counter of DEV as 'name value' lines, fresh (after the lifespan)
hwc_snap() {
	local f v
	wait_lifespan
	for f in /sys/class/infiniband/"$1"/ports/1/hw_counters/*; do
		[ "${f##*/}" = lifespan ] && continue
		read -r v < "$f"
		echo "${f##*/} $v"
	done > "$2"
}
# hwc_delta BEFORE AFTER NAME: the increase of NAME between two snapshots
hwc_delta() {
	local n v b=0 a=0
	while read -r n v; do [ "$n" = "$3" ] && b=$v; done < "$1"
	while read -r n v; do [ "$n" = "$3" ] && a=$v; done < "$2"
	echo $((a - b))
}

# --- capture -----------------------------------------------------------------------
# cap_start NAME [IFACE] [FILTER...]: tcpdump on IFACE (default $NET0, filter UDP 4791),
# returns once it listens.  cap_stop NAME stops it and leaves the file in $OUT/NAME.pcap.
# --immediate-mode: TPACKET_V3 otherwise holds packets in a ring block for up to 1 s and a
# quick stop loses them; -s 8192 -B 32768: immediate mode sizes each ring slot by the
# snaplen (256 KiB by default: 8 slots) and bursts were dropped.  It writes to tmpfs and
# the file is copied to $OUT at the end: a write per packet over 9p is slow enough under
# TCG to make the ring overflow during a burst.
cap_start() {
	local name=$1 ifc=${2:-$NET0} err
	shift; [ $# -gt 0 ] && shift
	[ $# -gt 0 ] || set -- udp port 4791
	err=/tmp/cap.$name.err
	mkdir -p /tmp/cap
	tcpdump -Z root -i "$ifc" --immediate-mode -s 8192 -B 32768 -w "/tmp/cap/$name.pcap" \
		"$@" 2> "$err" &
	echo $! > "/tmp/cap.$name.pid"
	wait_for 5 grep -q "listening on" "$err" || { log "tcpdump $name did not start"; cat "$err" >&2; return 1; }
}
# cap_stop NAME: stop it; sets CAP_PACKETS and CAP_DROPPED; fails if the kernel dropped any
cap_stop() {
	local name=$1 pid err=/tmp/cap.$1.err
	pid=$(cat "/tmp/cap.$name.pid" 2>/dev/null) || return 1
	sleep 0.2		# the last frames of the exchange are still in flight
	kill -INT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	rm -f "/tmp/cap.$name.pid"
	cp "/tmp/cap/$name.pcap" "$OUT/$name.pcap"
	CAP_PACKETS=$(awk '/packets captured/ { print $1 }' "$err")
	CAP_DROPPED=$(awk '/dropped by kernel/ { print $1 }' "$err")
	log "capture $name: ${CAP_PACKETS:-?} packets, ${CAP_DROPPED:-?} dropped"
	[ "${CAP_DROPPED:-1}" = 0 ]
}

# --- traffic -----------------------------------------------------------------------
# Every pair: server on rxe1 ($B), client on rxe0 ($A) so that the packets really cross
# the veth pair (a device talking to itself, or rdma_cm picking rxe1 for both ends,
# loops inside rxe and no packet reaches a netdev).  Output goes to the log.
# Each returns 0 when both ends completed.  PORT defaults differ per helper so that a
# lingering listener of one never answers another.

# pp_pair ITERS SIZE [ibv_rc_pingpong options...]   (RC send/recv, TCP exchange)
pp_pair() {
	local n=${1:-10} size=${2:-4096} port=${PP_PORT:-18515} t=${PP_TIMEOUT:-30} s
	shift 2
	timeout "$t" ibv_rc_pingpong -d "$DEV1" -g "$GID" -p "$port" -n "$n" -s "$size" "$@" >&2 2>&1 &
	s=$!
	wait_tcp_listen "$port" || { log "pingpong server did not listen"; kill "$s"; wait "$s"; return 1; }
	timeout "$t" ibv_rc_pingpong -d "$DEV0" -g "$GID" -p "$port" -n "$n" -s "$size" "$@" "$B" >&2 2>&1
	pair_end $? "$s"
}
# pair_end CLIENT_STATUS SERVER_PID: both must have succeeded
pair_end() {
	if [ "$1" -ne 0 ]; then
		log "client failed with status $1"
		kill "$2" 2>/dev/null; wait "$2" 2>/dev/null
		return "$1"
	fi
	wait "$2" || { log "server failed"; return 1; }
}

# rping_pair COUNT SIZE [rping options...]   (rdma_cm: REQ/REP/RTU, SEND, READ, WRITE, DREQ)
# The client binds to $A (-I): without it the CMA resolves both ends to rxe1.
rping_pair() {
	local n=${1:-3} size=${2:-64} port=${RPING_PORT:-7174} t=${RPING_TIMEOUT:-30} s
	shift 2
	timeout "$t" rping -s -a "$B" -p "$port" -C "$n" -S "$size" "$@" >&2 2>&1 &
	s=$!
	wait_cm_listen "$port" || { log "rping server did not listen"; kill "$s"; wait "$s"; return 1; }
	timeout "$t" rping -c -I "$A" -a "$B" -p "$port" -C "$n" -S "$size" -v "$@" >&2 2>&1
	pair_end $? "$s"
}

# rping_connected PORT SRV_OUT CLI_OUT: an rping server on $B:PORT and a client from $A that
# go on (-C 100000; -d: each end's rdma_cm events in its output file), back once the client
# printed ESTABLISHED; RPING_SRV and RPING_CLI are their pids (the await says when it never did)
rping_connected() {
	rping -s -a "$B" -p "$1" -C 100000 -d > "$2" 2>&1 &
	RPING_SRV=$!
	wait_cm_listen "$1"
	rping -c -I "$A" -a "$B" -p "$1" -C 100000 -d > "$3" 2>&1 &
	RPING_CLI=$!
	await 10 "the rping client on port $1 printed ESTABLISHED" \
		grep -q 'cma_event type RDMA_CM_EVENT_ESTABLISHED' "$3"
}

# write_bw_pair [ib_write_bw options...]   (perftest; with -R over rdma_cm, else TCP + GID)
# e.g. write_bw_pair -R -n 200 -s 65536
# The exception to "packets cross the veth": with -R, perftest's client does not bind its
# --source_ip, and with both addresses local rdma_cm puts both ends on rxe1 (loopback inside
# rxe1).  -R is rdma_cm-driven perftest traffic through rxe, not traffic over the veth.
# -F always: perftest fits the TSC against the clock to get the CPU frequency, the fit
# fails now and then under TCG ("Correlation coefficient r^2 < 0.9"), and without -F it
# then exits 1 after the traffic ("Can't produce a report").  Use -F with any perftest.
write_bw_pair() {
	local port=${BW_PORT:-18600} t=${BW_TIMEOUT:-60} s a cm=0
	for a in "$@"; do [ "$a" = -R ] && cm=1; done
	set -- -F "$@"
	if [ $cm = 1 ]; then
		timeout "$t" ib_write_bw -d "$DEV1" -p "$port" --source_ip "$B" "$@" >&2 2>&1 &
		s=$!
		wait_cm_listen "$port" || { log "ib_write_bw server did not listen"; kill "$s"; wait "$s"; return 1; }
		timeout "$t" ib_write_bw -d "$DEV0" -p "$port" --source_ip "$A" "$@" "$B" >&2 2>&1
	else
		timeout "$t" ib_write_bw -d "$DEV1" -x "$GID" -p "$port" "$@" >&2 2>&1 &
		s=$!
		wait_tcp_listen "$port" || { log "ib_write_bw server did not listen"; kill "$s"; wait "$s"; return 1; }
		timeout "$t" ib_write_bw -d "$DEV0" -x "$GID" -p "$port" "$@" "$B" >&2 2>&1
	fi
	pair_end $? "$s"
}

# --- fault injection (each with its undo) ----------------------------------------------
# netem on the EGRESS of a veth end: packets it drops never reach the peer, and a
# tcpdump on that end does not see them either (the tap is after the qdisc).
netem_loss()  { tc qdisc replace dev "$1" root netem loss "$2" "${@:3}"; }	# IFACE PCT%
netem_delay() { tc qdisc replace dev "$1" root netem delay "$2" "${@:3}"; }	# IFACE 20ms
netem_clear() { tc qdisc del dev "$1" root 2>/dev/null; return 0; }
# netem_roce IFACE NETEM-ARGS...: netem for RoCEv2 (UDP 4791) only, e.g. 'loss 3%': a prio
# qdisc sends everything to band 2 except what the u32 filter steers to the netem band,
# so ARP and the TCP exchange of the verbs tools are never hit (and the drop count is
# exactly the RoCE packets lost).  Undo with netem_clear.
netem_roce() {
	local d=$1
	shift
	tc qdisc add dev "$d" root handle 1: prio bands 3 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 &&
	tc qdisc add dev "$d" parent 1:3 handle 30: netem "$@" &&
	tc filter add dev "$d" parent 1: protocol ip prio 1 u32 \
		match ip protocol 17 0xff match ip dport 4791 0xffff flowid 1:3
}
# netem_drops IFACE: packets the netem qdisc on IFACE has dropped so far
netem_drops() {
	tc -s qdisc show dev "$1" | awk '/^qdisc netem/ { n = 1; next }
		n && /dropped/ { sub(/.*dropped /, ""); sub(/,.*/, ""); print; exit }'
}

# fw_drop_roce [input|output]: drop RoCEv2 (UDP 4791) in a table of our own
# (rxe receives through the UDP stack, so 'input' drops what arrives for both devices;
# rxe sends through ip_local_out, so 'output' drops what they send).  nft, else iptables.
FW_TABLE=rdiag_test
fw_drop_roce() {
	local hook=${1:-input}
	if have nft; then
		nft add table inet $FW_TABLE &&
		nft "add chain inet $FW_TABLE $hook { type filter hook $hook priority 0; }" &&
		nft add rule inet $FW_TABLE "$hook" udp dport 4791 counter drop
	else
		local ch=INPUT; [ "$hook" = output ] && ch=OUTPUT
		iptables -I $ch -p udp --dport 4791 -j DROP
	fi
}
fw_clear() {
	nft delete table inet $FW_TABLE 2>/dev/null
	while iptables -D INPUT -p udp --dport 4791 -j DROP 2>/dev/null; do :; done
	while iptables -D OUTPUT -p udp --dport 4791 -j DROP 2>/dev/null; do :; done
	return 0
}

link_down() { ip link set dev "$1" down; }
link_up()   { ip link set dev "$1" up; wait_port_active "$(netdev_rdma "$1")"; }

# addr_del IFACE ADDR/LEN and addr_add IFACE ADDR/LEN (the RoCE v2 GID follows the address)
addr_del() { ip addr del "$2" dev "$1"; }
addr_add() { ip addr add "$2" dev "$1"; wait_for 5 gid_index "$(netdev_rdma "$1")" "${2%/*}"; }

# mtu_set IFACE MTU / mtu_restore IFACE (back to 1500)
mtu_set()     { ip link set dev "$1" mtu "$2"; }
mtu_restore() { ip link set dev "$1" mtu 1500; }

# --- devices -----------------------------------------------------------------------
# the rxe device on top of a netdev
netdev_rdma() {
	rdma link show 2>/dev/null | awk -v n="$1" '$NF == n && $(NF-1) == "netdev" {
		sub(/\/.*/, "", $2); print $2; exit }'
}
port_state() { local s; read -r s < "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null; echo "$s"; }
wait_port_active() { wait_for "${2:-10}" sh -c "grep -q ACTIVE /sys/class/infiniband/$1/ports/1/state"; }

# gid_index DEV IPV4: the GID table index of ::ffff:IPV4 with type RoCE v2, read from sysfs
gid_index() {
	local dev=$1 want g f i t o1 o2 o3 o4
	IFS=. read -r o1 o2 o3 o4 <<< "$2"
	printf -v want '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$o1" "$o2" "$o3" "$o4"
	for f in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		read -r g < "$f" 2>/dev/null || continue
		[ "$g" = "$want" ] || continue
		i=${f##*/}
		# an unused slot's type file reads EINVAL; a used one says 'RoCE v2' or 'IB/RoCE v1'
		read -r t < "/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null || continue
		[ "$t" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	return 1
}

# --- the setup itself (used by setup.sh and by the runner's check after each script) ----
setup_bringup() {
	ip link add "$NET0" type veth peer name "$NET1" || return 1
	ip addr add "$A/24" dev "$NET0" && ip addr add "$B/24" dev "$NET1" || return 1
	ip link set "$NET0" up && ip link set "$NET1" up || return 1
	# both addresses are local to this one namespace: without accept_local the ARP
	# request from $B arrives on $NET0 with a 'local' source, is dropped, and
	# modify_qp(RTR) fails
	sysctl -qw net.ipv4.conf.all.accept_local=1 || return 1
	sysctl -qw net.ipv4.conf.$NET0.accept_local=1 net.ipv4.conf.$NET1.accept_local=1
	rdma link add "$DEV0" type rxe netdev "$NET0" || return 1
	rdma link add "$DEV1" type rxe netdev "$NET1" || return 1
	wait_port_active "$DEV0" && wait_port_active "$DEV1"
}

# setup_verify: print what differs from the standard setup (nothing when all is well).
# Runs after every script: sysfs reads and a handful of commands, as forks cost under TCG.
setup_verify() {
	local n d ip dev v addrs qd rules
	addrs=$(ip -o -4 addr show 2>/dev/null)
	qd=$(tc qdisc show 2>/dev/null)
	for n in "$NET0:$A:$DEV0" "$NET1:$B:$DEV1"; do
		IFS=: read -r d ip dev <<< "$n"
		[ -d "/sys/class/net/$d" ] || { echo "$d is gone"; continue; }
		read -r v < "/sys/class/net/$d/operstate"
		[ "$v" = up ] || echo "$d is $v"
		[[ $addrs =~ $d[[:space:]]+inet\ $ip/24 ]] || echo "$d lost $ip/24"
		read -r v < "/sys/class/net/$d/mtu"
		[ "$v" = 1500 ] || echo "$d MTU is $v"
		[[ $qd =~ (netem|prio)[^$'\n']*dev\ $d\  ]] && echo "$d still has a netem qdisc"
		[ -d "/sys/class/infiniband/$dev" ] || { echo "$dev is gone"; continue; }
		v=$(port_state "$dev")
		[[ $v == *ACTIVE* ]] || echo "$dev port is $v"
		[ "$(gid_index "$dev" "$ip")" = "$GID" ] ||
			echo "$dev: the RoCE v2 GID of $ip is not at index $GID any more"
	done
	# rules, not tables: iptables-nft leaves its empty tables behind
	# (counted in the text listing: jq alone costs 0.6 s to start under TCG)
	rules=$(nft list ruleset 2>/dev/null | awk '/^\t*chain / { c = 1; next }
		c && /^\t*}/ { c = 0; next } c && NF && !/^\t*(type|policy) / { n++ } END { print n + 0 }')
	[ "${rules:-0}" = 0 ] || echo "$rules firewall rules left: $(nft list ruleset | tr -s '\t\n' '  ')"
	read -r v < /proc/sys/net/ipv4/conf/all/accept_local
	[ "$v" = 1 ] || echo "accept_local was reset"
	return 0
}

# setup_repair: bring everything back (after a script that did not clean up)
setup_repair() {
	local d
	for d in "$NET0" "$NET1"; do netem_clear "$d"; done
	fw_clear
	nft flush ruleset 2>/dev/null
	if ! ip link show "$NET0" > /dev/null 2>&1 || ! ip link show "$NET1" > /dev/null 2>&1; then
		rdma link delete "$DEV0" 2>/dev/null; rdma link delete "$DEV1" 2>/dev/null
		ip link del "$NET0" 2>/dev/null; ip link del "$NET1" 2>/dev/null
		setup_bringup
		return
	fi
	for d in "$NET0" "$NET1"; do mtu_restore "$d"; ip link set "$d" up; done
	ip -4 addr show dev "$NET0" | grep -q "inet $A/24" || ip addr add "$A/24" dev "$NET0"
	ip -4 addr show dev "$NET1" | grep -q "inet $B/24" || ip addr add "$B/24" dev "$NET1"
	sysctl -qw net.ipv4.conf.all.accept_local=1
	[ -d "/sys/class/infiniband/$DEV0" ] || rdma link add "$DEV0" type rxe netdev "$NET0"
	[ -d "/sys/class/infiniband/$DEV1" ] || rdma link add "$DEV1" type rxe netdev "$NET1"
	wait_port_active "$DEV0"; wait_port_active "$DEV1"
}

# dcbdev_pair_up: the rdmadiag_dcbdev pair $X0/$X1 (70-, 71-) with addresses $XA/$XB, static
# neighbours and rxe $R0/$R1 on it, both ports ACTIVE with their GIDs (ip -batch: one fork for
# many commands, forks cost under TCG)
dcbdev_pair_up() {
	local d m0 m1
	for d in $X0 $X1; do echo 1 > "/proc/sys/net/ipv6/conf/$d/disable_ipv6" || return 1; done
	read -r m0 < /sys/class/net/$X0/address; read -r m1 < /sys/class/net/$X1/address
	ip -batch - <<-EOB || return 1
	addr add $XA/24 dev $X0
	addr add $XB/24 dev $X1
	link set $X0 up
	link set $X1 up
	neigh replace $XB lladdr $m1 dev $X0 nud permanent
	neigh replace $XA lladdr $m0 dev $X1 nud permanent
	EOB
	rdma link add $R0 type rxe netdev $X0 && rdma link add $R1 type rxe netdev $X1 || return 1
	wait_port_active $R0 && wait_port_active $R1 &&
	wait_for 5 gid_index $R0 $XA && wait_for 5 gid_index $R1 $XB
}
# cm_traffic: ucmatose on the dcbdev pair (70-, 73-), server on $R1 (bound to $XB), client
# bound to $XA, ToS $TOS on both ends, $MSGS messages of 1 KiB, port $PORT
cm_traffic() {
	local s
	timeout 30 ucmatose -b "$XB" -p "$PORT" -t "$TOS" -C "$MSGS" -S 1024 >&2 2>&1 &
	s=$!
	wait_cm_listen "$PORT" || { log "ucmatose server did not listen"; kill "$s"; wait "$s"; return 1; }
	timeout 30 ucmatose -s "$XB" -b "$XA" -p "$PORT" -t "$TOS" -C "$MSGS" -S 1024 >&2 2>&1
	pair_end $? "$s"
}
# dcbdev_cfs_tos: rdma_cm's configfs default_roce_tos $TOS on $R0 and $R1 (71-, 73-)
dcbdev_cfs_tos() {
	local d c=/sys/kernel/config
	grep -q " $c configfs" /proc/mounts || mount -t configfs none $c || return 1
	for d in $R0 $R1; do
		mkdir -p $c/rdma_cm/$d && echo $TOS > $c/rdma_cm/$d/ports/1/default_roce_tos || return 1
	done
}
# dcbdev_undo: the pair's rxe devices, their configfs directories and the module gone
dcbdev_undo() {
	rdma link delete $R0 2>/dev/null; rdma link delete $R1 2>/dev/null
	rmdir /sys/kernel/config/rdma_cm/$R0 /sys/kernel/config/rdma_cm/$R1 2>/dev/null
	modprobe -r rdmadiag_dcbdev 2>/dev/null
	return 0
}
# dmesg_clean N: no kernel warning, bug, oops or kobject complaint past dmesg line N (a test
# of the module: 71-, 73-)
dmesg_clean() {
	dmesg | tail -n +$(($1 + 1)) | grep -E "WARNING:|BUG:|Oops|Call Trace|refcount|kobject" > /tmp/dmesg.bad
	tap_check "the kernel logged no warning, bug, oops or kobject complaint" [ ! -s /tmp/dmesg.bad ] ||
		cat /tmp/dmesg.bad >&2
}
# reads DEV: how many times the rdmadiag_dcbdev netdev DEV's ethtool -S was read
# (dcbdev/stats_reads); reads_past DEV N: more than N times
reads() { local n; read -r n < /sys/class/net/$1/dcbdev/stats_reads; echo "$n"; }
reads_past() { [ "$(reads "$1")" -gt "$2" ]; }
# first_sample OUT ERR "DEV..." CMD...: start the sampler CMD in the background (stdout to
# OUT, stderr to ERR, the same file when they are equal) and stop it (SIGSTOP) as soon as it
# has read every dcbdev DEV's counters once, so that its next sample waits for what the
# caller does next (SIGCONT); its pid in $spid.  A sampler reads each DEV FS_READS times per
# sample (default 1; rdmatop with Ethernet thresholds: 2, its Ports screen's and the rules');
# on a loaded host the stop can come after its second sample: that sampler is killed and
# started again, up to 3 times (1 when it never stopped).
first_sample() {
	local out=$1 err=$2 devs=$3 per=${FS_READS:-1} try d n ok
	local -A a
	shift 3
	for try in 1 2 3; do
		for d in $devs; do a[$d]=$(reads $d); done
		if [ "$err" = "$out" ]; then "$@" > "$out" 2>&1 & else "$@" > "$out" 2> "$err" & fi
		spid=$!
		ok=1
		for d in $devs; do wait_for 10 reads_past $d "$((a[$d] + per - 1))" || ok=0; done
		[ $ok = 1 ] && kill -STOP $spid
		for d in $devs; do
			n=$(reads $d)
			log "$1 read $d $((n - a[$d])) times before it stopped (try $try)"
			[ $((n - a[$d])) -le "$per" ] || ok=0
		done
		[ $ok = 1 ] && return 0
		kill -KILL $spid 2>/dev/null
		wait $spid 2>/dev/null
	done
	return 1
}
