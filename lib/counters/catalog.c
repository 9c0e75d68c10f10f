/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Catalogue lookup through the hash index of names and aliases that the build computes
 * (mk/catalog-index.c writes catalog_index.c): a lookup hashes one name and compares the few
 * keys of its bucket; no process builds, sorts or allocates anything first (under emulation,
 * building the index was a sixth of a whole netlink snapshot). */
#include <stdint.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include "internal.h"

static const struct rdiag_catalog_entry *find(const char *name, const char *driver,
					      enum rdiag_origin origin)
{
	const struct rdiag_catalog_entry *generic = NULL;
	const char *only = origin == RDIAG_ORIG_PMA ? "pma" : origin == RDIAG_ORIG_CM ? "cm" : NULL;
	uint32_t k;

	for (k = rd_catalog_heads[rd_catalog_hash(name) & rd_catalog_mask]; k;
	     k = rd_catalog_keys[k - 1].next) {
		const struct rd_catalog_key *key = &rd_catalog_keys[k - 1];
		const struct rdiag_catalog_entry *e = &rd_catalog[key->row];

		if (strcmp(rd_catalog_key_name(key), name))
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

const struct rdiag_catalog_concept *rdiag_catalog_concept_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < rd_catalog_concepts_n; i++)
		if (!strcmp(rd_catalog_concepts[i].name, name))
			return &rd_catalog_concepts[i];
	return NULL;
}
