/* The catalogue table, shared between catalog_data.c (rows), catalog.c (lookup) and the
 * build-time generator of its hash index (mk/catalog-index.c -> catalog_index.c). */
#ifndef RD_CATALOG_INT_H
#define RD_CATALOG_INT_H
#include <stddef.h>
#include <stdint.h>
#include <rdmadiag/catalog.h>

extern const struct rdiag_catalog_entry rd_catalog[];
extern const size_t rd_catalog_n;

/* The index: every key (each row's name, then its aliases) in a bucket list by hash.  It is
 * computed when the library is built, so no process spends time building it. */
struct rd_catalog_key {
	uint16_t row;			/* index into rd_catalog */
	uint16_t alias;			/* 0 = the row's name, N = aliases[N - 1] */
	uint16_t next;			/* 1-based index of the bucket's next key, 0 = end */
};
extern const struct rd_catalog_key rd_catalog_keys[];
extern const uint16_t rd_catalog_heads[];	/* per bucket: 1-based first key, 0 = empty */
extern const uint32_t rd_catalog_mask;		/* number of buckets - 1 */
extern const size_t rd_catalog_nkeys;

static inline uint32_t rd_catalog_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static inline const char *rd_catalog_key_name(const struct rd_catalog_key *k)
{
	const struct rdiag_catalog_entry *e = &rd_catalog[k->row];

	return k->alias ? e->aliases[k->alias - 1] : e->name;
}

#endif
