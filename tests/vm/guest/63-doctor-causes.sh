# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# vm-timeout: 60
# The doctor's host, address and link cause ids that no other script of the tier produces
# (issue 28: a tier test per cause id where the kernel can produce it), each made real here
# and undone at once, each judged by the finding's cause id in rdmadoctor -j:
#   memlock_low          RLIMIT_MEMLOCK 64 KiB and no CAP_IPC_LOCK (progs/as_user -L drops it
#                        from the bounding set): a warning of 'local'
#   device_node_access   /dev/infiniband/rdma_cm 0600 and the doctor run as nobody (as_user)
#   no_cm_device_node    /dev/infiniband/rdma_cm moved away for one run of 'local'
#   no_uverbs_device_node  the same of /dev/infiniband/uverbs*
#   mtu_too_small        veth0's MTU 300 (< 352): 'connect B --src A'
#   not_rdma_netdev      a dummy netdev with 198.18.63.1/24 and no RDMA device: 'connect
#                        198.18.63.2' routes through it
#   gid_link_local_only  rxell0 on a veth with IPv6 link-local addresses only: 'local'
#   no_rdma_device       'local' in a new network namespace of the RDMA subsystem's
#                        exclusive mode (rdma system set netns exclusive, then shared again)
# module_not_loaded is not made: the guest's modprobe -r rdma_ucm refuses.
# netdev_other_netns cannot be made with rxe: when its netdev moves to another namespace, rxe
# removes the device (the netdev is unregistered in the first).  Each run's JSON is
# $OUT/63-CASE.json.
J=$OUT/63
have rdmadoctor || { tap_fail "rdmadoctor is built and in the image"; exit 0; }
CM=/dev/infiniband/rdma_cm
# run CASE CMD...: CMD's stdout into $J-CASE.json, stderr into .err
run() { local c=$1; shift; "$@" > "$J-$c.json" 2> "$J-$c.err"; cat "$J-$c.err" >&2; }
# causes CASE: every finding's "level cause subject" of that run, sorted, one per line
causes() { jq -r '.. | objects | select(.cause? and .level?) | "\(.level) \(.cause) \(.subject)"' "$J-$1.json" 2> /dev/null | sort -u; }
# has CASE LEVEL CAUSE [SUBJECT]: the run has that finding
has() { causes "$1" | grep -q "^$2 $3${4:+ $4}"; }
why() { diag "$1: $(causes "$1" | grep -v '^ok ' | paste -sd';')"; }

if have as_user; then
	run memlock bash -c 'ulimit -l 64 && exec as_user -L rdmadoctor -j local'
	tap_check "memlock_low: RLIMIT_MEMLOCK 64 KiB without CAP_IPC_LOCK is a warning of rdmadoctor local" \
		has memlock warning memlock_low || why memlock
	run memlock-root bash -c 'ulimit -l 64 && exec rdmadoctor -j local'
	tap_check "memlock_low: the same limit with CAP_IPC_LOCK (root) is no finding" \
		eval '! has memlock-root warning memlock_low' || why memlock-root

	mode=$(stat -c %a $CM)
	chmod 600 $CM
	run access as_user -u 65534 -g 65534 rdmadoctor -j local
	chmod "$mode" $CM
	tap_check "device_node_access: $CM 0600 and the doctor as nobody: a problem naming $CM" \
		has access problem device_node_access $CM || why access
else
	tap_skip "memlock_low and device_node_access" "as_user (tests/vm/progs) is not in the image"
fi

mv $CM /dev/infiniband/.rdma_cm.away
run nocm rdmadoctor -j local
mv /dev/infiniband/.rdma_cm.away $CM
tap_check "no_cm_device_node: $CM moved away for one run: a problem" \
	has nocm problem no_cm_device_node $CM || why nocm
tap_check "and $CM is back" test -c $CM

mkdir -p /tmp/63-uverbs && mv /dev/infiniband/uverbs* /tmp/63-uverbs/
run nouverbs rdmadoctor -j local
mv /tmp/63-uverbs/* /dev/infiniband/
tap_check "no_uverbs_device_node: the uverbs nodes moved away for one run: a problem" \
	has nouverbs problem no_uverbs_device_node || why nouverbs
tap_check "and they are back" test -c /dev/infiniband/uverbs0

mtu_set "$NET0" 300
run mtu rdmadoctor -j connect "$B" --src "$A" --timeout 2000
mtu_restore "$NET0"
tap_check "mtu_too_small: $NET0 MTU 300, connect $B: a problem for $DEV0" \
	has mtu problem mtu_too_small || why mtu
tap_eq "mtu_too_small: the verdict's cause" mtu_too_small "$(jq -r .verdict.cause "$J-mtu.json")"
tap_check "and $NET0's MTU is 1500 again, $DEV0 ACTIVE" wait_port_active "$DEV0"

ip link add d63 type dummy && ip addr add 198.18.63.1/24 dev d63 && ip link set d63 up
run nordma rdmadoctor -j connect 198.18.63.2 --timeout 2000
ip link del d63
tap_eq "not_rdma_netdev: connect 198.18.63.2 through a dummy netdev without RDMA: the verdict" \
	not_rdma_netdev "$(jq -r .verdict.cause "$J-nordma.json")" || why nordma

ip link add vll0 type veth peer name vll1 && ip link set vll0 up && ip link set vll1 up
rdma link add rxell0 type rxe netdev vll0
wait_port_active rxell0 && wait_for 5 sh -c "grep -q '^fe80' /sys/class/infiniband/rxell0/ports/1/gids/0"
run linklocal rdmadoctor -j local
rdma link delete rxell0
ip link del vll0
tap_check "gid_link_local_only: rxell0 on a veth with IPv6 link-local addresses only: a warning" \
	has linklocal warning gid_link_local_only rxell0 || why linklocal

# the RDMA subsystem's exclusive network namespace mode: a new namespace sees no device
if rdma system set netns exclusive 2> "$J-nodev.rdma" && ip netns add n63; then
	run nodev ip netns exec n63 rdmadoctor -j local
	ip netns del n63
	wait_for 10 rdma system set netns shared 2>> "$J-nodev.rdma"
	tap_check "no_rdma_device: in a namespace of the exclusive mode: a problem" \
		has nodev problem no_rdma_device || why nodev
	tap_eq "and the mode is shared again" "netns shared" "$(rdma system show | grep -o 'netns [a-z]*')"
else
	tap_skip "no_rdma_device" "rdma system set netns exclusive: $(head -c 200 "$J-nodev.rdma")"
	rdma system set netns shared 2> /dev/null
fi

tap_check "the tier's own RDMA devices are as they were ($DEV0, $DEV1 ACTIVE)" \
	sh -c "grep -q ACTIVE /sys/class/infiniband/$DEV0/ports/1/state && grep -q ACTIVE /sys/class/infiniband/$DEV1/ports/1/state"
