#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Compare rdmadump -j with tshark, packet by packet and field by field, for one capture.
#   tests/oracle/oracle.sh FILE [RDMADUMP]
# Fields and how they compare: tests/oracle/fields.tsv.  Prints every difference as
#   FILE frame N: KEY: tshark=X rdmadump=Y
# and one summary line; exit 0 when nothing differs, 1 when something does, 2 on a setup error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
file=$1
rdmadump=${2:-$here/../../tools/rdmadump/rdmadump}
spec=$here/fields.tsv
PY=/usr/bin/python3
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

[ -r "$file" ] || { echo "oracle: cannot read $file" >&2; exit 2; }
command -v tshark >/dev/null || { echo "oracle: tshark not found" >&2; exit 2; }
[ -x "$rdmadump" ] || { echo "oracle: $rdmadump not built" >&2; exit 2; }

# payload dissectors (RPC-over-RDMA takes every SEND with Invalidate; SMB Direct, iSER, SDP,
# ... are heuristics) would take our test payloads and stop the dissection with "malformed"
# before the ICRC: switch off every protocol registered on the InfiniBand payload.
# (--disable-heuristic wants internal short names that -G heuristic-decodes does not list.)
# ORACLE_HEURISTICS: a file holding that list already (tests/bats/oracle.bats makes it once
# for its 48 runs: tshark takes over a second to print it)
heur=()
while read -r name; do
	heur+=(--disable-protocol "$name")
done < <({ if [ -n "${ORACLE_HEURISTICS:-}" ]; then cat "$ORACLE_HEURISTICS"; else
	     tshark -G heuristic-decodes 2>/dev/null; fi; } |
	awk -F'\t' '$1 ~ /^infiniband/ && $2 != "ethertype" { print $2 }' | sort -u)

# tshark 4.0 does not know pcap link type 247 (DLT_INFINIBAND): feed it a copy that says
# USER0 (147) and map USER0 to its "infiniband" dissector
in=$file
opts=()
lt=$("$PY" - "$file" <<'PYEOF'
import struct, sys
d = open(sys.argv[1], 'rb').read(64)
m = d[:4]
if m in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
    print(struct.unpack('<I', d[20:24])[0])
elif m in (b'\xa1\xb2\xc3\xd4', b'\xa1\xb2\x3c\x4d'):
    print(struct.unpack('>I', d[20:24])[0])
else:
    print(0)
PYEOF
)
if [ "$lt" = 247 ]; then
	in=$tmp/ib147.pcap
	"$PY" - "$file" "$in" <<'PYEOF'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
e = '<' if d[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
d[20:24] = struct.pack(e + 'I', 147)
open(sys.argv[2], 'wb').write(d)
PYEOF
	opts=(-o 'uat:user_dlts:"User 0 (DLT=147)","infiniband","0","","0",""')
fi

# tshark side: one -e per tshark field named in the spec
tfields=()
while IFS=$'\t' read -r key tf _; do
	case $key in ''|'#'*) continue ;; esac
	IFS=, read -ra fs <<< "$tf"
	for f in "${fs[@]}"; do tfields+=(-e "$f"); done
done < "$spec"
tshark -n -r "$in" "${opts[@]}" "${heur[@]}" -T fields -E header=y -E separator=/t \
	-E occurrence=a -E aggregator=, -e frame.number -e frame.protocols "${tfields[@]}" \
	> "$tmp/tshark.tsv" 2> "$tmp/tshark.err"
if [ ! -s "$tmp/tshark.tsv" ]; then
	echo "oracle: tshark failed on $file:" >&2
	cat "$tmp/tshark.err" >&2
	exit 2
fi

# rdmadump side: -j, one object per RDMA packet; jq turns each into the spec's columns
jqprog='def v(x): if x == null then "" elif (x|type) == "array" then
  (x | map(if type == "object" then (.vid // .id // .vlan) else . end | tostring) | join(","))
  else (x|tostring) end; [(.n|tostring)'
while IFS=$'\t' read -r key tf _; do
	case $key in ''|'#'*) continue ;; esac
	alt=""
	IFS='|' read -ra ks <<< "$key"
	for k in "${ks[@]}"; do alt="${alt:+$alt // }.$k"; done
	jqprog="$jqprog, v($alt)"
done < "$spec"
jqprog="$jqprog] | @tsv"
"$rdmadump" -j -r "$file" > "$tmp/rdmadump.jsonl" 2> "$tmp/rdmadump.err"
rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
	echo "oracle: rdmadump -j -r $file exited $rc:" >&2
	cat "$tmp/rdmadump.err" >&2
	exit 2
fi
# keep only the per-packet objects (a summary object, if any, has no "n")
if ! jq -r "select(.n != null) | $jqprog" "$tmp/rdmadump.jsonl" > "$tmp/rdmadump.tsv" 2> "$tmp/jq.err"; then
	echo "oracle: rdmadump -j output is not JSON lines:" >&2
	head -3 "$tmp/jq.err" "$tmp/rdmadump.jsonl" >&2
	exit 2
fi
exec "$PY" "$here/compare.py" "$spec" "$tmp/tshark.tsv" "$tmp/rdmadump.tsv" "$(basename "$file")"
