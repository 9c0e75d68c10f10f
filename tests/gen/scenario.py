# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""scenario: a capture being built plus the expectations its construction implies.

A Capture collects frames (with times) and, for every frame, a record of what was put into it
(opcode, QP, PSN, ICRC good or not, cut or not ...).  Fault injection goes through methods that
both shape the traffic and count what they did (lost PSNs, duplicates, reorders), so the
manifest's expectations come from the construction, never from re-reading the file.
"""
import struct

import rocegen as g

BASE_NS = 1764403200 * 10**9		# 2025-11-29 08:00:00 UTC: fixed, so files are reproducible


class Pkt:
    """one built frame and what it holds"""

    def __init__(self, path, frame, meta):
        self.path, self.frame, self.meta = path, frame, meta


def flow_key(path, destqp):
    if path.encap == 'ib':
        return 'lid %d>%d qp 0x%06x' % (path.slid, path.dlid, destqp)
    if path.encap == 'v1':
        return '%s>%s qp 0x%06x' % (g.ip6_str(path.sgid), g.ip6_str(path.dgid), destqp)
    return '%s>%s qp 0x%06x' % (path.src, path.dst, destqp)


def build(path, opcode, destqp, psn, payload=b'', bad_icrc=False, ecn=None, **f):
    t = g.transport(opcode, destqp, psn, payload, **f)
    frame = path.frame(t, bad_icrc=bad_icrc, ecn=ecn)
    meta = {'opcode': opcode, 'op': g.opcode_name(opcode), 'destqp': destqp,
            'psn': psn & 0xFFFFFF, 'a': f.get('a', 0), 'se': f.get('se', 0),
            'padcnt': (-len(payload)) % 4, 'payload_len': len(payload),
            'icrc_ok': not bad_icrc, 'flow': flow_key(path, destqp)}
    if path.encap in ('v4', 'v6', 'v1'):
        meta['ecn'] = path.ecn if ecn is None else ecn
    for k in ('fecn', 'becn'):
        if f.get(k):
            meta[k] = f[k]
    if 'aeth' in g.headers_for(opcode):
        s = f.get('syndrome', 0)
        meta['aeth'] = {'syndrome': s, 'kind': ['ack', 'rnr_nak', 'reserved', 'nak'][s >> 5 & 3],
                        'value': s & 0x1F, 'msn': f.get('msn', 0)}
    if 'reth' in g.headers_for(opcode):
        meta['reth'] = {'va': '0x%016x' % f.get('va', 0), 'rkey': f.get('rkey', 0),
                        'dmalen': f.get('dmalen', 0)}
    if 'deth' in g.headers_for(opcode):
        meta['deth'] = {'qkey': f.get('qkey', 0), 'srcqp': f.get('srcqp', 0)}
    return Pkt(path, frame, meta)


class Capture:
    def __init__(self, name, link, fmt='pcap', desc='', tshark=True, step_us=10):
        self.name, self.fmt, self.desc, self.tshark = name, fmt, desc, tshark
        self.linktype = g.LINKTYPE[link] if isinstance(link, str) else link
        self.frames = []			# (ts_ns, bytes, orig_len, meta or None)
        self.t = BASE_NS
        self.step = step_us * 1000
        self.events = {}			# flow -> counters of injected PSN events
        self.cm = []
        self.reads = []			# (request frame, first response frame, latency ns)
        self.notes = []
        self.rsp_gaps = []			# READ-response PSNs left out (see manifest())

    # -- frames ------------------------------------------------------------------------
    def put(self, *pkts, dt_us=None, caplen=None):
        for p in pkts:
            if isinstance(p, (list, tuple)):
                self.put(*p, dt_us=dt_us, caplen=caplen)
                continue
            self.t += self.step if dt_us is None else int(dt_us * 1000)
            meta = dict(p.meta) if p.meta else None
            data = p.frame if caplen is None else p.frame[:caplen]
            if meta is not None and caplen is not None and caplen < len(p.frame):
                meta['truncated'] = True
                meta['caplen'] = caplen
            self.frames.append((self.t, data, len(p.frame), meta))
        return len(self.frames)			# frame number of the last one

    def raw(self, frame, meta=None, dt_us=None):
        """a non-RDMA frame (meta None) or one with explicit meta"""
        self.t += self.step if dt_us is None else int(dt_us * 1000)
        self.frames.append((self.t, frame, len(frame), meta))
        return len(self.frames)

    def ev(self, flow, what, n=1):
        e = self.events.setdefault(flow, {'gap_events': 0, 'psn_never_seen': 0,
                                          'duplicates': 0, 'out_of_order': 0})
        e[what] += n

    # -- fault injection (counted) ------------------------------------------------------
    def lose(self, pkts):
        """do not write these request packets: one gap event at the next packet written"""
        pkts = list(pkts)
        if pkts:
            self.ev(pkts[0].meta['flow'], 'gap_events')
            self.ev(pkts[0].meta['flow'], 'psn_never_seen', len(pkts))

    def dup(self, p, dt_us=None):
        """retransmit an already written packet (same bytes): a duplicate PSN"""
        self.ev(p.meta['flow'], 'duplicates')
        return self.put(p, dt_us=dt_us)

    def swap(self, a, b):
        """write b then a (a's PSN is lower): one gap event at b, one out-of-order at a"""
        self.ev(a.meta['flow'], 'gap_events')
        self.ev(a.meta['flow'], 'out_of_order')
        self.put(b)
        return self.put(a)

    # -- output ------------------------------------------------------------------------
    def write(self, path):
        with open(path, 'wb') as f:
            w = g.Writer(f, self.linktype, self.fmt)
            for ts, data, orig, _ in self.frames:
                w.write(ts, data, orig_len=orig)

    def manifest(self):
        roce = [(i + 1, m) for i, (_, _, _, m) in enumerate(self.frames) if m is not None]
        ops, aeth, naks, rnr = {}, {'ack': 0, 'rnr_nak': 0, 'nak': 0}, {}, []
        for _, m in roce:
            if m.get('truncated') and m.get('cut_before_bth'):
                continue
            ops[m['op']] = ops.get(m['op'], 0) + 1
            a = m.get('aeth')
            if a and (not m.get('truncated') or 'aeth' in m.get('complete', [])):
                aeth[a['kind']] = aeth.get(a['kind'], 0) + 1
                if a['kind'] == 'nak':
                    naks[str(a['value'])] = naks.get(str(a['value']), 0) + 1
                if a['kind'] == 'rnr_nak':
                    rnr.append(a['value'])
        flows = {}
        for _, m in roce:
            if 'flow' in m and not m.get('cut_before_bth'):
                fl = flows.setdefault(m['flow'], {'packets': 0, 'gap_events': 0,
                                                  'psn_never_seen': 0, 'duplicates': 0,
                                                  'out_of_order': 0})
                fl['packets'] += 1
        for k, e in self.events.items():
            flows[k].update(e)
        tot = {'gap_events': 0, 'psn_never_seen': 0, 'duplicates': 0, 'out_of_order': 0}
        for e in self.events.values():
            for k in tot:
                tot[k] += e[k]
        extra = {'mac_control': self.macc.manifest()} if getattr(self, 'macc', None) else {}
        if self.rsp_gaps:
            extra['read_response_gaps'] = self.rsp_gaps
        for k in ('ud_senders', 'lost_sends'):
            if getattr(self, k, None):
                extra[k] = getattr(self, k)
        return dict(extra, **{
            'file': self.name, 'format': self.fmt, 'linktype': self.linktype,
            'description': self.desc, 'tshark_decodes': self.tshark,
            'frames': len(self.frames), 'rdma_packets': len(roce),
            'opcodes': ops, 'aeth': aeth, 'nak_codes': naks, 'rnr_timer_codes': rnr,
            'ack_requested': sum(1 for _, m in roce if m.get('a')),
            'read_requests': sum(1 for _, m in roce if m.get('opcode') in (0x0C, 0x4C, 0xAC) and
                                 not m.get('cut_before_bth')),
            'cnp': sum(1 for _, m in roce if m.get('opcode') in (g.CNP, g.IB_CNP)),
            'ecn_ce': sum(1 for _, m in roce if m.get('ecn') == 3),
            'becn': sum(1 for _, m in roce if m.get('becn')),
            'fecn': sum(1 for _, m in roce if m.get('fecn')),
            'icrc_bad_frames': [n for n, m in roce if not m.get('icrc_ok', True)],
            'truncated_frames': [n for n, m in roce if m.get('truncated')],
            'psn': tot, 'flows': flows, 'cm': self.cm,
            'reads': [{'request_frame': a, 'first_response_frame': b, 'latency_ns': c}
                      for a, b, c in self.reads],
            'notes': self.notes,
            'packets': [dict(n=n, **m) for n, m in roce],
        })


class RC:
    """One RC (or UC/XRC) connection between requester path `p` and responder (p.reverse()).
    Builds packets (not written): the scenario decides what goes into the capture."""

    def __init__(self, path, qp_req, qp_resp, psn=0, mtu=256, transport=g.RC, pkey=0xFFFF,
                 xrcsrq=None, rpath=None):
        self.p, self.r = path, rpath or path.reverse()
        self.qreq, self.qresp = qp_req, qp_resp
        self.psn, self.msn, self.mtu, self.tr = psn & 0xFFFFFF, 0, mtu, transport
        self.pkey, self.xrcsrq = pkey, xrcsrq
        self.va = 0x00007f0000000000 | (qp_req << 12)
        self.rkey = 0x1000 | (qp_resp & 0xFFF)

    def _next(self, n=1):
        p = self.psn
        self.psn = (self.psn + n) & 0xFFFFFF
        return p

    def _req(self, low, payload=b'', **f):
        f.setdefault('pkey', self.pkey)
        if self.xrcsrq is not None:
            f.setdefault('xrcsrq', self.xrcsrq)
        return build(self.p, self.tr | low, self.qresp, self._next(), payload, **f)

    @staticmethod
    def data(n, seed=0):
        return bytes((seed + i * 7) & 0xFF for i in range(n))

    def _segments(self, n):
        segs = []
        while True:
            segs.append(min(n, self.mtu))
            n -= segs[-1]
            if n <= 0:
                return segs

    def send(self, nbytes, imm=None, inv=None, a=1, se=0, ecn=None):
        segs, out = self._segments(nbytes), []
        a = 0 if self.tr == g.UC else a		# UC is never acknowledged
        for i, s in enumerate(segs):
            last, only = i == len(segs) - 1, len(segs) == 1
            if only:
                low = 0x05 if imm is not None else 0x17 if inv is not None else 0x04
            elif last:
                low = 0x03 if imm is not None else 0x16 if inv is not None else 0x02
            else:
                low = 0x00 if i == 0 else 0x01
            f = {'a': a if last else 0, 'se': se if last else 0}
            if last and imm is not None:
                f['immdt'] = imm
            if last and inv is not None:
                f['ieth'] = inv
            out.append(self._req(low, self.data(s, i), ecn=ecn, **f))
        return out

    def write(self, nbytes, imm=None, a=1, ecn=None):
        segs, out = self._segments(nbytes), []
        a = 0 if self.tr == g.UC else a
        for i, s in enumerate(segs):
            last, only = i == len(segs) - 1, len(segs) == 1
            if only:
                low = 0x0B if imm is not None else 0x0A
            elif last:
                low = 0x09 if imm is not None else 0x08
            else:
                low = 0x06 if i == 0 else 0x07
            f = {'a': a if last else 0}
            if low in (0x06, 0x0A, 0x0B):
                f.update(va=self.va, rkey=self.rkey, dmalen=nbytes)
            if last and imm is not None:
                f['immdt'] = imm
            out.append(self._req(low, self.data(s, i + 3), ecn=ecn, **f))
        return out

    def read(self, nbytes):
        """returns (request, [responses]); the request consumes one PSN per response"""
        segs = self._segments(nbytes)
        req = build(self.p, self.tr | 0x0C, self.qresp, self.psn, pkey=self.pkey,
                    va=self.va, rkey=self.rkey, dmalen=nbytes,
                    **({'xrcsrq': self.xrcsrq} if self.xrcsrq is not None else {}))
        req.meta['psn_span'] = len(segs)		# PSNs the request consumes
        first = self._next(len(segs))
        self.msn += 1
        resp = []
        for i, s in enumerate(segs):
            if len(segs) == 1:
                low = 0x10
            elif i == 0:
                low = 0x0D
            elif i == len(segs) - 1:
                low = 0x0F
            else:
                low = 0x0E
            f = {}
            if low != 0x0E:
                f = {'syndrome': 0x1F, 'msn': self.msn}
            resp.append(build(self.r, self.tr | low, self.qreq, (first + i) & 0xFFFFFF,
                              self.data(s, i + 9), pkey=self.pkey, **f))
        return req, resp

    def atomic(self, kind='cas', swap=1, compare=0, orig=0):
        low = 0x13 if kind == 'cas' else 0x14
        f = {'va': self.va + 8, 'rkey': self.rkey, 'swap': swap, 'compare': compare}
        if self.xrcsrq is not None:
            f['xrcsrq'] = self.xrcsrq
        req = build(self.p, self.tr | low, self.qresp, self.psn, pkey=self.pkey, **f)
        psn = self._next()
        self.msn += 1
        ack = build(self.r, self.tr | 0x12, self.qreq, psn, pkey=self.pkey, syndrome=0x1F,
                    msn=self.msn, orig=orig)
        return req, ack

    def flush(self, sel=1, plt=1, nbytes=4096):
        return self._req(0x1C, feth=(sel << 4) | plt, va=self.va, rkey=self.rkey, dmalen=nbytes,
                         a=1)

    def atomic_write(self, value=0x1122334455667788):
        return self._req(0x1D, struct.pack('!Q', value), va=self.va + 16, rkey=self.rkey,
                         dmalen=8, a=1)

    def ack(self, psn=None, credits=31, msn=None, kind='ack', ecn=None, **f):
        """ACK / NAK / RNR NAK for `psn` (default: the last PSN sent)"""
        if kind == 'ack':
            self.msn += 1
        psn = (self.psn - 1) & 0xFFFFFF if psn is None else psn
        syn = g.aeth_syndrome(kind, credits)
        return build(self.r, self.tr | 0x11, self.qreq, psn, pkey=self.pkey, syndrome=syn,
                     msn=self.msn if msn is None else msn, ecn=ecn, **f)

    def nak(self, psn, code):
        return self.ack(psn, credits=code, kind='nak')

    def rnr(self, psn, timer):
        return self.ack(psn, credits=timer, kind='rnr_nak')
