/* Catalogue lookup: a hash index of names and aliases over the data table, built once.
 *
 * A hash rather than a sorted array: every process that looks up a counter builds it, and
 * sorting ~600 keys was most of the instructions of a whole netlink snapshot (and under
 * emulation most of its time); hashing them is a few thousand instructions. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include "catalog_int.h"

struct idx {
	const char *key;
	const struct rdiag_catalog_entry *e;
	uint32_t next;			/* 1-based index of the next key in the bucket, 0 = end */
};

static struct idx *index_v;
static uint32_t *index_head;		/* per bucket: 1-based first key, 0 = empty */
static size_t index_mask;
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static uint32_t key_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void build_index(void)
{
	size_t i, j, n = 0, nb = 64, k;
	uint32_t h;

	for (i = 0; i < rd_catalog_n; i++)
		for (n++, j = 0; j < 3 && rd_catalog[i].aliases[j]; j++)
			n++;
	while (nb < 2 * n)
		nb *= 2;
	index_v = calloc(n, sizeof(*index_v));
	index_head = calloc(nb, sizeof(*index_head));
	if (!index_v || !index_head) {
		free(index_v);
		free(index_head);
		index_v = NULL;	/* lookups then find nothing: unknown counters pass through */
		return;
	}
	index_mask = nb - 1;
	/* keys in table order (each row's name, then its aliases); each is put at the head of
	 * its bucket from the last to the first, so a bucket lists equal keys in table order
	 * and earlier rows win ties */
	for (k = 0, i = 0; i < rd_catalog_n; i++) {
		index_v[k].key = rd_catalog[i].name;
		index_v[k++].e = &rd_catalog[i];
		for (j = 0; j < 3 && rd_catalog[i].aliases[j]; j++) {
			index_v[k].key = rd_catalog[i].aliases[j];
			index_v[k++].e = &rd_catalog[i];
		}
	}
	for (k = n; k-- > 0;) {
		h = key_hash(index_v[k].key) & (uint32_t)index_mask;
		index_v[k].next = index_head[h];
		index_head[h] = (uint32_t)k + 1;
	}
}

static const struct rdiag_catalog_entry *find(const char *name, const char *driver,
					      enum rdiag_origin origin)
{
	const struct rdiag_catalog_entry *generic = NULL;
	const char *only = origin == RDIAG_ORIG_PMA ? "pma" : origin == RDIAG_ORIG_CM ? "cm" : NULL;
	uint32_t k;

	for (k = index_head[key_hash(name) & index_mask]; k; k = index_v[k - 1].next) {
		const struct rdiag_catalog_entry *e = index_v[k - 1].e;

		if (strcmp(index_v[k - 1].key, name))
			continue;
		if (only) {
			if (!strcmp(e->driver, only))
				return e;
			continue;
		}
		/* PMA and CM rows only describe files of those directories */
		if (!strcmp(e->driver, "pma") || !strcmp(e->driver, "cm"))
			continue;
		if (driver && !strcmp(e->driver, driver))
			return e;
		if (!generic)
			generic = e;
	}
	return generic;
}

const struct rdiag_catalog_entry *rdiag_catalog_lookup(const char *name, const char *driver,
							enum rdiag_origin origin)
{
	const struct rdiag_catalog_entry *e;

	if (!name)
		return NULL;
	pthread_once(&index_once, build_index);
	if (!index_v)
		return NULL;
	if (driver && !*driver)
		driver = NULL;
	e = find(name, driver, origin);
	/* i40iw and older irdma spell the RDMA counters with an "iw" prefix */
	if (!e && !strncmp(name, "iw", 2) && name[2] >= 'A' && name[2] <= 'Z')
		e = find(name + 2, driver, origin);
	return e;
}

size_t rdiag_catalog_count(void)
{
	return rd_catalog_n;
}

const struct rdiag_catalog_entry *rdiag_catalog_at(size_t i)
{
	return i < rd_catalog_n ? &rd_catalog[i] : NULL;
}

bool rdiag_catalog_is_concept(const char *concept)
{
	size_t i;

	for (i = 0; i < rd_catalog_n; i++)
		if (rd_catalog[i].concept && !strcmp(rd_catalog[i].concept, concept))
			return true;
	return false;
}
