# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""madgen: management datagrams beyond the CM - SMP (LID-routed and directed-route), SA with
RMPP segmentation, PerfMgt, CM LAP/APR/SIDR - as byte strings, from the IBTA layouts (vol 1
13.4, 14.2.5, 15.2.5, 16.1.3-4, 12.6): bit offsets counted from the most significant bit of
the record, as IBTA and libibmad number them.  Standard library only."""
import struct


def put(buf, off, bits, value):
    """write value into bits bits at bit offset off of bytearray buf (big-endian, MSB first)"""
    for i in range(bits):
        bit = (value >> (bits - 1 - i)) & 1
        pos = off + i
        if bit:
            buf[pos // 8] |= 0x80 >> (pos % 8)
        else:
            buf[pos // 8] &= ~(0x80 >> (pos % 8)) & 0xFF


def rec(nbytes, fields):
    """a record of nbytes from [(bit offset, bits, value)]; GIDs and text as bytes"""
    b = bytearray(nbytes)
    for off, bits, v in fields:
        if isinstance(v, (bytes, bytearray)):
            b[off // 8:off // 8 + len(v)] = v
        else:
            put(b, off, bits, v)
    return bytes(b)


def gid(prefix, guid):
    return struct.pack('!QQ', prefix, guid)


SUBNET = 0xfe80000000000000

# methods
GET, SET, SEND, TRAP, REPORT, REPRESS, GET_TABLE = 0x01, 0x02, 0x03, 0x05, 0x06, 0x07, 0x12
GET_RESP, REPORT_RESP, GET_TABLE_RESP = 0x81, 0x86, 0x92

# ---- MAD framing --------------------------------------------------------------------------


def common(mclass, cver, method, status, cspec, tid, attr, attr_mod):
    return struct.pack('!BBBBHHQHHI', 1, mclass, cver, method, status, cspec, tid, attr, 0,
                       attr_mod)


def smp(attr, tid, data=b'', method=GET, status=0, attr_mod=0, m_key=0):
    """LID-routed SMP (class 0x01): M_Key, 32 reserved bytes, 64 bytes of data, 128 reserved"""
    h = common(0x01, 1, method, status, 0, tid, attr, attr_mod)
    body = struct.pack('!Q', m_key) + b'\0' * 32 + data.ljust(64, b'\0') + b'\0' * 128
    return h + body


def dr_smp(attr, tid, data=b'', method=GET, status=0, attr_mod=0, m_key=0, d=0, hop_ptr=0,
           hops=(), ret=(), dr_slid=0xFFFF, dr_dlid=0xFFFF):
    """directed-route SMP (class 0x81): hop pointer/count in place of class-specific, D bit
    at the top of status; initial and return paths (entry 0 unused)"""
    h = common(0x81, 1, method, (d << 15) | status, (hop_ptr << 8) | len(hops), tid, attr,
               attr_mod)
    ip = bytes([0] + list(hops)).ljust(64, b'\0')
    rp = bytes([0] + list(ret)).ljust(64, b'\0')
    body = struct.pack('!QHH', m_key, dr_slid, dr_dlid) + b'\0' * 28 + \
        data.ljust(64, b'\0') + ip + rp
    return h + body


RMPP_DATA, RMPP_ACK, RMPP_STOP, RMPP_ABORT = 1, 2, 3, 4
ACTIVE, FIRST, LAST = 1, 2, 4


def rmpp(rtype=0, flags=0, status=0, seg=0, paylen=0, resp_time=0x1f):
    return struct.pack('!BBBBII', 1 if rtype else 0, rtype,
                       ((resp_time << 3) | flags) if rtype else 0, status, seg, paylen)


def sa(attr, tid, data=b'', method=GET, status=0, attr_mod=0, comp_mask=0, attr_offset=0,
       rmpp_hdr=None, sm_key=0):
    h = common(0x03, 2, method, status, 0, tid, attr, attr_mod)
    r = rmpp_hdr if rmpp_hdr is not None else rmpp()
    sah = struct.pack('!QHHQ', sm_key, attr_offset, 0, comp_mask)
    return h + r + sah + data.ljust(200, b'\0')[:200]


def sa_table(attr, tid, records, rec_len, comp_mask=0):
    """a GetTableResp as RMPP DATA segments: records attr_offset*8 apart over the 200-byte
    data of each segment, the SA header in every one; PayloadLength in the first (the whole
    table: segments * 220 - pad, as the kernel's mad_rmpp.c counts) and the last segment
    (220 - pad)"""
    assert rec_len % 8 == 0
    table = b''.join(r.ljust(rec_len, b'\0') for r in records)
    nseg = max(1, (len(table) + 199) // 200)
    pad = nseg * 200 - len(table)
    out = []
    for s in range(nseg):
        flags = ACTIVE | (FIRST if s == 0 else 0) | (LAST if s == nseg - 1 else 0)
        paylen = nseg * 220 - pad if s == 0 else (220 - pad if s == nseg - 1 else 0)
        out.append(sa(attr, tid, table[s * 200:(s + 1) * 200], GET_TABLE_RESP,
                      attr_offset=rec_len // 8, comp_mask=comp_mask,
                      rmpp_hdr=rmpp(RMPP_DATA, flags, 0, s + 1, paylen)))
    return out


def sa_ack(attr, tid, seg, window, method=GET_TABLE):
    """the requester's RMPP ACK of segment seg (NewWindowLast window)"""
    return sa(attr, tid, b'', method, rmpp_hdr=rmpp(RMPP_ACK, ACTIVE, 0, seg, window))


def perf(attr, tid, data=b'', method=GET, status=0, attr_mod=0):
    h = common(0x04, 1, method, status, 0, tid, attr, attr_mod)
    return h + b'\0' * 40 + data.ljust(192, b'\0')


def cm(attr, tid, data, method=SEND):
    return common(0x07, 2, method, 0, 0, tid, attr, 0) + data.ljust(232, b'\0')

# ---- SMP attributes -----------------------------------------------------------------------


def node_description(s):
    return s.encode().ljust(64, b'\0')


def node_info(node_type=1, ports=1, sys_guid=0, node_guid=0, port_guid=0, pcap=128,
              dev=0x1017, rev=0, port=1, vendor=0x02c9):
    return rec(40, [(0, 8, 1), (8, 8, 1), (16, 8, node_type), (24, 8, ports),
                    (32, 64, sys_guid), (96, 64, node_guid), (160, 64, port_guid),
                    (224, 16, pcap), (240, 16, dev), (256, 32, rev), (288, 8, port),
                    (296, 24, vendor)])


def switch_info(lft_cap=49152, lft_top=0x20, mft_cap=1024, default_port=0, lifetime=18,
                lids_per_port=1, pe_cap=8, mft_top=0xC000):
    return rec(20, [(0, 16, lft_cap), (16, 16, 0), (32, 16, mft_cap), (48, 16, lft_top),
                    (64, 8, default_port), (72, 8, 0xFF), (80, 8, 0xFF), (88, 5, lifetime),
                    (93, 1, 1), (96, 16, lids_per_port), (112, 16, pe_cap),
                    (128, 1, 1), (129, 1, 1), (132, 1, 1), (144, 16, mft_top)])


def guid_info(guids):
    return b''.join(struct.pack('!Q', x) for x in guids).ljust(64, b'\0')


def port_info(lid, sm_lid, state, phys, width_active=2, speed_active=1, mtu=5, vl_cap=4,
              lmc=0, sm_sl=0, subnet_timeout=18, resp_time=20, m_key=0, gid_prefix=SUBNET,
              cap_mask=0x0251086a, port=1, mkey_prot=0):
    return rec(64, [(0, 64, m_key), (64, 64, gid_prefix), (128, 16, lid), (144, 16, sm_lid),
                    (160, 32, cap_mask), (208, 16, 15), (224, 8, port),
                    (232, 8, 3), (240, 8, 3), (248, 8, width_active),
                    (256, 4, 7), (260, 4, state), (264, 4, phys), (268, 4, 2),
                    (272, 2, mkey_prot), (277, 3, lmc), (280, 4, speed_active),
                    (284, 4, 7), (288, 4, mtu), (292, 4, sm_sl), (296, 4, vl_cap),
                    (304, 8, 0), (312, 8, 8), (320, 8, 8), (332, 4, 5),
                    (339, 5, 16), (344, 4, vl_cap), (348, 1, 1), (349, 1, 1),
                    (400, 8, 32), (411, 5, subnet_timeout), (419, 5, resp_time),
                    (424, 4, 8), (428, 4, 8)])


def pkey_table(keys):
    return b''.join(struct.pack('!H', k) for k in keys).ljust(64, b'\0')


def sl2vl(vls):
    b = bytearray(8)
    for sl, vl in enumerate(vls):
        put(b, sl * 4, 4, vl)
    return bytes(b)


def vlarb(entries):
    return b''.join(struct.pack('!BB', vl & 0xF, w) for vl, w in entries).ljust(64, b'\0')


def lft(ports):
    return bytes(ports).ljust(64, b'\xff')


def mft(masks):
    return b''.join(struct.pack('!H', m) for m in masks).ljust(64, b'\0')


def sm_info(guid, sm_key, act_count, priority, state):
    return rec(21, [(0, 64, guid), (64, 64, sm_key), (128, 32, act_count),
                    (160, 4, priority), (164, 4, state)])


def notice(trap, producer, issuer_lid, details, toggle=0, count=0, ntype=1, issuer_gid=None):
    """a generic Notice; details: [(bit offset in the Notice, bits, value)]"""
    f = [(0, 1, 1), (1, 7, ntype), (8, 24, producer), (32, 16, trap), (48, 16, issuer_lid),
         (64, 1, toggle), (65, 15, count)] + details
    if issuer_gid is not None:
        return rec(80, f + [(512, 128, issuer_gid)])
    return rec(64, f)

# ---- SA records ---------------------------------------------------------------------------


def path_record(dgid, sgid, dlid, slid, pkey=0xFFFF, sl=0, mtu=4, rate=16, plt=18,
                flow=0, hop=0, tclass=0, reversible=1, numb_path=1, qos=0, service_id=0,
                mtu_sel=2, rate_sel=2, plt_sel=2, pref=0, raw=0):
    return rec(64, [(0, 64, service_id), (64, 128, dgid), (192, 128, sgid), (320, 16, dlid),
                    (336, 16, slid), (352, 1, raw), (356, 20, flow), (376, 8, hop),
                    (384, 8, tclass), (392, 1, reversible), (393, 7, numb_path),
                    (400, 16, pkey), (416, 12, qos), (428, 4, sl), (432, 2, mtu_sel),
                    (434, 6, mtu), (440, 2, rate_sel), (442, 6, rate), (448, 2, plt_sel),
                    (450, 6, plt), (456, 8, pref)])


# PathRecord component mask bits (IBTA 15.2.5.16; kernel IB_SA_PATH_REC_*)
PR_DGID, PR_SGID, PR_DLID, PR_SLID, PR_NUMB_PATH, PR_PKEY, PR_SL = 2, 3, 4, 5, 12, 13, 15


def mask(*bits):
    v = 0
    for b in bits:
        v |= 1 << b
    return v


def mcmember_record(mgid, port_gid, qkey, mlid, pkey=0xFFFF, mtu=4, rate=3, sl=0, join=1,
                    tclass=0, plt=18, flow=0, hop=0, scope=2):
    return rec(52, [(0, 128, mgid), (128, 128, port_gid), (256, 32, qkey), (288, 16, mlid),
                    (304, 2, 2), (306, 6, mtu), (312, 8, tclass), (320, 16, pkey),
                    (336, 2, 2), (338, 6, rate), (344, 2, 2), (346, 6, plt), (352, 4, sl),
                    (356, 20, flow), (376, 8, hop), (384, 4, scope), (388, 4, join)])


def service_record(sid, sgid, pkey, lease, name, data8=()):
    f = [(0, 64, sid), (64, 128, sgid), (192, 16, pkey), (224, 32, lease),
         (384, 512, name.encode().ljust(64, b'\0'))]
    for i, v in enumerate(data8):
        f.append((896 + 8 * i, 8, v))
    return rec(176, f)


def node_record(lid, ni, desc):
    return rec(108, [(0, 16, lid), (32, 320, ni), (352, 512, node_description(desc))])


def port_info_record(lid, port, pi):
    return rec(68, [(0, 16, lid), (16, 8, port), (32, 512, pi)])


def inform_info(gid_, lid_begin, lid_end, generic, subscribe, itype, trap, qpn, resp_time,
                producer):
    return rec(36, [(0, 128, gid_), (128, 16, lid_begin), (144, 16, lid_end),
                    (176, 8, generic), (184, 8, subscribe), (192, 16, itype),
                    (208, 16, trap), (224, 24, qpn), (251, 5, resp_time),
                    (264, 24, producer)])


def multipath_record(sgids, dgids, pkey=0xFFFF, sl=0, mtu=4, rate=16, numb_path=2,
                     indep=1, sid=0):
    f = [(0, 1, 0), (4, 20, 0), (24, 8, 0), (32, 8, 0), (40, 1, 1), (41, 7, numb_path),
         (48, 16, pkey), (76, 4, sl), (80, 2, 2), (82, 6, mtu), (88, 2, 2), (90, 6, rate),
         (96, 2, 2), (98, 6, 18), (104, 8, sid >> 56), (112, 2, indep),
         (120, 8, len(sgids)), (128, 8, len(dgids)), (136, 56, sid & ((1 << 56) - 1))]
    for i, x in enumerate(list(sgids) + list(dgids)):
        f.append((192 + 128 * i, 128, x))
    return rec(24 + 16 * (len(sgids) + len(dgids)), f)

# ---- PerfMgt ------------------------------------------------------------------------------


def class_port_info(base=1, cver=1, cap=0x0600, cap2=0, resp_time=18, trap_lid=0,
                    redirect_lid=0, redirect_qp=0, redirect_qkey=0):
    return rec(72, [(0, 8, base), (8, 8, cver), (16, 16, cap), (32, 27, cap2),
                    (59, 5, resp_time), (224, 16, redirect_lid), (240, 16, 0xFFFF),
                    (264, 24, redirect_qp), (288, 32, redirect_qkey), (480, 16, trap_lid),
                    (496, 16, 0xFFFF), (512, 8, 64), (520, 24, 1), (544, 32, 0x80010000)])


def port_counters(port, sym=0, recov=0, downed=0, rcv_err=0, discards=0, vl15=0,
                  xmit_data=0, rcv_data=0, xmit_pkts=0, rcv_pkts=0, xmit_wait=0,
                  select=0xFFFF):
    return rec(44, [(8, 8, port), (16, 16, select), (32, 16, sym), (48, 8, recov),
                    (56, 8, downed), (64, 16, rcv_err), (112, 16, discards),
                    (176, 16, vl15), (192, 32, xmit_data), (224, 32, rcv_data),
                    (256, 32, xmit_pkts), (288, 32, rcv_pkts), (320, 32, xmit_wait)])


def port_counters_ext(port, xd, rd, xp, rp, uxp=0, urp=0, mxp=0, mrp=0, select=0xFF):
    return rec(72, [(8, 8, port), (16, 16, select), (64, 64, xd), (128, 64, rd),
                    (192, 64, xp), (256, 64, rp), (320, 64, uxp), (384, 64, urp),
                    (448, 64, mxp), (512, 64, mrp)])


def port_samples_control(port, tick, width, start, interval, tag, selects, status=0):
    f = [(0, 8, 0), (8, 8, port), (16, 8, tick), (29, 3, width), (34, 3, 1),
         (80, 8, 0), (94, 2, status), (224, 32, start), (256, 32, interval), (288, 16, tag)]
    for i, s in enumerate(selects):
        f.append((304 + 16 * i, 16, s))
    return rec(68, f)


def port_samples_result(tag, status, counters):
    f = [(0, 16, tag), (30, 2, status)]
    for i, c in enumerate(counters):
        f.append((32 + 32 * i, 32, c))
    return rec(64, f)


def data_sl(port, values):
    f = [(8, 8, port)]
    for i, v in enumerate(values):
        f.append((32 + 32 * i, 32, v))
    return rec(68, f)

# ---- CM LAP / APR -------------------------------------------------------------------------


def cm_lap(local, remote, rqpn, alt_llid, alt_rlid, alt_lgid, alt_rgid, sl=0, rate=3,
           tclass=0, hop=0, flow=0, ack_timeout=18, tmo=20):
    return rec(64, [(0, 32, local), (32, 32, remote), (96, 24, rqpn), (120, 5, tmo),
                    (160, 16, alt_llid), (176, 16, alt_rlid), (192, 128, alt_lgid),
                    (320, 128, alt_rgid), (448, 20, flow), (472, 8, tclass), (480, 8, hop),
                    (490, 6, rate), (496, 4, sl), (500, 1, 1), (504, 5, ack_timeout)])


def cm_apr(local, remote, status, info=b''):
    return rec(12, [(0, 32, local), (32, 32, remote), (64, 8, len(info)), (72, 8, status)]) + \
        info.ljust(72, b'\0')
