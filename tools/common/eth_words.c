/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Which words name Ethernet statistics (eth_words.h), from lib/fabric's catalogue. */
#include <stdio.h>
#include <string.h>

#include <rdmadiag/fabric.h>

#include "eth_words.h"

/* "prio3_pause" -> "prio_pause" when the digit is a priority; false otherwise */
static bool strip_prio(const char *w, char *buf, size_t len)
{
	if (strncmp(w, "prio", 4) || w[4] < '0' || w[4] > '7' || w[5] != '_' || !w[6])
		return false;
	return (size_t)snprintf(buf, len, "prio_%s", w + 6) < len;
}

/* a concept of the catalogue; per_prio: one of its per-priority statistics has it */
static bool concept(const char *w, bool per_prio)
{
	const struct rdiag_eth_catalog_entry *e;
	size_t n, i;

	e = rdiag_eth_catalog(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(e[i].concept, w) && (!per_prio || strstr(e[i].name, "%p")))
			return true;
	return false;
}

bool eth_word_is_concept(const char *w)
{
	char base[64];

	if (strpbrk(w, "*?["))
		return false;
	return concept(w, false) || (strip_prio(w, base, sizeof(base)) && concept(base, true));
}

bool eth_word_known(const char *w)
{
	const struct rdiag_eth_catalog_entry *e;
	size_t n, i;

	if (eth_word_is_concept(w))
		return true;
	e = rdiag_eth_catalog(&n);
	for (i = 0; i < n; i++)
		if (rdiag_eth_catalog_lookup(e[i].driver, w, NULL) != NULL)
			return true;
	return false;
}
