#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Write a large, realistic RoCEv2 capture for `make bench` (tests/bench/run).

    tests/gen/mkbench.py --packets N [--qps Q] [--seed S] [--mtu 1024] [-o FILE|-]

Many RC connections (Q, each between two of 64 hosts), picked at random per message:
SEND (1-8 MTU) and small SENDs, WRITE (1-16 MTU), READ (1-16 MTU responses), each message
acknowledged (ACK with credits; READs by their responses); rarely a loss answered by a NAK
(PSN sequence error) and a go-back-N resend, an RNR NAK and a resend, ECN-CE marks answered
by CNPs.  Every packet has a correct ICRC (same rule as rocegen.py, here with cached header
CRCs for speed: about 2 M packets in well under a minute).  Deterministic for a given seed.
The summary of what was written (packets per kind) goes to stderr.
"""
import argparse
import random
import struct
import sys
import zlib

import os
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rocegen as g		# noqa: E402

FF8 = zlib.crc32(b'\xff' * 8)
PAYLOAD = bytes((i * 7 + 3) & 0xFF for i in range(4096))


class Dir:
    """one direction of one connection: cached headers per UDP length and ECN"""
    __slots__ = ('mac', 'src', 'dst', 'sport', 'cache')

    def __init__(self, mac, src, dst, sport):
        self.mac, self.src, self.dst, self.sport = mac, src, dst, sport
        self.cache = {}

    def head(self, ulen, ecn):
        k = (ulen, ecn)
        h = self.cache.get(k)
        if h is None:
            ip = struct.pack('!BBHHHBBH4s4s', 0x45, (26 << 2) | ecn, 20 + ulen, 0, 0x4000, 64,
                             17, 0, self.src, self.dst)
            ip = ip[:10] + struct.pack('!H', g.ip_checksum(ip)) + ip[12:]
            udp = struct.pack('!HHHH', self.sport, 4791, ulen, 0)
            masked = bytearray(ip)
            masked[1] = 0xFF
            masked[8] = 0xFF
            masked[10:12] = b'\xff\xff'
            crc = zlib.crc32(bytes(masked) + udp[:6] + b'\xff\xff', FF8)
            h = (self.mac + ip + udp, crc)
            self.cache[k] = h
        return h


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--packets', type=int, required=True)
    ap.add_argument('--qps', type=int, default=1000)
    ap.add_argument('--seed', type=int, default=4791)
    ap.add_argument('--mtu', type=int, default=1024)
    ap.add_argument('-o', '--output', default='-')
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    mtu, limit = a.mtu, a.packets

    hosts = [(bytes([2, 0, 0, 0, i >> 8, i & 0xFF]), bytes([10, 1, i >> 8, i & 0xFF]))
             for i in range(1, 65)]
    conns = []
    for q in range(a.qps):
        h1, h2 = rnd.sample(hosts, 2)
        sport = 49152 + rnd.randrange(16384)
        fwd = Dir(h2[0] + h1[0] + b'\x08\x00', h1[1], h2[1], sport)
        rev = Dir(h1[0] + h2[0] + b'\x08\x00', h2[1], h1[1], sport ^ 0x1F)
        # [fwd, rev, requester QPN, responder QPN, next PSN, MSN]
        conns.append([fwd, rev, 0x100 + 2 * q, 0x101 + 2 * q, rnd.randrange(1 << 24), 0])

    out = sys.stdout.buffer if a.output == '-' else open(a.output, 'wb')
    out.write(struct.pack('<IHHiIII', 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
    buf = []
    count = [0]
    stats = {}
    t = [1764403200 * 10**9]
    pack_bth = struct.Struct('!BBHBBHBBH').pack
    pack_rec = struct.Struct('<IIII').pack

    def emit(d, op, qp, psn, ext=b'', plen=0, a_bit=0, ecn=2, becn=0):
        pad = (-plen) % 4
        t_len = 12 + len(ext) + plen + pad
        ulen = 8 + t_len + 4
        hdr, crc = d.head(ulen, ecn)
        bth = pack_bth(op, pad << 4, 0xFFFF, becn << 6, qp >> 16, qp & 0xFFFF, a_bit << 7,
                       (psn >> 16) & 0xFF, psn & 0xFFFF)
        masked = pack_bth(op, pad << 4, 0xFFFF, 0xFF, qp >> 16, qp & 0xFFFF, a_bit << 7,
                          (psn >> 16) & 0xFF, psn & 0xFFFF)
        body = ext + PAYLOAD[:plen] + b'\0' * pad
        icrc = zlib.crc32(body, zlib.crc32(masked, crc))
        frame = hdr + bth + body + struct.pack('<I', icrc)
        t[0] += 300 + (len(frame) >> 1)
        buf.append(pack_rec(t[0] // 1000000000, t[0] % 1000000000, len(frame), len(frame)))
        buf.append(frame)
        stats[op] = stats.get(op, 0) + 1
        count[0] += 1
        if len(buf) >= 8192:
            out.write(b''.join(buf))
            buf.clear()

    def aeth(syn, msn):
        return struct.pack('!I', (syn << 24) | (msn & 0xFFFFFF))

    reth = struct.Struct('!QII').pack
    while count[0] < limit:
        c = conns[rnd.randrange(len(conns))]
        fwd, rev, qreq, qresp = c[0], c[1], c[2], c[3]
        r = rnd.random()
        ce = rnd.random() < 0.01
        ecn = 3 if ce else 2
        if r < 0.25:					# READ
            n = rnd.randrange(1, 17)
            psn = c[4]
            emit(fwd, 0x0C, qresp, psn, reth(0x7F0000000000 + qreq * 4096, qresp, n * mtu))
            c[5] += 1
            for i in range(n):
                op = 0x10 if n == 1 else 0x0D if i == 0 else 0x0F if i == n - 1 else 0x0E
                ext = aeth(0x1F, c[5]) if op != 0x0E else b''
                emit(rev, op, qreq, (psn + i) & 0xFFFFFF, ext, mtu, ecn=ecn)
            c[4] = (psn + n) & 0xFFFFFF
        else:
            if r < 0.60:
                n, base, first = rnd.randrange(1, 9), 0x00, None	# SEND
            elif r < 0.85:
                n, base, first = rnd.randrange(1, 17), 0x06, True	# WRITE
            else:
                n, base, first = 1, 0x00, None			# small SEND
            small = r >= 0.85
            lose = n > 2 and rnd.random() < 0.004
            psn0 = c[4]
            pk = []
            for i in range(n):
                last = i == n - 1
                if base == 0x00:
                    op = 0x04 if n == 1 else 0x00 if i == 0 else 0x02 if last else 0x01
                    ext = b''
                else:
                    op = 0x0A if n == 1 else 0x06 if i == 0 else 0x08 if last else 0x07
                    ext = reth(0x7F0000000000 + qreq * 4096, qresp, n * mtu) \
                        if op in (0x06, 0x0A) else b''
                plen = rnd.randrange(1, 200) if small else mtu
                pk.append((op, (psn0 + i) & 0xFFFFFF, ext, plen, 1 if last else 0))
            c[4] = (psn0 + n) & 0xFFFFFF
            lost = rnd.randrange(1, n - 1) if lose else -1
            for i, (op, psn, ext, plen, ab) in enumerate(pk):
                if i == lost:
                    continue
                emit(fwd, op, qresp, psn, ext, plen, ab, ecn=ecn if i == 0 else 2)
                if i == lost + 1 and lose:
                    emit(rev, 0x11, qreq, pk[lost][1], aeth(0x60, c[5]))	# NAK seq err
            if lose:
                for op, psn, ext, plen, ab in pk[lost:]:			# go back N
                    emit(fwd, op, qresp, psn, ext, plen, ab)
            if rnd.random() < 0.002:
                emit(rev, 0x11, qreq, pk[-1][1], aeth(0x20 | 14, c[5]))	# RNR NAK 1.28 ms
                op, psn, ext, plen, ab = pk[-1]
                emit(fwd, op, qresp, psn, ext, plen, ab)
            c[5] += 1
            emit(rev, 0x11, qreq, pk[-1][1], aeth(0x1F, c[5]))			# ACK
        if ce and rnd.random() < 0.5:
            emit(rev, 0x81, qreq, 0, b'\0' * 16, becn=1, ecn=0)			# CNP
    out.write(b''.join(buf))
    if out is not sys.stdout.buffer:
        out.close()
    sys.stderr.write('mkbench: %d packets over %d QPs: %s\n' % (
        count[0], a.qps, ', '.join('%s %d' % (g.opcode_name(k), v)
                                   for k, v in sorted(stats.items()))))


if __name__ == '__main__':
    main()
