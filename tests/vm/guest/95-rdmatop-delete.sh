# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmatop while an rxe device is deleted (rdma link delete) and added again: no crash, the
# device shows as gone and comes back; both in batch mode and in the curses UI (driven
# through tmux).  Destructive: runs last, and re-adds the device.
# vm-timeout: 90
TOP=$(command -v rdmatop) || { tap_skip "rdmatop survives rdma link delete" "rdmatop not built"; exit 0; }
J=$OUT/95-rdmatop.jsonl

readd() {
	rdma link show "$DEV1/1" > /dev/null 2>&1 && return 0
	rdma link add "$DEV1" type rxe netdev "$NET1" && wait_port_active "$DEV1"
}

# 24 frames, 0.2 s apart: a few with both devices, some with rxe1 gone, the last ones
# with it back (readd waits for ACTIVE); the frames are judged in host/95-rdmatop-delete.sh
"$TOP" -b -j -d 0.2 -n 24 > "$J" 2> "$OUT/95-rdmatop.err" &
top=$!
# let it see both devices, then take rxe1 away while it samples
await 10 "rdmatop -b -j writes its first 3 frames" sh -c "[ \$(wc -l < '$J') -ge 3 ]"
rdma link delete "$DEV1"
tap_check "rdma link delete $DEV1 succeeded" [ $? -eq 0 ]
# add it back once rdmatop has shown it gone (a frame whose header counts one device),
# not after a fixed number of frames: on a slow run the frames lag behind the deletion
await 10 "rdmatop -b -j shows one device after rdma link delete $DEV1" grep -q '"devices":1,' "$J"
readd
tap_check "$DEV1 was added back" rdma link show "$DEV1/1"
wait "$top"
st=$?
tap_eq "rdmatop -b kept running through the deletion and exited 0 (no crash)" 0 "$st"
[ -s "$OUT/95-rdmatop.err" ] && diag "stderr: $(head -3 "$OUT/95-rdmatop.err")"

# the curses UI in tmux: delete the device under it, add it back, then quit with 'q'
# tmux needs a UTF-8 locale (the C.utf8 files); without them there is no terminal to drive
if have tmux && LC_ALL=C.UTF-8 tmux -L rdmatop95probe -f /dev/null new-session -d true 2>/dev/null; then
	export LC_ALL=C.UTF-8
	tm() { tmux -u -L rdmatop95 "$@"; }
	pane() { tm capture-pane -p -t t; }
	rm -f /tmp/95.exit
	tm new-session -d -s t -x 120 -y 30 "TERM=xterm $TOP -d 0.2; echo \$? > /tmp/95.exit; sleep 60"
	await 10 "the curses UI shows $DEV1" sh -c "tmux -u -L rdmatop95 capture-pane -p -t t | grep -q '^$DEV1 '"
	rdma link delete "$DEV1"
	wait_for 10 sh -c "tmux -u -L rdmatop95 capture-pane -p -t t | grep '^$DEV1 ' | grep -q GONE"
	gone=$?
	pane > "$OUT/95-rdmatop-tui-gone.txt"
	tap_eq "the curses UI greys $DEV1 out as GONE after rdma link delete" 0 "$gone"
	readd
	wait_for 10 sh -c "tmux -u -L rdmatop95 capture-pane -p -t t | grep '^$DEV1 ' | grep -q ACTIVE"
	tap_eq "and shows it ACTIVE again once it is re-added" 0 "$?"
	pane > "$OUT/95-rdmatop-tui-back.txt"
	tm send-keys -t t q
	await 5 "the curses UI exits after 'q'" test -s /tmp/95.exit
	tap_eq "the curses UI quits on 'q' with status 0 (no crash)" 0 "$(cat /tmp/95.exit 2>/dev/null)"
	tm kill-server 2>/dev/null
else
	tap_skip "the curses UI survives the deletion (covered on a fixture tree in tests/bats/rdmatop_tui.bats)" \
		"no tmux, or no UTF-8 locale for it, in the guest"
fi
readd
