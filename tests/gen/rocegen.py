# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""rocegen: build RoCEv2 / RoCEv1 / native InfiniBand frames with correct ICRCs and write
them as pcap (usec or nsec) or pcapng.  Standard library only (zlib for CRC-32), so the
fixtures can be regenerated anywhere; scapy is used only by the cross-check test.

The layering mirrors the wire:
    transport(opcode, ...)      BTH + extension headers + payload + pad   (no ICRC)
    Path(...).frame(t)          link layer / IP / UDP (or GRH, or LRH) + t + ICRC (+ VCRC)

ICRC (IBTA 1.4 section 7.8.1 and annex A17; the same rule as rxe_icrc.c and scapy.contrib.roce):
CRC-32 (zlib) over
    8 bytes of 0xFF in place of the LRH (RoCEv2, RoCEv1, and IB packets with a GRH),
    or the LRH with its VL nibble set to 1s (IB packets without a GRH);
    then the IPv4 header with TOS, TTL and header checksum as 1s / the IPv6 header or GRH with
    traffic class, flow label and hop limit as 1s;
    the UDP header with its checksum as 1s (RoCEv2);
    the BTH with its FECN/BECN/resv6 byte as 1s; everything after it up to the ICRC.
The 4 ICRC bytes on the wire are the CRC value little-endian (rxe stores the CPU-order u32;
scapy packs struct "!I" reversed).
VCRC (IB only): CRC-16, polynomial 0x100B (reflected 0xD008), initial 0xFFFF, final
complement, over LRH..ICRC; written little-endian like the ICRC.  Not verified against
hardware (tshark shows but does not check it).
"""
import struct
import zlib

# ---------------------------------------------------------------------------------------
# opcodes and the header sequence that follows the BTH (IBTA table 35, plus the RoCE/IBTA
# 1.5 additions FLUSH 0x1C and ATOMIC_WRITE 0x1D).
RC, UC, RD, UD, CNP_T, XRC = 0x00, 0x20, 0x40, 0x60, 0x80, 0xA0

OPS = {
    0x00: ('SEND_FIRST', []), 0x01: ('SEND_MIDDLE', []), 0x02: ('SEND_LAST', []),
    0x03: ('SEND_LAST_IMM', ['immdt']), 0x04: ('SEND_ONLY', []),
    0x05: ('SEND_ONLY_IMM', ['immdt']),
    0x06: ('RDMA_WRITE_FIRST', ['reth']), 0x07: ('RDMA_WRITE_MIDDLE', []),
    0x08: ('RDMA_WRITE_LAST', []), 0x09: ('RDMA_WRITE_LAST_IMM', ['immdt']),
    0x0A: ('RDMA_WRITE_ONLY', ['reth']),
    0x0B: ('RDMA_WRITE_ONLY_IMM', ['reth', 'immdt']),
    0x0C: ('RDMA_READ_REQUEST', ['reth']),
    0x0D: ('RDMA_READ_RESPONSE_FIRST', ['aeth']), 0x0E: ('RDMA_READ_RESPONSE_MIDDLE', []),
    0x0F: ('RDMA_READ_RESPONSE_LAST', ['aeth']), 0x10: ('RDMA_READ_RESPONSE_ONLY', ['aeth']),
    0x11: ('ACKNOWLEDGE', ['aeth']), 0x12: ('ATOMIC_ACKNOWLEDGE', ['aeth', 'atomicacketh']),
    0x13: ('COMPARE_SWAP', ['atomiceth']), 0x14: ('FETCH_ADD', ['atomiceth']),
    0x15: ('RESYNC', []),
    0x16: ('SEND_LAST_INV', ['ieth']), 0x17: ('SEND_ONLY_INV', ['ieth']),
    0x1C: ('FLUSH', ['feth', 'reth']), 0x1D: ('ATOMIC_WRITE', ['reth']),
}
# which low-5-bit codes each transport defines
TRANSPORT_OPS = {
    RC: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
         0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x1C, 0x1D],
    UC: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B],
    # RD FLUSH (0x5C) is in Linux ib_pack.h; by the RD rule it would carry RDETH DETH FETH
    # RETH, but no fixture uses it (lib/packet reads RDETH FETH RETH: unsettled)
    RD: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
         0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x1C],
    UD: [0x04, 0x05],
    XRC: [0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D,
          0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17],
}
TNAME = {RC: 'RC', UC: 'UC', RD: 'RD', UD: 'UD', XRC: 'XRC'}
CNP = 0x81
IB_CNP = 0x80
RESPONSES = {0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x12}
# opcodes with a payload (data) field
DATA_OPS = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0D,
            0x0E, 0x0F, 0x10, 0x16, 0x17, 0x1D}


def opcode_name(op):
    """the name rdmadump prints (rdiag_opcode_name in lib/include/rdmadiag/packet.h)"""
    if op == CNP:
        return 'CNP'
    if op == IB_CNP:
        return 'IB_CNP'
    if op >= 0xC0:
        return 'MSP'
    t, low = op & 0xE0, op & 0x1F
    if t in TRANSPORT_OPS and low in TRANSPORT_OPS[t]:
        return TNAME[t] + '_' + OPS[low][0]
    return 'RESERVED'


def headers_for(op):
    """extension headers that follow the BTH, in wire order"""
    t, low = op & 0xE0, op & 0x1F
    if t not in TRANSPORT_OPS or low not in TRANSPORT_OPS[t]:	# CNP, MSP, reserved
        return []
    hs = list(OPS[low][1])
    if t == RD:
        # RD: RDETH first; DETH on every request (not on responses)
        pre = ['rdeth'] if low in RESPONSES else ['rdeth', 'deth']
        hs = pre + hs
    elif t == UD:
        hs = ['deth'] + hs
    elif t == XRC and low not in RESPONSES:
        hs = ['xrceth'] + hs
    return hs


# ---------------------------------------------------------------------------------------
# checksums

def crc32(data, start=0):
    return zlib.crc32(data, start) & 0xFFFFFFFF


CRC_FF8 = crc32(b'\xff' * 8)		# 0xdebb20e3 in zlib's (final-xor) form is rxe's seed


def _crc16_table():
    tab = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0xD008 if c & 1 else c >> 1
        tab.append(c)
    return tab


_CRC16 = _crc16_table()


def vcrc16(data):
    c = 0xFFFF
    for b in data:
        c = (c >> 8) ^ _CRC16[(c ^ b) & 0xFF]
    return c ^ 0xFFFF


def ip_checksum(hdr):
    if len(hdr) % 2:
        hdr += b'\0'
    s = sum(struct.unpack('!%dH' % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def mask_bth(bth):
    return bth[:4] + b'\xff' + bth[5:]


def icrc_ipv4(ip_to_end):
    """ip_to_end: IPv4 header (with options) + UDP + BTH ... up to, not including, the ICRC"""
    ihl = (ip_to_end[0] & 0x0F) * 4
    ip = bytearray(ip_to_end[:ihl])
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b'\xff\xff'
    udp = ip_to_end[ihl:ihl + 6] + b'\xff\xff'
    rest = ip_to_end[ihl + 8:]
    return crc32(mask_bth(rest[:12]) + rest[12:], crc32(bytes(ip) + udp, CRC_FF8))


def _mask_ipv6_like(h):
    """IPv6 header or GRH: version kept, traffic class + flow label + hop limit as 1s"""
    return bytes([(h[0] & 0xF0) | 0x0F, 0xFF, 0xFF, 0xFF]) + h[4:7] + b'\xff' + h[8:40]


def icrc_ipv6(ip_to_end):
    udp = ip_to_end[40:46] + b'\xff\xff'
    rest = ip_to_end[48:]
    return crc32(mask_bth(rest[:12]) + rest[12:], crc32(_mask_ipv6_like(ip_to_end) + udp, CRC_FF8))


def icrc_grh(grh_to_end):
    """RoCEv1, and IB packets with a GRH: the LRH counts as 8 bytes of 1s"""
    rest = grh_to_end[40:]
    return crc32(mask_bth(rest[:12]) + rest[12:], crc32(_mask_ipv6_like(grh_to_end), CRC_FF8))


def icrc_ib_local(lrh_to_end):
    """IB local packet (LNH = 2): the LRH with its VL nibble as 1s"""
    lrh = bytes([lrh_to_end[0] | 0xF0]) + lrh_to_end[1:8]
    rest = lrh_to_end[8:]
    return crc32(lrh + mask_bth(rest[:12]) + rest[12:])


# ---------------------------------------------------------------------------------------
# transport headers

def bth(opcode, destqp, psn, se=0, m=0, padcnt=0, tver=0, pkey=0xFFFF, fecn=0, becn=0,
        resv6=0, a=0, resv7=0):
    return struct.pack('!BBHB', opcode, (se << 7) | (m << 6) | (padcnt << 4) | tver, pkey,
                       (fecn << 7) | (becn << 6) | resv6) + u24(destqp) + \
        bytes([(a << 7) | resv7]) + u24(psn)


def u24(v):
    return struct.pack('!I', v & 0xFFFFFF)[1:]


def aeth_syndrome(kind, value):
    return {'ack': 0x00, 'rnr_nak': 0x20, 'nak': 0x60, 'reserved': 0x40}[kind] | (value & 0x1F)


def ext_header(name, f):
    if name == 'rdeth':
        return struct.pack('!I', f.get('eecnxt', 0) & 0xFFFFFF)
    if name == 'deth':
        return struct.pack('!II', f.get('qkey', 0), f.get('srcqp', 0) & 0xFFFFFF)
    if name == 'xrceth':
        return struct.pack('!I', f.get('xrcsrq', 0) & 0xFFFFFF)
    if name == 'reth':
        return struct.pack('!QII', f.get('va', 0), f.get('rkey', 0), f.get('dmalen', 0))
    if name == 'atomiceth':
        return struct.pack('!QIQQ', f.get('va', 0), f.get('rkey', 0), f.get('swap', 0),
                           f.get('compare', 0))
    if name == 'aeth':
        return bytes([f.get('syndrome', 0)]) + u24(f.get('msn', 0))
    if name == 'atomicacketh':
        return struct.pack('!Q', f.get('orig', 0))
    if name == 'immdt':
        return struct.pack('!I', f.get('immdt', 0))
    if name == 'ieth':
        return struct.pack('!I', f.get('ieth', 0))
    if name == 'feth':
        return struct.pack('!I', f.get('feth', 0))
    raise ValueError(name)


def transport(opcode, destqp, psn, payload=b'', **f):
    """BTH + extension headers + payload + pad bytes (padcnt is computed)"""
    padcnt = (-len(payload)) % 4
    b = bth(opcode, destqp, psn, se=f.get('se', 0), m=f.get('m', 0), padcnt=padcnt,
            tver=f.get('tver', 0), pkey=f.get('pkey', 0xFFFF), fecn=f.get('fecn', 0),
            becn=f.get('becn', 0), a=f.get('a', 0))
    return b + b''.join(ext_header(h, f) for h in f.get('hdrs', headers_for(opcode))) + \
        payload + b'\0' * padcnt


# ---------------------------------------------------------------------------------------
# addresses

def ip4(s):
    return bytes(int(x) for x in s.split('.'))


def ip6(s):
    import ipaddress
    return ipaddress.IPv6Address(s).packed


def mac(s):
    return bytes(int(x, 16) for x in s.split(':'))


def ip6_str(b):
    import ipaddress
    return str(ipaddress.IPv6Address(bytes(b)))


def gid_from_ip4(a):
    return b'\0' * 10 + b'\xff\xff' + ip4(a)


# ---------------------------------------------------------------------------------------
# paths: everything below the BTH

ETH_IPV4, ETH_IPV6, ETH_ROCEV1, ETH_VLAN, ETH_QINQ = 0x0800, 0x86DD, 0x8915, 0x8100, 0x88A8

LINKTYPE = {'eth': 1, 'raw12': 12, 'raw14': 14, 'raw': 101, 'sll': 113, 'ipv4': 228,
            'ipv6': 229, 'ib': 247, 'sll2': 276}


class Path:
    """One direction of a conversation: link layer + network encapsulation.

    encap: 'v4' (RoCEv2/IPv4), 'v6' (RoCEv2/IPv6), 'v1' (RoCEv1: Eth 0x8915 + GRH),
           'ib' (native IB: LRH [+ GRH] ... VCRC)
    link:  'eth' (with vlans=[(tpid, vid, pcp), ...] outermost first), 'sll', 'sll2',
           'raw', 'raw12', 'raw14', 'ipv4', 'ipv6' (raw IP link types), 'ib'
    """

    def __init__(self, encap='v4', link='eth', src='192.0.2.1', dst='192.0.2.2', sport=49152,
                 dport=4791, vlans=(), smac='02:00:00:00:00:01', dmac='02:00:00:00:00:02',
                 dscp=26, ecn=2, ttl=64, ip_opts=b'', ip_id=0, udp_csum=False, flow=0,
                 sgid=None, dgid=None, slid=1, dlid=2, grh=False, sl=0, vl=0,
                 sll_pkttype=0, ifindex=3):
        self.encap, self.link = encap, 'ib' if encap == 'ib' else link
        self.src, self.dst, self.sport, self.dport = src, dst, sport, dport
        self.vlans = list(vlans)
        self.smac, self.dmac = mac(smac), mac(dmac)
        self.dscp, self.ecn, self.ttl = dscp, ecn, ttl
        self.ip_opts, self.ip_id, self.udp_csum, self.flow = ip_opts, ip_id, udp_csum, flow
        self.sgid, self.dgid = sgid, dgid
        self.slid, self.dlid, self.grh, self.sl, self.vl = slid, dlid, grh, sl, vl
        self.sll_pkttype, self.ifindex = sll_pkttype, ifindex

    def reverse(self, **kw):
        r = Path.__new__(Path)
        r.__dict__.update(self.__dict__)
        r.src, r.dst, r.smac, r.dmac = self.dst, self.src, self.dmac, self.smac
        r.sgid, r.dgid, r.slid, r.dlid = self.dgid, self.sgid, self.dlid, self.slid
        r.vlans = list(self.vlans)
        r.__dict__.update(kw)
        if 'smac' in kw:
            r.smac = mac(kw['smac'])
        if 'dmac' in kw:
            r.dmac = mac(kw['dmac'])
        return r

    # -- network part -------------------------------------------------------------------
    def _grh(self, payload_len, nxthdr=0x1B, tclass=None, flow=None, hop=64):
        tc = (self.dscp << 2 | self.ecn) if tclass is None else tclass
        fl = self.flow if flow is None else flow
        return struct.pack('!IHBB', (6 << 28) | (tc << 20) | (fl & 0xFFFFF), payload_len,
                           nxthdr, hop) + self.sgid + self.dgid

    def network(self, t, bad_icrc=False, ecn=None):
        """t = transport bytes (BTH..pad).  Returns (network bytes incl. ICRC[/VCRC], ethertype)"""
        ecn = self.ecn if ecn is None else ecn
        if self.encap in ('v4', 'v6'):
            ulen = 8 + len(t) + 4
            udp = struct.pack('!HHHH', self.sport, self.dport, ulen, 0)
            if self.encap == 'v4':
                opts = self.ip_opts
                ihl = 5 + len(opts) // 4
                h = struct.pack('!BBHHHBBH4s4s', 0x40 | ihl, (self.dscp << 2) | ecn,
                                ihl * 4 + ulen, self.ip_id, 0x4000, self.ttl, 17, 0,
                                ip4(self.src), ip4(self.dst)) + opts
                h = h[:10] + struct.pack('!H', ip_checksum(h)) + h[12:]
                icrc = icrc_ipv4(h + udp + t)
                et = ETH_IPV4
                pseudo = ip4(self.src) + ip4(self.dst) + struct.pack('!BBH', 0, 17, ulen)
            else:
                h = struct.pack('!IHBB', (6 << 28) | (((self.dscp << 2) | ecn) << 20) |
                                (self.flow & 0xFFFFF), ulen, 17, self.ttl) + \
                    ip6(self.src) + ip6(self.dst)
                icrc = icrc_ipv6(h + udp + t)
                et = ETH_IPV6
                pseudo = ip6(self.src) + ip6(self.dst) + struct.pack('!IxxxB', ulen, 17)
            if bad_icrc:
                icrc ^= 0xDEADBEEF
            tail = t + struct.pack('<I', icrc)
            # the ICRC masks the UDP checksum, so it can be filled in afterwards; IPv6
            # requires one, rxe sends 0 over IPv4
            if self.encap == 'v6' or self.udp_csum:
                c = ip_checksum(pseudo + udp + tail) or 0xFFFF
                udp = udp[:6] + struct.pack('!H', c)
            return h + udp + tail, et
        if self.encap == 'v1':
            g = self._grh(len(t) + 4, tclass=(self.dscp << 2) | ecn)
            body = g + t
            icrc = icrc_grh(body) ^ (0xDEADBEEF if bad_icrc else 0)
            return body + struct.pack('<I', icrc), ETH_ROCEV1
        if self.encap == 'ib':
            g = self._grh(len(t) + 4) if self.grh else b''
            words = (8 + len(g) + len(t) + 4) // 4
            lnh = 3 if self.grh else 2
            lrh = struct.pack('!BBHHH', (self.vl << 4) | 0, (self.sl << 4) | lnh, self.dlid,
                              words & 0x7FF, self.slid)
            if self.grh:
                icrc = icrc_grh(g + t)
            else:
                icrc = icrc_ib_local(lrh + t)
            icrc ^= 0xDEADBEEF if bad_icrc else 0
            pkt = lrh + g + t + struct.pack('<I', icrc)
            return pkt + struct.pack('<H', vcrc16(pkt)), None
        raise ValueError(self.encap)

    # -- link part ----------------------------------------------------------------------
    def frame(self, t, bad_icrc=False, ecn=None):
        net, et = self.network(t, bad_icrc=bad_icrc, ecn=ecn)
        return self.link_wrap(net, et)

    def link_wrap(self, net, et):
        lk = self.link
        if lk == 'eth':
            tags = b''
            for tpid, vid, pcp in self.vlans:
                tags += struct.pack('!HH', tpid, (pcp << 13) | vid)
            # each TPID sits where the ethertype would be: dst src [TPID TCI]... type
            return self.dmac + self.smac + tags + struct.pack('!H', et) + net
        if lk == 'sll':
            return struct.pack('!HHH', self.sll_pkttype, 1, 6) + self.smac + b'\0\0' + \
                struct.pack('!H', et) + net
        if lk == 'sll2':
            return struct.pack('!HHIHBB', et, 0, self.ifindex, 1, self.sll_pkttype, 6) + \
                self.smac + b'\0\0' + net
        if lk in ('raw', 'raw12', 'raw14', 'ipv4', 'ipv6', 'ib'):
            return net
        raise ValueError(lk)

    def linktype(self):
        return LINKTYPE[self.link]


# ---------------------------------------------------------------------------------------
# MADs and IB CM messages (IBTA 1.4 chapter 12.6; rdma_cm private data: cma.c struct cma_hdr)

CM_ATTR = {'REQ': 0x10, 'MRA': 0x11, 'REJ': 0x12, 'REP': 0x13, 'RTU': 0x14, 'DREQ': 0x15,
           'DREP': 0x16, 'SIDR_REQ': 0x17, 'SIDR_REP': 0x18}
PS = {'IPOIB': 0x0002, 'TCP': 0x0106, 'UDP': 0x0111, 'IB': 0x013F}
QP1_QKEY = 0x80010000


def service_id(ps, port):
    return 0x0000000001000000 | (PS[ps] << 16) | port


def cma_hdr(src, dst, sport):
    """rdma_cm IP private data header: version 0, ip_version 4 or 6 in the high nibble"""
    if ':' in src:
        return struct.pack('!BBH', 0, 6 << 4, sport) + ip6(src) + ip6(dst)
    return struct.pack('!BBH', 0, 4 << 4, sport) + b'\0' * 12 + ip4(src) + b'\0' * 12 + ip4(dst)


def mad(attr, tid, body, method=0x03, mclass=0x07, cver=2, status=0, attr_mod=0):
    hdr = struct.pack('!BBBBHHQHHI', 1, mclass, cver, method, status, 0, tid, attr, 0, attr_mod)
    body = body + b'\0' * (232 - len(body))
    assert len(body) == 232, len(body)
    return hdr + body


def cm_req(comm_id, sid, qpn, psn, guid=0x0002c90300a1b2c3, mtu=3, retry=7, rnr=7,
           resp_res=1, init_depth=1, ltmo=20, rtmo=20, max_retries=15, pkey=0xFFFF,
           slid=0xFFFF, dlid=0xFFFF, sgid=b'\0' * 16, dgid=b'\0' * 16, priv=b'',
           transport=0, qkey=0):
    b = struct.pack('!IIQQII', comm_id, 0, sid, guid, 0, qkey)
    b += struct.pack('!I', (qpn << 8) | resp_res)
    b += struct.pack('!I', init_depth)			# local EECN 0, initiator depth
    b += struct.pack('!I', (rtmo << 3) | (transport << 1))	# remote EECN 0
    b += struct.pack('!I', (psn << 8) | (ltmo << 3) | retry)
    b += struct.pack('!HBB', pkey, (mtu << 4) | rnr, max_retries << 4)
    b += struct.pack('!HH', slid, dlid) + sgid + dgid
    b += struct.pack('!IBBBB', 0x3 << 0, 0, 64, 0, 18 << 3)	# flow 0, rate 3, tclass, hop, sl, ack tmo
    b += b'\0' * 44						# no alternate path
    assert len(b) == 140
    return b + priv[:92]


def cm_rep(local, remote, qpn, psn, guid=0x0002c90300d4e5f6, resp_res=1, init_depth=1,
           ack_delay=15, rnr=7, priv=b''):
    b = struct.pack('!IIII', local, remote, 0, qpn << 8)
    b += struct.pack('!II', 0, psn << 8)
    b += struct.pack('!BBBB', resp_res, init_depth, (ack_delay << 3) | 1, rnr << 5)
    b += struct.pack('!Q', guid)
    assert len(b) == 36
    return b + priv[:196]


def cm_rtu(local, remote):
    return struct.pack('!II', local, remote)


def cm_rej(local, remote, reason, msg_rej=0, ari=b'', priv=b''):
    b = struct.pack('!IIBBH', local, remote, msg_rej << 6, len(ari) << 1, reason)
    return b + (ari + b'\0' * 72)[:72] + priv[:148]


def cm_mra(local, remote, msg_mraed=0, timeout=20):
    return struct.pack('!IIBB', local, remote, msg_mraed << 6, timeout << 3)


def cm_dreq(local, remote, remote_qpn):
    return struct.pack('!III', local, remote, remote_qpn << 8)


def cm_drep(local, remote):
    return struct.pack('!II', local, remote)


def cm_sidr_req(req_id, sid, pkey=0xFFFF, priv=b''):
    return struct.pack('!IHHQ', req_id, pkey, 0, sid) + priv[:216]


def cm_sidr_rep(req_id, status, qpn, sid, qkey):
    return struct.pack('!IBBHIQI', req_id, status, 0, 0, qpn << 8, sid, qkey)


def mad_packet(mad_bytes, psn, destqp=1, srcqp=1, qkey=QP1_QKEY):
    """a MAD travels as a UD SEND Only to QP1 with the well-known Q_Key"""
    return transport(0x64, destqp, psn, mad_bytes, qkey=qkey, srcqp=srcqp)


# ---------------------------------------------------------------------------------------
# capture files

class Writer:
    """fmt: 'pcap' (usec), 'pcap-ns' (nsec), 'pcapng' (if_tsresol 9), 'pcap-be' (usec,
    big-endian headers).  write(ts_ns, frame, orig_len=None, caplen=None)"""

    def __init__(self, f, linktype, fmt='pcap', snaplen=262144):
        self.f, self.fmt, self.linktype = f, fmt, linktype
        self.count = 0
        if fmt in ('pcap', 'pcap-ns', 'pcap-be'):
            magic = 0xA1B23C4D if fmt == 'pcap-ns' else 0xA1B2C3D4
            e = '>' if fmt == 'pcap-be' else '<'
            self.e = e
            f.write(struct.pack(e + 'IHHiIII', magic, 2, 4, 0, 0, snaplen, linktype))
        elif fmt == 'pcapng':
            shb_body = struct.pack('<IHHq', 0x1A2B3C4D, 1, 0, -1)
            self._block(0x0A0D0D0A, shb_body)
            # IDB with if_tsresol = 9 (nanoseconds) and an if_name
            opts = self._opt(2, b'veth0') + self._opt(9, b'\x09') + struct.pack('<HH', 0, 0)
            self._block(1, struct.pack('<HHI', linktype, 0, snaplen) + opts)
        else:
            raise ValueError(fmt)

    @staticmethod
    def _opt(code, val):
        return struct.pack('<HH', code, len(val)) + val + b'\0' * ((-len(val)) % 4)

    def _block(self, btype, body):
        n = 12 + len(body)
        self.f.write(struct.pack('<II', btype, n) + body + struct.pack('<I', n))

    def write(self, ts_ns, frame, orig_len=None, caplen=None):
        orig = len(frame) if orig_len is None else orig_len
        data = frame if caplen is None else frame[:caplen]
        self.count += 1
        if self.fmt == 'pcapng':
            pad = b'\0' * ((-len(data)) % 4)
            self._block(6, struct.pack('<IIIII', 0, ts_ns >> 32, ts_ns & 0xFFFFFFFF, len(data),
                                       orig) + data + pad)
            return
        sec = ts_ns // 1000000000
        frac = ts_ns % 1000000000
        if self.fmt != 'pcap-ns':
            frac //= 1000
        self.f.write(struct.pack(self.e + 'IIII', sec, frac, len(data), orig) + data)
