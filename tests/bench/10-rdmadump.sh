#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# make bench section: rdmadump against a bare libpcap loop, tcpdump and tshark.
# Targets: rdmadump -S -q (full decode + ICRC check + per-QP analysis, summary only) within
# 2x of the bare loop and >= 25x tshark -r; the default one-line output at most 1/4 of
# tcpdump -nn -r's CPU; -j >= 40x tshark -T fields; peak RSS of -S < 64 MiB on 2 M packets
# over 10 000 QPs.  tshark is measured on the first BENCH_SUB_N packets only (it runs
# at a few thousand packets per second); rates are packets per second, so they compare.
. "$BENCH_ROOT/tests/bench/lib.bash"
RD=$BENCH_ROOT/tools/rdmadump/rdmadump
N=$BENCH_N
SUBN=$BENCH_SUB_N

bench_section "rdmadump: $N RoCEv2 packets over $BENCH_QPS QPs (tshark: first $SUBN)"
bench_time loop "bare libpcap read loop" "$N" "$BENCH_LOOP" "$BENCH_PCAP"
# the same loop plus libdeflate's CRC-32 over every packet: what ICRC verification alone costs
bench_time loopcrc "  + libdeflate crc32 of every packet (ICRC floor)" "$N" "$BENCH_LOOP" --crc "$BENCH_PCAP"
if [ ! -x "$RD" ]; then
	echo "   rdmadump is not built (tools/rdmadump/rdmadump)"
	echo "rdmadump: not built" >> "$BENCH_FAILS"
else
	# -S -q: decode + ICRC + per-QP analysis + the summary, no per-packet lines (what the
	# issue's "-S" target measures); -S alone also formats a line per packet
	bench_time S "rdmadump -S -q (summary only)" "$N" "$RD" -S -q -r "$BENCH_PCAP"
	bench_time S_lines "rdmadump -S (summary + packet lines)" "$N" "$RD" -S -r "$BENCH_PCAP"
	bench_time lines "rdmadump (default one-line output)" "$N" "$RD" -r "$BENCH_PCAP"
	bench_time j "rdmadump -j > /dev/null" "$N" "$RD" -j -r "$BENCH_PCAP"
	bench_time S_sub "rdmadump -S -q (subset)" "$SUBN" "$RD" -S -q -r "$BENCH_SUB"
	bench_time j_sub "rdmadump -j > /dev/null (subset)" "$SUBN" "$RD" -j -r "$BENCH_SUB"
fi
bench_time tcpdump "tcpdump -nn -r" "$N" tcpdump -nn -r "$BENCH_PCAP"
bench_time tshark "tshark -n -r (subset)" "$SUBN" tshark -n -r "$BENCH_SUB"
bench_time fields "tshark -T fields (subset; BTH, RETH, AETH)" "$SUBN" tshark -n -r "$BENCH_SUB" \
	-T fields -e frame.number -e infiniband.bth.opcode -e infiniband.bth.destqp \
	-e infiniband.bth.psn -e infiniband.bth.a -e infiniband.reth.va -e infiniband.reth.r_key \
	-e infiniband.reth.dmalen -e infiniband.aeth.syndrome -e infiniband.aeth.msn

echo
echo "   ratios of packets/s, judged on CPU time (user+sys, the least of ${BENCH_REPEAT:-3} runs each: the machine is shared), wall in ()"
r=$(bench_ratio S tshark)
bench_target "rdmadump -S -q >= 25x tshark -r" "\"$r\" != \"n/a\" && $r >= 25" \
	"${r}x ($(bench_ratio S tshark wall)x wall; on the subset ${CPU[S_sub]:+$(bench_ratio S_sub tshark)x})"
r=$(bench_ratio loop S)
bench_target "rdmadump -S -q within 2x of the bare libpcap loop" "\"$r\" != \"n/a\" && $r <= 2" \
	"loop ${r}x faster ($(bench_ratio loop S wall)x wall)"
printf '   info  %-52s %sx the loop: rdmadump -S -q is %sx of this floor\n' \
	"loop + libdeflate crc32 of every packet" "$(bench_ratio loop loopcrc)" "$(bench_ratio loopcrc S)"
printf '   info  %-52s %sx tshark -r\n' "loop + libdeflate crc32 of every packet" "$(bench_ratio loopcrc tshark)"
r=$(bench_ratio tcpdump lines)
bench_target "rdmadump one-line output <= 1/4 of tcpdump -nn -r's CPU" \
	"\"$r\" != \"n/a\" && $r <= 0.25" "${r} of tcpdump's CPU per packet ($(bench_ratio tcpdump lines wall) wall)"
r=$(bench_ratio j fields)
bench_target "rdmadump -j >= 40x tshark -T fields" "\"$r\" != \"n/a\" && $r >= 40" \
	"${r}x ($(bench_ratio j fields wall)x wall; on the subset ${CPU[j_sub]:+$(bench_ratio j_sub fields)x})"
printf '   info  %-52s %sx (%sx wall)\n' "rdmadump -S -q against tcpdump -nn -r" \
	"$(bench_ratio S tcpdump)" "$(bench_ratio S tcpdump wall)"
printf '   info  %-52s %sx (%sx wall)\n' "rdmadump -S (with packet lines) against tshark -r" \
	"$(bench_ratio S_lines tshark)" "$(bench_ratio S_lines tshark wall)"

# memory: 2 M packets over 10 000 QPs streamed from the generator into rdmadump -S -r -
# (nothing on disk; /usr/bin/time measures rdmadump alone)
echo
echo "   memory: 2 000 000 packets over 10 000 QPs, generator | rdmadump -S -q -r -"
if [ -x "$RD" ]; then
	/usr/bin/python3 "$BENCH_ROOT/tests/gen/mkbench.py" --packets 2000000 --qps 10000 --seed 10000 -o - \
		2> "$BENCH_WORK/mem-gen.err" |
		/usr/bin/time -v "$RD" -S -q -r - > "$BENCH_WORK/mem-summary.txt" 2> "$BENCH_WORK/mem-time.txt"
	st=("${PIPESTATUS[@]}")
	kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$BENCH_WORK/mem-time.txt")
	if [ "${st[0]}" != 0 ] || [ "${st[1]}" != 0 ] || [ -z "$kib" ]; then
		echo "   FAILED: generator exit ${st[0]}, rdmadump exit ${st[1]}: $(grep -v '^\s' "$BENCH_WORK/mem-time.txt" | head -3 | tr '\n' ' ')"
		echo "rdmadump -S on 2 M packets: failed" >> "$BENCH_FAILS"
	else
		echo "   $(cat "$BENCH_WORK/mem-gen.err")" | cut -c1-150
		mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
		flows=$(grep -c . "$BENCH_WORK/mem-summary.txt")
		bench_target "peak RSS of rdmadump -S on 2 M packets / 10 000 QPs < 64 MiB" "$mib < 64" \
			"$mib MiB (summary: $flows lines)"
	fi
else
	echo "rdmadump: not built (memory)" >> "$BENCH_FAILS"
fi
