#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump -q -j's MAD transactions against what the fixture generator says it wrote
# (tests/fixtures/pcap/MANIFEST.json, "mad": one entry per transaction, from its
# construction): per class and attribute the requests, answered, unanswered, retries, error
# statuses and the latency min/max; each unanswered request (TID, sends).
#   usage: rdmadump_mad.py ROOT [RDMADUMP]
import collections, json, subprocess, sys
root = sys.argv[1]
dump = sys.argv[2] if len(sys.argv) > 2 else root + '/tools/rdmadump/rdmadump'
m = json.load(open(root + '/tests/fixtures/pcap/MANIFEST.json'))
bad = checked = caps = 0
for c in m['captures']:
    if not c.get('mad'):
        continue
    caps += 1
    r = subprocess.run([dump, '-q', '-j', '-r', root + '/tests/fixtures/pcap/' + c['file']],
                       capture_output=True, text=True)
    s = json.loads(r.stdout)['summary'].get('mad', {})
    want = collections.OrderedDict()
    for t in c['mad']:
        k = (t['mgmt_class'], t['attr_id'])
        w = want.setdefault(k, dict(requests=0, answered=0, unanswered=0, retries=0,
                                    error_status=0, lat=[]))
        w['requests'] += 1
        w['retries'] += t['retries']
        if t['answered']:
            w['answered'] += 1
            w['error_status'] += t['status'] != 0
            w['lat'].append(t['latency_ns'])
        else:
            w['unanswered'] += 1
    got = {(x['mgmt_class'], x['attr_id']): x for x in s.get('transactions', [])}
    errs = []
    if list(want) != list(got):
        errs.append('rows: manifest %s, rdmadump %s' % (list(want), list(got)))
    for k, w in want.items():
        g = got.get(k, {})
        for f in ('requests', 'answered', 'unanswered', 'retries', 'error_status'):
            checked += 1
            if g.get(f) != w[f]:
                errs.append('%s %s: manifest %s, rdmadump %s' % (k, f, w[f], g.get(f)))
        if w['lat']:
            checked += 2
            lat = g.get('latency', {})
            if (lat.get('min_ns'), lat.get('max_ns')) != (min(w['lat']), max(w['lat'])):
                errs.append('%s latency: manifest %d..%d, rdmadump %s..%s' % (
                    k, min(w['lat']), max(w['lat']), lat.get('min_ns'), lat.get('max_ns')))
    un = [(t['tid'], 1 + t['retries']) for t in c['mad'] if not t['answered']]
    gun = [(x['tid'], x['sends']) for x in s.get('unanswered', [])]
    checked += 1
    if un != gun:
        errs.append('unanswered: manifest %s, rdmadump %s' % (un, gun))
    if errs:
        bad += 1
        print(c['file'] + ':\n    ' + '\n    '.join(errs))
print('%d captures, %d values compared, %d captures with differences' % (caps, checked, bad))
sys.exit(1 if bad or not caps else 0)
