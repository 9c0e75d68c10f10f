# Host side of the rdmadump guest tests: tshark decodes the captures made in the guest on
# real rxe traffic, and every -j field of rdmadump equals tshark's, frame by frame:
#   - rdmadump -j -r on the host, on each guest capture (the oracle of the bats tier,
#     tests/oracle/oracle.sh, so that both tiers compare the same fields the same way);
#   - the JSON the guest's rdmadump wrote (-r, and live -i) for the same files.
# Also: tshark sees the CM handshake in the rping capture, and the lossy capture's transport
# model (guest/11-transport.sh E5) holds with tshark's PSNs too, independently of rdmadump.
# $VM_OUT: what the guest wrote.  TAP on stdout.
cd "$VM_OUT" || exit 2
ORACLE=$ROOT/tests/oracle/oracle.sh
RD=$ROOT/tools/rdmadump
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v tshark > /dev/null; then
	echo "ok - tshark comparisons # SKIP tshark is not installed"
	exit 0
fi

frames() { tshark -n -r "$1" 2>/dev/null | wc -l; }
roce() { tshark -n -r "$1" -Y infiniband.bth 2>/dev/null | wc -l; }

for p in 10-pingpong.pcap 10-rping.pcap 10-live.pcap 11-lossy.pcap; do
	if [ ! -s "$p" ]; then
		echo "not ok - the guest wrote $p"
		continue
	fi
	n=$(frames "$p")
	r=$(roce "$p")
	if [ "$n" -gt 0 ] && [ "$n" = "$r" ]; then
		echo "ok - tshark decodes all $n frames of $p as RoCEv2 (BTH)"
	else
		echo "not ok - tshark decodes all frames of $p as RoCEv2 (BTH)"
		echo "# $r of $n frames have a BTH"
	fi
done

# the CM handshake of rping, as tshark names it (MAD attribute IDs of the CM class)
if [ -s 10-rping.pcap ]; then
	cm=$(tshark -n -r 10-rping.pcap -Y 'infiniband.mad.mgmtclass == 0x07' \
		-T fields -e infiniband.mad.attributeid 2>/dev/null | tr '\n' ' ')
	# 0x0010 REQ, 0x0013 REP, 0x0014 RTU, 0x0015 DREQ, 0x0016 DREP
	if [ "$cm" = "0x0010 0x0013 0x0014 0x0015 0x0016 " ]; then
		echo "ok - tshark shows the CM handshake REQ REP RTU DREQ DREP in 10-rping.pcap"
	else
		echo "not ok - tshark shows the CM handshake REQ REP RTU DREQ DREP in 10-rping.pcap"
		echo "# CM attribute IDs: $cm"
	fi
fi

# E5 of guest/11-transport.sh with tshark's decode: replay rxe1's PSN check on the captured
# requests and compare with the kernel's counters the guest saved
if [ -s 11-lossy.pcap ] && [ -s 11-lossy.counters ]; then
	tshark -n -r 11-lossy.pcap -T fields -E separator=/t -e ip.src -e infiniband.bth.psn \
		-e infiniband.aeth.syndrome 2>/dev/null > "$tmp/l.tsv"
	model=$(awk -F'\t' '
		function diff(a, b) { d = (a - b) % 16777216; if (d >= 8388608) d -= 16777216;
			if (d < -8388608) d += 16777216; return d }
		{ req[NR] = ($1 == "198.18.0.1"); psn[NR] = $2; syn[NR] = $3 }
		END {
			for (i = 1; i <= NR; i++) if (req[i]) { e = psn[i]; break }
			for (i = 1; i <= NR; i++) if (!req[i]) {
				# syndrome 0x60 = NAK, code 0: PSN sequence error
				if (syn[i] == 96 && diff(psn[i], e) < 0) e = psn[i]
				break
			}
			for (i = 1; i <= NR; i++) {
				if (!req[i]) { if (syn[i] == 96) naks++; continue }
				x = diff(psn[i], e)
				if (x == 0) { e = (e + 1) % 16777216; nak = 0 }
				else if (x > 0) { if (!nak) { oos++; nak = 1 } }
				else dup++
			}
			printf "%d %d %d\n", oos, dup, naks
		}' "$tmp/l.tsv")
	want=$(awk '$1 == "rxe1.out_of_seq_request" { o = $2 } $1 == "rxe1.duplicate_request" { d = $2 }
		END { print o, d, o }' 11-lossy.counters)
	if [ "$model" = "$want" ]; then
		echo "ok - lossy run, tshark's PSNs: replaying rxe1's PSN check gives its out_of_seq_request, duplicate_request (and one NAK-seq each): $want"
	else
		echo "not ok - lossy run, tshark's PSNs: replaying rxe1's PSN check gives its out_of_seq_request, duplicate_request (and one NAK-seq each)"
		echo "# counters (oos dup oos): $want   model from tshark (oos dup naks): $model"
	fi
fi

if [ ! -x "$ORACLE" ] || [ ! -x "$RD" ]; then
	echo "ok - rdmadump -j equals tshark on the guest captures # SKIP tools/rdmadump or tests/oracle/oracle.sh missing"
	exit 0
fi

# oracle FILE LABEL [RDMADUMP]: run the oracle, one TAP line
oracle() {
	local f=$1 label=$2 out
	out=$("$ORACLE" "$f" "${3:-$RD}" 2>&1)
	if [ $? -eq 0 ]; then
		echo "ok - $label: every rdmadump -j field equals tshark's ($(echo "$out" | tail -1))"
	else
		echo "not ok - $label: every rdmadump -j field equals tshark's"
		echo "$out" | head -12 | sed 's/^/# /'
	fi
}
for p in 10-pingpong.pcap 10-rping.pcap 10-live.pcap 11-lossy.pcap; do
	[ -s "$p" ] && oracle "$VM_OUT/$p" "host rdmadump -r $p"
done

# the guest's own output: an "rdmadump" that replays what the guest printed
replay() {	# replay JSON PCAP LABEL [drop-ts]
	local json=$1 pcap=$2 label=$3 o=$tmp/oracle
	[ -s "$json" ] || { echo "not ok - $label: the guest wrote $(basename "$json")"; return; }
	rm -rf "$o"; cp -r "$ROOT/tests/oracle" "$o"
	if [ "${4:-}" = drop-ts ]; then
		# live: the guest's socket and tcpdump's file stamp the same packet separately
		grep -v '^ts	' "$ROOT/tests/oracle/fields.tsv" > "$o/fields.tsv"
	fi
	printf '#!/bin/sh\nexec cat %q\n' "$json" > "$tmp/guest-rdmadump"
	chmod +x "$tmp/guest-rdmadump"
	ORACLE=$o/oracle.sh oracle "$VM_OUT/$pcap" "$label" "$tmp/guest-rdmadump"
}
replay 10-pingpong.guest.json 10-pingpong.pcap "guest rdmadump -r 10-pingpong.pcap"
replay 10-rping.guest.json 10-rping.pcap "guest rdmadump -r 10-rping.pcap"
replay 11-lossy.guest.json 11-lossy.pcap "guest rdmadump -r 11-lossy.pcap"
replay 10-live.json 10-live.pcap "guest rdmadump -i (live) vs tcpdump's capture of the same traffic" drop-ts
