# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The management-datagram fixture captures (native InfiniBand, LINKTYPE 247): subnet
management (LID-routed and directed-route SMPs, traps, port state changes), subnet
administration (RMPP-segmented tables, PathRecord queries before a CM REQ, error statuses,
unanswered and resent requests), performance management, and CM LAP/APR/SIDR with the UD
traffic that uses the SIDR Q_Key; plus one capture cut at every MAD header boundary.

Every transaction written is recorded (class, attribute, TID, answered or not, latency,
resends) in the capture's manifest entry under "mad", from how it was built."""
import struct

import madgen as m
import rocegen as g
from scenario import Capture, Pkt, RC, build

SM_LID, SW_LID, A_LID, B_LID, C_LID = 1, 2, 5, 9, 13
GUID = {SM_LID: 0x0002c90300000001, SW_LID: 0x0002c90300000002, A_LID: 0x0002c90300000005,
        B_LID: 0x0002c90300000009, C_LID: 0x0002c9030000000d, 17: 0x0002c90300000011,
        21: 0x0002c90300000015}
CLASS_NAME = {0x01: 'SUBN_LID_ROUTED', 0x81: 'SUBN_DIRECTED_ROUTE', 0x03: 'SUBN_ADM',
              0x04: 'PERF', 0x07: 'CM'}


def port_gid(lid):
    return m.gid(m.SUBNET, GUID[lid])


def path(slid, dlid, smi=False):
    return g.Path('ib', slid=slid, dlid=dlid, vl=15 if smi else 0)


class MadCapture(Capture):
    """a Capture whose manifest also lists the MAD transactions written into it"""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.mad = []
        self.psn = {}

    def manifest(self):
        return dict(super().manifest(), mad=self.mad)

    def mad_put(self, slid, dlid, mad_bytes, dt_us=None, caplen=None, extra=None):
        smi = mad_bytes[1] in (0x01, 0x81)
        qp = 0 if smi else 1
        p = path(slid, dlid, smi)
        key = (slid, qp)    # one PSN sequence per sending QP, to every destination
        psn = self.psn.get(key, 0)
        self.psn[key] = psn + 1
        pkt = build(p, 0x64, qp, psn, mad_bytes, qkey=0 if smi else g.QP1_QKEY, srcqp=qp)
        _, mclass, _, method, status, _, tid, attr, _, _ = struct.unpack(
            '!BBBBHHQHHI', mad_bytes[:24])
        pkt.meta['mad'] = {'mgmt_class': mclass, 'method': method, 'attr_id': attr,
                           'status': status, 'tid': '0x%016x' % tid}
        if extra:
            pkt.meta.update(extra)
        return self.put(pkt, dt_us=dt_us, caplen=caplen)

    def txn(self, req, resp, client, server, latency_us=40, resends=(), answer=True):
        """a request from client to server, resent after each gap in resends (us), then the
        answer latency_us after the last send (responses: a list for RMPP segments)"""
        first = self.mad_put(client, server, req)
        frames = [first]
        for gap in resends:
            frames.append(self.mad_put(client, server, req, dt_us=gap))
        resp_frames = []
        if answer:
            resp = resp if isinstance(resp, list) else [resp]
            for i, r in enumerate(resp):
                resp_frames.append(self.mad_put(server, client, r,
                                                dt_us=latency_us if i == 0 else 5))
        _, mclass, _, method, _, _, tid, attr, _, _ = struct.unpack('!BBBBHHQHHI', req[:24])
        e = {'class': CLASS_NAME.get(mclass, mclass), 'mgmt_class': mclass,
             'method': method, 'attr_id': attr, 'tid': '0x%016x' % tid,
             'requester_lid': client, 'responder_lid': server,
             'request_frames': frames, 'retries': len(resends),
             'answered': bool(answer)}
        if answer:
            st = struct.unpack('!H', resp[0][4:6])[0]
            if mclass == 0x81:
                st &= 0x7FFF
            e.update(response_frame=resp_frames[0], status=st,
                     latency_ns=int(latency_us * 1000))
        self.mad.append(e)
        return e


def fx_mad_smp():
    cap = MadCapture('mad_smp.pcap', 'ib', desc='subnet management on QP0: a directed-route '
                     'sweep (NodeInfo, SwitchInfo through port 1), LID-routed Get/GetResp of '
                     'every SMP attribute, PortInfo Set DOWN->ARMED->ACTIVE, traps 128 and 257 '
                     'with their TrapRepress, an error status, and a PortInfo Get to an '
                     'absent LID sent 3 times with the same TID and never answered')
    tid = [0x0000534d00000000]

    def t():
        tid[0] += 1
        return tid[0]

    sm, sw, a = SM_LID, SW_LID, A_LID
    # directed route: the SM's own node (0 hops), then the switch behind port 1
    x = t()
    cap.txn(m.dr_smp(0x11, x), m.dr_smp(0x11, x, m.node_info(1, 1, GUID[sm], GUID[sm],
                                                              GUID[sm]), m.GET_RESP, d=1),
            sm, sm, latency_us=12)
    x = t()
    cap.txn(m.dr_smp(0x11, x, hop_ptr=0, hops=[1]),
            m.dr_smp(0x11, x, m.node_info(2, 36, GUID[sw], GUID[sw], GUID[sw], dev=0xcf08),
                     m.GET_RESP, d=1, hop_ptr=1, hops=[1], ret=[1]), sm, sw, latency_us=25)
    x = t()
    cap.txn(m.dr_smp(0x12, x, hops=[1]),
            m.dr_smp(0x12, x, m.switch_info(), m.GET_RESP, d=1, hop_ptr=1, hops=[1],
                     ret=[1]), sm, sw, latency_us=22)
    # LID-routed Get of each attribute of host A
    for attr, data, mod in ((0x10, m.node_description('hostA mlx5_0'), 0),
                            (0x11, m.node_info(1, 1, GUID[a], GUID[a], GUID[a]), 0),
                            (0x14, m.guid_info([GUID[a], 0, 0, 0, 0, 0, 0, 0]), 0),
                            (0x15, m.port_info(a, sm, 1, 5), 1),
                            (0x16, m.pkey_table([0xFFFF, 0x8001, 0x0002]), 0),
                            (0x17, m.sl2vl([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 7]),
                             0x00010001),
                            (0x18, m.vlarb([(0, 64), (1, 32), (2, 16), (3, 8)]), 0x00010001),
                            (0x20, m.sm_info(GUID[sm], 0, 1234, 15, 3), 0)):
        x = t()
        cap.txn(m.smp(attr, x, attr_mod=mod), m.smp(attr, x, data, m.GET_RESP, attr_mod=mod),
                sm, a, latency_us=30 + attr)
    for attr, data in ((0x19, m.lft([0, 1, 2, 3, 4, 5, 6, 7])),
                       (0x1B, m.mft([0x0003, 0x0006, 0x000c]))):
        x = t()
        cap.txn(m.smp(attr, x), m.smp(attr, x, data, m.GET_RESP), sm, sw, latency_us=28)
    # bring A's port up: Set ARMED, Set ACTIVE (the responses show the new state)
    for state in (3, 4):
        x = t()
        cap.txn(m.smp(0x15, x, m.port_info(a, sm, state, 5), m.SET, attr_mod=1),
                m.smp(0x15, x, m.port_info(a, sm, state, 5), m.GET_RESP, attr_mod=1),
                sm, a, latency_us=45)
    # traps: 128 from the switch (link state change), 257 from B (bad P_Key); TrapRepress
    x = 0x0000545200000001
    cap.txn(m.smp(0x02, x, m.notice(128, 2, sw, [(80, 16, sw)]), m.TRAP),
            m.smp(0x02, x, m.notice(128, 2, sw, [(80, 16, sw)]), m.REPRESS), sw, sm,
            latency_us=15)
    x += 1
    cap.txn(m.smp(0x02, x, m.notice(257, 1, B_LID,
                                    [(96, 16, B_LID), (112, 16, a), (128, 32, 0x8002),
                                     (160, 4, 0), (168, 24, 0x12), (200, 24, 0x11)]), m.TRAP),
            m.smp(0x02, x, b'', m.REPRESS), B_LID, sm, latency_us=18)
    # an attribute the port does not support: METHOD_ATTR_UNSUPPORTED
    x = t()
    cap.txn(m.smp(0x31, x), m.smp(0x31, x, b'', m.GET_RESP, status=0x000C), sm, a,
            latency_us=20)
    # nobody at C: sent three times with the same TID, never answered
    x = t()
    cap.txn(m.smp(0x15, x, attr_mod=1), None, sm, C_LID, resends=(200000, 200000),
            answer=False)
    return cap


def fx_mad_sa():
    cap = MadCapture('mad_sa.pcap', 'ib', desc='subnet administration on QP1: ClassPortInfo; '
                     'a PathRecord GetTable answered in 3 RMPP segments and acknowledged; a '
                     'PathRecord Get for B then the CM REQ to B that uses it (P_Key 0x8001); '
                     'MCMemberRecord join, ServiceRecord, NodeRecord, PortInfoRecord and '
                     'InformInfo tables; a MultiPathRecord GetMulti; ERR_NO_RECORDS for an '
                     'unknown GID; a PathRecord Get for C resent twice and never answered')
    tid = [0x0000534100000000]

    def t():
        tid[0] += 1
        return tid[0]

    sm, a, b = SM_LID, A_LID, B_LID
    x = t()
    cap.txn(m.sa(0x01, x), m.sa(0x01, x, m.class_port_info(cver=2, cap=0x2602), m.GET_RESP),
            a, sm, latency_us=35)
    # all paths from A: 7 records in 3 segments, the ACK of the last window
    recs = [m.path_record(port_gid(d), port_gid(a), d, a, pkey=0xFFFF if d != b else 0x8001,
                          sl=d % 4) for d in (SM_LID, SW_LID, A_LID, B_LID, C_LID, 17, 21)]
    x = t()
    req = m.sa(0x35, x, m.path_record(0, port_gid(a), 0, 0), m.GET_TABLE,
               comp_mask=m.mask(m.PR_SGID, m.PR_NUMB_PATH))
    segs = m.sa_table(0x35, x, recs, 64)
    cap.txn(req, segs, a, sm, latency_us=300)
    cap.mad_put(a, sm, m.sa_ack(0x35, x, len(segs), len(segs)))
    # A asks for the path to B, then connects to B with what it got
    x = t()
    pr = m.path_record(port_gid(b), port_gid(a), b, a, pkey=0x8001, sl=1, mtu=4)
    cap.txn(m.sa(0x35, x, m.path_record(port_gid(b), port_gid(a), 0, 0, numb_path=1),
                 m.GET, comp_mask=m.mask(m.PR_DGID, m.PR_SGID, m.PR_NUMB_PATH)),
            m.sa(0x35, x, pr, m.GET_RESP, attr_offset=8), a, sm, latency_us=120)
    cap.req_b = cap.mad_put(a, b, m.cm(0x10, 0x434d000000000001, g.cm_req(
        0x1000, g.service_id('IB', 1), 0x000100, 0x1000, pkey=0x8001, slid=a, dlid=b,
        sgid=port_gid(a), dgid=port_gid(b), mtu=4,
        priv=g.cma_hdr('10.0.0.5', '10.0.0.9', 40001))), dt_us=3000)
    cap.cm.append({'frame': cap.req_b, 'msg': 'REQ', 'tid': '0x434d000000000001',
                   'src': 'lid %d' % a, 'dst': 'lid %d' % b, 'local_comm_id': 0x1000})
    # a PathRecord for LID 17 in partition 0x8002, then a REQ to it with the default P_Key:
    # the REQ did not use what the SA said
    x = t()
    pr17 = m.path_record(port_gid(17), port_gid(a), 17, a, pkey=0x8002, sl=2, mtu=4)
    cap.txn(m.sa(0x35, x, m.path_record(port_gid(17), port_gid(a), 0, 0), m.GET,
                 comp_mask=m.mask(m.PR_DGID, m.PR_SGID)),
            m.sa(0x35, x, pr17, m.GET_RESP, attr_offset=8), a, sm, latency_us=110)
    n = cap.mad_put(a, 17, m.cm(0x10, 0x434d000000000002, g.cm_req(
        0x1001, g.service_id('IB', 2), 0x000101, 0x2000, pkey=0xFFFF, slid=a, dlid=17,
        sgid=port_gid(a), dgid=port_gid(17), mtu=4,
        priv=g.cma_hdr('10.0.0.5', '10.0.0.17', 40003))), dt_us=2000)
    cap.cm.append({'frame': n, 'msg': 'REQ', 'tid': '0x434d000000000002',
                   'src': 'lid %d' % a, 'dst': 'lid 17', 'local_comm_id': 0x1001})
    # multicast join
    x = t()
    mgid = bytes.fromhex('ff12401bffff00000000000000000001')
    mc = m.mcmember_record(mgid, port_gid(a), 0x0B1B, 0xC001, join=1)
    cap.txn(m.sa(0x38, x, mc, m.SET, comp_mask=m.mask(0, 1, 16)),
            m.sa(0x38, x, mc, m.GET_RESP, attr_offset=7), a, sm, latency_us=250)
    # tables of one record each kind
    for attr, rec, rlen in ((0x31, m.service_record(0x1000000000000001, port_gid(b), 0xFFFF,
                                                    0xFFFFFFFF, 'rdma test service',
                                                    [1, 2, 3]), 176),
                            (0x11, m.node_record(b, m.node_info(1, 1, GUID[b], GUID[b],
                                                                GUID[b]), 'hostB mlx5_0'), 112),
                            (0x12, m.port_info_record(b, 1, m.port_info(b, sm, 4, 5)), 72)):
        x = t()
        cap.txn(m.sa(attr, x, rec[:8], m.GET_TABLE, comp_mask=m.mask(0)),
                m.sa_table(attr, x, [rec], rlen), a, sm, latency_us=90)
    # subscribe to GID-in-service traps
    x = t()
    ii = m.inform_info(b'\0' * 16, 0xFFFF, 0, 1, 1, 0xFFFF, 64, 1, 18, 0xFFFFFF)
    cap.txn(m.sa(0x03, x, ii, m.SET), m.sa(0x03, x, ii, m.GET_RESP), a, sm, latency_us=60)
    # MultiPathRecord: GetMulti answered with PathRecords
    x = t()
    mp = m.multipath_record([port_gid(a)], [port_gid(b)], pkey=0x8001)
    resp = m.sa_table(0x35, x, [pr, pr], 64)
    resp = [r[:3] + bytes([0x94]) + r[4:] for r in resp]	# GetMultiResp
    cap.txn(m.sa(0x3A, x, mp, 0x14, comp_mask=m.mask(19, 20, 23, 24)), resp, a, sm,
            latency_us=140)
    # an unknown destination: no records
    x = t()
    cap.txn(m.sa(0x35, x, m.path_record(m.gid(m.SUBNET, 0xdead), port_gid(a), 0, 0), m.GET,
                 comp_mask=m.mask(m.PR_DGID, m.PR_SGID)),
            m.sa(0x35, x, b'', m.GET_RESP, status=0x0300), a, sm, latency_us=80)
    # C: the SA never answers; the REQ goes out anyway (a rdma_resolve_route timeout)
    x = t()
    cap.txn(m.sa(0x35, x, m.path_record(port_gid(C_LID), port_gid(a), 0, 0), m.GET,
                 comp_mask=m.mask(m.PR_DGID, m.PR_SGID)), None, a, sm,
            resends=(100000, 100000), answer=False)
    return cap


def fx_mad_perf():
    cap = MadCapture('mad_perf.pcap', 'ib', desc='performance management on QP1 from the SM '
                     'node to host A: ClassPortInfo, PortCounters Get and Set (clear), '
                     'PortCountersExtended, PortSamplesControl Set and PortSamplesResult, '
                     'PortXmitDataSL and PortRcvDataSL; PortRcvErrorDetails answered '
                     'METHOD_ATTR_UNSUPPORTED; a PortCounters Get to C never answered')
    tid = [0x0000504d00000000]

    def t():
        tid[0] += 1
        return tid[0]

    sm, a = SM_LID, A_LID
    x = t()
    cap.txn(m.perf(0x01, x), m.perf(0x01, x, m.class_port_info(cap=0x0600), m.GET_RESP),
            sm, a, latency_us=20)
    pc = m.port_counters(1, sym=3, recov=1, downed=2, rcv_err=5, discards=7, vl15=1,
                         xmit_data=0x12345678, rcv_data=0x23456789, xmit_pkts=1000,
                         rcv_pkts=2000, xmit_wait=77)
    x = t()
    cap.txn(m.perf(0x12, x, m.port_counters(1)), m.perf(0x12, x, pc, m.GET_RESP), sm, a,
            latency_us=24)
    x = t()
    cap.txn(m.perf(0x12, x, m.port_counters(1), m.SET),
            m.perf(0x12, x, m.port_counters(1), m.GET_RESP), sm, a, latency_us=26)
    x = t()
    cap.txn(m.perf(0x1D, x, m.port_counters_ext(1, 0, 0, 0, 0)),
            m.perf(0x1D, x, m.port_counters_ext(1, 0x123456789ab, 0x23456789abc, 1 << 33,
                                                 5, 4, 3, 2, 1), m.GET_RESP),
            sm, a, latency_us=24)
    x = t()
    psc = m.port_samples_control(1, 1, 4, 0, 1000000, 0x77, [0x0001, 0x0002, 0x4000])
    cap.txn(m.perf(0x10, x, psc, m.SET), m.perf(0x10, x, psc, m.GET_RESP), sm, a,
            latency_us=30)
    x = t()
    cap.txn(m.perf(0x11, x), m.perf(0x11, x, m.port_samples_result(0x77, 2, [10, 20, 30]),
                                    m.GET_RESP), sm, a, latency_us=31)
    for attr in (0x36, 0x37):
        x = t()
        cap.txn(m.perf(attr, x, m.data_sl(1, [])),
                m.perf(attr, x, m.data_sl(1, [i * 100 for i in range(16)]), m.GET_RESP),
                sm, a, latency_us=27)
    x = t()
    cap.txn(m.perf(0x15, x), m.perf(0x15, x, b'', m.GET_RESP, status=0x000C), sm, a,
            latency_us=22)
    x = t()
    cap.txn(m.perf(0x12, x, m.port_counters(1)), None, sm, C_LID, resends=(500000,),
            answer=False)
    return cap


def fx_mad_cm():
    cap = MadCapture('mad_cm_lap_sidr.pcap', 'ib', desc='CM on QP1: REQ/REP/RTU (P_Key '
                     '0x8001), RC data with that P_Key and one packet with 0xffff; LAP '
                     'answered by APR; SIDR_REQ/SIDR_REP giving QP 0x000300 the Q_Key '
                     '0x11111111, then UD sends to that QP with Q_Key 0x11111111 and one with '
                     '0x22222222')
    a, b = A_LID, B_LID
    pa, pb = path(a, b), path(b, a)

    def cm_put(src, dst, attr, tid, body, msg, entry):
        """a CM MAD, listed with the CM messages of the capture (LAP and APR included)"""
        n = cap.mad_put(src, dst, m.cm(attr, tid, body))
        cap.cm.append(dict(frame=n, msg=msg, tid='0x%016x' % tid, src='lid %d' % src,
                           dst='lid %d' % dst, **entry))
        return n

    cm_put(a, b, 0x10, 0x434d000000000011, g.cm_req(
        0x2000, g.service_id('IB', 2), 0x000200, 0x100, pkey=0x8001, slid=a, dlid=b,
        sgid=port_gid(a), dgid=port_gid(b), mtu=4, priv=g.cma_hdr('10.0.0.5', '10.0.0.9', 40002)),
        'REQ', {'local_comm_id': 0x2000})
    cm_put(b, a, 0x13, 0x434d000000000011, g.cm_rep(0x3000, 0x2000, 0x000201, 0x200), 'REP',
           {'local_comm_id': 0x3000})
    cm_put(a, b, 0x14, 0x434d000000000012, g.cm_rtu(0x2000, 0x3000), 'RTU',
           {'local_comm_id': 0x2000})
    c = RC(pa, 0x000200, 0x000201, psn=0x100, pkey=0x8001)
    cap.put(c.send(64))
    cap.put(c.ack())
    bad = RC(pa, 0x000200, 0x000201, psn=c.psn, pkey=0xFFFF)
    cap.put(bad.send(64))
    lap = m.cm_lap(0x2000, 0x3000, 0x000201, a + 100, b + 100, port_gid(a), port_gid(b),
                   sl=2)
    cm_put(a, b, 0x19, 0x434d000000000013, lap, 'LAP', {'local_comm_id': 0x2000})
    cm_put(b, a, 0x1A, 0x434d000000000013, m.cm_apr(0x3000, 0x2000, 0), 'APR',
           {'local_comm_id': 0x3000})
    cm_put(a, b, 0x17, 0x434d000000000014, g.cm_sidr_req(0x4000, g.service_id('UDP', 7),
                                                         0xFFFF), 'SIDR_REQ',
           {'local_comm_id': 0x4000})
    cm_put(b, a, 0x18, 0x434d000000000014, g.cm_sidr_rep(0x4000, 0, 0x000300,
                                                         g.service_id('UDP', 7), 0x11111111),
           'SIDR_REP', {'local_comm_id': 0x4000})
    cap.put(build(pa, 0x64, 0x000300, 0, b'ud ok', qkey=0x11111111, srcqp=0x000301))
    cap.put(build(pa, 0x64, 0x000300, 1, b'ud ok', qkey=0x11111111, srcqp=0x000301))
    cap.put(build(pa, 0x64, 0x000300, 2, b'ud bad', qkey=0x22222222, srcqp=0x000301))
    return cap


def fx_mad_truncated():
    cap = MadCapture('mad_truncated.pcap', 'ib', desc='MADs cut at every header boundary: '
                     'an SA GetTableResp segment after the MAD header, inside the RMPP '
                     'header, after it, inside the SA header, inside the first record, after '
                     'it; a directed-route SMP inside its class header, inside the data, '
                     'inside the paths; a PerfMgt GetResp inside the reserved header and '
                     'inside PortCounters; and one SA MAD the LRH says is 100 bytes long '
                     '(invalid: shorter on the wire than its header)')
    hdr = 8 + 12 + 8		# LRH BTH DETH
    seg = m.sa_table(0x35, 0x99, [m.path_record(port_gid(B_LID), port_gid(A_LID), B_LID,
                                                A_LID)] * 3, 64)[0]
    for cut, where in ((hdr + 24, 'mad'), (hdr + 30, 'rmpp'), (hdr + 36, 'after_rmpp'),
                       (hdr + 50, 'sa'), (hdr + 56 + 40, 'record'), (hdr + 56 + 64, 'record_end')):
        cap.mad_put(SM_LID, A_LID, seg, caplen=cut, extra={'cut_in': where})
    dr = m.dr_smp(0x15, 0x98, m.port_info(A_LID, SM_LID, 4, 5), m.GET_RESP, d=1, hop_ptr=2,
                  hops=[1, 3], ret=[2, 1])
    for cut, where in ((hdr + 40, 'smp'), (hdr + 100, 'smp_data'), (hdr + 200, 'dr_path')):
        cap.mad_put(A_LID, SM_LID, dr, caplen=cut, extra={'cut_in': where})
    pc = m.perf(0x12, 0x97, m.port_counters(1, sym=1), m.GET_RESP)
    for cut, where in ((hdr + 40, 'perf'), (hdr + 64 + 20, 'perf_data')):
        cap.mad_put(A_LID, SM_LID, pc, caplen=cut, extra={'cut_in': where})
    # the whole MAD is not on the wire: the LRH and the frame end after 100 bytes of it
    short = m.sa(0x35, 0x96, b'', m.GET)[:100]
    cap.mad_put(A_LID, SM_LID, short, extra={'invalid_in': 'mad_data'})
    return cap


def fx_mad_rmpp():
    """RMPP reassembly: three PathRecord GetTable answers of 7 records in 3 segments each;
    the meta of a frame says what reassembly must make of it"""
    cap = MadCapture('mad_rmpp.pcap', 'ib', desc='SA GetTable responses split over RMPP '
                     'segments: one whole, one with segment 2 never sent, one with segment 2 '
                     'sent twice; records split across segments must appear once, whole')
    sm, a = SM_LID, A_LID
    tid = [0x0000524d00000000]

    def table(first_dlid):
        return [m.path_record(m.gid(m.SUBNET, 0x0002c90300000000 + d), port_gid(a), d, a,
                              sl=d % 4)
                for d in range(first_dlid, first_dlid + 7)]

    def ask():
        tid[0] += 1
        cap.mad_put(a, sm, m.sa(0x35, tid[0], m.path_record(0, port_gid(a), 0, 0),
                                m.GET_TABLE, comp_mask=m.mask(m.PR_SGID)))
        return tid[0]

    def done(recs, nseg):
        return {'rmpp_done': {'segments': nseg, 'length': 64 * len(recs),
                              'records': [{'dlid': struct.unpack('!H', r[40:42])[0],
                                           'slid': struct.unpack('!H', r[42:44])[0],
                                           'sl': r[53] & 0xF} for r in recs]}}

    # 1: whole, in order
    recs = table(32)
    x = ask()
    segs = m.sa_table(0x35, x, recs, 64)
    for i, s in enumerate(segs):
        cap.mad_put(sm, a, s, dt_us=100 if i == 0 else 5,
                    extra=done(recs, len(segs)) if i == len(segs) - 1 else None)
    cap.mad_put(a, sm, m.sa_ack(0x35, x, len(segs), len(segs)))
    # 2: segment 2 lost on the way: the last one says so, nothing is reassembled
    recs = table(48)
    x = ask()
    segs = m.sa_table(0x35, x, recs, 64)
    cap.mad_put(sm, a, segs[0], dt_us=100)
    cap.mad_put(sm, a, segs[2], dt_us=5, extra={'rmpp_missing': {'seg': 2, 'of': 3}})
    # 3: segment 2 resent (the sender's go-back after a lost ACK): stored once
    recs = table(64)
    x = ask()
    segs = m.sa_table(0x35, x, recs, 64)
    cap.mad_put(sm, a, segs[0], dt_us=100)
    cap.mad_put(sm, a, segs[1], dt_us=5)
    cap.mad_put(sm, a, segs[1], dt_us=5, extra={'rmpp_resent': True})
    cap.mad_put(sm, a, segs[2], dt_us=5, extra=done(recs, len(segs)))
    return cap


def fx_mad():
    return [fx_mad_smp(), fx_mad_sa(), fx_mad_perf(), fx_mad_cm(), fx_mad_truncated(),
            fx_mad_rmpp()]
