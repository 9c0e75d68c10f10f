#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Seeds of tests/fuzz/fuzz_fabric.c (tests/fuzz/corpus-fabric/): every reply datagram of the
dcbnl recordings in tests/fixtures/fabric/dcb-*.rec (byte 0 = 0, then the datagram), every
reply datagram of the ethtool-netlink pause recordings pause-*.rec (byte 0 = 2) and every
ethtool -S sample of tests/fixtures/fabric/eth-*.txt (byte 0 = 1, u16 LE names length, the
names, the values).  Run from the top of the tree: python3 tests/fuzz/mk_seeds_fabric.py"""
import glob
import os
import struct

FX = "tests/fixtures/fabric"
OUT = "tests/fuzz/corpus-fabric"
os.makedirs(OUT, exist_ok=True)

for rec in sorted(glob.glob(FX + "/dcb-*.rec")):
    base = os.path.basename(rec)[:-4]
    n = 0
    for line in open(rec):
        if line.startswith("rep "):
            with open("%s/seed-%s-%d" % (OUT, base, n), "wb") as f:
                f.write(b"\0" + bytes.fromhex(line[4:].strip()))
            n += 1

for rec in sorted(glob.glob(FX + "/pause-*.rec")):
    base = os.path.basename(rec)[:-4]
    n = 0
    for line in open(rec):
        if line.startswith("rep "):
            with open("%s/seed-%s-%d" % (OUT, base, n), "wb") as f:
                f.write(b"\2" + bytes.fromhex(line[4:].strip()))
            n += 1

for txt in sorted(glob.glob(FX + "/eth-*.txt")):
    base = os.path.basename(txt)[:-4]
    names = {}
    stats = {}
    for line in open(txt):
        if line.startswith("#") or not line.strip():
            continue
        ifname, what, val = line.split()
        if what == "strings":
            names[ifname] = bytes.fromhex(val)
        elif what == "stats":
            stats.setdefault(ifname, []).append(bytes.fromhex(val))
    for ifname, vals in stats.items():
        for i, v in enumerate(vals):
            s = names.get(ifname, b"")
            with open("%s/seed-%s-%s-%d" % (OUT, base, ifname, i), "wb") as f:
                f.write(b"\1" + struct.pack("<H", len(s)) + s + v)
