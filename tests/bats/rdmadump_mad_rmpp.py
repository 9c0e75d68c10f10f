#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump -j's RMPP reassembly against what the fixture generator says it wrote
# (tests/fixtures/pcap/MANIFEST.json, per packet: "rmpp_done" on the segment that completes a
# transfer with every record's DLID, SLID and SL; "rmpp_missing" on a last segment whose
# transfer lacks one; "rmpp_resent" on a segment sent again).  Every other packet must carry
# none of these.  Prints the number of packets compared and one line per difference.
#   usage: rdmadump_mad_rmpp.py ROOT [RDMADUMP]
import json, subprocess, sys
root = sys.argv[1]
dump = sys.argv[2] if len(sys.argv) > 2 else root + '/tools/rdmadump/rdmadump'
m = json.load(open(root + '/tests/fixtures/pcap/MANIFEST.json'))
bad = checked = 0
for c in m['captures']:
    if c['file'] != 'mad_rmpp.pcap':
        continue
    r = subprocess.run([dump, '-j', '-r', root + '/tests/fixtures/pcap/' + c['file']],
                       capture_output=True, text=True, check=True)
    got = [json.loads(line) for line in r.stdout.splitlines()]
    for want, pkt in zip(c['packets'], got):
        checked += 1
        a = pkt.get('analysis', {})
        ra = pkt.get('mad', {}).get('rmpp_reassembled')
        w = want.get('rmpp_done')
        if w:
            recs = [{'dlid': x['dlid'], 'slid': x['slid'], 'sl': x['sl']}
                    for x in (ra or {}).get('sa_path_record', [])]
            g = ra and {'segments': ra['segments'], 'length': ra['length'], 'records': recs}
            if ra and ra.get('records') != len(recs):
                g = dict(g, count=ra.get('records'))
            if g != w:
                bad += 1
                print('frame %d: reassembled %s, want %s' % (want['n'], g, w))
        elif ra:
            bad += 1
            print('frame %d: reassembled %s, want nothing' % (want['n'], ra))
        w = want.get('rmpp_missing')
        g = ({'seg': a['rmpp_missing_seg'], 'of': a['rmpp_segments']}
             if 'rmpp_missing_seg' in a else None)
        if g != w:
            bad += 1
            print('frame %d: missing %s, want %s' % (want['n'], g, w))
        if bool(a.get('rmpp_resent')) != bool(want.get('rmpp_resent')):
            bad += 1
            print('frame %d: resent %s, want %s' % (want['n'], a.get('rmpp_resent'),
                                                    want.get('rmpp_resent')))
print('%d packets compared, %d differences' % (checked, bad))
sys.exit(1 if bad or not checked else 0)
