/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The bounds-checked cursor: truncated (capture cut) vs invalid (wire too short), sticky
 * errors, region narrowing, and that nothing past caplen is handed out.  Run under
 * SANITIZE=address: each buffer is allocated with exactly caplen bytes. */
#include <stdlib.h>
#include "tap.h"
#include "packet/cursor.h"

static uint8_t *dup_exact(const uint8_t *src, uint32_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (n)
		memcpy(b, src, n);
	return b;
}

int main(void)
{
	static const uint8_t bytes[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
	struct rd_cur c;
	const uint8_t *s;
	uint8_t *b;
	uint32_t cap;

	/* whole frame captured */
	b = dup_exact(bytes, 16);
	rd_cur_init(&c, b, 16, 16);
	s = rd_take(&c, 4);
	EXPECT_TRUE(s != NULL);
	EXPECT_EQ(rd_be32(s), 0x01020304);
	EXPECT_EQ(rd_left(&c), 12);
	s = rd_take(&c, 8);
	EXPECT_EQ(rd_be64(s), 0x05060708090a0b0cULL);
	EXPECT_EQ(rd_be24(s), 0x050607);
	EXPECT_EQ(rd_be16(s), 0x0506);
	EXPECT_EQ(rd_le32(s), 0x08070605);
	EXPECT_TRUE(rd_take(&c, 4) != NULL);
	EXPECT_EQ(rd_left(&c), 0);
	/* one byte past the frame: invalid, not truncated */
	EXPECT_TRUE(rd_take(&c, 1) == NULL);
	EXPECT_EQ(c.err, RD_INVAL);
	free(b);

	/* captured 6 of 16: reading into the uncaptured part is TRUNC */
	b = dup_exact(bytes, 6);
	rd_cur_init(&c, b, 6, 16);
	EXPECT_TRUE(rd_take(&c, 4) != NULL);
	EXPECT_TRUE(rd_take(&c, 4) == NULL);
	EXPECT_EQ(c.err, RD_TRUNC);
	/* sticky: a later read that would fit still fails, and keeps the first error */
	EXPECT_TRUE(rd_take(&c, 1) == NULL);
	EXPECT_EQ(c.err, RD_TRUNC);
	EXPECT_EQ(c.off, 4);
	free(b);

	/* wire check first: beyond len is INVAL even when beyond caplen too */
	b = dup_exact(bytes, 6);
	rd_cur_init(&c, b, 6, 10);
	EXPECT_TRUE(rd_take(&c, 12) == NULL);
	EXPECT_EQ(c.err, RD_INVAL);
	free(b);

	/* caplen > len is clamped to len */
	b = dup_exact(bytes, 16);
	rd_cur_init(&c, b, 16, 8);
	EXPECT_EQ(c.cap, 8);
	EXPECT_TRUE(rd_take(&c, 9) == NULL);
	EXPECT_EQ(c.err, RD_INVAL);
	free(b);

	/* narrowing: a length field says the region is 5 bytes */
	b = dup_exact(bytes, 16);
	rd_cur_init(&c, b, 16, 16);
	rd_take(&c, 2);
	EXPECT_EQ(rd_limit(&c, 5), RD_OK);
	EXPECT_EQ(rd_left(&c), 5);
	EXPECT_TRUE(rd_take(&c, 5) != NULL);
	EXPECT_TRUE(rd_take(&c, 1) == NULL);
	EXPECT_EQ(c.err, RD_INVAL);
	/* a length field claiming more than the frame is INVAL */
	rd_cur_init(&c, b, 16, 16);
	EXPECT_EQ(rd_limit(&c, 17), RD_INVAL);
	free(b);

	/* skip ignores the capture (payload need not be captured) but not the wire */
	b = dup_exact(bytes, 4);
	rd_cur_init(&c, b, 4, 16);
	EXPECT_EQ(rd_skip(&c, 10), RD_OK);
	EXPECT_EQ(rd_left_cap(&c), 0);
	EXPECT_TRUE(rd_take(&c, 2) == NULL);
	EXPECT_EQ(c.err, RD_TRUNC);
	rd_cur_init(&c, b, 4, 16);
	EXPECT_EQ(rd_skip(&c, 17), RD_INVAL);
	free(b);

	/* rd_at: absolute look-ups only inside captured and region */
	for (cap = 0; cap <= 16; cap++) {
		uint32_t off, n;
		int bad = 0;

		b = dup_exact(bytes, cap);
		rd_cur_init(&c, b, cap, 16);
		for (off = 0; off <= 17; off++)
			for (n = 0; n <= 17; n++) {
				const uint8_t *p = rd_at(&c, off, n);

				if ((p != NULL) != (off + n <= cap))
					bad++;
				if (p && n && p[n - 1] != bytes[off + n - 1])
					bad++;
			}
		EXPECT_EQ(bad, 0);
		free(b);
	}

	/* every prefix of a 16-byte frame: reading it as 4 x u32 stops at the right place */
	for (cap = 0; cap <= 16; cap++) {
		int got = 0;

		b = dup_exact(bytes, cap);
		rd_cur_init(&c, b, cap, 16);
		while (rd_take(&c, 4))
			got++;
		EXPECT_EQ(got, (int)(cap / 4));
		EXPECT_EQ(c.err, cap == 16 ? RD_INVAL : RD_TRUNC);
		free(b);
	}
	return tap_done();
}
