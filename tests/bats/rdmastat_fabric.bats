#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmastat fabric on fixtures: DCB replies built from linux/dcbnl.h's layout
# (tests/fixtures/fabric/mk_dcb.py), ethtool -S samples (mk_ethtool.py) and sysfs trees, an
# OFED one (trust dscp, dscp2prio, ECN per priority, mlx5 cc_params, rdma_cm configfs) and an
# upstream one where none of those paths exist.  The chain passes where every link holds and
# breaks with the right finding and fix where one does not; JSON keys are iproute2 dcb's.
load helper

FX=$FIX/fabric

setup() {
	unset RDMADIAG_ETHTOOL_REPLAY
}

ofed() {
	RDMADIAG_SYSFS_ROOT=$FX/ofed RDMADIAG_NL_REPLAY=$FX/dcb-pfc3.rec \
		RDMADIAG_ETHTOOL_REPLAY=$FX/${ETH:-eth-prio3.txt} "$@"
}
upstream() {
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$FX/${REC:-dcb-pfc3.rec} \
		RDMADIAG_ETHTOOL_REPLAY=$FX/${ETH:-eth-prio3.txt} "$@"
}

@test "OFED host, PFC and ECN on 3, traffic on 3: every link ok, exit 0" {
	run --separate-stderr ofed rdmastat fabric -i 0.05 -j
	assert_success
	[ -z "$stderr" ]
	run jq -r '.[0].chain | "\(.verdict) \(.tos) \(.tos_source) \(.dscp) \(.priority)"' <<< "$output"
	assert_output "ok 106 configfs 26 3"
	run --separate-stderr ofed rdmastat fabric -i 0.05 -j
	run jq -r '.[0].chain.links[] | "\(.name) \(.state) \(.finding)"' <<< "$output"
	assert_output "tos ok null
dscp ok null
priority ok null
pfc ok null
ecn ok null
cnp ok null
traffic ok null
ets ok null
pause ok null"
}

@test "the DCB objects carry iproute2 dcb's JSON keys and the reply's values" {
	run ofed rdmastat fabric -j
	assert_success
	run jq -c '.[0].dcb.pfc' <<< "$output"
	assert_output '{"pfc_cap":8,"macsec_bypass":false,"delay":32,"prio_pfc":[false,false,false,true,false,false,false,false],"requests":[0,0,0,120,0,0,0,0],"indications":[0,0,0,7,0,0,0,0]}'
	run ofed rdmastat fabric -j
	run jq -c '.[0].dcb.ets | [.willing, .ets_cap, .cbs, .tc_bw, .tc_tsa, .prio_tc]' <<< "$output"
	assert_output '[false,8,false,[50,50,0,0,0,0,0,0],["ets","ets","strict","strict","strict","strict","strict","strict"],[0,0,0,1,0,0,2,0]]'
	run ofed rdmastat fabric -j
	run jq -c '[.[0].dcb.app, .[0].dcb.dcbx, .[0].dcb.maxrate.tc_maxrate[3], .[0].dcb.peer.app]' <<< "$output"
	assert_output '[{"dscp_prio":[[26,3],[48,6]],"ethtype_prio":[[35093,3]]},{"host":true,"lld_managed":false,"cee":false,"ieee":true,"static":false},25000000,{"dscp_prio":[[26,3]],"willing":true}]'
}

@test "OFED settings are read; on an upstream tree they are absent, not off" {
	run ofed rdmastat fabric -j
	run jq -c '.[0].qos | [.trust, .ecn_np[3], .ecn_rp[0], .np_cnp_dscp, .np_cnp_prio, .np_cnp_prio_mode, .default_roce_tos, .default_roce_mode, (.dscp2prio | map(select(.[0] == 26)))]' <<< "$output"
	assert_output '["dscp",true,false,48,6,0,106,"RoCE v2",[[26,3]]]'
	run upstream rdmastat fabric --tos 106 -j
	assert_success
	run jq -c '[.[0].qos, (.[0].chain.links[] | select(.name == "ecn" or .name == "cnp") | .state)]' <<< "$output"
	assert_output '[{},"not available","not available"]'
}

@test "per-priority deltas with -i: priority 3 moved, priority 0 did not" {
	run ofed rdmastat fabric -i 0.05 -j
	assert_success
	run jq -c '[.[0].priorities[3] | .rx_packets, .tx_packets, .rx_pause, (.rx_packets_per_s > 0)], [.[0].priorities[0].rx_packets]' <<< "$output"
	assert_output '[5000,5000,12,true]
[0]'
	run ofed rdmastat fabric -i 0.05
	assert_success
	assert_output --regexp '       3       5000 +[0-9.]+       5000'
	assert_output --partial 'traffic   ok            priority 3: +10000 packets (other priorities +0)'
}

@test "no APP entry and PFC on 4 only: priority 0, two broken links with their fixes, exit 1" {
	REC=dcb-pfc4-noapp.rec run upstream rdmastat fabric --tos 106
	assert_failure 1
	assert_output --partial 'chain: broken (ToS 106 from --tos, DSCP 26, priority 0)'
	assert_output --partial '[fabric.dscp_unmapped]'
	assert_output --partial 'fix: dcb app add dev eth0 dscp-prio 26:4'
	assert_output --partial '[fabric.pfc_off]'
	# PFC is off on 0 only because the DSCP is unmapped: not 'enable PFC on priority 0'
	assert_output --partial 'PFC off on priority 0, where the unmapped DSCP 26 lands (prio-pfc enabled: 0x10)'
	assert_output --partial 'fix: the priority link'"'"'s fix moves the traffic to priority 4, which has PFC'
	refute_output --partial 'prio-pfc 0:on'
	assert_output --partial 'app (empty)'
}

@test "traffic measured on priority 0 while the configuration says 3: traffic_off_priority" {
	ETH=eth-prio0.txt run upstream rdmastat fabric --tos 106 -i 0.05 -j
	assert_failure 1
	run jq -r '.[0].chain.links[] | select(.state == "broken") | "\(.name) \(.finding)"' <<< "$output"
	assert_output "traffic fabric.traffic_off_priority"
}

@test "a device without DCB: no dcb object, nothing broken, verdict unknown" {
	REC=dcb-none.rec run --separate-stderr upstream rdmastat fabric -j
	assert_success
	[ -z "$stderr" ]
	run jq -c '[.[0] | has("dcb"), .chain.verdict]' <<< "$output"
	assert_output '[false,"unknown"]'
	REC=dcb-none.rec run upstream rdmastat fabric
	assert_output --partial 'dcb: none (the driver does not implement dcbnl)'
}

@test "a malformed dcbnl reply is one warning line and the chain says it could not be read" {
	REC=dcb-bad-attrlen.rec run --separate-stderr upstream rdmastat fabric
	assert_success
	[ "$stderr" = "rdmastat: warning: malformed dcbnl reply for eth0: an attribute past its message" ]
	assert_output --partial 'priority  unknown       eth0: the DCB configuration could not be read (Bad message)'
}

@test "DEV/PORT selects the port; an IB-only host has no port to look at (exit 2)" {
	run ofed rdmastat fabric mlx5_0/1 -j
	assert_success
	run jq -r '.[0] | "\(.ifname)/\(.port) \(.netdev)"' <<< "$output"
	assert_output "mlx5_0/1 eth0"
	run ofed rdmastat fabric nosuch0
	assert_failure 2
	assert_output "rdmastat: no RDMA device 'nosuch0' (have: mlx5_0)"
	RDMADIAG_SYSFS_ROOT=$FIX/sysfs/hfi1 run rdmastat fabric
	assert_failure 2
	assert_output "rdmastat: no RDMA port with a network device (InfiniBand ports have no DCB)"
}

@test "--tos: 0-255 and fabric only; fabric takes one interval" {
	run ofed rdmastat fabric --tos 256
	assert_failure 2
	assert_line --index 0 "rdmastat: invalid ToS '256' (0 to 255)"
	run ofed rdmastat --tos 106
	assert_failure 2
	assert_line --index 0 "rdmastat: --tos applies to 'fabric' only"
	run ofed rdmastat fabric -i 1 -n 2
	assert_failure 2
	assert_line --index 0 "rdmastat: fabric measures one interval: --count does not apply"
	run ofed rdmastat fabric --csv
	assert_failure 2
}

# link-level pause through ethtool netlink: a recording of the family lookup and PAUSE_GET
# (mk_pause.py) appended to the dcbnl one, as --nl-record writes both into one file
# withpause PAUSE-REC CMD...: the upstream tree, dcb-pfc3.rec and PAUSE-REC
withpause() {
	cat "$FX/dcb-pfc3.rec" "$FX/$1" > "$BATS_TEST_TMPDIR/nl.rec"
	shift
	RDMADIAG_SYSFS_ROOT=$FX/upstream RDMADIAG_NL_REPLAY=$BATS_TEST_TMPDIR/nl.rec \
		RDMADIAG_ETHTOOL_REPLAY=$FX/eth-prio3.txt "$@"
}

@test "pause: ethtool netlink's settings and 802.3x frames, ethtool's JSON keys; -i gives the deltas" {
	# rx and tx pause on with PFC on 3: the pause link's finding, exit 1
	run --separate-stderr withpause pause-stats.rec rdmastat fabric --tos 106 -j
	assert_failure 1
	[ -z "$stderr" ]
	run jq -c '.[0].pause' <<< "$output"
	assert_output '{"autonegotiate":false,"rx":true,"tx":true,"tx_pause_frames":5,"rx_pause_frames":12}'
	run withpause pause-stats.rec rdmastat fabric --tos 106 -i 0.05 -j
	assert_failure 1
	run jq -c '.[0].pause | [.tx_pause_frames, .rx_pause_frames, .interval.tx_pause_frames, .interval.rx_pause_frames, (.interval.rx_pause_frames_per_s > 0)]' <<< "$output"
	assert_output '[9,112,4,100,true]'
	run withpause pause-stats.rec rdmastat fabric --tos 106 -i 0.05
	assert_output --partial '  pause autoneg off rx on tx on tx-frames 9 rx-frames 112'
	assert_output --regexp '    over 0\.[0-9]+ s: tx-frames \+4 \([0-9.]+/s\) rx-frames \+100 \([0-9.]+/s\)'
}

@test "pause: a driver without pause statistics: frames absent, never 0; without get_pauseparam: not available here" {
	run withpause pause-nostats.rec rdmastat fabric --tos 106 -j
	assert_success
	run jq -c '.[0].pause' <<< "$output"
	assert_output '{"autonegotiate":true,"rx":false,"tx":false}'
	run withpause pause-nostats.rec rdmastat fabric --tos 106
	assert_output --partial '  pause autoneg on rx off tx off frames: not available here (no pause statistics in this driver)'
	run --separate-stderr withpause pause-none.rec rdmastat fabric --tos 106
	assert_success
	[ -z "$stderr" ]
	assert_output --partial '  pause: not available here (no ethtool netlink pause for this driver)'
	run withpause pause-nofamily.rec rdmastat fabric --tos 106 -j
	run jq -c '.[0] | has("pause")' <<< "$output"
	assert_output false
}

@test "pause: a kernel before 5.10 refuses the statistics flag: the settings, and why no frames" {
	run withpause pause-kernel-5.9.rec rdmastat fabric --tos 106 -j
	assert_failure 1
	run jq -c '.[0].pause' <<< "$output"
	assert_output '{"autonegotiate":true,"rx":true,"tx":false}'
	run --separate-stderr withpause pause-kernel-5.9.rec rdmastat fabric --tos 106
	assert_failure 1
	[ -z "$stderr" ]
	assert_output --partial "  pause autoneg on rx on tx off frames: not available here (this kernel's ethtool netlink has no pause statistics: Linux 5.10 added them)"
}

@test "pause: a malformed reply is one warning and no pause object; a dcbnl-only recording has none, quietly" {
	run --separate-stderr withpause pause-bad-nest.rec rdmastat fabric --tos 106 -j
	assert_success
	assert_equal "$stderr" "rdmastat: warning: malformed ethtool pause reply for eth0: a pause statistic past its nest"
	run jq -c '.[0] | has("pause")' <<< "$output"
	assert_output false
	run --separate-stderr upstream rdmastat fabric --tos 106
	assert_success
	[ -z "$stderr" ]
	refute_output --regexp '(^|
)  pause'
	assert_output --partial '    pause     not available link-level pause not available here'
}

@test "ets: RoCE's TC at 0 % of the bandwidth, or below a strict TC carrying priority 0: a finding with its fix, exit 1" {
	REC=dcb-ets0.rec run --separate-stderr upstream rdmastat fabric --tos 106 -j
	assert_failure 1
	run jq -r '.[0].chain | "\(.verdict) \(.links[] | select(.name == "ets") | "\(.state) \(.finding) \(.fix)")"' <<< "$output"
	assert_output "broken broken fabric.ets_zero_bw dcb ets set dev eth0 tc-bw 0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0"
	REC=dcb-strict0.rec run upstream rdmastat fabric --tos 106
	assert_failure 1
	assert_output --partial '    ets       broken        priority 3 is in TC 1 (ets), below TC 0: strict priority, carrying priority 0, which can starve it [fabric.ets_strict_starve]
              fix: dcb ets set dev eth0 tc-tsa 0:ets tc-bw 0:50 1:50 2:0 3:0 4:0 5:0 6:0 7:0'
	# the CNPs' priority 6 alone on a strict TC (dcb-pfc3.rec's TC 2) is no finding
	run upstream rdmastat fabric --tos 106
	assert_success
	assert_output --partial '    ets       ok            priority 3 in TC 1: ETS 50 %, no strict TC above it but the CNP'"'"'s'
}

@test "two APP entries for RoCE's DSCP: the fix deletes the stray one, not PFC on it" {
	REC=dcb-dscp2.rec run upstream rdmastat fabric --tos 106 -j
	assert_failure 1
	run jq -r '.[0].chain | "\(.priority) \(.links[] | select(.state == "broken") | "\(.name) \(.finding) \(.fix)")"' <<< "$output"
	assert_output "3 priority fabric.dscp_multiple dcb app del dev eth0 dscp-prio 26:5 (keeps dscp-prio 26:3, the priority with PFC)"
}

@test "--tos 0 (the application's own ToS): the fix is its ToS option, not configfs, which it overrides" {
	run upstream rdmastat fabric --tos 0 -j
	assert_failure 1
	run jq -r '.[0].chain.links[] | select(.name == "priority") | .fix' <<< "$output"
	assert_output --partial "ToS 106 in the application's own option (ucmatose -t 106"
	refute_output --partial 'echo 106 >'
	# the application's option set to 106: the chain holds
	run upstream rdmastat fabric --tos 106
	assert_success
}

@test "pause storm: 10000 PFC frames/s on priority 3 is a finding (default 1000/s); --pause-max raises it" {
	ETH=eth-storm.txt run --separate-stderr ofed rdmastat fabric -i 0.05 -j
	assert_failure 1
	run jq -r '.[0].chain | "\(.verdict) \(.links[] | select(.name == "pause") | "\(.state) \(.finding)")"' <<< "$output"
	assert_output "broken broken fabric.pause_rate"
	ETH=eth-storm.txt run ofed rdmastat fabric -i 0.05
	assert_output --regexp '    pause     broken        priority 3: [0-9]+ PFC pause frames/s received over 0\.[0-9]+ s \(\+500; the threshold is 1000/s\) \[fabric\.pause_rate\]'
	ETH=eth-storm.txt run ofed rdmastat fabric -i 0.05 --pause-max 1000000 -j
	assert_success
	run jq -r '.[0].chain.links[] | select(.name == "pause") | .state' <<< "$output"
	assert_output ok
	# 12 frames in the interval: under the default
	run ofed rdmastat fabric -i 0.05
	assert_success
	assert_output --regexp '    pause     ok            at most [0-9]+ PFC pause frames/s on a priority over 0\.[0-9]+ s \(threshold 1000/s\)'
}

@test "pause storm: the driver's storm counter, and the time paused (--pause-time-max)" {
	ETH=eth-storm-events.txt run ofed rdmastat fabric -i 0.05 -j
	assert_failure 1
	run jq -r '.[0].chain.links[] | select(.name == "pause") | "\(.finding) \(.evidence)"' <<< "$output"
	assert_output --regexp '^fabric\.pause_storm the driver.s pause-storm counter moved: \+1 over 0\.[0-9]+ s$'
	ETH=eth-pausetime.txt run ofed rdmastat fabric -i 0.05 -j
	assert_failure 1
	run jq -r '.[0].chain.links[] | select(.name == "pause") | .finding' <<< "$output"
	assert_output fabric.pause_time
	ETH=eth-pausetime.txt run ofed rdmastat fabric -i 0.05 --pause-time-max 100 -j
	assert_success
}

@test "--pause-max and --pause-time-max: a number above 0 (time: to 100), fabric only" {
	run ofed rdmastat fabric --pause-max 0
	assert_failure 2
	assert_output --partial "rdmastat: invalid pause rate '0' (frames per second, above 0)"
	run ofed rdmastat fabric --pause-time-max 101
	assert_failure 2
	assert_output --partial "rdmastat: invalid pause time '101' (percent, above 0 to 100)"
	run ofed rdmastat fabric --pause-max x
	assert_failure 2
	run ofed rdmastat --pause-max 10
	assert_failure 2
	assert_output --partial "rdmastat: --pause-max and --pause-time-max apply to 'fabric' only"
}
