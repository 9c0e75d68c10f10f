/* Catalogue lookup: a sorted index of names and aliases over the data table, built once. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include "catalog_int.h"

struct idx {
	const char *key;
	const struct rdiag_catalog_entry *e;
};

static struct idx *index_v;
static size_t index_n;
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static int idx_cmp(const void *a, const void *b)
{
	const struct idx *x = a, *y = b;
	int r = strcmp(x->key, y->key);

	/* equal keys keep table order: earlier rows win ties */
	if (!r)
		r = x->e < y->e ? -1 : x->e > y->e;
	return r;
}

/* heap sort: the order is total (ties broken by row), so stability does not matter; a
 * few lines of straight code rather than qsort()'s merge sort with its allocation and
 * indirect calls, which every process paid for on its first lookup (measurable at start-up
 * under emulation, where each distinct code path costs its translation) */
static void sift(struct idx *v, size_t root, size_t n)
{
	struct idx t;
	size_t c;

	while ((c = 2 * root + 1) < n) {
		if (c + 1 < n && idx_cmp(&v[c], &v[c + 1]) < 0)
			c++;
		if (idx_cmp(&v[root], &v[c]) >= 0)
			return;
		t = v[root];
		v[root] = v[c];
		v[c] = t;
		root = c;
	}
}

static void idx_sort(struct idx *v, size_t n)
{
	struct idx t;
	size_t i;

	for (i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (i = n; i-- > 1;) {
		t = v[0];
		v[0] = v[i];
		v[i] = t;
		sift(v, 0, i);
	}
}

static void build_index(void)
{
	size_t i, j, n = 0;

	for (i = 0; i < rd_catalog_n; i++)
		for (n++, j = 0; j < 3 && rd_catalog[i].aliases[j]; j++)
			n++;
	index_v = calloc(n, sizeof(*index_v));
	if (!index_v)
		return;	/* lookups then find nothing: unknown counters pass through */
	for (i = 0; i < rd_catalog_n; i++) {
		index_v[index_n].key = rd_catalog[i].name;
		index_v[index_n++].e = &rd_catalog[i];
		for (j = 0; j < 3 && rd_catalog[i].aliases[j]; j++) {
			index_v[index_n].key = rd_catalog[i].aliases[j];
			index_v[index_n++].e = &rd_catalog[i];
		}
	}
	idx_sort(index_v, index_n);
}

static const struct rdiag_catalog_entry *find(const char *name, const char *driver,
					      enum rdiag_origin origin)
{
	const struct rdiag_catalog_entry *generic = NULL;
	size_t lo = 0, hi = index_n, i;
	const char *only = origin == RDIAG_ORIG_PMA ? "pma" : origin == RDIAG_ORIG_CM ? "cm" : NULL;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(index_v[mid].key, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < index_n && !strcmp(index_v[i].key, name); i++) {
		const struct rdiag_catalog_entry *e = index_v[i].e;

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
