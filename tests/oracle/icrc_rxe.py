# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The generator's ICRC rule against real kernel traffic: recompute the ICRC of every RoCEv2
frame of tests/fixtures/rxe/rxe_sample.pcap (captured from rdma_rxe, see its README) with
tests/gen/rocegen.py and require the bytes rxe put on the wire.

    /usr/bin/python3 tests/oracle/icrc_rxe.py [CAPTURE]
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'gen'))
import rocegen as g		# noqa: E402

path = sys.argv[1] if len(sys.argv) > 1 else \
    os.path.join(here, '..', 'fixtures', 'rxe', 'rxe_sample.pcap')
d = open(path, 'rb').read()
magic, = struct.unpack('<I', d[:4])
assert magic in (0xA1B2C3D4, 0xA1B23C4D), 'not a little-endian pcap'
lt, = struct.unpack('<I', d[20:24])
assert lt == 1, 'expected Ethernet'
off, n, good, seen = 24, 0, 0, set()
while off + 16 <= len(d):
    _, _, cl, ol = struct.unpack('<IIII', d[off:off + 16])
    f = d[off + 16:off + 16 + cl]
    off += 16 + cl
    et, = struct.unpack('!H', f[12:14])
    if et != 0x0800 or cl != ol:
        continue
    ip = f[14:]
    ihl = (ip[0] & 0x0F) * 4
    if ip[9] != 17 or struct.unpack('!H', ip[ihl + 2:ihl + 4])[0] != 4791:
        continue
    tot, = struct.unpack('!H', ip[2:4])
    ip = ip[:tot]
    n += 1
    seen.add(ip[ihl + 8])
    want, = struct.unpack('<I', ip[-4:])
    got = g.icrc_ipv4(ip[:-4])
    if got == want:
        good += 1
    else:
        print('frame: opcode %d ICRC on the wire %08x, generator %08x' % (ip[ihl + 8], want, got))
print('icrc_rxe: %d RoCEv2 frames (opcodes %s), %d ICRCs reproduced, %d differ'
      % (n, ','.join(str(x) for x in sorted(seen)), good, n - good))
sys.exit(0 if n >= 50 and good == n else 1)
