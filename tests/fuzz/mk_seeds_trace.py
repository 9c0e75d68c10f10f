#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Seeds of fuzz_traceformat (tests/fuzz/corpus-traceformat/fmt-SYSTEM-EVENT): every event
format of tests/fixtures/trace/rxe-6.1/events/{rdma_cma,ib_cma,ib_mad}, a NUL, the system's
byte (0 rdma_cma, 1 ib_cma, 2 ib_mad), then the first of the QEMU tier's raw pages
(tests/fuzz/corpus-trace/page0, page1: fuzz_trace's seeds) that has a record of that event,
or nothing when none has.  Run from the top of the tree: python3 tests/fuzz/mk_seeds_trace.py"""
import os
import re
import struct

FX = "tests/fixtures/trace/rxe-6.1/events"
PAGES = "tests/fuzz/corpus-trace"
OUT = "tests/fuzz/corpus-traceformat"
os.makedirs(OUT, exist_ok=True)


def event_ids(page):
    """the common_type of every record of a 64-bit little-endian sub-buffer"""
    commit = struct.unpack_from("<Q", page, 8)[0] & 0xfffff
    p, end, ids = 16, min(16 + commit, len(page)), set()
    while p + 4 <= end:
        hdr = struct.unpack_from("<I", page, p)[0]
        tl = hdr & 31
        if tl == 0:                      # length in the next word, data after it
            n = struct.unpack_from("<I", page, p + 4)[0] - 4
            data, p = p + 8, p + 8 + n
        elif tl <= 28:
            data, p = p + 4, p + 4 + tl * 4
        elif tl == 29:                   # padding: its length in the next word
            p += 4 + (struct.unpack_from("<I", page, p + 4)[0] if p + 8 <= end else 0)
            continue
        else:                            # time extend / time stamp
            p += 8
            continue
        if data + 2 <= end:
            ids.add(struct.unpack_from("<H", page, data)[0])
    return ids


pages = [(name, open(os.path.join(PAGES, name), "rb").read()) for name in ("page0", "page1")]
page_ids = [(name, data, event_ids(data)) for name, data in pages]

for i, system in enumerate(["rdma_cma", "ib_cma", "ib_mad"]):
    d = os.path.join(FX, system)
    for ev in sorted(os.listdir(d)):
        fmt = os.path.join(d, ev, "format")
        if not os.path.isfile(fmt):
            continue
        text = open(fmt, "rb").read()
        m = re.search(rb"^ID: (\d+)$", text, re.M)
        evid = int(m.group(1)) if m else -1
        page = next((data for name, data, ids in page_ids if evid in ids), b"")
        with open("%s/fmt-%s-%s" % (OUT, system, ev), "wb") as f:
            f.write(text + b"\0" + bytes([i]) + page)
