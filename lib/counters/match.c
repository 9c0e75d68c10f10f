/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Counter selection: the one rule by which rdmastat's positional names and -c, threshold
 * files and rdmatop's filter pick counters (rdmadiag/catalog.h).  A pattern selects a
 * counter when it is
 *   - the counter's name, its catalogue entry's name or one of its aliases, or
 *   - the concept of its catalogue entry, or
 *   - a shell glob (it has '*', '?' or '[') that matches the name, an alias or the concept.
 * An Ethernet statistic (RDIAG_ORIG_ETH) has no RDMA catalogue entry: its name, its Ethernet
 * catalogue concept ("prio_pause") and, per priority, the concept with the priority after
 * "prio" ("prio3_pause") stand in for them (rdiag_sample_match).
 */
#include <stdio.h>
#include <fnmatch.h>
#include <string.h>
#include <strings.h>

#include <rdmadiag/catalog.h>

enum rdiag_pattern_kind rdiag_pattern_kind(const char *pattern)
{
	if (strpbrk(pattern, "*?["))
		return RDIAG_PATTERN_GLOB;
	if (rdiag_catalog_is_concept(pattern))
		return RDIAG_PATTERN_CONCEPT;
	return RDIAG_PATTERN_NAME;
}

static bool one(const char *pattern, const char *s, bool glob, unsigned int flags)
{
	if (!s)
		return false;
	if (glob)
		return fnmatch(pattern, s, flags & RDIAG_MATCH_CASEFOLD ? FNM_CASEFOLD : 0) == 0;
	return flags & RDIAG_MATCH_CASEFOLD ? !strcasecmp(pattern, s) : !strcmp(pattern, s);
}

bool rdiag_counter_match(const char *pattern, const char *name,
			 const struct rdiag_catalog_entry *cat, unsigned int flags)
{
	bool glob = strpbrk(pattern, "*?[") != NULL;
	size_t i;

	if (one(pattern, name, glob, flags))
		return true;
	if (!cat)
		return false;
	if (one(pattern, cat->concept, glob, flags) || one(pattern, cat->name, glob, flags))
		return true;
	for (i = 0; i < 3 && cat->aliases[i]; i++)
		if (one(pattern, cat->aliases[i], glob, flags))
			return true;
	return false;
}

/* "prio_pause" of priority 3 -> "prio3_pause"; false when the concept is not per priority */
static bool prio_concept(const char *concept, int prio, char *buf, size_t len)
{
	if (!concept || prio < 0 || prio > 7 || strncmp(concept, "prio_", 5))
		return false;
	return (size_t)snprintf(buf, len, "prio%d_%s", prio, concept + 5) < len;
}

bool rdiag_sample_match(const char *pattern, const struct rdiag_sample *s, unsigned int flags)
{
	bool glob = strpbrk(pattern, "*?[") != NULL;
	char pc[96];

	if (s->origin != RDIAG_ORIG_ETH)
		return rdiag_counter_match(pattern, s->name, s->cat, flags);
	if (one(pattern, s->name, glob, flags) || one(pattern, s->eth_concept, glob, flags))
		return true;
	return prio_concept(s->eth_concept, s->eth_prio, pc, sizeof(pc)) &&
	       one(pattern, pc, glob, flags);
}
