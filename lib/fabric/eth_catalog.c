/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Looking a driver's statistic up in the catalogue (eth_catalog_data.c): "%p" in a catalogue
 * name matches one priority digit 0-7. */
#include <string.h>

#include "internal.h"

/* NAME against PATTERN; *prio the digit %p matched, -1 when the pattern has none */
static bool match(const char *pattern, const char *name, int *prio)
{
	const char *p = strstr(pattern, "%p");
	size_t pre;

	*prio = -1;
	if (!p)
		return !strcmp(pattern, name);
	pre = (size_t)(p - pattern);
	if (strncmp(pattern, name, pre) || name[pre] < '0' || name[pre] > '7')
		return false;
	if (strcmp(p + 2, name + pre + 1))
		return false;
	*prio = name[pre] - '0';
	return true;
}

size_t rd_eth_catalog_driver(const char *driver, const struct rdiag_eth_catalog_entry **out,
			     size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < rd_eth_catalog_n && n < max; i++)
		if (!strcmp(rd_eth_catalog[i].driver, driver))
			out[n++] = &rd_eth_catalog[i];
	return n;
}

const struct rdiag_eth_catalog_entry *
rd_eth_catalog_match(const struct rdiag_eth_catalog_entry *const *ents, size_t n,
		     const char *name, int *prio)
{
	size_t i;
	int p;

	for (i = 0; i < n; i++)
		if (match(ents[i]->name, name, &p)) {
			if (prio)
				*prio = p;
			return ents[i];
		}
	if (prio)
		*prio = -1;
	return NULL;
}

const struct rdiag_eth_catalog_entry *rdiag_eth_catalog_lookup(const char *driver,
							       const char *name, int *prio)
{
	const struct rdiag_eth_catalog_entry *ents[RD_ETH_CATALOG_DRV_MAX];

	return rd_eth_catalog_match(ents, rd_eth_catalog_driver(driver, ents, RD_ETH_CATALOG_DRV_MAX),
				    name, prio);
}

const struct rdiag_eth_catalog_entry *rdiag_eth_catalog(size_t *n)
{
	*n = rd_eth_catalog_n;
	return rd_eth_catalog;
}
