#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Write the seed corpora of the fuzz targets from the unit-test vectors.

    python3 tests/fuzz/mk_seeds.py

corpus-packet/: one file per vector: byte 0 = index of the link type in fuzz_packet.c's
                table, then the frame.
corpus-pcap/:   small capture files: pcap (us and ns), pcapng, every supported link type,
                records with caplen < len, a file cut inside a record.
"""
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
UNIT = os.path.join(HERE, "..", "unit")
LT = [1, 12, 14, 101, 113, 228, 229, 247, 276]  # must match fuzz_packet.c


def arrays(path):
    text = open(path).read()
    out = {}
    for m in re.finditer(r"static const uint8_t (\w+)\[\d+\] = \{([^}]*)\};", text):
        out[m.group(1)] = bytes(int(x, 16) for x in re.findall(r"0x[0-9a-f]{2}", m.group(2)))
    return out


def linktypes(path):
    text = open(path).read()
    return {m.group(2): int(m.group(1))
            for m in re.finditer(r'\{ "\w+", (\d+), (pv_\w+), ', text)}


def pcap(frames, linktype, ns=False, cut=None):
    magic = 0xA1B23C4D if ns else 0xA1B2C3D4
    b = struct.pack("<IHHiIII", magic, 2, 4, 0, 0, 65535, linktype)
    for i, f in enumerate(frames):
        caplen = len(f) if cut is None else min(len(f), cut)
        b += struct.pack("<IIII", 1700000000 + i, 123 * i, caplen, len(f)) + f[:caplen]
    return b


def pcapng(frames, linktype):
    def block(t, body):
        body += b"\0" * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", t, n) + body + struct.pack("<I", n)
    b = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    b += block(1, struct.pack("<HHI", linktype, 0, 65535))
    for i, f in enumerate(frames):
        ts = (1700000000 + i) * 1000000
        b += block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, len(f), len(f)) + f)
    return b


def pcap_frames(path):
    """the captured bytes of each record of a little-endian pcap file"""
    d = open(path, "rb").read()
    off, out = 24, []
    while off + 16 <= len(d):
        caplen = struct.unpack("<I", d[off + 8:off + 12])[0]
        out.append(d[off + 16:off + 16 + caplen])
        off += 16 + caplen
    return out


def main():
    pv = arrays(os.path.join(UNIT, "packet_vectors.h"))
    lts = linktypes(os.path.join(UNIT, "packet_vectors.h"))
    rxe = arrays(os.path.join(UNIT, "rxe_vectors.h"))
    cp = os.path.join(HERE, "corpus-packet")
    cc = os.path.join(HERE, "corpus-pcap")
    os.makedirs(cp, exist_ok=True)
    os.makedirs(cc, exist_ok=True)
    by_lt = {}
    for name, data in pv.items():
        lt = lts[name]
        by_lt.setdefault(lt, []).append(data)
        with open(os.path.join(cp, name[3:]), "wb") as fh:
            fh.write(bytes([LT.index(lt)]) + data)
    # the MAD captures of the fixture generator (native IB): every class header and body
    # decoder, whole and cut at each header boundary
    fx = os.path.join(HERE, "..", "fixtures", "pcap")
    for f in sorted(os.listdir(fx)):
        if f.startswith("mad_") and f.endswith(".pcap"):
            for i, data in enumerate(pcap_frames(os.path.join(fx, f))):
                with open(os.path.join(cp, "%s_%d" % (f[:-5], i + 1)), "wb") as fh:
                    fh.write(bytes([LT.index(247)]) + data)
    for name, data in rxe.items():
        by_lt[1].append(data)
        with open(os.path.join(cp, name), "wb") as fh:
            fh.write(bytes([0]) + data)
    files = {
        "eth-us.pcap": pcap(by_lt[1], 1),
        "eth-ns.pcap": pcap(by_lt[1], 1, ns=True),
        "eth.pcapng": pcapng(by_lt[1], 1),
        "eth-snap64.pcap": pcap(by_lt[1], 1, cut=64),
        "eth-cut-in-record.pcap": pcap(by_lt[1][:3], 1)[:-20],
        "ib.pcap": pcap(by_lt[247], 247),
        "sll.pcap": pcap(by_lt[113], 113),
        "sll2.pcap": pcap(by_lt[276], 276),
        "raw.pcap": pcap(by_lt[101], 101),
        "ipv4.pcap": pcap(by_lt[228], 228),
        "ipv6.pcap": pcap(by_lt[229], 229),
        "rxe-rping.pcap": pcap([rxe[k] for k in sorted(rxe)], 1),
    }
    for name, data in files.items():
        with open(os.path.join(cc, name), "wb") as fh:
            fh.write(data)
    print("%d packet seeds, %d pcap seeds" % (len(os.listdir(cp)), len(os.listdir(cc))))


main()
