#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Seeds of fuzz_ring (tests/fuzz/corpus-ring/): one mode byte (tests/fuzz/fuzz_ring.c: bit 0
the whole file as it is, bit 1 dump -j, bit 2 header format 0, bit 3 dump --since 1000),
then a ring's data area, or a whole ring file.  The records are the recorder's of every type
(rdmadiag/ring.h, format 1): START, MARKER, STOP text, EVENT in its binary layout, CONN,
two COUNTERS snapshots of a port (so that deltas are printed) and a GONE port between
others, NETLINK, QP, GID; then the same malformed (fields missing, an EVENT with an unknown
flag, a string longer than its field), out of order and torn, a header claiming 4 GiB over
64 bytes, garbage.  CRCs are real (zlib.crc32 is the ring's CRC-32), so the whole-file
seeds read as they are.  Run from the top of the tree: python3 tests/fuzz/mk_seeds_ring.py"""
import os
import struct
import zlib

OUT = "tests/fuzz/corpus-ring"
os.makedirs(OUT, exist_ok=True)
T0 = 1764639000 * 10**9          # 2025-12-02T01:30:00Z, in ns

START, MARKER, EVENT, CONN, COUNTERS, PORT, NETLINK, STOP, QP, GID = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10


def record(rtype, seq, t, payload):
    hdr = struct.pack("<IIIIQQ", 0x43524452, len(payload), rtype, 0, seq, t)
    crc = zlib.crc32(hdr + payload)
    hdr = hdr[:12] + struct.pack("<I", crc) + hdr[16:]
    rec = hdr + payload
    return rec + b"\0" * (-len(rec) % 8)


def addr(fam, port, a, scope=0):
    return struct.pack("<HH", fam, port) + a.ljust(16, b"\0") + struct.pack("<I", scope)


def s16(b):
    return struct.pack("<H", len(b)) + b


def event(name, cm_event=-1, status=0, flags=0x7, system=b"rdma_cma", comm=b"rping",
          detail=b"cm.id=1", fam=4):
    f = struct.pack("<Q", T0)
    f += struct.pack("<IIIIiiiIIiiiIII", 1, 4242, flags, 1, 0, cm_event, status,
                     0, 0, 0, 0, 0, 0, 0, 0)
    f += struct.pack("<Q", 0x1234)
    f += struct.pack("<iiII", 5, 15, 0, 1)
    f += addr(fam, 7471, bytes([198, 18, 0, 1])) + addr(fam, 7499, bytes([198, 18, 0, 2]))
    f += s16(comm) + s16(system) + s16(name.encode()) + s16(b"rxe0") + s16(detail)
    return f


def ring_area(recs):
    return b"".join(record(t, i, T0 + i * 10**8, p) for i, (t, p) in enumerate(recs))


def ring_file(area, size=None, fmt=1):
    size = size or max(4096, 64 + len(area) + (-len(area) % 8))
    h = bytearray(64)
    h[0:8] = b"RDIAGRNG"
    struct.pack_into("<IIQI", h, 8, 1, 64, size, fmt)
    struct.pack_into("<I", h, 60, zlib.crc32(bytes(h[:60])))
    return bytes(h) + area + b"\0" * (size - 64 - len(area))


GOOD = [
    (START, b"interval 1.000 s, ring 4096 bytes"),
    (PORT, b"rxe0\t1\tACTIVE\tLINK_UP"),
    (PORT, b"rxe1\t1\tACTIVE\tLINK_UP"),
    (GID, b"rxe0\t1\t1\tadded\tfe80::1\tRoCE v2\teth0\t"),
    (GID, b"rxe0\t1\t1\tchanged\tfe80::2\tRoCE v2\teth0\tfe80::1"),
    (COUNTERS, b"rxe0\t1\nrcvd_pkts\t10\nsent_pkts\t5\n"),
    (NETLINK, b"link\tnew\teth0\teth0 UP state UP mtu 1500"),
    (EVENT, event("cm_event_handler", cm_event=4)),
    (EVENT, event("cm_event_done", cm_event=8, status=-110)),
    (EVENT, event("icm_send_req", system=b"ib_cma", flags=0x1f, fam=6)),
    (QP, b"rxe0\t1\t17\tRC\t\tINIT\t4242\trping"),
    (QP, b"rxe0\t1\t17\tRC\tRTS\tERR\t0\t"),
    (CONN, b"1\t4242\trping\t198.18.0.1:7471\t198.18.0.2:7499\tfailed\tno_listener\t"
           b"REJECTED\t8\t1\t0\tno listener on 198.18.0.2:7499"),
    (MARKER, b"failed connection cm.id 1 to 198.18.0.2:7499: no_listener"),
    (COUNTERS, b"rxe0\t1\nrcvd_pkts\t1244\nsent_pkts\t5\n"),
    (PORT, b"rxe0\t1\tGONE\t"),
    (COUNTERS, b"rxe0\t1\nrcvd_pkts\t3\nsent_pkts\t1\n"),
    (STOP, b"17 records, 0 laps"),
]
BAD = [
    (PORT, b"rxe0\t1"),
    (NETLINK, b"link"),
    (QP, b"rxe0\t1\t17"),
    (GID, b"rxe0"),
    (CONN, b"1\t2\t3"),
    (COUNTERS, b"rxe0 no tab\n"),
    (COUNTERS, b"rxe0\t1\nno value line"),
    (EVENT, event("x", flags=0x20)),
    (EVENT, event("x", comm=b"c" * 40)),
    (EVENT, event("x")[:50]),
    (99, b"a type nobody knows"),
]

seeds = {
    "all-text": bytes([0]) + ring_area(GOOD),
    "all-json": bytes([2]) + ring_area(GOOD),
    "all-json-since": bytes([10]) + ring_area(GOOD),
    "format0": bytes([4]) + ring_area(GOOD),
    "bad-text": bytes([0]) + ring_area(BAD),
    "bad-json": bytes([2]) + ring_area(BAD),
    "file-all": bytes([3]) + ring_file(ring_area(GOOD)),
    "file-4g-sparse-header": bytes([1]) + ring_file(b"", size=1 << 32)[:64],
    "file-garbage": bytes([1]) + bytes((i * 37 + 11) & 0xff for i in range(300)),
}
# out of order (a wrapped ring) and torn: the newest records first, the last one cut
area = ring_area(GOOD)
recs = [record(t, i, T0 + i * 10**8, p) for i, (t, p) in enumerate(GOOD)]
wrapped = b"".join(recs[9:]) + b"".join(recs[:9])
seeds["wrapped"] = bytes([2]) + wrapped
seeds["torn"] = bytes([0]) + area[:len(area) - 20]
seeds["file-wrapped"] = bytes([1]) + ring_file(wrapped)
for name, data in seeds.items():
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
