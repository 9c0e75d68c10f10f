#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump --report FILE.html: one self-contained page.  It must be true (in each QP's graph,
# each marker kind has as many elements, class "m KIND", as rdmadump -q -j --qp QP counts,
# for every QP the graph stands for; the histograms hold the summary's latencies; the CM
# timeline, the MAD and flow tables one row per connection, transaction, flow), strict XML
# (xmllint --noout), closed to the outside (no URL, no src=, no href= but "#...", a CSP
# whose script hash is the script's), written as --graph-out writes, and XML or one line on
# the hostile captures.  With chromium installed, a headless browser opens the fixture
# reports with the network blocked: the script ran under the CSP, the DOM has the graphs and
# their markers, and a screenshot is not blank (kept under the test's temporary directory).
load helper

PCAP="$FIX/pcap"
KINDS="nak-seq nak rnr retry-nak retry-rnr timeout dup ce cnp pause"

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# "KIND COUNT" per kind of the summary (-q -j --qp) in file $1 (as rdmadump_graph.bats)
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
	} | to_entries[] | "\(.key) \(.value // 0)"' "$1"
}

# the markers of kind $3 drawn in the graph section of id $2 in report $1
marks() {
	xmllint --xpath "count(//section[@id='$2']//*[@class='m $3'])" "$1"
}

# report $1 of capture $2: XML, closed, and in every graph section, for every QP it stands
# for, the markers of each kind are as many as rdmadump -q -j --qp counts
check_report() {
	local html=$1 cap=$2 id qps q k n got drawn
	xmllint --noout "$html" || fail "$(basename "$cap"): not XML"
	closed "$html"
	# one parse of the page: "ID QPS KIND COUNTED DRAWN" per graph section and kind (the
	# section's data-KIND attribute, and its elements of class "m KIND")
	python3 - "$html" "$KINDS" > "$TMP/sections" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
kinds = sys.argv[2].split()
for sec in ET.parse(sys.argv[1]).iter():
    if sec.tag.split('}')[-1] != 'section' or sec.get('class') != 'qp':
        continue
    drawn = {k: 0 for k in kinds}
    for e in sec.iter():
        c = e.get('class', '')
        if c.startswith('m ') and c[2:] in drawn:
            drawn[c[2:]] += 1
    for k in kinds:
        print(sec.get('id'), sec.get('data-qps').replace(' ', ','), k, sec.get('data-' + k), drawn[k])
PYEOF
	for q in $(awk '{ print $2 }' "$TMP/sections" | tr ',' '\n' | sort -u); do
		rdmadump -q -j --qp "$q" -r "$cap" > "$TMP/sum.json"
		counts "$TMP/sum.json" > "$TMP/exp"
		[ "$(wc -l < "$TMP/exp")" -eq 10 ]
		[ -n "$(awk -v q="$q" '("," $2 ",") ~ ("," q ",")' "$TMP/sections")" ] ||
			fail "$(basename "$cap") qp $q: no section"
		while read -r k n; do
			# every section standing for q (its QPs list holds it)
			while read -r id qps _ got drawn; do
				[ "$got" -eq "$n" ] ||
					fail "$(basename "$cap") qp $q: $k: $got counted, the summary $n"
				[ "$drawn" -eq $((n < 2000 ? n : 2000)) ] ||
					fail "$(basename "$cap") qp $q: $k: $drawn markers, the summary $n"
			done < <(awk -v q="$q" -v k="$k" '$3 == k && ("," $2 ",") ~ ("," q ",")' "$TMP/sections")
			[ "$n" -eq 0 ] || echo "$k" >> "$TMP/seen"
		done < "$TMP/exp"
	done
	[ -s "$TMP/sections" ] || [ -z "$(xmllint --xpath "//section[@class='qp']" "$html" 2>/dev/null)" ] ||
		fail "$(basename "$cap"): graph sections not read"
}

# nothing in page $1 reaches outside it: no URL, no reference but to the page's own anchors,
# a CSP that forbids the rest and allows the one script by its hash
closed() {
	local h script csp
	! grep -qiE 'https?:|//|ftp:|file:|url\(|@import' "$1" || fail "$1: a URL: $(grep -oiE '.{20}(https?:|//|url\().{20}' "$1" | head -1)"
	# links to the page's own anchors only; nothing loaded from anywhere
	[ -z "$(grep -oiE 'href="[^#][^"]*"' "$1")" ] || fail "$1: a link out of the page"
	[ -z "$(grep -oiE '(src|srcset|action|formaction|poster|background)=' "$1")" ] ||
		fail "$1: a reference to load"
	csp=$(xmllint --xpath "string(//meta[@http-equiv='Content-Security-Policy']/@content)" "$1")
	[[ "$csp" == "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-"*"'; base-uri 'none'; form-action 'none'" ]] ||
		fail "CSP: $csp"
	[ "$(xmllint --xpath "count(//script)" "$1")" -eq 1 ]
	# the hash of the script's text as the browser takes it: the bytes between the tags
	h=$(/usr/bin/python3 -c 'import hashlib,base64,re,sys
s = re.search(rb"<script>(.*?)</script>", open(sys.argv[1], "rb").read(), re.S).group(1)
print(base64.b64encode(hashlib.sha256(s).digest()).decode())' "$1")
	[[ "$csp" == *"script-src 'sha256-$h'"* ]] || fail "the script's hash is $h, the CSP: $csp"
}

@test "--report: per QP graph, as many markers of each kind as rdmadump -q -j --qp counts" {
	for f in "$PCAP"/*.pcap "$PCAP"/*.pcapng "$FIX"/rxe/*.pcap; do
		rdmadump -q -r "$f" --report "$TMP/r.html" > /dev/null ||
			fail "$(basename "$f"): rdmadump failed"
		check_report "$TMP/r.html" "$f"
	done
	for k in $KINDS; do
		[ "$k" = dup ] || grep -qx "$k" "$TMP/seen" || fail "no fixture has a $k marker"
	done
}

@test "--report: the summary, problems linked to their graph, the flow table, latencies" {
	run rdmadump -r "$PCAP/go_back_n.pcap" -q --report "$TMP/g.html"
	assert_success
	[ "$(stat -c %a "$TMP/g.html")" = 644 ]
	# the summary is what -q says
	rdmadump -q -r "$PCAP/go_back_n.pcap" > "$TMP/q.txt"
	xmllint --xpath "string(//h2[@id='summary']/following-sibling::pre[1])" "$TMP/g.html" |
		sed '$d' > "$TMP/pre.txt"
	diff "$TMP/q.txt" "$TMP/pre.txt"
	# the two ends of the connection share one graph, anchored by both QPs
	[ "$(xmllint --xpath "count(//section[@class='qp'])" "$TMP/g.html")" -eq 1 ]
	[ "$(xmllint --xpath "string(//section[@class='qp']/@data-qps)" "$TMP/g.html")" = "0x000011 0x000012" ]
	xmllint --xpath "//*[@id='qp-0x000012']" "$TMP/g.html" > /dev/null
	# each problem links to its flow's graph
	[ "$(xmllint --xpath "count(//li[@class='problem'])" "$TMP/g.html")" -eq 2 ]
	for h in $(xmllint --xpath "//li[@class='problem']/a/@href" "$TMP/g.html" | sed 's/ href="#\([^"]*\)"/\1 /g'); do
		[ "$(xmllint --xpath "count(//*[@id='$h'])" "$TMP/g.html")" -eq 1 ] || fail "#$h: no such anchor"
	done
	xmllint --xpath "string(//li[@class='problem'][1])" "$TMP/g.html" |
		grep -qx '192.0.2.1 > 192.0.2.2 qp 0x000012: 1 packets lost, 7 resent after a NAK, 1 resent after an RNR NAK'
	# a sortable flow table, a row per flow, numbers to sort by
	[ "$(xmllint --xpath "count(//table[@id='flow-table']/tbody/tr)" "$TMP/g.html")" -eq 2 ]
	[ "$(xmllint --xpath "count(//table[@id='flow-table'][@class='sort']/thead/tr/th)" "$TMP/g.html")" -eq 20 ]
	[ "$(xmllint --xpath "string(//table[@id='flow-table']/tbody/tr[1]/td[3]/@data-v)" "$TMP/g.html")" -eq 18 ]
	# the throughput below the graph: wire and payload
	[ "$(xmllint --xpath "count(//section[@class='qp']//*[local-name()='svg'][contains(@class,'rate')]//*[local-name()='polyline'])" "$TMP/g.html")" -eq 2 ]
	xmllint --xpath "//*[local-name()='text'][.='PSN']" "$TMP/g.html" > /dev/null
	# the ACK latency histogram: the summary's samples and percentiles
	rdmadump -q -j -r "$PCAP/go_back_n.pcap" > "$TMP/s.json"
	n=$(jq '.summary.flows[0].ack_latency.n' "$TMP/s.json")
	[ "$n" -eq 2 ]
	[ "$(xmllint --xpath "string(//*[local-name()='svg'][@data-kind='ACK']/@data-n)" "$TMP/g.html")" -eq "$n" ]
	bars=$(xmllint --xpath "//*[local-name()='svg'][@data-kind='ACK']//*[@class='bar']/*[local-name()='title']/text()" "$TMP/g.html" | sed 's/.*: //' | paste -sd+ | bc)
	[ "$bars" -eq "$n" ]
	xmllint --xpath "string(//*[local-name()='svg'][@data-kind='ACK']/*[local-name()='text'][1])" "$TMP/g.html" |
		grep -qx 'ACK latency: n 2, min 170us, median 170us, p99 1.3ms, max 1.3ms'
}

@test "--report: every histogram holds its flow's latencies (READs, ACKs)" {
	for f in read_gaps rc_ops psn_events; do
		rdmadump -q -r "$PCAP/$f.pcap" --report "$TMP/r.html" > /dev/null
		rdmadump -q -j -r "$PCAP/$f.pcap" > "$TMP/s.json"
		exp=$(jq '[.summary.flows[] | .read_latency.n, .ack_latency.n] | add' "$TMP/s.json")
		got=$(xmllint --xpath "sum(//*[local-name()='svg'][contains(@class,'hist')]/@data-n)" "$TMP/r.html")
		[ "$got" -eq "$exp" ] || fail "$f: $got latencies drawn, $exp in the summary"
		bars=$( (xmllint --xpath "//*[local-name()='svg'][contains(@class,'hist')]//*[@class='bar']/*[local-name()='title']/text()" "$TMP/r.html" 2>/dev/null || :) |
			sed 's/.*: //' | paste -sd+ | sed 's/^$/0/' | bc)
		[ "$bars" -eq "$exp" ] || fail "$f: bars hold $bars, the summary $exp"
	done
}

@test "--report: the CM connections as a timeline, the MAD transactions as a table" {
	for f in cm_handshake cm_rej_reasons mad_cm_lap_sidr; do
		rdmadump -q -r "$PCAP/$f.pcap" --report "$TMP/c.html" > /dev/null
		xmllint --noout "$TMP/c.html"
		rdmadump -q -j -r "$PCAP/$f.pcap" > "$TMP/s.json"
		[ "$(xmllint --xpath "count(//*[@class='conn'])" "$TMP/c.html")" -eq \
		  "$(jq '.summary.cm | length' "$TMP/s.json")" ]
		for ev in req mra rep rtu rej dreq drep; do
			[ "$(xmllint --xpath "count(//*[@class='cm-ev cm-$ev'])" "$TMP/c.html")" -eq \
			  "$(jq "[.summary.cm[] | select(.$ev > 0)] | length" "$TMP/s.json")" ] || fail "$f: $ev"
		done
		[ "$(xmllint --xpath "count(//*[@class='cm-ev cm-req-resend'])" "$TMP/c.html")" -eq \
		  "$(jq '[.summary.cm[] | select(.req_retries > 0)] | length' "$TMP/s.json")" ]
	done
	# a REJ's reason is in the timeline
	rdmadump -q -r "$PCAP/cm_rej_reasons.pcap" --report "$TMP/c.html" > /dev/null
	rdmadump -q -j -r "$PCAP/cm_rej_reasons.pcap" > "$TMP/s.json"
	reason=$(jq -r '[.summary.cm[] | select(.rej > 0)][0].rej_reason_name' "$TMP/s.json")
	xmllint --xpath "string((//*[@class='cm-ev cm-rej'])[1]/*[local-name()='title'])" "$TMP/c.html" | grep -q ": reason [0-9]* $reason\$"
	# MADs: a row per transaction, answered or none, the resends
	for f in mad_sa mad_smp mad_perf mad_rmpp; do
		rdmadump -q -r "$PCAP/$f.pcap" --report "$TMP/m.html" > /dev/null
		rdmadump -q -j -r "$PCAP/$f.pcap" > "$TMP/s.json"
		n=$(xmllint --xpath "count(//table[@id='mad-table']/tbody/tr)" "$TMP/m.html")
		[ "$n" -gt 0 ] || fail "$f: no MAD row"
		un=$(jq '.summary.mad.unanswered // [] | length' "$TMP/s.json")
		[ "$(xmllint --xpath "count(//table[@id='mad-table']/tbody/tr[td[9]='none'])" "$TMP/m.html")" -eq "$un" ] || fail "$f: unanswered"
	done
}

@test "--report: markers past 2000 of a kind in a graph are a '+N more' note" {
	# one CE-marked request written 2050 times 1 us apart: 2050 CE marks, 2049 duplicates
	/usr/bin/python3 - "$PCAP/cnp_ecn.pcap" "$TMP/rep.pcap" <<-'EOF'
	import struct, sys
	d = open(sys.argv[1], 'rb').read()
	out, off, frame = [d[:24]], 24, None
	while off < len(d):
	    sec, usec, cap, ln = struct.unpack('<IIII', d[off:off + 16])
	    rec = d[off + 16:off + 16 + cap]
	    off += 16 + cap
	    if frame is None and (rec[15] & 3) == 3 and rec[42] < 0x40 and rec[47:50] == b'\0\0\x12':
	        frame = (sec, usec, cap, ln, rec)
	sec, usec, cap, ln, rec = frame
	for i in range(2050):
	    out.append(struct.pack('<IIII', sec, usec + i, cap, ln) + rec)
	open(sys.argv[2], 'wb').write(b''.join(out))
	EOF
	rdmadump -q -r "$TMP/rep.pcap" --report "$TMP/rep.html" > /dev/null
	check_report "$TMP/rep.html" "$TMP/rep.pcap"
	[ "$(marks "$TMP/rep.html" qp-0x000012 ce)" -eq 2000 ]
	grep -q '>ECN CE-marked (2050)</text>' "$TMP/rep.html"
	grep -q '>+50 more not drawn</text>' "$TMP/rep.html"
	grep -q '>+49 more not drawn</text>' "$TMP/rep.html"
	# the bounds are stated in the page
	grep -q 'at most 2000 markers of each kind per graph' "$TMP/rep.html"
}

@test "--report: lines thinned on a large capture, the page stays small" {
	/usr/bin/python3 "$ROOT/tests/gen/mkbench.py" --packets 30000 --qps 4 --seed 11 \
		-o "$TMP/b.pcap" 2>/dev/null
	rdmadump -q -r "$TMP/b.pcap" --report "$TMP/b.html" > /dev/null
	check_report "$TMP/b.html" "$TMP/b.pcap"
	for id in $(xmllint --xpath "//section[@class='qp']/@id" "$TMP/b.html" | sed 's/ id="\([^"]*\)"/\1 /g'); do
		pts=$(xmllint --xpath "//section[@id='$id']//*[local-name()='svg'][contains(@class,'graph')]//*[local-name()='polyline']/@points" "$TMP/b.html" |
			grep -o '[0-9.]*,[0-9.]*' | wc -l)
		[ "$pts" -le 4000 ] || fail "$id: $pts points"
	done
	[ "$(stat -c %s "$TMP/b.html")" -lt 5000000 ]
}

@test "--report is written as --graph-out: a temporary renamed, no symlink followed" {
	echo keep > "$TMP/target"
	ln -s "$TMP/target" "$TMP/link.html"
	run rdmadump -q --report "$TMP/link.html" -r "$PCAP/go_back_n.pcap"
	assert_success
	[ ! -L "$TMP/link.html" ]
	xmllint --noout "$TMP/link.html"
	[ "$(cat "$TMP/target")" = keep ]
	# with --graph-out in the same run: both written
	run rdmadump -q --report "$TMP/r.html" --graph 18 --graph-out "$TMP/g.svg" -r "$PCAP/go_back_n.pcap"
	assert_success
	xmllint --noout "$TMP/r.html"
	xmllint --noout "$TMP/g.svg"
	# a failed run leaves the old file and no temporary
	cp "$TMP/link.html" "$TMP/before.html"
	run rdmadump -q --report "$TMP/link.html" --graph 0x999 --graph-out "$TMP/g.svg" -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	cmp "$TMP/before.html" "$TMP/link.html"
	[ "$(ls -A "$TMP" | grep -c '^\.')" -eq 0 ]
}

@test "--report: bad input is one line and exit 2" {
	run --separate-stderr rdmadump --report /nonexistent/dir/r.html -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: cannot write '/nonexistent/dir/r.html': No such file or directory" ]
	run --separate-stderr rdmadump --report "$TMP" -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: cannot write '$TMP': Is a directory" ]
	cp "$PCAP/go_back_n.pcap" "$TMP/in.pcap"
	run --separate-stderr rdmadump --report "$TMP/in.pcap" -r "$TMP/in.pcap"
	[ "$status" -eq 2 ]
	[ "$stderr" = "rdmadump: refusing to write '$TMP/in.pcap': it is the capture being read" ]
	cmp "$TMP/in.pcap" "$PCAP/go_back_n.pcap"
	run --separate-stderr rdmadump --report "$TMP/r.html" -r - < "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "rdmadump: --report reads the capture twice: give -r a file, not '-'" ]
	[ "${stderr_lines[1]}" = "Try 'rdmadump --help' for more information." ]
	run --separate-stderr rdmadump --report "$TMP/r.html" -i lo
	[ "$status" -eq 2 ]
	[[ "${stderr_lines[0]}" == "rdmadump: --report reads the capture twice: "* ]]
	run --separate-stderr rdmadump --report "" -r "$PCAP/go_back_n.pcap"
	[ "$status" -eq 2 ]
	[ "${stderr_lines[0]}" = "rdmadump: --report needs a file name" ]
	run --separate-stderr rdmadump --report "$TMP/r.html" -r "$TMP/nonexistent.pcap"
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[ ! -e "$TMP/r.html" ]
}

@test "--report: the file name and every string are escaped" {
	name="$TMP/a<b>&\"c'"$'\x01\xff'"<script>.pcap"
	cp "$PCAP/cm_rej_reasons.pcap" "$name"
	rdmadump -q --report "$TMP/e.html" -r "$name" > /dev/null
	xmllint --noout "$TMP/e.html"
	[ "$(xmllint --xpath "string(//title)" "$TMP/e.html")" = "rdmadump report: $TMP/a<b>&\"c'\\001\\377<script>.pcap" ]
	[ "$(xmllint --xpath "count(//script)" "$TMP/e.html")" -eq 1 ]
}

@test "--report on the fuzz corpus and the broken captures: XML or one line, exit 0 or 2" {
	for f in "$ROOT"/tests/fuzz/corpus-pcap/* "$PCAP"/bad/*.pcap "$PCAP"/truncated.pcap \
		 "$PCAP"/ib_truncated.pcap "$PCAP"/mad_truncated.pcap; do
		rm -f "$TMP/z.html"
		run --separate-stderr rdmadump -q --report "$TMP/z.html" -r "$f"
		case $status in
		0) ;;
		2) [ "${#stderr_lines[@]}" -eq 1 ] || fail "$f: $stderr" ;;
		*) fail "$f: exit $status" ;;
		esac
		if [ -e "$TMP/z.html" ]; then
			xmllint --noout "$TMP/z.html" || fail "$f: not XML"
			closed "$TMP/z.html"
		fi
	done
}

# chromium, headless, with every way out closed: its DOM of page $1 to $2, a screenshot to $3
browse() {
	local flags=(--headless --disable-gpu --no-sandbox --no-first-run --disable-extensions
		     --disable-background-networking --disable-sync --disable-component-update
		     --user-data-dir="$TMP/chromium" --proxy-server=127.0.0.1:9
		     "--host-resolver-rules=MAP * ~NOTFOUND" --window-size=1280,3000)
	timeout 120 chromium "${flags[@]}" --dump-dom "file://$1" > "$2" 2> "$TMP/chromium.log"
	timeout 120 chromium "${flags[@]}" --screenshot="$3" "file://$1" >> "$TMP/chromium.log" 2>&1
}

@test "--report in chromium: the script runs under the CSP, the DOM holds the markers" {
	command -v chromium > /dev/null || skip "chromium is not installed"
	mkdir -p "$BATS_RUN_TMPDIR/report-screenshots"
	for c in go_back_n cnp_ecn pause_pfc cm_rej_reasons mad_sa; do
		rdmadump -q -r "$PCAP/$c.pcap" --report "$TMP/$c.html" > /dev/null
		shot="$BATS_RUN_TMPDIR/report-screenshots/$c.png"
		browse "$TMP/$c.html" "$TMP/$c.dom" "$shot"
		# the DOM as the browser made it: the script ran (the CSP let it), the graphs
		grep -q '<body data-ready="1">' "$TMP/$c.dom" || fail "$c: the script did not run"
		[ "$(grep -o '<svg class="graph zoomable"' "$TMP/$c.dom" | wc -l)" -eq \
		  "$(xmllint --xpath "count(//section[@class='qp'])" "$TMP/$c.html")" ]
		for k in $KINDS; do
			[ "$(grep -o "class=\"m $k\"" "$TMP/$c.dom" | wc -l)" -eq \
			  "$(xmllint --xpath "count(//*[@class='m $k'])" "$TMP/$c.html")" ] || fail "$c: $k"
		done
		# the screenshot: a PNG of the window's size, not one colour
		/usr/bin/python3 - "$shot" <<-'EOF'
		import struct, sys, zlib
		d = open(sys.argv[1], 'rb').read()
		assert d[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
		w, h = struct.unpack('>II', d[16:24])
		assert (w, h) == (1280, 3000), (w, h)
		off, idat = 8, b''
		while off < len(d):
		    n, t = struct.unpack('>I4s', d[off:off + 8])
		    if t == b'IDAT':
		        idat += d[off + 8:off + 8 + n]
		    off += 12 + n
		raw = zlib.decompress(idat)
		assert len(set(raw[i:i + 3] for i in range(1, len(raw), 997))) > 8, 'blank'
		EOF
	done
	# no request left the page: the proxy and the resolver were never asked
	! grep -qiE 'net::ERR_(PROXY|NAME)' "$TMP/chromium.log"
}
