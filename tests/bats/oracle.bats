#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Oracle: rdmadump -j against tshark, packet by packet and field by field, on every fixture
# capture.  tests/oracle/oracle.sh does the work (fields: tests/oracle/fields.tsv) and prints
# each difference as "FILE frame N: KEY: tshark=X rdmadump=Y".  tshark 4.0 decodes UDP 4791
# as RoCEv2 and ethertype 0x8915 as RoCEv1 by itself; pcap link type 247 (native IB) through
# a USER0 mapping to its "infiniband" dissector.
load helper

# tshark's list of payload heuristics, once for the file (oracle.sh reads it)
setup_file() {
	export ORACLE_HEURISTICS="$BATS_FILE_TMPDIR/heuristics"
	tshark -G heuristic-decodes > "$ORACLE_HEURISTICS" 2>/dev/null
	[ -s "$ORACLE_HEURISTICS" ]
}

oracle() {
	run "$ROOT/tests/oracle/oracle.sh" "$1"
	echo "$output"
	assert_success
	# a run that compared nothing proves nothing: every listed fixture has RDMA frames
	refute_output --partial ": 0 RDMA frames (tshark)"
}

@test "oracle: rc_ops.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rc_ops.pcap"
}

@test "oracle: rc_ops_ns.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rc_ops_ns.pcap"
}

@test "oracle: rc_ops.pcapng: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rc_ops.pcapng"
}

@test "oracle: rc_ops_be.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rc_ops_be.pcap"
}

@test "oracle: rc_ipv4_options.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rc_ipv4_options.pcap"
}

@test "oracle: rc_ipv6.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rc_ipv6.pcap"
}

@test "oracle: vlan.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/vlan.pcap"
}

@test "oracle: qinq.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/qinq.pcap"
}

@test "oracle: vlan3.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/vlan3.pcap"
}

@test "oracle: sll.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/sll.pcap"
}

@test "oracle: sll2.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/sll2.pcap"
}

@test "oracle: raw12.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/raw12.pcap"
}

@test "oracle: raw14.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/raw14.pcap"
}

@test "oracle: raw101.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/raw101.pcap"
}

@test "oracle: ipv4_228.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/ipv4_228.pcap"
}

@test "oracle: ipv6_229.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/ipv6_229.pcap"
}

@test "oracle: rocev1.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rocev1.pcap"
}

@test "oracle: ib_local.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/ib_local.pcap"
}

@test "oracle: ib_global.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/ib_global.pcap"
}

@test "oracle: uc_ud.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/uc_ud.pcap"
}

@test "oracle: xrc.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/xrc.pcap"
}

@test "oracle: rd.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/rd.pcap"
}

@test "oracle: cnp_ecn.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/cnp_ecn.pcap"
}

@test "oracle: cnp_before_ce.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/cnp_before_ce.pcap"
}

@test "oracle: dscp_ecn.pcap: rdmadump -j equals tshark field by field (DSCP and ECN of every packet)" {
	oracle "$FIX/pcap/dscp_ecn.pcap"
}

@test "oracle: read_gaps.pcap: rdmadump -j equals tshark field by field (READ responses with gaps, a re-read)" {
	oracle "$FIX/pcap/read_gaps.pcap"
}

@test "oracle: msp_reserved.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/msp_reserved.pcap"
}

@test "oracle: aeth_naks.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/aeth_naks.pcap"
}

@test "oracle: aeth_credits.pcap: rdmadump -j equals tshark field by field (credit codes 0-31)" {
	oracle "$FIX/pcap/aeth_credits.pcap"
	assert_output --partial "aeth_credits.pcap: 64 RDMA frames"
}

@test "oracle: psn_events.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/psn_events.pcap"
}

@test "oracle: psn_wrap.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/psn_wrap.pcap"
}

@test "oracle: go_back_n.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/go_back_n.pcap"
}

@test "oracle: bad_icrc.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/bad_icrc.pcap"
}

@test "oracle: truncated.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/truncated.pcap"
}

@test "oracle: ib_truncated.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/ib_truncated.pcap"
}

@test "oracle: mixed_non_roce.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/mixed_non_roce.pcap"
}

@test "oracle: cm_handshake.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/cm_handshake.pcap"
}

@test "oracle: cm_rej_reasons.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/cm_rej_reasons.pcap"
}

# the MAD bodies: SMP attributes and traps, DR headers, SA records and RMPP, PerfMgt counters
@test "oracle: mad_smp.pcap: SMP headers, attributes and trap details equal tshark's" {
	oracle "$FIX/pcap/mad_smp.pcap"
}

@test "oracle: mad_sa.pcap: RMPP, SA headers and the first record of each table equal tshark's" {
	oracle "$FIX/pcap/mad_sa.pcap"
}

@test "oracle: mad_rmpp.pcap: RMPP segments (one missing, one resent) and their SA headers equal tshark's" {
	oracle "$FIX/pcap/mad_rmpp.pcap"
}

@test "oracle: mad_perf.pcap: PerfMgt ClassPortInfo, PortCounters(Extended) equal tshark's" {
	oracle "$FIX/pcap/mad_perf.pcap"
}

@test "oracle: go_back_n_relost.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/go_back_n_relost.pcap"
}

@test "oracle: gsi_two_peers.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/gsi_two_peers.pcap"
}

@test "oracle: mad_cm_lap_sidr.pcap: rdmadump -j equals tshark field by field" {
	oracle "$FIX/pcap/mad_cm_lap_sidr.pcap"
}

@test "oracle: mad_truncated.pcap: MADs cut at every header boundary equal tshark's parts" {
	oracle "$FIX/pcap/mad_truncated.pcap"
}

@test "oracle: pause_pfc.pcap: PAUSE/PFC fields (macc.*) equal tshark's, field by field" {
	oracle "$FIX/pcap/pause_pfc.pcap"
	# every PFC frame's vector and eight times were compared, not skipped
	assert_output --regexp "pause_pfc.pcap: 273 RDMA frames \(tshark\), 273 rdmadump objects .* ([0-9]{4,}) fields compared"
}

@test "oracle: rxe/rxe_sample.pcap (real rdma_rxe traffic): rdmadump -j equals tshark" {
	oracle "$FIX/rxe/rxe_sample.pcap"
}

@test "oracle: every generated capture in MANIFEST.json has its oracle test above" {
	local f missing=""
	for f in $(jq -r '.captures[] | select(.bad != true and .rdma_packets > 0) | .file' "$FIX/pcap/MANIFEST.json"); do
		grep -qF "\"\$FIX/pcap/$f\"" "$BATS_TEST_FILENAME" || missing="$missing $f"
	done
	[ -z "$missing" ] || { echo "no oracle test for:$missing"; false; }
}

@test "oracle: any other capture under tests/fixtures that tshark reads agrees too" {
	local f n=0 bad=""
	while IFS= read -r f; do
		case $f in "$FIX"/pcap/*|"$FIX"/rxe/rxe_sample.pcap) continue ;; esac
		tshark -r "$f" -c 1 >/dev/null 2>&1 || continue
		n=$((n + 1))
		"$ROOT/tests/oracle/oracle.sh" "$f" || bad="$bad $f"
	done < <(find "$FIX" -name '*.pcap' -o -name '*.pcapng' | sort)
	echo "$n other captures compared"
	[ -z "$bad" ] || { echo "differences in:$bad"; false; }
}
