# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Join tshark's and rdmadump's per-frame columns and report every field that differs.

    compare.py fields.tsv tshark.tsv rdmadump.tsv NAME

tshark.tsv: header line, then frame.number, frame.protocols and one column per tshark field
of the spec (in spec order).  MAC control frames (tshark's "macc": PAUSE, PFC) are compared
as RDMA frames are.  rdmadump.tsv: no header, n and one column per spec line (jq
already picked the alternatives).  A frame is an RDMA frame for tshark when "infiniband" is
in its protocol list; each one must be in rdmadump's output, and every field tshark decoded
must be equal.  Frames only rdmadump reports are listed too (tshark did not see RDMA there).
"""
import calendar
import ipaddress
import sys
import time

spec_path, tshark_path, rdm_path, name = sys.argv[1:5]

spec = []
for line in open(spec_path):
    if not line.strip() or line.startswith('#'):
        continue
    key, tfields, how = line.rstrip('\n').split('\t')
    spec.append((key, tfields.split(','), how))

KIND = {'0': 'ack', '1': 'rnr_nak', '2': 'reserved', '3': 'nak'}


def as_int(s):
    s = s.strip().strip('"')
    if s in ('True', 'true'):
        return 1
    if s in ('False', 'false'):
        return 0
    return int(s, 0)


def epoch(rfc3339):
    """rdmadump's YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ as tshark's frame.time_epoch, sec.nnnnnnnnn"""
    whole, frac = rfc3339.rstrip('Z').split('.')
    t = calendar.timegm(time.strptime(whole, '%Y-%m-%dT%H:%M:%S'))
    return '%d.%s' % (t, frac)


def norm(how, tval, rval):
    """(tshark value, rdmadump value) as comparable objects"""
    if how == 'int':
        return as_int(tval), as_int(rval)
    if how == 'first':
        return as_int(tval.split(',')[0] if tval.startswith('0x') else
                      '0x' + tval.split(',')[0]), as_int(rval)
    if how == 'firstint':
        return as_int(tval.split(',')[0]), as_int(rval)
    if how == 'firstip':
        return ipaddress.ip_address(tval.split(',')[0]), ipaddress.ip_address(rval)
    if how == 'firststr':
        return tval.split(',')[0], rval
    if how == 'hex16':
        b = bytes.fromhex(tval.split(',')[0].replace(':', ''))
        r = [as_int(x) for x in rval.split(',')]
        return [int.from_bytes(b[i:i + 2], 'big') for i in range(0, len(b) - 1, 2)], r
    if how == 'hexstr':
        return bytes.fromhex(tval.split(',')[0].replace(':', '')).rstrip(b'\0').decode(
            'utf-8', 'replace'), rval
    if how == 'low3':
        return as_int(tval) & 7, as_int(rval)
    if how == 'list':
        t, r = [as_int(x) for x in tval.split(',')], [as_int(x) for x in rval.split(',')]
        return t, r[:len(t)]
    if how == 'vlans':
        return sorted(as_int(x) for x in tval.split(',')), \
            sorted(as_int(x) for x in rval.split(','))
    if how == 'ip':
        return ipaddress.ip_address(tval), ipaddress.ip_address(rval)
    if how == 'icrc':
        t = as_int(tval)
        return int.from_bytes(t.to_bytes(4, 'big'), 'little'), as_int(rval)
    if how == 'kind':
        return KIND.get(tval, tval), rval
    if how == 'time':
        return tval, epoch(rval)
    if how == 'mac':
        return tval.lower(), rval.lower()
    if how == 'enbv':
        return as_int(tval) & 0xff, as_int(rval)
    if how.startswith('nth'):
        return as_int(tval), as_int(rval.split(',')[int(how[3:])])
    return tval, rval


with open(tshark_path) as f:
    header = f.readline().rstrip('\n').split('\t')
    col = {h: i for i, h in enumerate(header)}
    tshark = {}
    for line in f:
        cells = line.rstrip('\n').split('\t')
        cells += [''] * (len(header) - len(cells))
        protos = cells[1].split(':')
        # a MAC control frame is PAUSE/PFC for tshark when it decoded one of their fields
        # (a frame cut before its opcode, or another opcode, has none: "other" for both)
        macc = 'macc' in protos and any(cells[i] != '' for h, i in col.items()
                                        if h.startswith('macc.'))
        if 'infiniband' not in protos and not macc:
            continue
        tshark[int(cells[0])] = cells

rdm = {}
for line in open(rdm_path):
    cells = line.rstrip('\n').split('\t')
    rdm[int(cells[0])] = cells[1:]

# tshark 4.0 dissects opcodes 0x40-0x5F as Mellanox DC (it labels them "DC" and reads an
# extra header word), not as IBTA RD: RDETH, DETH, AETH ... come out shifted (checked against
# the IBTA header order, the generator and lib/packet, which agree).  Their BTH and ICRC are
# still compared; their extension headers are not.
RD_SKIP = {'rdeth', 'deth', 'reth|atomiceth', 'reth', 'atomiceth', 'aeth', 'atomicacketh',
           'immdt', 'ieth'}
FRAME_ONLY = {'caplen', 'len', 'ts'}

# where the PAUSE / PFC parameters end: Ethernet header, opcode, pause_time / vector + times
MACC_END = {'pause': 14 + 2 + 2, 'pfc': 14 + 2 + 2 + 16}

diffs, compared, skipped, empty, macc_cut = [], 0, 0, 0, 0
for n in sorted(tshark):
    t = tshark[n]
    if n not in rdm:
        decoded = [k for k, tf, _ in spec if k not in FRAME_ONLY and
                   any(t[col[f]] != '' for f in tf) and not tf[0].startswith(('ip', 'udp', 'vlan'))]
        if not decoded:
            empty += 1		# cut inside the LRH: tshark names the protocol, decodes nothing
            continue
        diffs.append('frame %d: tshark decodes RDMA (%s: %s), rdmadump printed nothing'
                     % (n, t[1], ','.join(decoded)))
        continue
    r = rdm[n]
    op = t[col['infiniband.bth.opcode']]
    macc = 'macc' in t[1].split(':')
    rd = op != '' and 0x40 <= as_int(op) <= 0x5F
    rmpp_type, rmpp_seg = (next((r[i] if i < len(r) else None for i, (k, _, _) in
                                 enumerate(spec) if k == key), None)
                           for key in ('mad.rmpp.type', 'mad.rmpp.seg_num'))
    for i, (key, tfields, how) in enumerate(spec):
        if how == 'vlans':
            tval = ','.join(t[col[f]] for f in tfields if t[col[f]] != '')
        else:
            tval = next((t[col[f]] for f in tfields if t[col[f]] != ''), '')
        if tval == '':
            continue
        if key.startswith('eth_') and not macc:
            continue		# rdmadump shows MAC addresses for PAUSE/PFC frames only
        if rd and key.split('.')[0] in RD_SKIP:
            skipped += 1
            continue
        rval = r[i] if i < len(r) else ''
        if key.startswith('mad.sa_') and (rmpp_type not in (None, '', '0', '1') or
                                          rmpp_seg not in (None, '', '0', '1')):
            # RMPP ACK/STOP/ABORT carry no records (tshark decodes the zeros of their data);
            # a later DATA segment starts inside a record, where tshark starts decoding
            continue
        if how in ('hexstr', 'firststr') and rval == '' and norm(how, tval, rval)[0] == '':
            compared += 1	# an empty text: jq's "" reads as missing
            continue
        if macc and rval == '' and key.split('.')[0] in ('pause', 'pfc') and \
                min(as_int(t[col['frame.cap_len']]), as_int(t[col['frame.len']])) < \
                MACC_END[key.split('.')[0]] + (4 if 'vlan' in t[1].split(':') else 0):
            # the parameters are not all there (cut by the snap length, or the frame ends
            # inside them): tshark shows the part it has, rdmadump never claims a header it
            # stopped in (truncated / invalid mac_control)
            macc_cut += 1
            continue
        compared += 1
        if rval == '':
            diffs.append('frame %d: %s: tshark=%s rdmadump=(missing)' % (n, key, tval))
            continue
        try:
            a, b = norm(how, tval, rval)
        except ValueError as e:
            diffs.append('frame %d: %s: tshark=%s rdmadump=%s (%s)' % (n, key, tval, rval, e))
            continue
        if a != b:
            diffs.append('frame %d: %s: tshark=%s rdmadump=%s' % (n, key, tval, rval))
cut_only = 0
for n in sorted(set(rdm) - set(tshark)):
    r = rdm[n]
    if r[0] != '' and r[1] != '' and as_int(r[0]) < as_int(r[1]):
        cut_only += 1		# a cut frame tshark gave up on before its BTH: fine
        continue
    diffs.append('frame %d: rdmadump reports an RDMA packet, tshark does not' % n)

for d in diffs:
    print('%s %s' % (name, d))
print('oracle: %s: %d RDMA frames (tshark), %d rdmadump objects (%d cut ones only it '
      'decodes, %d where tshark decodes no field), %d fields compared, %d RD fields skipped, '
      '%d MAC control fields of cut frames skipped, %d differences'
      % (name, len(tshark), len(rdm), cut_only, empty, compared, skipped, macc_cut,
         len(diffs)))
sys.exit(1 if diffs else 0)
