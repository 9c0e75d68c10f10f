# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Host side of guest/20-rdmastat.sh: the --prom output written in the guest parses with a
# real Prometheus text parser (python3-prometheus-client), every counter sample carries the
# device/port/counter labels, and each value equals the one rdmastat -j printed at the same
# moment (x4 for the PMA data counters, exported in bytes); the port state gauges equal what
# `rdma link` (iproute2) said of each port.  TAP on stdout.
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
$PY - 20-prom.txt 20-stat-auto.json 20-rdma-link.json <<'PYEOF'
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
GAUGES = ("rdma_port_state_id", "rdma_port_physical_state_id", "rdma_port_rate_bytes_per_second")
n = bad = 0
for f in fams:
    if f.name in GAUGES:
        continue
    for s in f.samples:
        n += 1
        key = (s.labels.get("device"), s.labels.get("port"), s.labels.get("counter"))
        k = 4 if key[2] in ("port_xmit_data", "port_rcv_data") else 1
        if key not in want or float(want[key]) * k != s.value:
            bad += 1
            if bad < 5:
                print("# mismatch %s: prom %s json %s" % (key, s.value, want.get(key)))
print(("ok" if n and not bad and n == len(want) else "not ok") +
      " - every --prom sample equals rdmastat -j (%d samples, %d json counters, %d differ)" % (n, len(want), bad))
# the port gauges against iproute2's rdma link (state ACTIVE = 4, physical LINK_UP = 5)
try:
    links = json.load(open(sys.argv[3]))
except Exception as e:
    links = []
STATE = {"DOWN": 1, "INIT": 2, "ARMED": 3, "ACTIVE": 4, "ACTIVE_DEFER": 5}
PHYS = {"SLEEP": 1, "POLLING": 2, "DISABLED": 3, "LINK_UP": 5, "LINK_ERROR_RECOVERY": 6}
got = {(s.name, s.labels["device"], s.labels["port"]): s.value
       for f in fams if f.name in GAUGES for s in f.samples}
bad = 0
for l in links:
    for name, table, field in (("rdma_port_state_id", STATE, "state"),
                               ("rdma_port_physical_state_id", PHYS, "physical_state")):
        v = got.get((name, l["ifname"], str(l["port"])))
        if v is None or v != table.get(l.get(field)):
            bad += 1
            print("# %s %s/%s: prom %s, rdma link %s" % (name, l["ifname"], l["port"], v, l.get(field)))
print(("ok" if links and not bad else "not ok") +
      " - rdma_port_state_id and rdma_port_physical_state_id equal rdma link (%d ports, %d differ)" % (len(links), bad))
PYEOF
