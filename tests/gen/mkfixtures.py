#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Write the generated fixture captures and their manifest.

    tests/gen/mkfixtures.py [OUTDIR]        (default: tests/fixtures/pcap next to this tree)

Deterministic: the same generator gives byte-identical files (tests/bats/oracle-gen.bats checks
that the committed fixtures are what this script writes).  Every expectation in MANIFEST.json
comes from how the scenario below was built; see tests/fixtures/pcap/README.md for the meaning
of each key.
"""
import json
import os
import random
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocegen as g					# noqa: E402
from scenario import BASE_NS, Capture, RC, build, Pkt	# noqa: E402
from madfixtures import fx_mad				# noqa: E402

A_IP, B_IP = '192.0.2.1', '192.0.2.2'
A6, B6 = '2001:db8::1', '2001:db8::2'
QA, QB = 0x000011, 0x000012				# requester and responder QPNs


def v4(**kw):
    kw.setdefault('src', A_IP)
    kw.setdefault('dst', B_IP)
    return g.Path('v4', **kw)


def put_read(cap, c, nbytes, lat_us=25):
    req, resp = c.read(nbytes)
    rq = cap.put(req)
    first = cap.put(resp[0], dt_us=lat_us)
    cap.put(resp[1:])
    cap.reads.append((rq, first, lat_us * 1000))
    return rq


def rc_all_ops(cap, path, qa=QA, qb=QB, psn=0x100, mtu=256):
    """every RC opcode in a realistic exchange"""
    c = RC(path, qa, qb, psn=psn, mtu=mtu)
    cap.put(c.send(700))                          # FIRST MIDDLE LAST (pad 0)
    cap.put(c.ack())
    cap.put(c.send(13, a=1, se=1))                # ONLY, pad 3
    cap.put(c.ack(credits=5))
    cap.put(c.send(300, imm=0xCAFEBABE))          # FIRST, LAST_WITH_IMMEDIATE
    cap.put(c.send(6, imm=0x01020304))            # ONLY_WITH_IMMEDIATE, pad 2
    cap.put(c.ack())
    cap.put(c.send(257, inv=0x00ABCDEF))          # FIRST, LAST_WITH_INVALIDATE
    cap.put(c.send(4, inv=0x00123456))            # ONLY_WITH_INVALIDATE
    cap.put(c.ack())
    cap.put(c.write(600))                         # WRITE FIRST MIDDLE LAST
    cap.put(c.write(99))                          # WRITE ONLY, pad 1
    cap.put(c.write(512, imm=0x0000BEEF))         # FIRST, LAST_WITH_IMMEDIATE
    cap.put(c.write(8, imm=0xFFFFFFFF))           # ONLY_WITH_IMMEDIATE
    cap.put(c.ack())
    put_read(cap, c, 700)                         # READ REQ + RESP FIRST MIDDLE LAST
    put_read(cap, c, 33, lat_us=40)               # READ REQ + RESP ONLY, pad 3
    req, ack = c.atomic('cas', swap=0x1111222233334444, compare=0x5555666677778888,
                        orig=0x5555666677778888)
    cap.put(req)
    cap.put(ack)
    req, ack = c.atomic('fadd', swap=1, orig=41)
    cap.put(req)
    cap.put(ack)
    cap.put(c.flush())
    cap.put(c.ack())
    cap.put(c.atomic_write())
    cap.put(c.ack())
    return c


# ------------------------------------------------------------------------------------------
def fx_rc_ops(fmt='pcap', name='rc_ops.pcap'):
    cap = Capture(name, 'eth', fmt, 'RoCEv2/IPv4: every RC opcode (SEND/WRITE multi-packet '
                  'with and without immediate/invalidate, READ multi-packet, atomics + '
                  'AtomicAck, FLUSH with FETH, ATOMIC_WRITE), ACKs with credits, pad counts '
                  '0-3; no errors')
    rc_all_ops(cap, v4())
    return cap


def fx_ipopts():
    cap = Capture('rc_ipv4_options.pcap', 'eth', desc='RoCEv2/IPv4 with IP options '
                  '(Router Alert: IHL 6; Router Alert + NOPs + timestamp: IHL 9), ECN/DSCP '
                  'variants; ICRCs cover the options')
    ra = b'\x94\x04\x00\x00'
    ts = b'\x44\x0c\x05\x00' + b'\x00' * 8			# timestamp option, 2 empty slots
    p1 = v4(ip_opts=ra, dscp=0, ecn=0, ttl=1)
    c = RC(p1, QA, QB, psn=0x10)
    cap.put(c.send(40))
    cap.put(c.ack())
    p2 = v4(ip_opts=ra + b'\x01\x01\x01\x00' + ts, dscp=46, ecn=1, ttl=255, udp_csum=True)
    c2 = RC(p2, 0x21, 0x22, psn=0x20)
    cap.put(c2.write(300))
    put_read(cap, c2, 100)
    return cap


def fx_ipv6():
    cap = Capture('rc_ipv6.pcap', 'eth', desc='RoCEv2/IPv6 (traffic class, flow label, UDP '
                  'checksum set): SEND, WRITE, READ, ACK, CNP')
    p = g.Path('v6', src=A6, dst=B6, flow=0xABCDE, dscp=26, ecn=2, ttl=64)
    c = RC(p, QA, QB, psn=0xFFF0, rpath=p.reverse(flow=0x12345))
    cap.put(c.send(600))
    cap.put(c.ack())
    cap.put(c.write(64))
    put_read(cap, c, 300)
    cap.put(build(c.r, g.CNP, QA, 0, b'\0' * 16, becn=1))
    return cap


def fx_vlan():
    caps = []
    for name, tags, desc in (
            ('vlan.pcap', [(0x8100, 100, 3)], '802.1Q tag VID 100 PCP 3'),
            ('qinq.pcap', [(0x88A8, 200, 0), (0x8100, 100, 3)], '802.1ad S-tag 200 + C-tag 100'),
            ('vlan3.pcap', [(0x9100, 300, 1), (0x88A8, 200, 0), (0x8100, 100, 5)],
             'three tags: 0x9100 300, 0x88a8 200, 0x8100 100')):
        cap = Capture(name, 'eth', desc='RoCEv2/IPv4 behind ' + desc)
        p = v4(vlans=tags)
        c = RC(p, QA, QB, psn=0x200)
        cap.put(c.send(300))
        cap.put(c.ack())
        put_read(cap, c, 64)
        caps.append(cap)
    return caps


def fx_links():
    caps = []
    for link, name, desc in (('sll', 'sll.pcap', 'Linux cooked capture v1 (DLT 113)'),
                             ('sll2', 'sll2.pcap', 'Linux cooked capture v2 (DLT 276)'),
                             ('raw12', 'raw12.pcap', 'raw IP, linktype 12'),
                             ('raw14', 'raw14.pcap', 'raw IP, linktype 14'),
                             ('raw', 'raw101.pcap', 'raw IP, LINKTYPE_RAW 101'),
                             ('ipv4', 'ipv4_228.pcap', 'LINKTYPE_IPV4 228'),
                             ('ipv6', 'ipv6_229.pcap', 'LINKTYPE_IPV6 229 (RoCEv2/IPv6)')):
        cap = Capture(name, link, desc='RoCEv2 over ' + desc + ': SEND, ACK, READ')
        if link in ('ipv6',):
            p = g.Path('v6', link=link, src=A6, dst=B6, flow=7)
        elif link == 'raw':
            # LINKTYPE_RAW carries either version: one flow of each
            p = v4(link=link)
        else:
            p = v4(link=link, sll_pkttype=4)
        c = RC(p, QA, QB, psn=0x300)
        cap.put(c.send(300))
        cap.put(c.ack())
        put_read(cap, c, 64)
        if link == 'raw':
            p6 = g.Path('v6', link=link, src=A6, dst=B6)
            c6 = RC(p6, 0x31, 0x32, psn=0x10)
            cap.put(c6.send(20))
            cap.put(c6.ack())
        caps.append(cap)
    return caps


def fx_rocev1():
    cap = Capture('rocev1.pcap', 'eth', desc='RoCEv1: ethertype 0x8915 + GRH (link-local '
                  'GIDs): SEND, WRITE, READ, ACK, UD SEND, CM REQ on QP1')
    sg = bytes.fromhex('fe800000000000000200000000000001')
    dg = bytes.fromhex('fe800000000000000200000000000002')
    p = g.Path('v1', sgid=sg, dgid=dg, dscp=0, ecn=0, flow=0)
    c = RC(p, QA, QB, psn=0x400)
    cap.put(c.send(300))
    cap.put(c.ack())
    cap.put(c.write(20))
    cap.put(c.ack())
    put_read(cap, c, 100)
    cap.put(build(p, 0x64, 0x99, 5, b'udp-like datagram!', qkey=0x11111111, srcqp=0x98))
    return cap


def fx_ib():
    caps = []
    cap = Capture('ib_local.pcap', 'ib', desc='native InfiniBand (DLT 247), LRH without GRH '
                  '(LNH 2): RC SEND/ACK/READ/WRITE, atomics, UD, IB CNP 0x80; ICRC over the LRH '
                  'with VL as 1s; VCRC')
    p = g.Path('ib', slid=0x0011, dlid=0x0022, sl=3, vl=2)
    rc_all_ops(cap, p, psn=0x500)
    cap.put(build(p, 0x64, 0x77, 9, b'ud', qkey=0x22222222, srcqp=0x76))
    cap.put(build(p.reverse(), g.IB_CNP, QA, 0, becn=1))
    caps.append(cap)
    cap = Capture('ib_global.pcap', 'ib', desc='native InfiniBand (DLT 247), LRH + GRH '
                  '(LNH 3): SEND, ACK, READ; ICRC with the LRH as 1s')
    sg = bytes.fromhex('fe80000000000000000211fffe000011')
    dg = bytes.fromhex('fe80000000000000000211fffe000022')
    p = g.Path('ib', slid=0x0011, dlid=0x0022, grh=True, sgid=sg, dgid=dg, dscp=0, ecn=0,
               flow=0x11)
    c = RC(p, QA, QB, psn=0x600)
    cap.put(c.send(300))
    cap.put(c.ack())
    put_read(cap, c, 64)
    caps.append(cap)
    return caps


def fx_uc_ud():
    cap = Capture('uc_ud.pcap', 'eth', desc='UC SEND/WRITE (every UC opcode) and UD SEND '
                  'Only (+ immediate) with DETH')
    c = RC(v4(), 0x41, 0x42, psn=0x700, transport=g.UC)
    cap.put(c.send(600))
    cap.put(c.send(10))
    cap.put(c.send(300, imm=7))
    cap.put(c.send(3, imm=8))
    cap.put(c.write(600))
    cap.put(c.write(12))
    cap.put(c.write(300, imm=9))
    cap.put(c.write(1, imm=10))
    p = v4(sport=50000)
    cap.put(build(p, 0x64, 0x51, 1, b'hello UD', qkey=0x11111111, srcqp=0x50))
    cap.put(build(p.reverse(), 0x64, 0x50, 1, b'hi back', qkey=0x11111111, srcqp=0x51))
    cap.put(build(p, 0x65, 0x51, 2, b'with imm', qkey=0x11111111, srcqp=0x50, immdt=0xABCD))
    return cap


def fx_xrc():
    cap = Capture('xrc.pcap', 'eth', desc='XRC (opcodes 0xA0-0xB7): requests carry XRCETH '
                  '(XRC SRQ number), responses do not')
    c = RC(v4(), 0x61, 0x62, psn=0x800, transport=g.XRC, xrcsrq=0x000ABC)
    cap.put(c.send(600))
    cap.put(c.ack())
    cap.put(c.send(5, imm=1))
    cap.put(c.send(300, inv=0x77))
    cap.put(c.write(300, imm=2))
    cap.put(c.write(9))
    cap.put(c.ack())
    put_read(cap, c, 600)
    req, ack = c.atomic('cas', swap=2, compare=1, orig=1)
    cap.put(req)
    cap.put(ack)
    req, ack = c.atomic('fadd', swap=5, orig=10)
    cap.put(req)
    cap.put(ack)
    return cap


def fx_rd():
    cap = Capture('rd.pcap', 'eth', desc='RD (opcodes 0x40-0x55): RDETH on every packet, '
                  'DETH on requests')
    p, r = v4(), v4().reverse()
    ee, qk = 0x000321, 0x12345678
    q1, q2 = 0x71, 0x72
    seq = [
        (p, 0x40, q2, 1, b'x' * 256, {}), (p, 0x41, q2, 2, b'y' * 256, {}),
        (p, 0x42, q2, 3, b'z' * 10, {'a': 1}),
        (r, 0x51, q1, 3, b'', {'syndrome': 0x1F, 'msn': 1}),
        (p, 0x43, q2, 4, b'imm!', {'immdt': 5}), (p, 0x44, q2, 5, b'only', {}),
        (p, 0x45, q2, 6, b'oi', {'immdt': 6}),
        (p, 0x46, q2, 7, b'w' * 256, {'va': 0x1000, 'rkey': 0x55, 'dmalen': 300}),
        (p, 0x47, q2, 8, b'w' * 256, {}), (p, 0x48, q2, 9, b'w' * 44, {}),
        (p, 0x49, q2, 10, b'w' * 4, {'immdt': 7}),
        (p, 0x4A, q2, 11, b'w' * 7, {'va': 0x2000, 'rkey': 0x55, 'dmalen': 7}),
        (p, 0x4B, q2, 12, b'w' * 8, {'va': 0x3000, 'rkey': 0x55, 'dmalen': 8, 'immdt': 8}),
        (p, 0x4C, q2, 13, b'', {'va': 0x4000, 'rkey': 0x55, 'dmalen': 600, 'span': 3}),
        (r, 0x4D, q1, 13, b'r' * 256, {'syndrome': 0x1F, 'msn': 2}),
        (r, 0x4E, q1, 14, b'r' * 256, {}),
        (r, 0x4F, q1, 15, b'r' * 88, {'syndrome': 0x1F, 'msn': 2}),
        (p, 0x4C, q2, 16, b'', {'va': 0x5000, 'rkey': 0x55, 'dmalen': 16}),
        (r, 0x50, q1, 16, b'r' * 16, {'syndrome': 0x1F, 'msn': 3}),
        (p, 0x53, q2, 17, b'', {'va': 0x6000, 'rkey': 0x55, 'swap': 9, 'compare': 8}),
        (r, 0x52, q1, 17, b'', {'syndrome': 0x1F, 'msn': 4, 'orig': 8}),
        (p, 0x54, q2, 18, b'', {'va': 0x6008, 'rkey': 0x55, 'swap': 1}),
        (r, 0x52, q1, 18, b'', {'syndrome': 0x1F, 'msn': 5, 'orig': 100}),
        (p, 0x55, q2, 19, b'', {}),
        (r, 0x51, q1, 19, b'', {'syndrome': 0x1F, 'msn': 6}),
    ]
    reqs = {}
    for path, op, dq, psn, pl, f in seq:
        f = dict(f, eecnxt=ee)
        span = f.pop('span', 1)			# a READ request: one PSN per response
        if path is p:
            f.update(qkey=qk, srcqp=q1)
        pkt = build(path, op, dq, psn, pl, **f)
        if span > 1:
            pkt.meta['psn_span'] = span
        n = cap.put(pkt)
        if op == 0x4C:
            reqs[psn] = n
        elif op in (0x4D, 0x50) and psn in reqs:		# first READ response
            cap.reads.append((reqs[psn], n, cap.frames[n - 1][0] - cap.frames[reqs[psn] - 1][0]))
    return cap


def fx_cnp_ecn():
    cap = Capture('cnp_ecn.pcap', 'eth', desc='DCQCN: a WRITE flow whose packets 6-15 carry '
                  'IP ECN CE (3); the responder answers with RoCEv2 CNPs (0x81, BECN set) to '
                  'the requester QP, one per two CE marks; a second flow stays clean')
    p = v4(ecn=2)
    c = RC(p, QA, QB, psn=0x900)
    cnp_path = p.reverse(dscp=48, ecn=0, sport=0xC000)
    ce_seen = 0
    for i in range(20):
        ce = 6 <= i + 1 <= 15
        cap.put(c.write(100, a=1 if i == 19 else 0, ecn=3 if ce else None))
        if ce:
            ce_seen += 1
            if ce_seen % 2 == 0:
                cap.put(build(cnp_path, g.CNP, QA, 0, b'\0' * 16, becn=1))
    cap.put(c.ack())
    c2 = RC(v4(src='192.0.2.3', sport=49999), 0x33, 0x34, psn=0)
    cap.put(c2.send(200))
    cap.put(c2.ack())
    cap.notes.append('CE-marked frames come from %s to QP 0x%06x; CNPs go to QP 0x%06x'
                     % (A_IP, QB, QA))
    return cap


def fx_cnp_before_ce():
    cap = Capture('cnp_before_ce.pcap', 'eth', desc='CNPs with and without a CE mark before '
                  'them.  QP pair 1 (192.0.2.1 -> .2, not yet paired by an ACK): a CNP before '
                  'any CE mark, three CE-marked WRITEs, a CNP.  QP pair 2 (192.0.2.3 -> .2, '
                  'paired by an ACK first): a CNP with no CE mark, a CE-marked WRITE, a CNP.  '
                  'Two CNPs answer CE marks, two come with none before them')
    c = RC(v4(ecn=2), QA, QB, psn=0xD00)
    cap.put(c.write(64, a=0))
    cap.put(build(c.r, g.CNP, QA, 0, b'\0' * 16, becn=1))   # no CE yet: marked past the capture
    for _ in range(3):
        cap.put(c.write(64, a=0, ecn=3))
    cap.put(build(c.r, g.CNP, QA, 0, b'\0' * 16, becn=1))   # answers the CE marks
    cap.put(c.write(64))
    cap.put(c.ack())
    c2 = RC(v4(src='192.0.2.3', sport=49999, ecn=2), 0x33, 0x34, psn=0)
    cap.put(c2.write(64))
    cap.put(c2.ack())
    cap.put(build(c2.r, g.CNP, 0x33, 0, b'\0' * 16, becn=1))  # paired, no CE: unmatched
    cap.put(c2.write(64, a=0, ecn=3))
    cap.put(build(c2.r, g.CNP, 0x33, 0, b'\0' * 16, becn=1))  # answers the CE mark
    cap.notes.append('CNPs: frames 2 and 11 come with no CE-marked packet of the flow they '
                     'answer before them; frames 6 and 13 answer CE marks (flows %s > %s qp '
                     '0x%06x and 192.0.2.3 > %s qp 0x000034)' % (A_IP, B_IP, QB, B_IP))
    return cap


def fx_dscp_ecn():
    cap = Capture('dscp_ecn.pcap', 'eth', desc='IP codepoints and messages per flow.  '
                  '192.0.2.1 -> .2 qp 0x12: DSCP 26 ECT(0), messages of 600 (FIRST MIDDLE '
                  'LAST, MTU 256), 100 (ONLY, then resent whole: the same PSN again) and 13 '
                  'bytes, then DSCP 46 and a CE-marked 300-byte message (FIRST LAST); a CNP '
                  'back with DSCP 48 Not-ECT.  192.0.2.3 -> .2 qp 0x34: two 64-byte SENDs '
                  'Not-ECT on a fabric that marks')
    c = RC(v4(dscp=26, ecn=2), QA, QB, psn=0xE00)
    cap.put(c.write(600, a=0))
    only = c.write(100, a=0)
    cap.put(only)
    cap.dup(only[0], dt_us=50)			# resent: not a second message
    cap.put(c.send(13))
    cap.put(c.ack())
    c.p = v4(dscp=46, ecn=2)			# the QP's traffic class moves
    cap.put(c.write(300, ecn=3))
    cnp_path = v4(src=B_IP, dst=A_IP, dscp=48, ecn=0, sport=0xC000)
    cap.put(build(cnp_path, g.CNP, QA, 0, b'\0' * 16, becn=1))
    cap.put(c.ack())
    c2 = RC(v4(src='192.0.2.3', sport=49999, dscp=26, ecn=0), 0x33, 0x34, psn=0)
    cap.put(c2.send(64, a=0))
    cap.put(c2.send(64))
    cap.put(c2.ack())
    cap.notes.append('192.0.2.1 > 192.0.2.2 qp 0x000012: DSCP 26 then 46 (1 change), 4 '
                     'messages (600, 100, 13, 300 bytes: min 13, median 100, max 600), the '
                     'resent 100-byte ONLY is no message; 192.0.2.3 > 192.0.2.2 qp 0x000034: 2 '
                     'Not-ECT data packets, 2 messages of 64 bytes')
    return cap


def fx_msp():
    cap = Capture('msp_reserved.pcap', 'eth', desc='manufacturer-specific opcodes (0xC0, '
                  '0xDF, 0xE0, 0xFF) and reserved ones (RC 0x15, RC 0x18, UC 0x2C, UD 0x60, '
                  '0x82): decoded as BTH + opaque payload, ICRC still checked')
    p = v4()
    for i, op in enumerate((0xC0, 0xDF, 0xE0, 0xFF, 0x15, 0x18, 0x2C, 0x60, 0x82)):
        cap.put(build(p, op, QB, 0xA00 + i, bytes(range(i, i + 12)), hdrs=[]))
    return cap


def fx_aeth():
    cap = Capture('aeth_naks.pcap', 'eth', desc='AETH syndromes: ACKs with credit counts 0, '
                  '5, 30, 31; NAKs with codes 0-4 (PSN sequence error, invalid request, remote '
                  'access, remote operational, invalid RD request); RNR NAKs with timer codes '
                  '0, 1, 14, 18, 31')
    c = RC(v4(), QA, QB, psn=0xB00)
    for cr in (0, 5, 30, 31):
        cap.put(c.send(16))
        cap.put(c.ack(credits=cr))
    for code in range(5):
        pk = c.send(16)
        cap.put(pk)
        cap.put(c.nak(pk[-1].meta['psn'], code))
    for timer in (0, 1, 14, 18, 31):
        pk = c.send(16)
        cap.put(pk)
        cap.put(c.rnr(pk[-1].meta['psn'], timer))
    return cap


def fx_aeth_credits():
    cap = Capture('aeth_credits.pcap', 'eth', desc='AETH credit field: one SEND ONLY and its '
                  'ACK per credit code 0-31 in order (code n on the n+1-th ACK); 31 is '
                  '"invalid", no end-to-end flow control, what rdma_rxe always sends')
    c = RC(v4(), QA, QB, psn=0xC00)
    for code in range(32):
        cap.put(c.send(8))
        cap.put(c.ack(credits=code))
    return cap


def fx_psn():
    cap = Capture('psn_events.pcap', 'eth', desc='PSN events on four QPs: gaps (lost '
                  'packets, never retransmitted), duplicates (a packet sent twice), '
                  'out-of-order (two packets swapped), and one clean flow')
    # QP 0x81: 20 single-packet WRITEs, PSN 0x1000.., lose 3 at one place and 1 at another
    c = RC(v4(sport=50001), 0x80, 0x81, psn=0x1000)
    pk = [c.write(32, a=0)[0] for _ in range(20)]
    cap.put(pk[0:5])
    cap.lose(pk[5:8])
    cap.put(pk[8:14])
    cap.lose(pk[14:15])
    cap.put(pk[15:20])
    # QP 0x83: duplicates: packets 3 and 9 each sent again later
    c = RC(v4(sport=50002), 0x82, 0x83, psn=0x2000)
    pk = [c.write(32, a=0)[0] for _ in range(12)]
    cap.put(pk[0:4])
    cap.dup(pk[3])
    cap.put(pk[4:10])
    cap.dup(pk[9])
    cap.dup(pk[9])
    cap.put(pk[10:12])
    # QP 0x85: out-of-order: (4,5) and (8,9) swapped
    c = RC(v4(sport=50003), 0x84, 0x85, psn=0x3000)
    pk = [c.write(32, a=0)[0] for _ in range(12)]
    cap.put(pk[0:4])
    cap.swap(pk[4], pk[5])
    cap.put(pk[6:8])
    cap.swap(pk[8], pk[9])
    cap.put(pk[10:12])
    # QP 0x87: clean
    c = RC(v4(sport=50004), 0x86, 0x87, psn=0x4000)
    cap.put(c.send(1000))
    cap.put(c.ack())
    return cap


def fx_wrap():
    cap = Capture('psn_wrap.pcap', 'eth', desc='PSN wrap at 2^24: a clean flow across '
                  '0xFFFFFF->0 (no event), one that loses 0x000000-0x000001 at the wrap, one '
                  'with a duplicate of 0xFFFFFF after the wrap, a multi-packet READ whose '
                  'responses wrap')
    c = RC(v4(sport=50011), 0x90, 0x91, psn=0xFFFFFC)
    cap.put([c.write(16, a=0)[0] for _ in range(8)])
    c = RC(v4(sport=50012), 0x92, 0x93, psn=0xFFFFFE)
    pk = [c.write(16, a=0)[0] for _ in range(6)]
    cap.put(pk[0:2])
    cap.lose(pk[2:4])
    cap.put(pk[4:6])
    c = RC(v4(sport=50013), 0x94, 0x95, psn=0xFFFFFE)
    pk = [c.write(16, a=0)[0] for _ in range(4)]
    cap.put(pk[0:3])
    cap.dup(pk[1])
    cap.put(pk[3])
    c = RC(v4(sport=50014), 0x96, 0x97, psn=0xFFFFFE)
    put_read(cap, c, 1000)				# request 0xFFFFFE, responses ...FE ..FF 0 1
    cap.put(c.write(16))
    cap.put(c.ack())
    return cap


def fx_gobackn():
    cap = Capture('go_back_n.pcap', 'eth', desc='a lost packet and its recovery: WRITEs '
                  'PSN 0xC00-0xC09, 0xC03 lost on the wire, the responder NAKs (PSN sequence '
                  'error, PSN 0xC03), the requester goes back and resends 0xC03-0xC09, then '
                  'an ACK; then an RNR NAK (timer 14 = 1.28 ms) and the retried SEND')
    c = RC(v4(), QA, QB, psn=0xC00)
    pk = [c.write(64, a=1 if i == 9 else 0)[0] for i in range(10)]
    fl = pk[0].meta['flow']
    cap.put(pk[0:3])
    cap.put(pk[4:6])				# 0xC04 arrives instead of 0xC03: gap
    cap.ev(fl, 'gap_events')
    cap.put(c.nak(0xC03, 0))
    cap.put(pk[6:10])
    cap.put(pk[3], dt_us=100)			# go back N: 0xC03 late (first time seen)
    cap.ev(fl, 'out_of_order')
    for q in pk[4:10]:				# and again everything after it
        cap.put(q)
        cap.ev(fl, 'duplicates')
    cap.put(c.ack())
    send = c.send(64)
    cap.put(send)
    cap.put(c.rnr(send[0].meta['psn'], 14))
    cap.put(send, dt_us=1280)
    cap.ev(fl, 'duplicates')
    cap.put(c.ack())
    return cap


def fx_gobackn_relost():
    cap = Capture('go_back_n_relost.pcap', 'eth', desc='a resent packet lost again: WRITEs PSN '
                  '0xD00-0xD09, 0xD03 lost on its first send, the responder NAKs it, the '
                  'requester resends 0xD03-0xD09 and 0xD05 of that resend is lost too (the '
                  'resend run skips from 0xD04 to 0xD06), the responder NAKs 0xD05, the '
                  'requester resends 0xD05-0xD09, then an ACK: 2 sends lost, 1 first, 1 resent')
    c = RC(v4(sport=0xC005), QA, QB, psn=0xD00)
    pk = [c.write(64, a=1 if i == 9 else 0)[0] for i in range(10)]
    fl = pk[0].meta['flow']
    cap.put(pk[0:3])
    cap.put(pk[4:6])				# 0xD03 lost: gap at 0xD04
    cap.ev(fl, 'gap_events')
    cap.put(c.nak(0xD03, 0))
    cap.put(pk[6:10])
    cap.put(pk[3], dt_us=100)			# the resend run: 0xD03 (first time seen)
    cap.ev(fl, 'out_of_order')
    cap.put(pk[4])
    cap.ev(fl, 'duplicates')
    for q in pk[6:10]:				# 0xD05 of the resend lost again
        cap.put(q)
        cap.ev(fl, 'duplicates')
    cap.put(c.nak(0xD05, 0))
    for q in pk[5:10]:				# the second resend run
        cap.put(q, dt_us=100 if q is pk[5] else None)
        cap.ev(fl, 'duplicates')
    cap.put(c.ack())
    cap.lost_sends = {'first': 1, 'resent': 1, 'resent_psns': ['0x000d05']}
    return cap


def fx_read_gaps():
    cap = Capture('read_gaps.pcap', 'eth', desc='gaps in READ-response streams, 1024-byte READs '
                  'at MTU 256 (FIRST, MIDDLE, MIDDLE, LAST).  QP 0x000045: the first MIDDLE is '
                  'not in the capture and the requester never re-reads it (not captured).  QP '
                  '0x000047: the first MIDDLE is lost on the wire, the requester re-reads from '
                  'its PSN (READ 0x601, 768 bytes) and the responder answers again (lost in the '
                  'fabric; a 512-byte WRITE first makes the requester\'s MTU known).  '
                  'QP 0x000049: a MIDDLE missing and the capture ends before the '
                  'READ\'s LAST (not explained: stays a gap)')
    # not captured: left out of the file without a loss event (the requester had it)
    c = RC(v4(sport=50021), 0x44, 0x45, psn=0x500)
    req, resp = c.read(1024)
    cap.put(req)
    cap.put(resp[0], dt_us=25)
    cap.put(resp[2:])
    cap.rsp_gaps.append({'flow': resp[0].meta['flow'], 'psn': 0x501, 'psns': 1,
                         'kind': 'not_captured', 'resent': 0})
    cap.put(c.send(64))
    cap.put(c.ack())
    # lost in the fabric: a gap, the rest of the READ, then the re-read and its answer
    c = RC(v4(sport=50022), 0x46, 0x47, psn=0x5FE)
    cap.put(c.write(512))				# FIRST, LAST: the requester's MTU is known
    cap.put(c.ack())
    req, resp = c.read(1024)
    cap.put(req)
    cap.put(resp[0], dt_us=25)
    cap.put(resp[2:])					# resp[1] lost on the wire
    reread = build(c.p, g.RC | 0x0C, c.qresp, 0x601, pkey=c.pkey, va=c.va + 256, rkey=c.rkey,
                   dmalen=768)
    reread.meta['psn_span'] = 3
    cap.put(reread, dt_us=50)
    cap.ev(req.meta['flow'], 'duplicates')		# the request stream goes back to 0x601
    for i, low in enumerate((0x0D, 0x0E, 0x0F)):
        f = {'syndrome': 0x1F, 'msn': c.msn} if low != 0x0E else {}
        cap.put(build(c.r, g.RC | low, c.qreq, 0x601 + i, c.data(256, i + 10), pkey=c.pkey, **f),
                dt_us=25 if i == 0 else None)
    cap.rsp_gaps.append({'flow': resp[0].meta['flow'], 'psn': 0x601, 'psns': 1,
                         'kind': 'fabric', 'resent': 3})
    cap.notes.append('QP 0x000047: frames %d-%d are the re-read of PSN 0x601 and its three '
                     'responses' % (len(cap.frames) - 3, len(cap.frames)))
    # not explained: the READ never ends in the capture
    c = RC(v4(sport=50023), 0x48, 0x49, psn=0x700)
    req, resp = c.read(1024)
    cap.put(req)
    cap.put(resp[0], dt_us=25)
    cap.put(resp[2])
    cap.rsp_gaps.append({'flow': resp[0].meta['flow'], 'psn': 0x701, 'psns': 1,
                         'kind': 'unexplained', 'resent': 0})
    return cap


def fx_bad_icrc():
    cap = Capture('bad_icrc.pcap', 'eth', desc='good RoCEv2 packets and three whose ICRC '
                  'is wrong (frames 3, 6 and 10: a SEND, an ACK, a READ response); '
                  'headers intact, PSNs in order')
    c = RC(v4(), QA, QB, psn=0xD00)

    def bad(pkt):
        return Pkt(pkt.path, pkt.frame[:-4] + bytes(b ^ 0xFF for b in pkt.frame[-4:]),
                   dict(pkt.meta, icrc_ok=False))
    cap.put(c.send(100))
    cap.put(c.ack())
    cap.put(bad(c.send(100)[0]))
    cap.put(c.write(10))
    cap.put(c.ack())
    cap.put(bad(c.ack()))
    put_read(cap, c, 64)
    req, resp = c.read(64)
    rq = cap.put(req)
    cap.put(bad(resp[0]), dt_us=25)
    cap.reads.append((rq, rq + 1, 25000))
    return cap


def fx_truncated():
    """one frame per cut point; orig_len is the full frame, caplen the cut.  Every cut frame
    is a fresh packet in PSN order (a frame cut before its BTH is complete does not use up a
    PSN, since nobody can see it), so the file has no PSN events however it is analysed."""
    cap = Capture('truncated.pcap', 'eth', desc='frames cut (caplen < len) at every header '
                  'boundary and inside every header: Ethernet, 802.1Q, IPv4, UDP, BTH, RETH, '
                  'AETH, AtomicETH, payload, ICRC; also RoCEv1 in the GRH.  Each cut frame '
                  'is its own packet, PSNs in order')
    c = RC(v4(vlans=[(0x8100, 10, 0)]), QA, QB, psn=0xE00)
    # layout: eth 14 + vlan 4 = 18, IPv4 20 -> 38, UDP 8 -> 46, BTH 12 -> 58, then ETHs
    hdrs = [('link', 0, 14), ('vlan', 14, 18), ('ipv4', 18, 38), ('udp', 38, 46),
            ('bth', 46, 58)]
    kinds = [('read', [('reth', 58, 74), ('icrc', 74, 78)]),
             ('ack', [('aeth', 58, 62), ('icrc', 62, 66)]),
             ('atomic', [('atomiceth', 58, 86), ('icrc', 86, 90)]),
             ('send', [('payload', 58, 98), ('icrc', 98, 102)])]

    def make(kind):
        if kind == 'read':
            return c.read(200)[0]		# one PSN: no response tells the MTU
        if kind == 'ack':
            cap.put(c.send(8))			# something to acknowledge
            return c.ack()
        if kind == 'atomic':
            return c.atomic('cas', swap=1, compare=2, orig=2)[0]
        return c.send(40)[0]

    for kind, tail in kinds:
        layout = (hdrs if kind == 'read' else hdrs[3:]) + tail
        cuts = []
        for hname, start, end in layout:
            for cut in sorted({start + (end - start) // 2, end}):
                if cut < tail[-1][2] and not (hname == 'link' and cut == 14):
                    cuts.append((hname, cut, end))
        for hname, cut, end in cuts + [(None, None, None)]:
            saved = (c.psn, c.msn)
            pkt = make(kind)
            assert len(pkt.frame) == tail[-1][2], (pkt.meta['op'], len(pkt.frame))
            if cut is None:
                cap.put(pkt)			# and one whole frame
                continue
            if cut < 58 and kind != 'ack':
                c.psn, c.msn = saved		# an unreadable BTH uses up no PSN
            q = Pkt(pkt.path, pkt.frame, dict(pkt.meta))
            q.meta['cut_in'] = hname if cut < end else 'after_' + hname
            q.meta['complete'] = [h for h, _, e in layout if e <= cut]
            q.meta['cut_before_bth'] = cut < 58
            # identifiable as RoCE: the UDP header (with dport 4791) is complete
            q.meta['identifiable'] = cut >= 46
            cap.put(q, caplen=cut)
    sg = bytes.fromhex('fe800000000000000200000000000001')
    dg = bytes.fromhex('fe800000000000000200000000000002')
    v1 = RC(g.Path('v1', sgid=sg, dgid=dg, dscp=0, ecn=0), QA, QB, psn=0xF00).send(20)[0]
    for cut, where in ((14 + 20, 'grh'), (14 + 40, 'after_grh'), (14 + 46, 'bth')):
        q = Pkt(v1.path, v1.frame, dict(v1.meta, cut_in=where, cut_before_bth=cut < 66,
                                        identifiable=True))
        q.meta['complete'] = ['grh', 'bth'][:(cut >= 54) + (cut >= 66)]
        cap.put(q, caplen=cut)
    cap.put(v1)
    cap.notes.append('cut_in names the header a cut falls inside ("after_X": exactly at its '
                     'end); identifiable = the UDP header (or the 0x8915 ethertype) was '
                     'captured, so the frame can be recognised as RoCE at all')
    return cap


def fx_ib_truncated():
    cap = Capture('ib_truncated.pcap', 'ib', desc='native IB frames cut inside the LRH, '
                  'after it, inside the GRH, inside the BTH, and before the VCRC (each its '
                  'own SEND, PSNs in order)')
    p = g.Path('ib', slid=1, dlid=2)
    pg = g.Path('ib', slid=1, dlid=2, grh=True, sgid=b'\xfe\x80' + b'\0' * 13 + b'\x01',
                dgid=b'\xfe\x80' + b'\0' * 13 + b'\x02')
    c = RC(p, QA, QB, psn=1)			# LRH 8 + BTH 12 + 20 + ICRC 4 + VCRC 2 = 46
    cg = RC(pg, 0x21, 0x22, psn=0x100)		# + GRH 40 = 86
    for conn, cuts in ((c, [(4, 'lrh', True), (8, 'after_lrh', True), (14, 'bth', True),
                            (44, 'vcrc', False), (None, None, False)]),
                       (cg, [(20, 'grh', True), (48, 'after_grh', True), (84, 'vcrc', False),
                             (None, None, False)])):
        for cut, where, before_bth in cuts:
            saved = conn.psn
            pkt = conn.send(20)[0]
            if cut is None:
                cap.put(pkt)
                continue
            if before_bth:
                conn.psn = saved		# an unreadable BTH uses up no PSN
            # a cut LRH cannot be told from noise: identifiable once the LRH is whole
            cap.put(Pkt(pkt.path, pkt.frame, dict(pkt.meta, cut_in=where,
                                                  cut_before_bth=before_bth,
                                                  identifiable=cut >= 8)), caplen=cut)
    return cap


def fx_mixed():
    cap = Capture('mixed_non_roce.pcap', 'eth', desc='RoCEv2 among other traffic: ARP, '
                  'TCP, DNS over UDP, IPv6 ICMP, an IPv4 non-first fragment, RoCE on a '
                  'non-standard UDP port 4792 (not RoCE unless --port 4792)')
    mac_a, mac_b = g.mac('02:00:00:00:00:01'), g.mac('02:00:00:00:00:02')
    arp = b'\xff' * 6 + mac_a + b'\x08\x06' + struct.pack('!HHBBH', 1, 0x0800, 6, 4, 1) + \
        mac_a + g.ip4(A_IP) + b'\0' * 6 + g.ip4(B_IP)
    cap.raw(arp)
    c = RC(v4(), QA, QB, psn=0x10)
    cap.put(c.send(40))

    def ipv4(proto, payload, frag=0x4000):
        h = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), 1, frag, 64, proto, 0,
                        g.ip4(A_IP), g.ip4(B_IP))
        h = h[:10] + struct.pack('!H', g.ip_checksum(h)) + h[12:]
        return mac_b + mac_a + b'\x08\x00' + h + payload
    cap.raw(ipv4(6, struct.pack('!HHIIBBHHH', 40000, 22, 1, 0, 0x50, 0x02, 65535, 0, 0)))
    cap.raw(ipv4(17, struct.pack('!HHHH', 5353, 53, 8 + 12, 0) + b'\x12\x34' + b'\0' * 10))
    # a non-first fragment whose bytes would look like UDP 4791: must not be decoded as RoCE
    cap.raw(ipv4(17, struct.pack('!HHHH', 49152, 4791, 8 + 16, 0) + b'\0' * 16,
                 frag=0x2000 | 0x0010))
    cap.put(c.ack())
    echo = b'\x80\x00\x00\x00\x00\x01\x00\x01'
    ck = g.ip_checksum(g.ip6(A6) + g.ip6(B6) + struct.pack('!IxxxB', len(echo), 58) + echo)
    ip6 = struct.pack('!IHBB', 6 << 28, 8, 58, 255) + g.ip6(A6) + g.ip6(B6) + \
        echo[:2] + struct.pack('!H', ck) + echo[4:]
    cap.raw(mac_b + mac_a + b'\x86\xdd' + ip6)
    p = v4(dport=4792)
    c2 = RC(p, 0x44, 0x45, psn=0x20)
    pk = c2.send(8)[0]
    cap.raw(pk.frame, meta=None)			# RoCE only with --port 4792
    cap.notes.append('frame %d is RoCEv2 on UDP port 4792 (opcode RC_SEND_ONLY, QP 0x000045, '
                     'PSN 0x20): counted only with --port 4792' % len(cap.frames))
    cap.put(c.write(20))
    return cap


# ------------------------------------------------------------------------------------------
# MAC control: IEEE 802.3x PAUSE and 802.1Qbb PFC (ethertype 0x8808)
PAUSE_DA = g.mac('01:80:c2:00:00:01')


class MacControl:
    """writes PAUSE/PFC frames into a capture and keeps, independently of rdmadump, what they
    say per priority (manifest key 'mac_control').  A pause is a state of one sender: XOFF
    runs and paused time are followed per source MAC address.  paused_ns_100g: the time paused
    at 100 Gbit/s (a quantum is 5.12 ns), an XOFF lasting its quanta unless the sender's next
    frame for the priority comes sooner, the last one whole."""
    BPS = 100 * 10**9

    def __init__(self, cap):
        self.cap = cap
        self.state = {}			# (sender, row) -> [run, since, until]
        self.s = {'frames': 0, 'pause_frames': 0, 'pfc_frames': 0, 'truncated': 0,
                  'invalid': 0, 'frame_numbers': [], 'cut_records': [],
                  'malformed_frames': []}
        self.stat = self._rows()
        self.senders = {}		# source MAC (text) -> rows, in first-seen order

    @staticmethod
    def _rows():
        return {k: {'frames': 0, 'xoff': 0, 'xon': 0, 'quanta': 0, 'xoff_run_max': 0,
                    'paused_ns_100g': 0} for k in ['link'] + [str(i) for i in range(8)]}

    def _count(self, src, k, q):
        x = self.state.setdefault((src, k), [0, 0, 0])
        t = self.cap.t
        paused = min(x[2], t) - x[1] if x[2] > x[1] else 0
        # q quanta of 512 bit times, rounded to the ns as rdmadump does
        x[1], x[2] = t, t + (q * 512 * 10**9 + self.BPS // 2) // self.BPS
        x[0] = x[0] + 1 if q else 0
        name = ':'.join('%02x' % b for b in src)
        for st in (self.stat[k], self.senders.setdefault(name, self._rows())[k]):
            st['frames'] += 1
            st['paused_ns_100g'] += paused
            if q == 0:
                st['xon'] += 1
            else:
                st['xoff'] += 1
                st['quanta'] += q
                st['xoff_run_max'] = max(st['xoff_run_max'], x[0])

    def _put(self, body, src, dst, caplen=None, wire_len=None, status='ok'):
        frame = dst + src + b'\x88\x08' + body
        if wire_len is None:
            frame += b'\0' * max(0, 60 - len(frame))	# padded to the 60-byte minimum
        else:
            frame = frame[:wire_len]
        data = frame if caplen is None else frame[:caplen]
        self.cap.t += self.cap.step
        self.cap.frames.append((self.cap.t, data, len(frame), None))
        self.s['frames'] += 1
        self.s['frame_numbers'].append(len(self.cap.frames))
        if status != 'ok':
            self.s[status] += 1
        if len(data) < len(frame):
            self.s['cut_records'].append(len(self.cap.frames))
        elif status == 'invalid':
            self.s['malformed_frames'].append(len(self.cap.frames))

    def pause(self, quanta, src, dst=PAUSE_DA):
        self._put(struct.pack('!HH', 0x0001, quanta), src, dst)
        self.s['pause_frames'] += 1
        self._count(src, 'link', quanta)

    def pfc(self, enable, quanta, src, dst=PAUSE_DA, reserved=0):
        self._put(struct.pack('!HBB8H', 0x0101, reserved, enable, *quanta), src, dst,
                  status='invalid' if reserved else 'ok')
        self.s['pfc_frames'] += 1
        for i in range(8):
            if enable >> i & 1:
                self._count(src, str(i), quanta[i])

    def cut(self, opcode, body, src, caplen=None, wire_len=None, status='truncated'):
        """a frame whose parameters cannot be read: not counted per priority"""
        self._put(struct.pack('!H', opcode) + body, src, PAUSE_DA, caplen=caplen,
                  wire_len=wire_len, status=status)

    def manifest(self):
        for (src, k), x in self.state.items():	# pauses still running at the end: whole
            if x[2] > x[1]:
                self.stat[k]['paused_ns_100g'] += x[2] - x[1]
                self.senders[':'.join('%02x' % b for b in src)][k]['paused_ns_100g'] += \
                    x[2] - x[1]
        self.state = {}
        return dict(self.s, link=self.stat['link'],
                    priorities=[dict(self.stat[str(i)], priority=i) for i in range(8)],
                    senders=[{'eth_src': m, 'link': r['link'],
                              'priorities': [dict(r[str(i)], priority=i) for i in range(8)]}
                             for m, r in self.senders.items()])


def fx_pause():
    cap = Capture('pause_pfc.pcap', 'eth', desc='IEEE 802.3x PAUSE and 802.1Qbb PFC frames '
                  'among RoCEv2 traffic: PFC with every priority-enable vector 0x00..0xff '
                  '(XOFF and XON quanta, times set for disabled priorities too), renewed XOFF '
                  'runs, PAUSE with quanta 65535 and 0, a PFC frame with the reserved octet '
                  'set (invalid), one cut by the snap length after its opcode (truncated), '
                  'one whose wire length ends inside its times (invalid), one cut before its '
                  'opcode and a MAC control frame of another opcode (both other traffic)')
    mc = MacControl(cap)
    sw, host = g.mac('02:00:00:00:00:fe'), g.mac('02:00:00:00:00:01')
    c = RC(v4(), QA, QB, psn=0x40)
    cap.put(c.send(40))
    mc.pause(0xFFFF, sw)
    mc.pause(0, sw)
    rnd = random.Random(8021)
    for e in range(256):
        q = [0 if rnd.random() < 0.3 else rnd.choice((1, 0xFFFF, rnd.randrange(1, 0x10000)))
             for _ in range(8)]
        mc.pfc(e, q, sw if e % 2 else host)
        if e % 64 == 0:
            cap.put(c.send(20))
    for _ in range(5):		# priority 3 kept paused: a run of 5 XOFF, then XON
        mc.pfc(0x08, [0, 0, 0, 0x2000, 0, 0, 0, 0], sw)
    mc.pfc(0x08, [0] * 8, sw)
    mc.pfc(0x10, [0, 0, 0, 0, 0x100, 0, 0, 0], sw, dst=host, reserved=0x80)
    mc.cut(0x0101, struct.pack('!HH', 0x00FF, 0xFFFF) + b'\0' * 14, sw, caplen=20)
    mc.cut(0x0101, struct.pack('!HH', 0x00FF, 0xFFFF), sw, wire_len=20, status='invalid')
    cap.t += cap.step		# cut one byte into the opcode: not known to be PAUSE or PFC
    cap.frames.append((cap.t, (PAUSE_DA + sw + b'\x88\x08\x01\x01')[:15], 60, None))
    mc.s['cut_records'].append(len(cap.frames))
    cap.raw(PAUSE_DA + sw + b'\x88\x08' + struct.pack('!H', 0x0002) + b'\0' * 44)
    cap.put(c.ack())
    cap.notes.append('MAC control: %d PAUSE/PFC frames, per priority in mac_control; the '
                     'frame cut before its opcode and the GATE (opcode 0x0002) frame are '
                     'other traffic' % mc.s['frames'])
    cap.macc = mc
    return cap


# ------------------------------------------------------------------------------------------
# CM (MADs on QP1)
REJ_REASONS = {1: 'NO_QP', 2: 'NO_EEC', 3: 'NO_RESOURCES', 4: 'TIMEOUT', 5: 'UNSUPPORTED',
               6: 'INVALID_COMM_ID', 7: 'INVALID_COMM_INSTANCE', 8: 'INVALID_SERVICE_ID',
               9: 'INVALID_TRANSPORT_TYPE', 10: 'STALE_CONN', 11: 'RDC_NOT_EXIST',
               12: 'INVALID_GID', 13: 'INVALID_LID', 14: 'INVALID_SL',
               15: 'INVALID_TRAFFIC_CLASS', 16: 'INVALID_HOP_LIMIT', 17: 'INVALID_PACKET_RATE',
               18: 'INVALID_ALT_GID', 19: 'INVALID_ALT_LID', 20: 'INVALID_ALT_SL',
               21: 'INVALID_ALT_TRAFFIC_CLASS', 22: 'INVALID_ALT_HOP_LIMIT',
               23: 'INVALID_ALT_PACKET_RATE', 24: 'PORT_CM_REDIRECT', 25: 'PORT_REDIRECT',
               26: 'INVALID_MTU', 27: 'INSUFFICIENT_RESP_RESOURCES', 28: 'CONSUMER_DEFINED',
               29: 'INVALID_RNR_RETRY', 30: 'DUPLICATE_LOCAL_COMM_ID',
               31: 'INVALID_CLASS_VERSION', 32: 'INVALID_FLOW_LABEL',
               33: 'INVALID_ALT_FLOW_LABEL', 35: 'VENDOR_OPTION_NOT_SUPPORTED'}


class CM:
    """CM MADs between a client path and its reverse; each put records the manifest entry"""

    def __init__(self, cap, path):
        self.cap, self.p, self.r = cap, path, path.reverse()
        self.psn = {id(self.p): 0, id(self.r): 0}
        self.tid = 0x0000000012340000

    def _put(self, path, msg, body, entry, tid=None, dt_us=None, method=0x03):
        if tid is None:
            self.tid += 1
            tid = self.tid
        m = g.mad(g.CM_ATTR[msg], tid, body, method=method)
        psn = self.psn[id(path)]
        self.psn[id(path)] = psn + 1
        pkt = build(path, 0x64, 1, psn, m, qkey=g.QP1_QKEY, srcqp=1)
        pkt.meta['mad'] = {'mgmt_class': 7, 'method': method, 'attr_id': g.CM_ATTR[msg],
                           'tid': '0x%016x' % tid}
        n = self.cap.put(pkt, dt_us=dt_us)
        e = dict(frame=n, msg=msg, tid='0x%016x' % tid, src=path.src, dst=path.dst, **entry)
        self.cap.cm.append(e)
        return tid

    def req(self, comm_id, port, qpn, psn, ps='TCP', tid=None, dt_us=None, mtu=3, retry=7,
            rnr=7):
        sid = g.service_id(ps, port)
        priv = g.cma_hdr(self.p.src, self.p.dst, 40000 + (comm_id & 0xFFF))
        body = g.cm_req(comm_id, sid, qpn, psn, mtu=mtu, retry=retry, rnr=rnr,
                        sgid=g.gid_from_ip4(self.p.src), dgid=g.gid_from_ip4(self.p.dst),
                        priv=priv)
        return self._put(self.p, 'REQ', body, {
            'local_comm_id': comm_id, 'service_id': '0x%016x' % sid, 'port_space': ps,
            'port': port, 'local_qpn': qpn, 'starting_psn': psn,
            'path_mtu': {1: 256, 2: 512, 3: 1024, 4: 2048, 5: 4096}[mtu], 'retry_count': retry,
            'rnr_retry_count': rnr, 'ip_src': self.p.src, 'ip_dst': self.p.dst,
            'ip_src_port': 40000 + (comm_id & 0xFFF)}, tid=tid, dt_us=dt_us)

    def rep(self, local, remote, qpn, psn):
        return self._put(self.r, 'REP', g.cm_rep(local, remote, qpn, psn), {
            'local_comm_id': local, 'remote_comm_id': remote, 'local_qpn': qpn,
            'starting_psn': psn})

    def rtu(self, local, remote):
        return self._put(self.p, 'RTU', g.cm_rtu(local, remote),
                         {'local_comm_id': local, 'remote_comm_id': remote})

    def rej(self, local, remote, reason, msg_rej=0, from_server=True, priv=b''):
        path = self.r if from_server else self.p
        return self._put(path, 'REJ', g.cm_rej(local, remote, reason, msg_rej, priv=priv), {
            'local_comm_id': local, 'remote_comm_id': remote, 'reason': reason,
            'reason_name': REJ_REASONS.get(reason), 'msg_rejected': msg_rej})

    def mra(self, local, remote):
        return self._put(self.r, 'MRA', g.cm_mra(local, remote),
                         {'local_comm_id': local, 'remote_comm_id': remote, 'msg_mraed': 0})

    def dreq(self, local, remote, rqpn):
        return self._put(self.p, 'DREQ', g.cm_dreq(local, remote, rqpn),
                         {'local_comm_id': local, 'remote_comm_id': remote, 'remote_qpn': rqpn})

    def drep(self, local, remote):
        return self._put(self.r, 'DREP', g.cm_drep(local, remote),
                         {'local_comm_id': local, 'remote_comm_id': remote})


def fx_cm():
    cap = Capture('cm_handshake.pcap', 'eth', desc='rdma_cm over RoCEv2 (MADs as UD SEND '
                  'Only to QP1): (1) REQ/REP/RTU, traffic, DREQ/DREP; (2) REQ sent 4 times '
                  'with the same comm ID and TID (CM retries, no answer: an rdma_connect '
                  'timeout); (3) REQ -> REJ 8 INVALID_SERVICE_ID; (4) REQ -> MRA -> REP -> RTU; '
                  '(5) REQ -> REJ 28 CONSUMER_DEFINED with private data; (6) SIDR REQ/REP '
                  '(UDP port space)')
    cm = CM(cap, v4(sport=0xC001))
    cm.req(0x1A2B3C4D, 7471, QA, 0x123456)
    cm.rep(0x5E6F7081, 0x1A2B3C4D, QB, 0x654321)
    cm.rtu(0x1A2B3C4D, 0x5E6F7081)
    c = RC(v4(), QA, QB, psn=0x123456)
    cap.put(c.send(100))
    cap.put(c.ack())
    cm.dreq(0x1A2B3C4D, 0x5E6F7081, QB)
    cm.drep(0x5E6F7081, 0x1A2B3C4D)
    tid = cm.req(0x00C0FFEE, 7472, 0x13, 0x000100)
    for _ in range(3):
        cm.req(0x00C0FFEE, 7472, 0x13, 0x000100, tid=tid, dt_us=1000000)
    cm.req(0x0BADCAFE, 7999, 0x14, 0x000200)
    cm.rej(0, 0x0BADCAFE, 8)
    cm.req(0x11111111, 7473, 0x15, 0x000300)
    cm.mra(0x22222222, 0x11111111)
    cm.rep(0x22222222, 0x11111111, 0x16, 0x000400)
    cm.rtu(0x11111111, 0x22222222)
    cm.req(0x33333333, 7474, 0x17, 0x000500)
    cm.rej(0x44444444, 0x33333333, 28, priv=b'app says no')
    sid = g.service_id('UDP', 7475)
    priv = g.cma_hdr(A_IP, B_IP, 40001)
    cm._put(cm.p, 'SIDR_REQ', g.cm_sidr_req(0x55555555, sid, priv=priv), {
        'local_comm_id': 0x55555555, 'service_id': '0x%016x' % sid, 'port_space': 'UDP',
        'port': 7475, 'ip_src': A_IP, 'ip_dst': B_IP})
    cm._put(cm.r, 'SIDR_REP', g.cm_sidr_rep(0x55555555, 0, 0x18, sid, 0x01234567), {
        'local_comm_id': 0x55555555, 'sidr_status': 0, 'local_qpn': 0x18,
        'service_id': '0x%016x' % sid, 'qkey': 0x01234567})
    cap.notes.append('connection (2): the REQ frames share comm ID 0x00c0ffee and one TID, '
                     '1 s apart: 3 CM retries after the first REQ')
    return cap


def fx_gsi_two_peers():
    """one host's GSI QP (QP1) talking CM to two peers: a UD QP sends one PSN sequence to every
    destination, so its holes are judged on that sequence, not per destination"""
    c_ip = '192.0.2.3'
    cap = Capture('gsi_two_peers.pcap', 'eth', desc='rdma_cm over RoCEv2 from one host to two '
                  'peers: the GSI QP1 of 192.0.2.1 sends one PSN sequence 0..12 to both; 4 of '
                  'its packets (REQ retries to each peer, a REQ retry and an RTU to .3) never '
                  'reach the capture: 3 gaps, 4 PSNs missing; REQ/REP/RTU with both, then '
                  'SIDR_REQ/SIDR_REP: .2 answers status 0, .3 status 1 (no listener)')
    paths = {'B': v4(sport=0xC003), 'C': v4(dst=c_ip, sport=0xC004)}
    back = {k: v.reverse() for k, v in paths.items()}
    psn = {'A': 0, 'B': 0, 'C': 0}
    lost = []

    def put(who, to, msg, body, tid, entry, drop=False):
        """a CM MAD from who ('A' to peer to, or a peer to 'A'); drop: sent, not captured"""
        path = paths[to] if who == 'A' else back[who]
        n = psn[who]
        psn[who] = n + 1
        if drop:
            lost.append(n)
            return None
        pkt = build(path, 0x64, 1, n, g.mad(g.CM_ATTR[msg], tid, body),
                    qkey=g.QP1_QKEY, srcqp=1)
        pkt.meta['mad'] = {'mgmt_class': 7, 'method': 3, 'attr_id': g.CM_ATTR[msg],
                           'tid': '0x%016x' % tid}
        if lost and who == 'A':
            # the sender's one sequence shows the hole at its next packet, whatever the
            # destination: the event belongs to that packet's flow
            cap.ev(pkt.meta['flow'], 'gap_events')
            cap.ev(pkt.meta['flow'], 'psn_never_seen', len(lost))
            del lost[:]
        f = cap.put(pkt)
        cap.cm.append(dict(frame=f, msg=msg, tid='0x%016x' % tid, src=path.src, dst=path.dst,
                           **entry))
        return f

    def req(to, comm_id, port, qpn, tid, drop=False):
        sid = g.service_id('TCP', port)
        p = paths[to]
        body = g.cm_req(comm_id, sid, qpn, 0x100, sgid=g.gid_from_ip4(p.src),
                        dgid=g.gid_from_ip4(p.dst), priv=g.cma_hdr(p.src, p.dst, 40100))
        put('A', to, 'REQ', body, tid, {'local_comm_id': comm_id, 'service_id': '0x%016x' % sid,
                                        'port_space': 'TCP', 'port': port, 'local_qpn': qpn,
                                        'starting_psn': 0x100}, drop)

    def sidr(to, req_id, port, status, qpn, tid):
        sid = g.service_id('UDP', port)
        p = paths[to]
        put('A', to, 'SIDR_REQ', g.cm_sidr_req(req_id, sid, priv=g.cma_hdr(p.src, p.dst, 40101)),
            tid, {'local_comm_id': req_id, 'service_id': '0x%016x' % sid, 'port_space': 'UDP',
                  'port': port})
        put(to, None, 'SIDR_REP', g.cm_sidr_rep(req_id, status, qpn, sid, 0x01234567 if not
                                                 status else 0), tid,
            {'local_comm_id': req_id, 'sidr_status': status, 'local_qpn': qpn,
             'service_id': '0x%016x' % sid})

    t1, t2, t3, t4 = (0x0000000056780001 + i for i in range(4))
    req('B', 0x1001, 7481, 0x21, t1)			# psn 0
    req('C', 0x2001, 7482, 0x22, t2)			# psn 1
    req('B', 0x1001, 7481, 0x21, t1, drop=True)		# psn 2: a retry, lost
    req('C', 0x2001, 7482, 0x22, t2, drop=True)		# psn 3: a retry, lost
    req('B', 0x1001, 7481, 0x21, t1)			# psn 4: the gap shows here (2 PSNs)
    req('C', 0x2001, 7482, 0x22, t2)			# psn 5
    put('B', None, 'REP', g.cm_rep(0x5001, 0x1001, 0x31, 0x200), t1,
        {'local_comm_id': 0x5001, 'remote_comm_id': 0x1001, 'local_qpn': 0x31,
         'starting_psn': 0x200})
    put('A', 'B', 'RTU', g.cm_rtu(0x1001, 0x5001), t3,
        {'local_comm_id': 0x1001, 'remote_comm_id': 0x5001})		# psn 6
    req('C', 0x2001, 7482, 0x22, t2, drop=True)		# psn 7: lost
    req('C', 0x2001, 7482, 0x22, t2)			# psn 8: the gap shows here
    put('C', None, 'REP', g.cm_rep(0x6001, 0x2001, 0x32, 0x300), t2,
        {'local_comm_id': 0x6001, 'remote_comm_id': 0x2001, 'local_qpn': 0x32,
         'starting_psn': 0x300})
    put('A', 'C', 'RTU', g.cm_rtu(0x2001, 0x6001), t4,
        {'local_comm_id': 0x2001, 'remote_comm_id': 0x6001}, drop=True)	# psn 9: lost
    put('C', None, 'REP', g.cm_rep(0x6001, 0x2001, 0x32, 0x300), t2,
        {'local_comm_id': 0x6001, 'remote_comm_id': 0x2001, 'local_qpn': 0x32,
         'starting_psn': 0x300})				# C repeats its REP: no RTU came
    put('A', 'C', 'RTU', g.cm_rtu(0x2001, 0x6001), t4,
        {'local_comm_id': 0x2001, 'remote_comm_id': 0x6001})		# psn 10: the gap shows
    sidr('B', 0x3001, 7483, 0, 0x41, t1 + 0x100)		# psn 11
    sidr('C', 0x4001, 7484, 1, 0, t2 + 0x100)		# psn 12: status 1, no listener
    cap.ud_senders = {'192.0.2.1 qp 0x000001': {'psn_first': 0, 'psn_last': 12,
                                                'gap_events': 3, 'psn_never_seen': 4,
                                                'lost_to': {'192.0.2.2': 1, '192.0.2.3': 3}}}
    cap.notes.append('192.0.2.1 QP1 sends PSNs 0..12 to 192.0.2.2 and 192.0.2.3; 2, 3, 7 and 9 '
                     'are not in the file (2 to .2 and 3 to .3: REQ retries; 7: a REQ retry '
                     'to .3; 9: the RTU to .3, which .3 answers by repeating its REP)')
    return cap


def fx_cm_rej():
    cap = Capture('cm_rej_reasons.pcap', 'eth', desc='a REQ and a REJ for every IB CM reject '
                  'reason 1-35 (34 is unassigned)')
    cm = CM(cap, v4(sport=0xC002))
    for reason in range(1, 36):
        cid = 0x7000 + reason
        cm.req(cid, 8000 + reason, 0x100 + reason, reason * 16)
        cm.rej(0x9000 + reason, cid, reason, msg_rej=0)
    return cap


# ------------------------------------------------------------------------------------------
# not-a-capture inputs: what rdmadump must refuse with a clear message (or accept)

def bad_inputs(outdir):
    out = []
    rnd = random.Random(4791)
    with open(os.path.join(outdir, 'garbage.pcap'), 'wb') as f:
        f.write(b'this is not a capture file\n' + bytes(rnd.getrandbits(8) for _ in range(400)))
    out.append({'file': 'garbage.pcap', 'bad': True, 'description': 'text + random bytes',
                'expect': {'exit': 2, 'error': 'not a capture file'}})
    open(os.path.join(outdir, 'empty.pcap'), 'wb').close()
    out.append({'file': 'empty.pcap', 'bad': True, 'description': 'zero bytes',
                'expect': {'exit': 2, 'error': 'empty / not a capture file'}})
    with open(os.path.join(outdir, 'short_header.pcap'), 'wb') as f:
        f.write(struct.pack('<IHH', 0xA1B2C3D4, 2, 4) + b'\0' * 6)
    out.append({'file': 'short_header.pcap', 'bad': True, 'description': 'a pcap file '
                'header cut after 14 of its 24 bytes',
                'expect': {'exit': 2, 'error': 'truncated file header'}})
    frame = RC(v4(), QA, QB, psn=1).send(20)[0].frame
    with open(os.path.join(outdir, 'unknown_linktype.pcap'), 'wb') as f:
        w = g.Writer(f, 147)
        w.write(BASE_NS, frame)
    out.append({'file': 'unknown_linktype.pcap', 'bad': True, 'linktype': 147,
                'description': 'a valid pcap with link type 147 (USER0) holding one RoCEv2 '
                'Ethernet frame', 'expect': {'exit': 2, 'error': 'unsupported link type 147'}})
    with open(os.path.join(outdir, 'header_only.pcap'), 'wb') as f:
        g.Writer(f, 1)
    out.append({'file': 'header_only.pcap', 'bad': False, 'frames': 0, 'rdma_packets': 0,
                'description': 'a valid pcap header and no packets',
                'expect': {'exit': 0}})
    # cut in the middle of the 4th record
    src = Capture('x', 'eth')
    rc_all_ops(src, v4())
    tmp = os.path.join(outdir, 'cut_mid_record.pcap')
    src.write(tmp)
    data = open(tmp, 'rb').read()
    off = 24
    for _ in range(3):
        off += 16 + struct.unpack('<I', data[off + 8:off + 12])[0]
    with open(tmp, 'wb') as f:
        f.write(data[:off + 16 + 30])
    out.append({'file': 'cut_mid_record.pcap', 'bad': True, 'frames_before_cut': 3,
                'description': 'rc_ops.pcap cut 30 bytes into the data of its 4th record '
                '(the record header says more)',
                'expect': {'exit': 2, 'error': 'truncated dump file', 'packets_before': 3}})
    with open(os.path.join(outdir, 'cut_record_header.pcap'), 'wb') as f:
        f.write(data[:off + 9])
    out.append({'file': 'cut_record_header.pcap', 'bad': True, 'frames_before_cut': 3,
                'description': 'rc_ops.pcap cut 9 bytes into the 4th record header',
                'expect': {'exit': 2, 'error': 'truncated record header', 'packets_before': 3}})
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.join(here, '..', 'fixtures', 'pcap')
    os.makedirs(os.path.join(outdir, 'bad'), exist_ok=True)
    caps = [fx_rc_ops(), fx_rc_ops('pcap-ns', 'rc_ops_ns.pcap'),
            fx_rc_ops('pcapng', 'rc_ops.pcapng'), fx_rc_ops('pcap-be', 'rc_ops_be.pcap'),
            fx_ipopts(), fx_ipv6()] + fx_vlan() + fx_links() + \
        [fx_rocev1()] + fx_ib() + [fx_uc_ud(), fx_xrc(), fx_rd(), fx_cnp_ecn(), fx_cnp_before_ce(), fx_dscp_ecn(), fx_msp(),
                                   fx_aeth(), fx_aeth_credits(), fx_psn(), fx_wrap(), fx_gobackn(),
                                   fx_gobackn_relost(),
                                   fx_bad_icrc(), fx_truncated(), fx_ib_truncated(),
                                   fx_mixed(), fx_cm(), fx_gsi_two_peers(), fx_cm_rej(), fx_pause(),
                                   fx_read_gaps()] + fx_mad()
    for c, f in ((caps[1], 'nanosecond timestamps (magic 0xa1b23c4d)'),
                 (caps[2], 'pcapng, if_tsresol 9'), (caps[3], 'big-endian pcap headers')):
        c.desc = 'as rc_ops.pcap, ' + f
    manifest = {'generator': 'tests/gen/mkfixtures.py', 'captures': []}
    for c in caps:
        c.write(os.path.join(outdir, c.name))
        manifest['captures'].append(c.manifest())
    for b in bad_inputs(os.path.join(outdir, 'bad')):
        b['file'] = 'bad/' + b['file']
        manifest['captures'].append(b)
    with open(os.path.join(outdir, 'MANIFEST.json'), 'w') as f:
        f.write(dump_manifest(manifest))


def dump_manifest(m):
    """indented JSON, but one line per packet record so the file stays short"""
    caps = []
    for c in m['captures']:
        pk = c.get('packets')
        body = dict(c, packets='@PACKETS@') if pk is not None else c
        s = json.dumps(body, indent=1, sort_keys=True)
        if pk is not None:
            lines = ',\n'.join('   ' + json.dumps(x, sort_keys=True) for x in pk)
            s = s.replace('"@PACKETS@"', '[\n' + lines + '\n  ]' if pk else '[]')
        caps.append('\n'.join(' ' + x for x in s.split('\n')))
    return '{\n "captures": [\n' + ',\n'.join(caps) + '\n ],\n "generator": ' + \
        json.dumps(m['generator']) + '\n}\n'


if __name__ == '__main__':
    main()
