# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Self-check of the generated fixtures: MANIFEST.json agrees with the files, and the PSN
events each scenario says it injected are the ones its packet list really holds.

    /usr/bin/python3 tests/oracle/check_manifest.py [FIXTURE_DIR]

- every listed file exists, and its record count equals `frames` (read with a tiny pcap /
  pcapng walker, not with the generator);
- every RDMA record's frame number is in range, `truncated_frames` are records with
  caplen < len and every other record is whole;
- per flow, a plain PSN walk over the request packets of `packets` (README.md's definitions;
  a UD sender's packets are walked as one sequence, whatever their destination) gives the `gap_events`, `psn_never_seen`, `duplicates` and `out_of_order` the builder
  recorded while injecting them.  This catches a scenario that injects more (or less) than
  it claims, e.g. a packet built but written out of order by accident.
"""
import json
import os
import struct
import sys

here = os.path.dirname(os.path.abspath(__file__))
fxdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', 'fixtures', 'pcap')
M = 1 << 24
RESPONSES = {0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12}


def records(path):
    """[(caplen, len)] of a pcap (either byte order, usec/nsec) or pcapng file"""
    d = open(path, 'rb').read()
    out = []
    if d[:4] == b'\x0a\x0d\x0d\x0a':
        off = 0
        while off + 12 <= len(d):
            btype, blen = struct.unpack('<II', d[off:off + 8])
            if btype == 6:
                cl, ol = struct.unpack('<II', d[off + 20:off + 28])
                out.append((cl, ol))
            off += blen
        return out
    e = {b'\xd4\xc3\xb2\xa1': '<', b'\x4d\x3c\xb2\xa1': '<', b'\xa1\xb2\xc3\xd4': '>',
         b'\xa1\xb2\x3c\x4d': '>'}[d[:4]]
    off = 24
    while off + 16 <= len(d):
        _, _, cl, ol = struct.unpack(e + 'IIII', d[off:off + 16])
        out.append((cl, ol))
        off += 16 + cl
    return out


def is_request(op):
    t, low = op & 0xE0, op & 0x1F
    return t in (0x00, 0x20, 0x40, 0xA0) and low not in RESPONSES


def walk(pkts):
    ev = {'gap_events': 0, 'psn_never_seen': 0, 'duplicates': 0, 'out_of_order': 0}
    exp, seen, first = None, set(), None
    for p in pkts:
        psn, span = p['psn'], p.get('psn_span', 1)
        if exp is None:
            first = psn
        elif psn == exp:
            pass
        elif 0 < (psn - exp) % M < M // 2:
            ev['gap_events'] += 1
        else:
            ev['duplicates' if psn in seen else 'out_of_order'] += 1
            seen.add(psn)
            continue
        seen.update((psn + i) % M for i in range(span))
        exp = (psn + span) % M
    if exp is not None:
        n = (exp - first) % M
        ev['psn_never_seen'] = sum(1 for i in range(n) if (first + i) % M not in seen)
    return ev


def walk_ud(pkts):
    """walk() over the packets of one UD sender, whatever their destination (a UD QP sends one
    PSN sequence to all): the events by the flow of the packet that shows them, a missing PSN
    by the flow whose packet showed its gap; and the sender's own totals"""
    by_flow, tot = {}, {'gap_events': 0, 'psn_never_seen': 0, 'duplicates': 0,
                        'out_of_order': 0}
    exp, seen, first, opened_by = None, set(), None, {}
    for p in pkts:
        psn, fl = p['psn'], p['flow']
        ev = by_flow.setdefault(fl, dict.fromkeys(tot, 0))
        if exp is None:
            first = psn
        elif 0 < (psn - exp) % M < M // 2:
            ev['gap_events'] += 1
            tot['gap_events'] += 1
            for i in range((psn - exp) % M):
                opened_by[(exp + i) % M] = fl
        elif psn != exp:
            what = 'duplicates' if psn in seen else 'out_of_order'
            ev[what] += 1
            tot[what] += 1
            seen.add(psn)
            continue
        seen.add(psn)
        exp = (psn + 1) % M
    if exp is not None:
        for i in range((exp - first) % M):
            q = (first + i) % M
            if q not in seen:
                by_flow.setdefault(opened_by[q], dict.fromkeys(tot, 0))['psn_never_seen'] += 1
                tot['psn_never_seen'] += 1
    return by_flow, tot, first, (exp - 1) % M if exp is not None else None


def main():
    man = json.load(open(os.path.join(fxdir, 'MANIFEST.json')))
    errs, nfiles, nflows = [], 0, 0
    for c in man['captures']:
        path = os.path.join(fxdir, c['file'])
        if not os.path.exists(path):
            errs.append('%s: missing' % c['file'])
            continue
        nfiles += 1
        if c.get('bad'):
            continue
        recs = records(path)
        if len(recs) != c['frames']:
            errs.append('%s: %d records, manifest says %d' % (c['file'], len(recs), c['frames']))
            continue
        cut = {i + 1 for i, (cl, ol) in enumerate(recs) if cl < ol}
        want_cut = set(c.get('truncated_frames', [])) | \
            set(c.get('mac_control', {}).get('cut_records', []))
        if cut != want_cut:
            errs.append('%s: cut records %s, manifest says %s'
                        % (c['file'], sorted(cut), sorted(want_cut)))
        flows, ud = {}, {}
        for p in c.get('packets', []):
            if not 1 <= p['n'] <= len(recs):
                errs.append('%s: packet %d out of range' % (c['file'], p['n']))
            if p.get('cut_before_bth'):
                continue
            if p['opcode'] & 0xE0 == 0x60 and 'deth' in p:
                # UD: one sequence per sending QP (source, DETH source QP)
                ud.setdefault('%s qp 0x%06x' % (p['flow'].split('>')[0], p['deth']['srcqp']),
                              []).append(p)
            elif is_request(p['opcode']) and p['destqp'] != 1:
                flows.setdefault(p['flow'], []).append(p)
        ud_flows = {}
        for sender, pk in ud.items():
            by_flow, tot, first, last = walk_ud(pk)
            ud_flows.update(by_flow)
            want = c.get('ud_senders', {}).get(sender)
            if want and 'lost_to' in want and sum(want['lost_to'].values()) != tot['psn_never_seen']:
                errs.append('%s: UD sender %s: lost_to sums to %d, %d PSNs never seen'
                            % (c['file'], sender, sum(want['lost_to'].values()),
                               tot['psn_never_seen']))
            if want:
                got = dict(tot, psn_first=first, psn_last=last)
                for k, v in want.items():
                    if k != 'lost_to' and got.get(k) != v:
                        errs.append('%s: UD sender %s: %s: the packets give %s, the builder '
                                    'recorded %s' % (c['file'], sender, k, got.get(k), v))
        for name, want in c.get('flows', {}).items():
            got = ud_flows[name] if name in ud_flows else walk(flows.get(name, []))
            nflows += 1
            for k, v in got.items():
                if want.get(k, 0) != v:
                    errs.append('%s: flow %s: %s: the packets give %d, the builder recorded %d'
                                % (c['file'], name, k, v, want.get(k, 0)))
    for e in errs:
        print(e)
    print('check_manifest: %d files, %d flows checked, %d problems' % (nfiles, nflows, len(errs)))
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
