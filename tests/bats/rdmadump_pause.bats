#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump and IEEE 802.3x PAUSE / 802.1Qbb PFC frames, on the generated capture
# tests/fixtures/pcap/pause_pfc.pcap (tests/gen/mkfixtures.py fx_pause: PFC with every
# priority-enable vector, a renewed XOFF run, PAUSE XOFF and XON, a PFC frame with the reserved
# octet set, one cut by the snap length, one ending inside its times, one cut before its
# opcode and a MAC control frame of another opcode).  The per-priority counts are checked
# against the generator's manifest in rdmadump_manifest.bats, the fields against tshark in
# oracle.bats.
load helper

CAP="$FIX/pcap/pause_pfc.pcap"
MAN="$FIX/pcap/MANIFEST.json"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

mc() { jq -r ".captures[] | select(.file == \"pause_pfc.pcap\") | .mac_control.$1" "$MAN"; }

@test "one line per PAUSE/PFC frame, with the enabled priorities' XOFF quanta or XON" {
	run rdmadump -r "$CAP"
	assert_success
	n=$(printf '%s\n' "$output" | grep -cE ' (PAUSE|PFC)( |$)')
	[ "$n" -eq "$(mc frames)" ]
	assert_line "08:00:00.000020000 02:00:00:00:00:fe > 01:80:c2:00:00:01 PAUSE XOFF 65535"
	assert_line "08:00:00.000030000 02:00:00:00:00:fe > 01:80:c2:00:00:01 PAUSE XON"
	assert_line --partial "> 01:80:c2:00:00:01 PFC enable 0x08 p3 XOFF 8192"
	assert_line --partial "> 01:80:c2:00:00:01 PFC enable 0x08 p3 XON"
	assert_line --partial "> 02:00:00:00:00:01 PFC enable 0x10 p4 XOFF 256 [invalid mac_control]"
	assert_line --partial "PFC [truncated]"
	# a disabled priority's time is not shown: enable 0x00 lists none
	assert_line --regexp ' PFC enable 0x00$'
	refute_output --partial " RoCE"
}

@test "-v shows the opcode, the reserved octet and all eight times" {
	run rdmadump -v -r "$CAP"
	assert_success
	assert_line "    mac_control PAUSE opcode 0x0001 quanta 65535"
	assert_line "    mac_control PFC opcode 0x0101 enable 0x10 reserved 0x80 quanta 0 0 0 0 256 0 0 0 [invalid mac_control]"
	assert_line "    eth 02:00:00:00:00:fe > 01:80:c2:00:00:01 type 0x8808"
}

@test "-j: encap pause/pfc, pfc {enable, quanta[8]}, pause {quanta}; every enable vector once" {
	rdmadump -j -r "$CAP" > "$TMP/j"
	[ "$(jq -s '[.[] | select(.encap == "pause")] | length' "$TMP/j")" -eq 2 ]
	[ "$(jq -s '[.[] | select(.encap == "pause") | .pause.quanta] | sort' -c "$TMP/j")" = "[0,65535]" ]
	# all 256 vectors; 0x08 seven more times (the renewed run, its XON), 0x10 once more
	[ "$(jq -s '[.[] | select(.pfc) | .pfc.enable] | unique | length' "$TMP/j")" -eq 256 ]
	[ "$(jq -s '[.[] | select(.pfc) | .pfc.quanta | length] | unique' -c "$TMP/j")" = "[8]" ]
	[ "$(jq -s '[.[] | select(.pfc.enable == 8)] | length' "$TMP/j")" -eq 7 ]
	# keys in order, no BTH, MAC addresses
	jq -c 'select(.n == 4) | keys_unsorted' "$TMP/j" |
		grep -qx '\["n","ts","caplen","len","encap","eth_src","eth_dst","pfc"\]'
	[ "$(jq -s '[.[] | select(.encap == "pfc" and .truncated)] | length' "$TMP/j")" -eq 1 ]
	[ "$(jq -s '[.[] | select(.encap == "pfc" and .invalid == "mac_control")] | length' "$TMP/j")" -eq 2 ]
}

@test "--errors shows the PAUSE/PFC frames; --fail-on-errors does not count them" {
	run rdmadump --errors -r "$CAP"
	assert_success
	[ "${#lines[@]}" -eq "$(mc frames)" ]
	run rdmadump -q --fail-on-errors -r "$CAP"
	assert_success
}

@test "the summary counts PAUSE/PFC frames apart from RDMA and other frames" {
	run rdmadump -q -r "$CAP"
	assert_success
	assert_line --index 1 --regexp "^275 frames, 6 RDMA packets, 2 other, $(mc frames) PAUSE/PFC, "
	assert_line "PAUSE/PFC: $(mc frames) frames ($(mc pause_frames) PAUSE, $(mc pfc_frames) PFC, $(mc truncated) truncated, $(mc invalid) invalid)"
	# the priority-3 row is the generator's (frames, XOFF, XON, quanta, longest run)
	row=$(jq -r '.captures[] | select(.file == "pause_pfc.pcap") | .mac_control.priorities[3] |
		"^3 +\(.frames) +\(.xoff) +\(.xon) +\(.quanta) +\(.xoff_run_max)$"' "$MAN")
	assert_line --regexp "$row"
	refute_line --regexp "XOFF_RUN +ASKED +PAUSED$"
	# per sender: the switch (..:fe) sent the PAUSE frames, both sent PFC
	assert_line "by sender (who paused its peer):"
	assert_line --regexp "^02:00:00:00:00:fe link +2 +1 +1 +65535 +1$"
	assert_line --regexp "^02:00:00:00:00:01 7 +[0-9]+ "
	refute_line --regexp "^02:00:00:00:00:01 link"
	# none of it without PAUSE/PFC frames
	run rdmadump -q -r "$FIX/pcap/rc_ops.pcap"
	refute_output --partial "PAUSE"
	run rdmadump -q -j -r "$FIX/pcap/rc_ops.pcap"
	[ "$(printf '%s' "$output" | jq '.summary | has("pause")')" = false ]
}

@test "--link-speed: time asked = quanta x 512 bit times, time paused by the frame times" {
	rdmadump -q -j --link-speed 100G -r "$CAP" > "$TMP/100"
	rdmadump -q -j --link-speed 25G -r "$CAP" > "$TMP/25"
	rdmadump -q -j -r "$CAP" > "$TMP/none"
	[ "$(jq '.summary.pause.link_bps' "$TMP/100")" -eq 100000000000 ]
	for f in 100 25; do
		bps=$(jq '.summary.pause.link_bps' "$TMP/$f")
		jq -e --argjson bps "$bps" '[.summary.pause.link, .summary.pause.priorities[]] |
			all(.requested_ns == ((.quanta * 512 * 1e9 / $bps) + 0.5 | floor))' "$TMP/$f"
		# renewed and ended pauses: never more paused than asked for
		jq -e '[.summary.pause.link, .summary.pause.priorities[]] |
			all(.paused_ns <= .requested_ns and (.xoff == 0 or .paused_ns > 0))' "$TMP/$f"
	done
	# 65535 quanta of 802.3x PAUSE at 100G: 335.5 us
	[ "$(jq '.summary.pause.link.requested_ns' "$TMP/100")" -eq 335539 ]
	[ "$(jq '.summary.pause.link.requested_ns' "$TMP/25")" -eq 1342157 ]
	# the PAUSE XOFF 65535 is ended by the XON 10 us later
	[ "$(jq '.summary.pause.link.paused_ns' "$TMP/100")" -eq 10000 ]
	jq -e '.summary.pause | (has("link_bps") or (.link | has("requested_ns")) or
		(.link | has("paused_ns"))) | not' "$TMP/none"
	run rdmadump -q --link-speed 100G -r "$CAP"
	assert_line --regexp "^link +2 +1 +1 +65535 +1 +336us +10us$"
	assert_line --partial "; link 100000000000 bit/s, 1 quantum = 512 bit times"
}

@test "--link-speed accepts K/M/G/T and rejects anything else with exit 2" {
	for r in 1k 100M 2.5G 25g 400G 1T; do
		run rdmadump -q --link-speed "$r" -r "$CAP"
		assert_success
	done
	for r in 0 999 1.5 G 100X 100GG -5G 11T ''; do
		run --separate-stderr rdmadump -q --link-speed "$r" -r "$CAP"
		[ "$status" -eq 2 ] || fail "--link-speed '$r': exit $status"
		[[ "$stderr" == "rdmadump: invalid link speed '$r'"* ]] || fail "$r: $stderr"
	done
}
