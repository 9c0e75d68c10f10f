/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Bounds-checked read cursor over one captured frame (internal to lib/packet).
 *
 * Every packet byte the decoder looks at comes from rd_take() (a span of n bytes that is
 * known to be inside both the captured bytes and the current wire region) or rd_at().
 * Two limits are kept apart because they mean different things:
 *
 *	cap  how many bytes the capture kept (caplen): a read past it is RD_TRUNC,
 *	end  where the current region ends on the wire (frame len, then narrowed by the IP
 *	     total length, the UDP length, GRH PayLen or LRH PktLen): a read past it is
 *	     RD_INVAL, because the packet itself claims to be shorter than what we need.
 *
 * The wire check comes first: a header that does not fit in what the packet says it is
 * is malformed whatever the snap length was.  Errors are sticky (the first one wins) so a
 * decoder can try several reads and test once.  Nothing here allocates or writes to the
 * packet bytes.
 */
#ifndef RD_PACKET_CURSOR_H
#define RD_PACKET_CURSOR_H
#include <stdint.h>
#include <string.h>

/* values match enum rdiag_pkt_status so they can be stored directly */
enum rd_res {
	RD_OK = 0,
	RD_TRUNC = 1,
	RD_INVAL = 2,
};

struct rd_cur {
	const uint8_t *data;
	uint32_t off;	/* next byte, from data; invariant: off <= end */
	uint32_t cap;	/* captured bytes (min(caplen, len)) */
	uint32_t end;	/* end of the current region on the wire */
	uint8_t err;	/* sticky enum rd_res */
};

static inline void rd_cur_init(struct rd_cur *c, const uint8_t *data, uint32_t caplen,
			       uint32_t len)
{
	c->data = data;
	c->off = 0;
	c->cap = caplen < len ? caplen : len;
	c->end = len;
	c->err = RD_OK;
}

/* 0 when n more bytes are on the wire and captured; else the (sticky) error */
static inline int rd_need(struct rd_cur *c, uint32_t n)
{
	if (c->err)
		return c->err;
	if (n > c->end - c->off)
		return c->err = RD_INVAL;
	if (c->off + n > c->cap)	/* no overflow: off + n <= end */
		return c->err = RD_TRUNC;
	return RD_OK;
}

/* a span of n verified bytes, and advance; NULL (and c->err set) when they are not there */
static inline const uint8_t *rd_take(struct rd_cur *c, uint32_t n)
{
	const uint8_t *p;

	if (rd_need(c, n))
		return NULL;
	p = c->data + c->off;
	c->off += n;
	return p;
}

/* skip n bytes that need not be captured (payload); only the wire limit applies */
static inline int rd_skip(struct rd_cur *c, uint32_t n)
{
	if (c->err)
		return c->err;
	if (n > c->end - c->off)
		return c->err = RD_INVAL;
	c->off += n;
	return RD_OK;
}

/* the current region ends n bytes from here (a length field said so) */
static inline int rd_limit(struct rd_cur *c, uint32_t n)
{
	if (c->err)
		return c->err;
	if (n > c->end - c->off)
		return c->err = RD_INVAL;
	c->end = c->off + n;
	return RD_OK;
}

/* bytes left in the region on the wire, and captured */
static inline uint32_t rd_left(const struct rd_cur *c)
{
	return c->end - c->off;
}

static inline uint32_t rd_left_cap(const struct rd_cur *c)
{
	uint32_t lim = c->cap < c->end ? c->cap : c->end;

	return lim > c->off ? lim - c->off : 0;
}

/* n bytes at absolute offset off when all are captured and inside the region; no state
 * change (used by the ICRC and MAD code to look at bytes already delimited) */
static inline const uint8_t *rd_at(const struct rd_cur *c, uint32_t off, uint32_t n)
{
	uint32_t lim = c->cap < c->end ? c->cap : c->end;

	if (off > lim || n > lim - off)
		return NULL;
	return c->data + off;
}

/* big-endian field extraction from a span returned by rd_take()/rd_at() */
static inline uint16_t rd_be16(const uint8_t *b)
{
	return (uint16_t)((unsigned int)b[0] << 8 | b[1]);
}

static inline uint32_t rd_be24(const uint8_t *b)
{
	return (uint32_t)b[0] << 16 | (uint32_t)b[1] << 8 | b[2];
}

static inline uint32_t rd_be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline uint64_t rd_be64(const uint8_t *b)
{
	return (uint64_t)rd_be32(b) << 32 | rd_be32(b + 4);
}

static inline uint32_t rd_le32(const uint8_t *b)
{
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

#endif
