/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Requests waiting for their response (READ -> READ response, A-bit request -> ACK, atomic ->
 * atomic ACK).  A ring of fixed size holds them in arrival order with a hash index on
 * (addresses, PSN); when the ring is full the oldest entry is dropped, so memory stays bounded
 * whatever the capture holds (coalesced ACKs leave entries that are never answered). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define NIL UINT32_MAX

/* 8 bytes at a time with a multiply-xorshift mix: the flow and pending keys are 40-odd bytes
 * hashed once or twice per packet, so this is on the hot path */
uint32_t rd_hash_bytes(const void *p, size_t n, uint32_t seed)
{
	const uint8_t *b = p;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ seed ^ n, w;

	for (; n >= 8; n -= 8, b += 8) {
		memcpy(&w, b, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	if (n) {
		w = 0;
		memcpy(&w, b, n);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 31;
	}
	h *= 0x94d049bb133111ebull;
	h ^= h >> 32;
	return (uint32_t)h;
}

static uint32_t key_hash(const struct rd_pend_key *k)
{
	return rd_hash_bytes(k, sizeof(*k), 0x9e3779b9u);
}

int rd_pending_init(struct rd_pending *t, size_t cap)
{
	uint32_t nb = 1;

	memset(t, 0, sizeof(*t));
	if (cap < 16)
		cap = 16;
	if (cap > (1u << 24))
		cap = 1u << 24;
	while (nb < cap)
		nb <<= 1;
	t->e = calloc(cap, sizeof(*t->e));
	t->bucket = malloc(nb * sizeof(*t->bucket));
	if (!t->e || !t->bucket) {
		rd_pending_free(t);
		return -ENOMEM;
	}
	memset(t->bucket, 0xff, nb * sizeof(*t->bucket));
	t->cap = (uint32_t)cap;
	t->nbuckets = nb;
	return 0;
}

void rd_pending_free(struct rd_pending *t)
{
	free(t->e);
	free(t->bucket);
	memset(t, 0, sizeof(*t));
}

static void unlink_entry(struct rd_pending *t, uint32_t i)
{
	uint32_t *pp = &t->bucket[key_hash(&t->e[i].key) & (t->nbuckets - 1)];

	while (*pp != NIL) {
		if (*pp == i) {
			*pp = t->e[i].next;
			break;
		}
		pp = &t->e[*pp].next;
	}
	t->e[i].what = 0;
	t->used--;
}

void rd_pending_put(struct rd_pending *t, const struct rd_pend_key *k, uint8_t what,
		    uint64_t ts, uint32_t flow, uint32_t *evicted_flow, uint8_t *evicted_what)
{
	uint32_t i = t->head, b;
	struct rd_pend_entry *e = &t->e[i];

	*evicted_flow = NIL;
	*evicted_what = 0;
	if (e->what) {
		*evicted_flow = e->flow;
		*evicted_what = e->what;
		t->evicted++;
		unlink_entry(t, i);
	}
	e->key = *k;
	e->ts = ts;
	e->flow = flow;
	e->what = what;
	b = key_hash(k) & (t->nbuckets - 1);
	e->next = t->bucket[b];
	t->bucket[b] = i;
	t->used++;
	t->head = (i + 1) % t->cap;
}

int rd_pending_take(struct rd_pending *t, const struct rd_pend_key *k, struct rd_pend_entry *out)
{
	uint32_t i = t->bucket[key_hash(k) & (t->nbuckets - 1)];

	for (; i != NIL; i = t->e[i].next) {
		if (memcmp(&t->e[i].key, k, sizeof(*k)) == 0) {
			*out = t->e[i];
			unlink_entry(t, i);
			return 0;
		}
	}
	return -ENOENT;
}
