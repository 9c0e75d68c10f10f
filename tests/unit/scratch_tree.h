/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A file of a scratch directory tree (a sysfs fixture made by a test): root/rel holding text,
 * its missing parent directories made first.  Unit-test helper. */
#ifndef RDIAG_SCRATCH_TREE_H
#define RDIAG_SCRATCH_TREE_H
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static void tree_put(const char *root, const char *rel, const char *text)
{
	char p[1024], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	for (s = p + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}
#endif
