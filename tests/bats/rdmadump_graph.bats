#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump --graph QP: the per-QP sequence graph (SVG), --graph-out, --graph-csv.  The graph
# must be true: each marker kind has as many elements (class "m KIND") as rdmadump -q -j
# --qp QP counts over the QP's flows, on the generated fixtures (NAKs, RNR NAKs, go-back-N,
# timeouts, CE marks, CNPs, PAUSE/PFC), a tests/gen/mkbench.py capture (thinning) and a
# capture of one frame repeated (duplicates past the marker bound).  Every SVG is parsed by
# xmllint as strict XML, the fuzz corpus's captures included.
load helper

PCAP="$FIX/pcap"
KINDS="nak-seq nak rnr retry-nak retry-rnr timeout dup ce cnp pause"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# the markers of kind $2 in SVG $1 (the legend's swatches are class "k KIND", not counted)
marks() {
	xmllint --xpath "count(//*[@class='m $2'])" "$1"
}

# "KIND COUNT" per kind, as rdmadump -q -j --qp $2 counts it on capture $1
expected() {
	rdmadump -q -j --qp "$2" -r "$1" > "$TMP/sum.json"
	counts "$TMP/sum.json"
}

# "KIND COUNT" per kind of the summary (-q -j --qp) in file $1
counts() {
	jq -r '.summary as $s | [$s.flows[]] | {
		"nak-seq": (map(.naks.PSN_SEQ_ERR // 0) | add),
		"nak": (map([.naks | to_entries[] | select(.key != "PSN_SEQ_ERR") | .value] | add // 0) | add),
		"rnr": (map(.rnr_naks) | add),
		"retry-nak": (map(.retries.nak_seq) | add),
		"retry-rnr": (map(.retries.rnr) | add),
		"timeout": (map(.retries.timeout) | add),
		"dup": (map(.duplicates) | add),
		"ce": (map(.ecn_ce) | add),
		"cnp": (map(.cnp) | add),
		"pause": ($s.pause.frames // 0)
	} | to_entries[] | "\(.key) \(.value)"' "$1"
}

# every kind of SVG $1 has as many markers as the summary in file $2 counts
same_counts() {
	local k n got
	counts "$2" > "$TMP/exp2"
	[ "$(wc -l < "$TMP/exp2")" -eq 10 ]
	while read -r k n; do
		got=$(marks "$1" "$k")
		[ "$got" -eq "$n" ] || fail "$k: $got markers, the summary counts $n"
	done < "$TMP/exp2"
}

# the graph of QP $2 in capture $1 matches the summary kind by kind; the kinds seen go to
# $TMP/seen
check_graph() {
	local svg="$TMP/g.svg" k n got
	rdmadump -r "$1" --graph "$2" > "$svg" || fail "$(basename "$1") qp $2: rdmadump failed"
	xmllint --noout "$svg" || fail "$(basename "$1") qp $2: not XML"
	expected "$1" "$2" > "$TMP/exp"
	[ "$(wc -l < "$TMP/exp")" -eq 10 ]
	while read -r k n; do
		got=$(marks "$svg" "$k")
		[ "$got" -eq "$n" ] || fail "$(basename "$1") qp $2: $k: $got markers, the summary counts $n"
		[ "$n" -eq 0 ] || echo "$k" >> "$TMP/seen"
	done < "$TMP/exp"
}

@test "--graph: as many markers of each kind as rdmadump -q -j --qp counts, on every kind" {
	for c in go_back_n:18 go_back_n_relost:0x12 aeth_naks:18 aeth_naks:17 cnp_ecn:18 \
		 cnp_ecn:52 cnp_before_ce:0x34 dscp_ecn:18 psn_events:131 read_gaps:71 \
		 pause_pfc:18 psn_wrap:149 uc_ud:1; do
		if [ "${c%%:*}" = uc_ud ]; then
			q=$(rdmadump -q -j -r "$PCAP/uc_ud.pcap" | jq '.summary.flows[0].destqp')
		else
			q=${c#*:}
		fi
		check_graph "$PCAP/${c%%:*}.pcap" "$q"
	done
	check_graph "$FIX/rxe/rxe_sample.pcap" 19
	# the fixtures hold every kind but duplicates (next test)
	for k in $KINDS; do
		[ "$k" = dup ] || grep -qx "$k" "$TMP/seen" || fail "no fixture has a $k marker"
	done
}

@test "--graph: lines thinned to 4000 points, markers not; the requests go up, resends go back" {
	/usr/bin/python3 "$ROOT/tests/gen/mkbench.py" --packets 30000 --qps 1 --seed 11 \
		-o "$TMP/b.pcap" 2>/dev/null
	q=$(rdmadump -q -j -r "$TMP/b.pcap" | jq '.summary.flows[0].destqp')
	check_graph "$TMP/b.pcap" "$q"
	for k in nak-seq rnr retry-nak ce cnp; do grep -qx "$k" "$TMP/seen"; done
	rdmadump -r "$TMP/b.pcap" --graph "$q" > "$TMP/b.svg"
	pts=$(xmllint --xpath "//*[local-name()='polyline']/@points" "$TMP/b.svg" |
		grep -o '[0-9.]*,[0-9.]*' | wc -l)
	[ "$pts" -le 4000 ]
	[ "$pts" -ge 1000 ]
	# two lines: the requests and the responses to them
	[ "$(xmllint --xpath "count(//*[local-name()='polyline'])" "$TMP/b.svg")" -eq 2 ]
	# axes: the PSN and the time with its unit
	xmllint --xpath "//*[local-name()='text'][.='PSN']" "$TMP/b.svg" > /dev/null
	xmllint --xpath "string(//*[local-name()='text'][starts-with(., 'time (')])" "$TMP/b.svg" |
		grep -qE '^time \((s|ms|µs|ns)\) from [0-9:.]+ UTC$'
}

@test "--graph: past 20000 markers of a kind, the rest is a '+N more' note" {
	# one CE-marked request written 20050 times 1 us apart: 20050 CE marks, 20049 duplicates
	/usr/bin/python3 - "$PCAP/cnp_ecn.pcap" "$TMP/rep.pcap" <<-'EOF'
	import struct, sys
	d = open(sys.argv[1], 'rb').read()
	out, off, frame = [d[:24]], 24, None
	while off < len(d):
	    sec, usec, cap, ln = struct.unpack('<IIII', d[off:off + 16])
	    rec = d[off + 16:off + 16 + cap]
	    off += 16 + cap
	    # IPv4 ECN CE (the low two bits of the TOS byte) on a request to QP 0x12
	    if frame is None and (rec[15] & 3) == 3 and rec[42] < 0x40 and rec[47:50] == b'\0\0\x12':
	        frame = (sec, usec, cap, ln, rec)
	sec, usec, cap, ln, rec = frame
	for i in range(20050):
	    out.append(struct.pack('<IIII', sec, usec + i, cap, ln) + rec)
	open(sys.argv[2], 'wb').write(b''.join(out))
	EOF
	rdmadump -r "$TMP/rep.pcap" --graph 0x12 > "$TMP/rep.svg"
	xmllint --noout "$TMP/rep.svg"
	expected "$TMP/rep.pcap" 0x12 > "$TMP/exp"
	grep -qx 'ce 20050' "$TMP/exp"
	grep -qx 'dup 20049' "$TMP/exp"
	[ "$(marks "$TMP/rep.svg" ce)" -eq 20000 ]
	[ "$(marks "$TMP/rep.svg" dup)" -eq 20000 ]
	grep -q '>ECN CE-marked (20050)</text>' "$TMP/rep.svg"
	grep -q '>+50 more not drawn</text>' "$TMP/rep.svg"
	grep -q '>duplicate (20049)</text>' "$TMP/rep.svg"
	grep -q '>+49 more not drawn</text>' "$TMP/rep.svg"
}

@test "--graph-csv: a header, then the same points and markers as the SVG" {
	rdmadump -r "$PCAP/go_back_n.pcap" --graph 18 > "$TMP/g.svg"
	rdmadump -r "$PCAP/go_back_n.pcap" --graph 18 --graph-csv > "$TMP/g.csv"
	[ "$(head -1 "$TMP/g.csv")" = "time_s,time_ns,psn,kind,flow,detail" ]
	for k in $KINDS; do
		n=$(awk -F, -v k="$k" 'NR > 1 && $4 == k' "$TMP/g.csv" | wc -l)
		[ "$n" -eq "$(marks "$TMP/g.svg" "$k")" ] || fail "$k: $n rows"
	done
	pts=$(xmllint --xpath "//*[local-name()='polyline']/@points" "$TMP/g.svg" |
		grep -o '[0-9.]*,[0-9.]*' | wc -l)
	[ "$(awk -F, 'NR > 1 && ($4 == "req" || $4 == "rsp")' "$TMP/g.csv" | wc -l)" -eq "$pts" ]
	# the NAK's row: its time from the origin, its capture time, its PSN and flow
	grep -qx '0.000050000,1764403200000060000,3075,nak-seq,192.0.2.2 > 192.0.2.1 qp 0x000011,' "$TMP/g.csv"
	grep -q ',rnr,192.0.2.2 > 192.0.2.1 qp 0x000011,timer 1.28 ms$' "$TMP/g.csv"
}

@test "--graph-out: the graph beside the summary of the same run; -c and the filter alike" {
	run rdmadump -q -j --qp 18 --graph 18 --graph-out "$TMP/g.svg" -r "$PCAP/go_back_n.pcap"
	assert_success
	echo "$output" | jq -e '.summary.flows | length == 2'
	[ "$(marks "$TMP/g.svg" retry-nak)" -eq 7 ]
	[ "$(stat -c %a "$TMP/g.svg")" = 644 ]
	# the second reading stops where the first did (-c 17 of QP 0x12's packets: up to the
	# ACK after the go-back-N resends, before the RNR NAK)
	rdmadump -q -j --qp 18 -c 17 --graph 18 --graph-out "$TMP/c.svg" \
		-r "$PCAP/go_back_n.pcap" > "$TMP/c.json"
	same_counts "$TMP/c.svg" "$TMP/c.json"
	[ "$(marks "$TMP/c.svg" nak-seq)" -eq 1 ]
	[ "$(marks "$TMP/c.svg" retry-nak)" -eq 7 ]
	[ "$(marks "$TMP/c.svg" rnr)" -eq 0 ]
	# a filter that leaves the responses out: no NAK, the resends are timeouts then
	rdmadump -q -j --qp 18 --graph 18 --graph-out "$TMP/f.svg" -r "$PCAP/go_back_n.pcap" \
		'dst host 192.0.2.2' > "$TMP/f.json"
	same_counts "$TMP/f.svg" "$TMP/f.json"
	[ "$(marks "$TMP/f.svg" nak-seq)" -eq 0 ]
	[ "$(marks "$TMP/f.svg" timeout)" -gt 0 ]
	# packet lines stay on standard output with --graph-out
	run rdmadump -c 3 --graph 18 --graph-out "$TMP/p.svg" -r "$PCAP/go_back_n.pcap"
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	xmllint --noout "$TMP/p.svg"
}

@test "--graph-out never follows a symlink it did not make, and leaves nothing behind" {
	echo keep > "$TMP/target"
	ln -s "$TMP/target" "$TMP/link.svg"
	run rdmadump --graph 18 --graph-out "$TMP/link.svg" -r "$PCAP/go_back_n.pcap"
	assert_success
	[ ! -L "$TMP/link.svg" ]
	xmllint --noout "$TMP/link.svg"
	[ "$(cat "$TMP/target")" = keep ]
	# a failed run (no such QP) leaves the old file and no temporary
	cp "$TMP/link.svg" "$TMP/before.svg"
	run rdmadump --graph 0x999 --graph-out "$TMP/link.svg" -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	cmp "$TMP/before.svg" "$TMP/link.svg"
	[ "$(ls -A "$TMP" | grep -c '^\.')" -eq 0 ]
}

@test "--graph: bad input is one line and exit 2" {
	run --separate-stderr rdmadump --graph 0x999 -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: no flow to or from QP 0x000999 in '$PCAP/go_back_n.pcap' (rdmadump -q lists the QPs)" ]
	[ -z "$output" ]
	run --separate-stderr rdmadump --graph 18 --graph-out /nonexistent/dir/g.svg -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: cannot write '/nonexistent/dir/g.svg': No such file or directory" ]
	run --separate-stderr rdmadump --graph 18 --graph-out "$TMP" -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: cannot write '$TMP': Is a directory" ]
	cp "$PCAP/go_back_n.pcap" "$TMP/in.pcap"
	run --separate-stderr rdmadump --graph 18 --graph-out "$TMP/in.pcap" -r "$TMP/in.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: refusing to write '$TMP/in.pcap': it is the capture being read" ]
	cmp "$TMP/in.pcap" "$PCAP/go_back_n.pcap"
	# usage errors: the message and the hint
	for args in "--graph abc" "--graph 0x1000000" "--graph-csv" "--graph-out x.svg" \
		    "--graph 1 -q" "--graph 1 -S" "--graph 1 -w -"; do
		run --separate-stderr rdmadump $args -r "$PCAP/go_back_n.pcap"
		[ "$status" -eq 2 ] || fail "$args: exit $status"
		[ "${#stderr_lines[@]}" -eq 2 ] || fail "$args: $stderr"
		[[ "${stderr_lines[1]}" == "Try 'rdmadump --help' for more information." ]]
	done
	run --separate-stderr rdmadump --graph 1 -r - < "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "rdmadump: --graph reads the capture twice: give -r a file, not '-'" ]
	run --separate-stderr rdmadump --graph 1 -i lo
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "rdmadump: --graph reads the capture twice: "* ]]
	# standard output on a full device: one line, exit 2
	for m in "" --graph-csv; do
		run --separate-stderr sh -c 'exec rdmadump "$@" > /dev/full' - --graph 18 $m \
			-r "$PCAP/go_back_n.pcap"
		[ "$status" -eq 2 ]
		[ "$stderr" = "rdmadump: write error: No space left on device" ]
	done
	run --separate-stderr rdmadump --graph 1 -r "$TMP/nonexistent.pcap"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "--graph: the file name and every string are escaped for XML" {
	name="$TMP/a<b>&\"c'"$'\x01\xff'".pcap"
	cp "$PCAP/go_back_n.pcap" "$name"
	rdmadump --graph 18 -r "$name" > "$TMP/e.svg"
	xmllint --noout "$TMP/e.svg"
	title=$(xmllint --xpath "string(/*[local-name()='svg']/*[local-name()='title'])" "$TMP/e.svg")
	[ "$title" = "rdmadump: QP 0x000012 in $TMP/a<b>&\"c'\\001\\377.pcap" ]
}

@test "--graph on the fuzz corpus and the broken captures: XML or one line, exit 0 or 2" {
	for f in "$ROOT"/tests/fuzz/corpus-pcap/* "$PCAP"/bad/*.pcap "$PCAP"/truncated.pcap \
		 "$PCAP"/ib_truncated.pcap "$PCAP"/mad_truncated.pcap; do
		q=$(rdmadump -q -j -r "$f" 2>/dev/null | jq -r '.summary.flows[0].destqp // 1' 2>/dev/null)
		run --separate-stderr rdmadump --graph "${q:-1}" -r "$f"
		case $status in
		0) ;;
		2) [ "${#stderr_lines[@]}" -eq 1 ] || fail "$f: $stderr" ;;
		*) fail "$f: exit $status" ;;
		esac
		if [ -n "$output" ]; then
			printf '%s\n' "$output" > "$TMP/z.svg"
			xmllint --noout "$TMP/z.svg" || fail "$f: not XML"
		fi
	done
}
