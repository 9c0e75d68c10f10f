# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Cross-check: the generator's RoCEv2/IPv4 frames (so their ICRCs) against scapy.contrib.roce.

    /usr/bin/python3 tests/oracle/icrc_scapy.py

Builds the same packets twice, with tests/gen/rocegen.py and with scapy (Debian's
python3-scapy, whose BTH computes the ICRC in post_build), over a spread of opcodes, payload
lengths (every pad count), DSCP/ECN, TTL, IP options, FECN/BECN, P_Key, SE/M/A, QPNs, PSNs and
with and without a UDP checksum, and requires identical bytes.  Prints one line per mismatch
and a summary; exit 1 on any mismatch.
"""
import os
import random
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'gen'))
import rocegen as g			# noqa: E402

import logging				# noqa: E402
logging.getLogger('scapy.runtime').setLevel(logging.ERROR)
from scapy.all import Ether, IP, UDP, Raw, raw, IPOption_Router_Alert   # noqa: E402
from scapy.contrib.roce import BTH, AETH, cnp  # noqa: E402


def scapy_frame(c, t_payload):
    """c: the case parameters; t_payload: bytes after the BTH (ETHs + payload + pad)"""
    ip = IP(src=c['src'], dst=c['dst'], tos=(c['dscp'] << 2) | c['ecn'], ttl=c['ttl'], id=0,
            flags='DF')
    if c['ipopt']:
        ip.options = [IPOption_Router_Alert()]
    udp = UDP(sport=c['sport'], dport=4791, chksum=None if c['udp_csum'] else 0)
    bth = BTH(opcode=c['op'], solicited=c['se'], migreq=c['m'], padcount=c['pad'], version=0,
              pkey=c['pkey'], fecn=c['fecn'], becn=c['becn'], dqpn=c['qp'], ackreq=c['a'],
              psn=c['psn'])
    if c['op'] == 0x11:
        body = AETH(syndrome=c['syndrome'], msn=c['msn'])
    elif c['op'] == g.CNP:
        return raw(Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02') / ip / udp /
                   cnp(c['qp']))
    else:
        body = Raw(t_payload)
    return raw(Ether(src='02:00:00:00:00:01', dst='02:00:00:00:00:02') / ip / udp / bth / body)


def gen_frame(c):
    p = g.Path('v4', src=c['src'], dst=c['dst'], sport=c['sport'], dscp=c['dscp'],
               ecn=c['ecn'], ttl=c['ttl'], ip_opts=b'\x94\x04\x00\x00' if c['ipopt'] else b'',
               udp_csum=c['udp_csum'])
    f = dict(se=c['se'], m=c['m'], pkey=c['pkey'], fecn=c['fecn'], becn=c['becn'], a=c['a'])
    if c['op'] == 0x11:
        t = g.transport(0x11, c['qp'], c['psn'], syndrome=c['syndrome'], msn=c['msn'], **f)
    elif c['op'] == 0x0C:
        t = g.transport(0x0C, c['qp'], c['psn'], va=c['va'], rkey=c['rkey'],
                        dmalen=c['dmalen'], **f)
    elif c['op'] == g.CNP:
        # scapy's cnp(): BECN set, 16 reserved bytes, nothing else
        t = g.transport(g.CNP, c['qp'], 0, b'\0' * 16, becn=1)
    else:
        t = g.transport(c['op'], c['qp'], c['psn'], c['payload'], **f)
    return p.frame(t), t[12:]


def cases():
    rnd = random.Random(20261129)
    out = []
    for i in range(200):
        op = [0x04, 0x00, 0x01, 0x02, 0x0A, 0x0C, 0x11, 0x10, g.CNP][i % 9]
        n = rnd.randrange(0, 300) if i % 3 else i % 8
        c = dict(op=op, src='10.%d.%d.1' % (i % 7, i % 11), dst='10.0.%d.2' % (i % 5),
                 sport=rnd.randrange(49152, 65536), dscp=rnd.randrange(64), ecn=rnd.randrange(4),
                 ttl=rnd.randrange(1, 256), ipopt=i % 4 == 1, udp_csum=i % 5 == 2,
                 se=rnd.randrange(2), m=rnd.randrange(2), pkey=rnd.choice([0xFFFF, 0x7FFF, 0x8001]),
                 fecn=rnd.randrange(2), becn=rnd.randrange(2), a=rnd.randrange(2),
                 qp=rnd.randrange(1 << 24), psn=rnd.randrange(1 << 24),
                 payload=bytes(rnd.randrange(256) for _ in range(n)),
                 syndrome=rnd.choice([0x1F, 0x00, 0x21, 0x2E, 0x60, 0x63]),
                 msn=rnd.randrange(1 << 24), va=rnd.randrange(1 << 64),
                 rkey=rnd.randrange(1 << 32), dmalen=rnd.randrange(1 << 20))
        if op == 0x0A:	# WRITE Only: RETH then payload
            c['payload'] = struct.pack('!QII', c['va'], c['rkey'], n) + c['payload']
            c['op'] = 0x0A
        c['pad'] = (-len(c['payload'])) % 4 if op not in (0x11, 0x0C, g.CNP) else 0
        out.append(c)
    return out


def main():
    bad = 0
    for i, c in enumerate(cases()):
        if c['op'] == 0x0A:
            # the generator adds the RETH itself: hand it the parts
            va, rkey, n = struct.unpack('!QII', c['payload'][:16])
            mine_t = g.transport(0x0A, c['qp'], c['psn'], c['payload'][16:], va=va, rkey=rkey,
                                 dmalen=n, se=c['se'], m=c['m'], pkey=c['pkey'],
                                 fecn=c['fecn'], becn=c['becn'], a=c['a'])
            p = g.Path('v4', src=c['src'], dst=c['dst'], sport=c['sport'], dscp=c['dscp'],
                       ecn=c['ecn'], ttl=c['ttl'],
                       ip_opts=b'\x94\x04\x00\x00' if c['ipopt'] else b'', udp_csum=c['udp_csum'])
            mine = p.frame(mine_t)
            after_bth = mine_t[12:]
        else:
            mine, after_bth = gen_frame(c)
        theirs = scapy_frame(c, after_bth)
        if mine != theirs:
            bad += 1
            print('case %d (opcode 0x%02x, %d payload bytes): generator %s ... ICRC %s, '
                  'scapy %s ... ICRC %s' % (i, c['op'], len(c['payload']), mine[:48].hex(),
                                            mine[-4:].hex(), theirs[:48].hex(),
                                            theirs[-4:].hex()))
    n = len(cases())
    print('icrc_scapy: %d packets, %d identical to scapy.contrib.roce, %d differ'
          % (n, n - bad, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
