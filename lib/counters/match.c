/* Counter selection: the one rule by which rdmastat's positional names and -c, threshold
 * files and rdmatop's filter pick counters (rdmadiag/catalog.h).  A pattern selects a
 * counter when it is
 *   - the counter's name, its catalogue entry's name or one of its aliases, or
 *   - the concept of its catalogue entry, or
 *   - a shell glob (it has '*', '?' or '[') that matches the name, an alias or the concept.
 */
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
