/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Oracle for the header-sequence table: for every RC, UC, RD and UD opcode a packet is built
 * with the extension headers rdiag_opcode_headers() lists, written to a pcap and decoded by
 * tshark; the set of headers tshark finds must be the table's.  Known disagreements are
 * spelled out (and must stay exactly these):
 *   0x1C RC_FLUSH, 0x1D RC_ATOMIC_WRITE, 0x5C RD_FLUSH (IBTA 1.5) and 0x55 RD_RESYNC are not
 *   in Wireshark 4.0's table, which then decodes no extension header;
 *   0x51 RD_ACKNOWLEDGE: Wireshark's RDETH_AETH case forgets to parse the RDETH (IBTA and
 *   the kernel: BTH, RDETH, AETH), so it reports an AETH only.
 * Skipped when tshark is not installed. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "tap.h"
#include "rdmadiag/packet.h"

#define H(x) RDIAG_HAS(RDIAG_HDR_##x)

static const struct { uint32_t bit; uint32_t len; const char *field; } eths[] = {
	{ H(RDETH), 4, "infiniband.rdeth" },
	{ H(DETH), 8, "infiniband.deth" },
	{ H(FETH), 4, NULL },
	{ H(RETH), 16, "infiniband.reth" },
	{ H(ATOMICETH), 28, "infiniband.atomiceth" },
	{ H(AETH), 4, "infiniband.aeth" },
	{ H(ATOMICACKETH), 8, "infiniband.atomicacketh" },
	{ H(IMMDT), 4, "infiniband.immdt" },
	{ H(IETH), 4, "infiniband.ieth" },
};
#define N_ETHS (sizeof(eths) / sizeof(eths[0]))

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Ethernet / IPv4 / UDP 4791 / BTH / ETHs (0x11 bytes) / 8 payload bytes / ICRC */
static uint32_t build(uint8_t *f, uint8_t op, uint32_t hdrs)
{
	static const uint8_t head[42] = {
		2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00,
		0x45, 0, 0, 0, 0, 0, 0x40, 0, 64, 17, 0, 0, 198, 18, 0, 1, 198, 18, 0, 2,
		0xc0, 0x00, 0x12, 0xb7, 0, 0, 0, 0,
	};
	struct rdiag_pkt p;
	uint32_t n = 42, i, icrc;

	memcpy(f, head, n);
	memset(f + n, 0, 12);
	f[n] = op;
	f[n + 2] = f[n + 3] = 0xff;
	f[n + 7] = 5;			/* dest QP */
	f[n + 11] = 1;			/* PSN */
	n += 12;
	for (i = 0; i < N_ETHS; i++)
		if (hdrs & eths[i].bit) {
			memset(f + n, 0x11, eths[i].len);
			n += eths[i].len;
		}
	memset(f + n, 0x22, 8);
	n += 8 + 4;
	put16(f + 16, n - 14);
	put16(f + 38, n - 34);
	if (rdiag_pkt_decode(&p, 1, f, n, n, NULL) == 0 && rdiag_pkt_icrc(&p, f, n, &icrc) == 0)
		for (i = 0; i < 4; i++)
			f[n - 4 + i] = (uint8_t)(icrc >> (8 * i));
	return n;
}

/* what tshark is expected to find for op (see the header comment) */
static uint32_t expected(uint8_t op, uint32_t mine)
{
	switch (op) {
	case 0x1C:
	case 0x1D:
	case 0x5C:
	case 0x55:
		return 0;
	case 0x51:
		return mine & ~H(RDETH);
	default:
		return mine & ~(H(FETH) | H(PAYLOAD));
	}
}

int main(void)
{
	char path[] = "/tmp/rdiag-optab-XXXXXX", cmd[1024], line[512];
	uint8_t ops[128], f[256];
	unsigned int n_ops = 0, i, k, bad = 0, rows = 0;
	FILE *fp, *ts;
	int fd;

	if (system("command -v tshark >/dev/null 2>&1") != 0) {
		printf("ok 1 # SKIP tshark is not installed\n1..1\n");
		return 0;
	}
	fd = mkstemp(path);
	fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
	EXPECT_TRUE(fp != NULL);
	if (!fp)
		return tap_done();
	{
		uint32_t gh[6] = { 0xa1b2c3d4, 0x00040002, 0, 0, 65535, 1 };

		fwrite(gh, sizeof(gh), 1, fp);
	}
	for (i = 0; i < 0x80; i++) {
		uint32_t n, rec[4];

		if (!rdiag_opcode_is_valid((uint8_t)i))
			continue;
		n = build(f, (uint8_t)i, rdiag_opcode_headers((uint8_t)i));
		rec[0] = 1700000000;
		rec[1] = n_ops;
		rec[2] = rec[3] = n;
		fwrite(rec, sizeof(rec), 1, fp);
		fwrite(f, n, 1, fp);
		ops[n_ops++] = (uint8_t)i;
	}
	fclose(fp);
	EXPECT_EQ(n_ops, 25 + 12 + 23 + 2);

	k = (unsigned int)snprintf(cmd, sizeof(cmd),
				   "tshark -r %s -T fields -E 'separator=|' -E occurrence=f", path);
	for (i = 0; i < N_ETHS; i++)
		if (eths[i].field)
			k += (unsigned int)snprintf(cmd + k, sizeof(cmd) - k, " -e %s", eths[i].field);
	snprintf(cmd + k, sizeof(cmd) - k, " 2>/dev/null");
	ts = popen(cmd, "r");
	EXPECT_TRUE(ts != NULL);
	while (ts && fgets(line, sizeof(line), ts) && rows < n_ops) {
		uint32_t seen = 0, want;
		char *s = line;

		for (i = 0; i < N_ETHS; i++) {
			char *e;

			if (!eths[i].field)
				continue;
			e = strchr(s, '|');
			if (!e)
				e = s + strcspn(s, "\n");
			if (e > s)
				seen |= eths[i].bit;
			s = *e ? e + 1 : e;
		}
		want = expected(ops[rows], rdiag_opcode_headers(ops[rows]));
		if (seen != want) {
			bad++;
			printf("# opcode 0x%02x (%s): table 0x%x, tshark 0x%x\n", ops[rows],
			       rdiag_opcode_name(ops[rows]), want, seen);
		}
		rows++;
	}
	if (ts)
		EXPECT_EQ(pclose(ts), 0);
	unlink(path);
	EXPECT_EQ(rows, n_ops);
	EXPECT_EQ(bad, 0);
	return tap_done();
}
