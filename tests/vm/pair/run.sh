# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# The two-guest mode of the real-kernel tier, sourced by tests/vm/run after the single
# guest (its emit/result/n/nfail, WORK, VM, ROOT and the built image in $WORK/build).
#
#   server guest  eth0 198.18.1.1 -- rxe0      client guest  eth0 198.18.1.2 -- rxe0
#                 (pair-server)                              (pair-client)
#
# Two QEMU processes, booted at the same time from the same image by boot.sh, each with a
# virtio-net NIC; the NICs are joined by a QEMU stream netdev on a unix socket in this
# run's own work directory (the server's QEMU listens, the client's connects), so that
# two developers' runs can never meet on a port.  Each guest has its own share (its
# console, out/tap, out/log, like the single guest) and both mount a common one
# (/mnt/pair) for the runners' barriers.  pair/main.sh runs in each guest with the role
# on the kernel command line and runs every pair/NN-*.sh with it ($ROLE server|client);
# then pair/host/NN-*.sh judge on the host with PAIR_SERVER and PAIR_CLIENT = the two
# guests' out directories.  Result lines are named pair/ROLE/NN-x and pair/host/NN-x.
# VM_ONLY: pair/NN-x entries select pair scripts; a VM_ONLY without one runs no pair.
#
# Each guest also has a second NIC, its management port: QEMU's user-mode network,
# restricted (restrict=on: the guest cannot reach the host or beyond), with one host
# forward 127.0.0.1:PORT -> the guest's 10.0.2.15:14791 (rdmadiag_exporter's port); the two
# host ports are free ones picked at run time.  It stays down without an address unless a
# script brings it up (pair_mgmt_up).  A pair/live/NN-x.sh of a planned pair script is its
# host side DURING the pair: started before the guests boot, with PAIR_SYNC (the common
# share), PAIR_FWD_SERVER/PAIR_FWD_CLIENT (the forwarded host ports), PAIR_LIVE (its work
# directory); it talks to the guests through files in the common share (pair_host_step)
# and its TAP lines are the results pair/live/NN-x.

pair_plan() {	# the pair scripts this run runs, one a line
	local f b
	for f in "$VM"/pair/[0-9][0-9]-*.sh; do
		[ -f "$f" ] || continue
		b=$(basename "$f" .sh)
		[ -z "${VM_ONLY:-}" ] || [[ ",$VM_ONLY," == *",pair/$b,"* ]] && echo "$b"
	done
}

# a TCP port free on 127.0.0.1 now (QEMU binds it moments later)
pair_free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pair_run() {
	local P=$WORK/pair role pids=() st t0 plan name h b o fwd live=() lpids=() l
	plan=$(pair_plan)
	[ -n "$plan" ] || return 0
	rm -rf "$P"
	mkdir -p "$P/sync" "$P/server/out" "$P/client/out"
	echo "$plan" > "$P/sync/plan"
	t0=$SECONDS
	export PAIR_FWD_SERVER= PAIR_FWD_CLIENT=
	PAIR_FWD_SERVER=$(pair_free_port) && PAIR_FWD_CLIENT=$(pair_free_port) ||
		{ PAIR_FWD_SERVER= PAIR_FWD_CLIENT=; echo "vm: no free host port for the pair's management NICs"; }
	[ "$PAIR_FWD_CLIENT" != "$PAIR_FWD_SERVER" ] || PAIR_FWD_CLIENT=$(pair_free_port)
	# the host sides of the planned scripts that have one, started before the guests boot
	for h in "$VM"/pair/live/[0-9][0-9]-*.sh; do
		[ -f "$h" ] || continue
		b=$(basename "$h" .sh)
		grep -qx "$b" "$P/sync/plan" || continue
		live+=("$b")
		mkdir -p "$P/live-$b"
		PAIR_SYNC=$P/sync PAIR_LIVE=$P/live-$b PAIR_SERVER=$P/server/out PAIR_CLIENT=$P/client/out \
			timeout -k 5 "$(( ${VM_PAIR_TIMEOUT:-240} + 30 ))" bash -c '. "$1"; . "$2"' \
			"pair/live/$b" "$VM/guest/lib.sh" "$h" > "$P/live-$b.out" 2> "$P/live-$b.log" < /dev/null &
		lpids+=($!)
	done
	echo "vm: booting the pair (server + client) for: $(echo $plan)"
	for role in server client; do
		cp -r "$VM/guest" "$P/$role/guest"
		cp -r "$VM/pair" "$P/$role/pair"
		local mac=52:54:00:00:01:01 net="server=on" mmac=52:54:00:00:02:01 port=$PAIR_FWD_SERVER
		[ $role = client ] && { mac=52:54:00:00:01:02; net="server=off"; mmac=52:54:00:00:02:02; port=$PAIR_FWD_CLIENT; }
		# the management NIC last: the link stays eth0 (PCI slots follow the order here)
		fwd=
		[ -z "$port" ] || fwd="-netdev user,id=m0,restrict=on,hostfwd=tcp:127.0.0.1:$port-:14791
			-device virtio-net-pci,netdev=m0,mac=$mmac,romfile="
		# no_timer_check: with two guests and the host's compilers on two cores, the
		# kernel's IO-APIC timer check can miss its ticks and panic ("IO-APIC + timer
		# doesn't work"); romfile= (empty): no iPXE option ROM to load for the NIC
		# the client's QEMU connects once; the server's socket must exist first
		[ $role = client ] && for _ in $(seq 100); do [ -S "$P/link" ] && break; sleep 0.05; done
		VM_TIMEOUT=${VM_PAIR_TIMEOUT:-240} VM_APPEND="rdiag.role=$role no_timer_check" VM_QEMU_ARGS="-netdev stream,id=n0,$net,addr.type=unix,addr.path=$P/link
			-device virtio-net-pci,netdev=n0,mac=$mac,romfile=
			-virtfs local,path=$P/sync,mount_tag=pair,security_model=none,id=pair $fwd" \
			"$VM/boot.sh" "$WORK/build" "$P/$role" pair/main.sh &
		pids+=($!)
	done
	for role in server client; do
		wait "${pids[0]}"; st=$?
		pids=("${pids[@]:1}")
		echo "$st" > "$P/$role.qst"
	done
	t_pair=$((SECONDS - t0))
	: > "$P/sync/pair.ended"
	# the live host sides end with their scripts' last step; wait for them (bounded by their
	# timeout), then whatever one left running by its PID file (Prometheus)
	for l in "${!live[@]}"; do
		wait "${lpids[$l]}"; echo "$?" > "$P/live-${live[$l]}.st"
		for h in "$P/live-${live[$l]}"/*.pid; do
			[ -f "$h" ] && read -r st < "$h" && kill "$st" 2>/dev/null
		done
	done
	for role in server client; do
		o=$P/$role/out
		read -r st < "$P/$role.qst"
		if [ ! -s "$o/tap/plan" ]; then
			result NOT "pair/$role: the guest runner started (boot exit $st)" \
				"$(grep -v '^$' "$P/$role/console.log" 2>/dev/null | tail -15)"
			continue
		fi
		while read -r name; do
			[ -f "$o/tap/$name.out" ] && emit "pair/$role/$name" "$o/tap/$name.out"
			[ -f "$o/tap/$name.status" ] ||
				result NOT "pair/$role/$name: ran to the end (the VM stopped first: boot exit $st)"
		done < "$o/tap/plan"
		[ -f "$o/status" ] ||
			result NOT "pair/$role: the guest runner completed (boot exit $st)" \
				"$(grep -v '^$' "$P/$role/console.log" | tail -10)"
	done
	for b in "${live[@]}"; do
		o=$P/live-$b.out
		read -r st < "$P/live-$b.st"
		emit "pair/live/$b" "$o"
		if [ "$st" = 124 ]; then result NOT "pair/live/$b: finished within the pair's time"
		elif [ "$st" != 0 ] && ! grep -q '^not ok' "$o"; then result NOT "pair/live/$b: exited 0 (it exited $st)"
		elif ! grep -qE '^(not )?ok' "$o"; then result NOT "pair/live/$b: reported at least one result"
		fi
	done
	# the host's judges of what the two guests wrote
	for h in "$VM"/pair/host/[0-9][0-9]-*.sh; do
		[ -f "$h" ] || continue
		b=$(basename "$h" .sh)
		grep -q "^${b%%-*}-" "$P/sync/plan" || continue
		o=$P/host-$b.out
		PAIR_SERVER=$P/server/out PAIR_CLIENT=$P/client/out VM_OUT=$P/client/out \
			timeout -k 5 "${VM_HOST_TIMEOUT:-120}" bash -c '. "$1"; . "$2"' "pair/host/$b" \
			"$VM/guest/lib.sh" "$h" > "$o" 2> "${o%.out}.log" < /dev/null
		st=$?
		emit "pair/host/$b" "$o"
		if [ "$st" = 124 ]; then result NOT "pair/host/$b: finished within ${VM_HOST_TIMEOUT:-120}s"
		elif [ "$st" != 0 ] && ! grep -q '^not ok' "$o"; then result NOT "pair/host/$b: exited 0 (it exited $st)"
		elif ! grep -qE '^(not )?ok' "$o"; then result NOT "pair/host/$b: reported at least one result"
		fi
	done
	echo "vm: the pair took ${t_pair}s (both guests and their scripts), host checks $((SECONDS - t0 - t_pair))s"
}
