# Host side of guest/20-rdmastat.sh: the --prom output written in the guest parses with a
# real Prometheus text parser (python3-prometheus-client), every sample carries the
# device/port/counter labels, and each value equals the one rdmastat -j printed at the same
# moment.  TAP on stdout.
cd "$VM_OUT" || exit 2
PY=/usr/bin/python3
if ! $PY -c 'import prometheus_client.parser' 2>/dev/null; then
	echo "ok - --prom parses with prometheus_client # SKIP python3-prometheus-client missing"
	exit 0
fi
if [ ! -s 20-prom.txt ] || [ ! -s 20-stat-auto.json ]; then
	echo "not ok - the guest wrote 20-prom.txt and 20-stat-auto.json"
	exit 0
fi
$PY - 20-prom.txt 20-stat-auto.json <<'PYEOF'
import json, sys
from prometheus_client.parser import text_string_to_metric_families
text = open(sys.argv[1]).read()
js = json.load(open(sys.argv[2]))
want = {}
for o in js:
    for k, v in o.items():
        if k not in ("ifname", "port", "errors"):
            want[(o["ifname"], str(o.get("port", 0)), k)] = v
try:
    fams = list(text_string_to_metric_families(text))
except Exception as e:
    print("not ok - --prom output parses with prometheus_client")
    print("# %s" % e)
    sys.exit(0)
print("ok - --prom output of the real rxe devices parses with prometheus_client (%d families)" % len(fams))
n = bad = 0
for f in fams:
    for s in f.samples:
        n += 1
        key = (s.labels.get("device"), s.labels.get("port"), s.labels.get("counter"))
        if key not in want or float(want[key]) != s.value:
            bad += 1
            if bad < 5:
                print("# mismatch %s: prom %s json %s" % (key, s.value, want.get(key)))
print(("ok" if n and not bad and n == len(want) else "not ok") +
      " - every --prom sample equals rdmastat -j (%d samples, %d json counters, %d differ)" % (n, len(want), bad))
PYEOF
