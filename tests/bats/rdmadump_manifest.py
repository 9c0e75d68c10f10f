#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# rdmadump -q -j against what the fixture generator says it put in each capture
# (tests/fixtures/pcap/MANIFEST.json): counts, opcodes, AETH kinds, CNP/ECN, ICRC, READs,
# CM messages, PAUSE/PFC frames per priority, and per flow the PSN gap / duplicate /
# out-of-order events, the ECN codepoints and the messages (count, min/median/max size).
#   usage: rdmadump_manifest.py ROOT [RDMADUMP]
import json, re, subprocess, sys, collections
root = sys.argv[1]
dump = sys.argv[2] if len(sys.argv) > 2 else root + '/tools/rdmadump/rdmadump'
m = json.load(open(root + '/tests/fixtures/pcap/MANIFEST.json'))
bad = 0
checked = 0
for c in m['captures']:
    f = c['file']
    if f.startswith('bad/') or 'bad' in c:
        continue
    r = subprocess.run([dump, '-q', '-j', '-r', root + '/tests/fixtures/pcap/' + f], capture_output=True, text=True)
    if r.returncode != 0:
        print(f, 'exit', r.returncode, r.stderr.strip()); bad += 1; continue
    s = json.loads(r.stdout)['summary']; t = s['total']
    errs = []
    def eq(what, want, got):
        global checked
        checked += 1
        if want != got: errs.append(f'{what}: manifest {want}, rdmadump {got}')
    eq('frames', c['frames'], t['frames'])
    # frames cut before their UDP header (or ethertype) cannot be told RDMA
    ident = sum(1 for p in c['packets'] if p.get('identifiable', True))
    eq('rdma packets', ident, t['rdma'])
    # PAUSE/PFC frames: totals and, per priority, what the generator wrote (absent: none)
    mc = c.get('mac_control')
    pz = s.get('pause')
    eq('pause object present', mc is not None, pz is not None)
    if mc and pz:
        for k in ('frames', 'pause_frames', 'pfc_frames', 'truncated', 'invalid'):
            eq('pause ' + k, mc[k], pz[k])
        stat = ('frames', 'xoff', 'xon', 'quanta', 'xoff_run_max')
        eq('pause link', {k: mc['link'][k] for k in stat}, {k: pz['link'][k] for k in stat})
        for w, g in zip(mc['priorities'], pz['priorities']):
            eq('pfc priority %d' % w['priority'], {k: w[k] for k in stat + ('priority',)},
               {k: g[k] for k in stat + ('priority',)})
        # per sender, in first-seen order
        eq('pause senders', [x['eth_src'] for x in mc['senders']],
           [x['eth_src'] for x in pz['senders']])
        for ws, gs in zip(mc['senders'], pz['senders']):
            for w, g in zip([ws['link']] + ws['priorities'], [gs['link']] + gs['priorities']):
                eq('sender %s %s' % (ws['eth_src'], w.get('priority', 'link')),
                   {k: w[k] for k in stat}, {k: g[k] for k in stat})
        eq('other frames', c['frames'] - c['rdma_packets'] - mc['frames'], t['other'])
        # the time paused at 100 Gbit/s, per priority and for the link
        r = subprocess.run([dump, '-q', '-j', '--link-speed', '100G', '-r',
                            root + '/tests/fixtures/pcap/' + f], capture_output=True, text=True)
        p100 = json.loads(r.stdout)['summary']['pause']
        eq('paused_ns link', mc['link']['paused_ns_100g'], p100['link']['paused_ns'])
        for w, g in zip(mc['priorities'], p100['priorities']):
            eq('paused_ns priority %d' % w['priority'], w['paused_ns_100g'], g['paused_ns'])
        for ws, gs in zip(mc['senders'], p100['senders']):
            eq('paused_ns sender %s' % ws['eth_src'],
               [w['paused_ns_100g'] for w in [ws['link']] + ws['priorities']],
               [g['paused_ns'] for g in [gs['link']] + gs['priorities']])
    cut = bool(c['truncated_frames'])
    ops = collections.Counter()
    for o in t['opcodes']:
        ops[o['op']] += o['pkts']
    # the manifest spells the IBTA names out (_WITH_IMMEDIATE); rdiag_opcode_name abbreviates
    norm = lambda n: n.replace('_WITH_IMMEDIATE', '_IMM').replace('_WITH_INVALIDATE', '_INV')
    want_ops = {norm(k): v for k, v in c['opcodes'].items()}
    for p in c['packets']:
        if p.get('cut_in') == 'bth' and not p.get('cut_before_bth') and p.get('op'):
            # cut inside the BTH: the manifest counts its opcode, the decoder has no BTH
            want_ops[norm(p['op'])] -= 1
    eq('opcodes', {k: v for k, v in want_ops.items() if v}, dict(ops))
    # rdmadump counts both CNPs (RoCEv2 0x81 and IB CC 0x80)
    eq('cnp', c['opcodes'].get('CNP', 0) + c['opcodes'].get('IB_CNP', 0), t['cnp'])
    eq('ecn_ce', c['ecn_ce'], t['ecn_ce'] if c['fecn'] == 0 else t['ecn_ce'] - c['fecn'])
    eq('becn', c['becn'], t['becn'])
    eq('bad icrc', len(c['icrc_bad_frames']), t['icrc_bad'])
    eq('truncated', sum(1 for p in c['packets'] if p.get('truncated') and p.get('identifiable', True)), t['truncated'])
    if cut:
        # the cut-frame files repeat one packet cut at every length: no PSN story to check
        if errs:
            bad += 1
            print(f + ':'); [print('   ', e) for e in errs]
        continue
    a = c['aeth']
    eq('aeth ack', a['ack'], t['acks'])
    eq('aeth rnr', a['rnr_nak'], t['rnr_naks'])
    eq('aeth nak', a['nak'], t['naks'])
    # every READ request of a reliable transport (the manifest's reads[] lists RC/XRC ones)
    eq('reads', sum(v for k, v in c['opcodes'].items() if k.endswith('RDMA_READ_REQUEST')), t['reads'])
    if c['reads'] and not c['truncated_frames']:
        answered = [r for r in c['reads'] if r.get('first_response_frame')]
        eq('read latencies', len(answered), t['read_latency']['n'])
        if answered:
            # rdmadump measures to the last response packet, the manifest to the first
            lo = min(r['latency_ns'] for r in answered)
            checked_ok = t['read_latency']['min_ns'] >= lo
            eq('read latency >= request->first response', True, checked_ok)
    cm = c.get('cm', [])
    eq('cm msgs', len(cm), t['cm_msgs'])
    eq('cm rej', sum(1 for x in cm if x['msg'] == 'REJ'), t['cm_rej'])
    reqs = [(x['src'], x['local_comm_id']) for x in cm if x['msg'] == 'REQ']
    eq('cm req retries', len(reqs) - len(set(reqs)), t['cm_req_retries'])
    # per flow PSN events
    mine = collections.defaultdict(lambda: [0, 0, 0, 0])
    for fl in s['flows']:
        if fl['src'].startswith('lid'):
            key = f"lid {int(fl['src'].split()[1],16)}>{int(fl['dst'].split()[1],16)} qp 0x{fl['destqp']:06x}"
        else:
            key = f"{fl['src']}>{fl['dst']} qp 0x{fl['destqp']:06x}"
        v = mine[key]
        v[0] += fl['psn_gaps']; v[1] += fl['psn_dup']; v[2] += fl['psn_ooo'] + fl['psn_retx']; v[3] += fl['pkts']
    # READ-response PSNs the builder left out (the request-stream events above do not cover
    # them): a re-read or unexplained one is a gap of the response flow, its resends are
    # duplicates there; one the requester never re-read, in a READ whose LAST came, is not
    # captured
    want_flows = {k: dict(v) for k, v in c.get('flows', {}).items()}
    ncap = [0, 0]
    for rg in c.get('read_response_gaps', []):
        w = want_flows[rg['flow']]
        if rg['kind'] == 'not_captured':
            ncap[0] += 1
            ncap[1] += rg['psns']
        else:
            w['gap_events'] += 1
        w['duplicates'] += rg['resent']
    if 'read_response_gaps' in c:
        eq('not captured gaps, PSNs', ncap, [t['not_captured_gaps'], t['not_captured_psns']])
    for key, want in want_flows.items():
        got = mine.get(key)
        if got is None and key.startswith('lid'):
            # with a GRH rdmadump keys IB flows by GID: match on the destination QP alone
            cands = [v for k, v in mine.items() if k.endswith(key.split(' qp ')[1])]
            got = cands[0] if len(cands) == 1 else None
        if got is None:
            errs.append(f'flow {key} missing (have {sorted(mine)[:4]})'); continue
        eq(f'{key} gaps', want['gap_events'], got[0])
        eq(f'{key} dup', want['duplicates'], got[1])
        eq(f'{key} ooo+retx', want['out_of_order'], got[2])
    # per RoCEv2 flow: ECN codepoints of its packets (CNPs left out: they carry their own
    # class) and, when no PSN event was injected, its messages (FIRST..LAST or ONLY)
    by_flow = collections.defaultdict(list)
    for p in c['packets']:
        by_flow[p.get('flow')].append(p)
    quiet = not any(c['psn'].values())
    keys = collections.Counter(f"{fl['src']}>{fl['dst']} qp 0x{fl['destqp']:06x}" for fl in s['flows'])
    for fl in s['flows']:
        key = f"{fl['src']}>{fl['dst']} qp 0x{fl['destqp']:06x}"
        if fl['encap'] != 'rocev2' or keys[key] > 1:
            continue
        pk = [p for p in by_flow[key] if p['op'] not in ('CNP', 'IB_CNP')]
        want = collections.Counter(p['ecn'] for p in pk)
        eq(f'{key} ecn', [want[e] for e in range(4)],
           [fl['ecn'][k] for k in ('not_ect', 'ect1', 'ect0', 'ce')] if 'ecn' in fl else None)
        if not quiet:
            continue
        sizes, acc = [], {}
        for p in pk:
            m = re.search(r'_(FIRST|MIDDLE|LAST|ONLY)(_|$)', p['op'])
            if not m:
                continue
            kind = 'rsp' if 'READ_RESPONSE' in p['op'] else 'req'
            if m.group(1) == 'ONLY':
                sizes.append(p['payload_len'])
            elif m.group(1) == 'FIRST':
                acc[kind] = p['payload_len']
            elif kind in acc:
                acc[kind] += p['payload_len']
                if m.group(1) == 'LAST':
                    sizes.append(acc.pop(kind))
        sizes.sort()
        want = {'n': len(sizes), 'min': sizes[0], 'median': sizes[(len(sizes) + 1) // 2 - 1],
                'max': sizes[-1]} if sizes else None
        eq(f'{key} messages', want, fl.get('messages'))
    if errs:
        bad += 1
        print(f + ':'); [print('   ', e) for e in errs]
print(f'{checked} values compared, {bad} captures with differences')
sys.exit(1 if bad else 0)
