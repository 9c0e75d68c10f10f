/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The shared cause table (rdmadiag/cause.h): every cause id rdmadoctor documents in
 * rdmadiag/doctor.h and every id its sources pass as a cause is in the table; ids are unique,
 * each has a known layer, a meaning and its evidence; rdmatrace's ids are there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glob.h>

#include "tap.h"
#include "rdmadiag/cause.h"

static const char *const layers[] = { "none", "host", "link", "address", "network", "firewall",
				      "cm", "transport", "application" };

static int layer_known(const char *l)
{
	size_t i;

	for (i = 0; i < sizeof(layers) / sizeof(layers[0]); i++)
		if (!strcmp(l, layers[i]))
			return 1;
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (s = calloc(1, (size_t)n + 1)) && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	fclose(f);
	return s;
}

/* every "quoted_id" between from and to (exclusive) must be a cause of the table */
static int check_quoted(const char *from, const char *to, const char *where)
{
	const char *p = from, *q;
	char id[64];
	int missing = 0, seen = 0;

	while (p < to && (p = strchr(p, '"')) && p < to) {
		q = strchr(p + 1, '"');
		if (!q || q >= to)
			break;
		if ((size_t)(q - p - 1) < sizeof(id) && q > p + 1) {
			memcpy(id, p + 1, (size_t)(q - p - 1));
			id[q - p - 1] = 0;
			seen++;
			if (!rdiag_cause_find(id)) {
				printf("# %s: cause \"%s\" is not in the table\n", where, id);
				missing++;
			}
		}
		p = q + 1;
	}
	return seen ? missing : -1;
}

/* the cause argument of the doctor's set(v, "layer", "cause") and rd_doc_add(..., "cause", */
static int check_sources(void)
{
	glob_t g;
	size_t i;
	int missing = 0, seen = 0;

	if (glob("lib/doctor/*.c", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		char *s = slurp(g.gl_pathv[i]), *p;
		char id[64];

		for (p = s; p && (p = strstr(p, "set(v, \"")); p++) {
			if (sscanf(p, "set(v, \"%*[a-z]\", \"%63[a-z0-9_]\"", id) == 1) {
				seen++;
				if (!rdiag_cause_find(id)) {
					printf("# %s: set() cause \"%s\" is not in the table\n",
					       g.gl_pathv[i], id);
					missing++;
				}
			}
		}
		for (p = s; p && (p = strstr(p, "RDIAG_DOC_")); p++) {
			/* rd_doc_add(d, check, layer, LEVEL, "cause", ...: the string after a level */
			if (sscanf(p, "RDIAG_DOC_%*[A-Z], \"%63[a-z0-9_]\"", id) == 1 ||
			    sscanf(p, "RDIAG_DOC_WARN : RDIAG_DOC_INFO, \"%63[a-z0-9_]\"", id) == 1) {
				seen++;
				if (!rdiag_cause_find(id)) {
					printf("# %s: finding cause \"%s\" is not in the table\n",
					       g.gl_pathv[i], id);
					missing++;
				}
			}
		}
		free(s);
	}
	globfree(&g);
	printf("# %d cause ids in lib/doctor/*.c\n", seen);
	return seen > 20 ? missing : -1;
}

/* roff text of s: a backslash doubled, a hyphen as \- (the man pages' escaping) */
static void roff(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s && o + 3 < len; s++) {
		if (*s == '-' || *s == '\\')
			out[o++] = '\\';
		out[o++] = *s;
	}
	out[o] = 0;
}

/* the page's CAUSE IDS section has every id of the table with its layer, meaning and
 * evidence as the table says: rdmatrace(1) and rdmadoctor(1) document the same ids */
static int check_man(const char *path, const struct rdiag_cause *t, size_t n)
{
	char *m = slurp(path), want[4096], a[1024], b[1024];
	size_t i;
	int bad = 0;

	if (!m)
		return -1;
	for (i = 0; i < n; i++) {
		roff(t[i].meaning, a, sizeof(a));
		roff(t[i].evidence, b, sizeof(b));
		snprintf(want, sizeof(want), ".TP\n.B %s\n(%s) %s.\nEvidence: %s.\n", t[i].id,
			 t[i].layer, a, b);
		if (!strstr(m, want)) {
			printf("# %s: %s is not there as the table has it\n", path, t[i].id);
			bad++;
		}
	}
	free(m);
	return bad;
}

int main(void)
{
	size_t n, i, j;
	const struct rdiag_cause *t = rdiag_cause_table(&n);
	int dup = 0, bad = 0;
	char *h = slurp("lib/include/rdmadiag/doctor.h");
	const char *a, *b;
	static const char *const trace_ids[] = { "no_listener", "cm_no_response",
		"addr_error", "route_error", "rejected", "peer_unreachable", "rejected_here",
		"ended_without_disconnect", "timeout", "ok" };

	EXPECT_TRUE(n > 30);
	for (i = 0; i < n; i++) {
		for (j = i + 1; j < n; j++)
			dup += !strcmp(t[i].id, t[j].id);
		/* every id says what evidence produces it */
		if (!layer_known(t[i].layer) || !t[i].meaning[0] ||
		    t[i].meaning[strlen(t[i].meaning) - 1] == '.' || !t[i].evidence ||
		    !t[i].evidence[0] || t[i].evidence[strlen(t[i].evidence) - 1] == '.') {
			printf("# bad entry %s\n", t[i].id);
			bad++;
		}
	}
	EXPECT_EQ(dup, 0);
	EXPECT_EQ(bad, 0);
	for (i = 0; i < sizeof(trace_ids) / sizeof(trace_ids[0]); i++)
		EXPECT_TRUE(rdiag_cause_find(trace_ids[i]) != NULL);
	EXPECT_TRUE(rdiag_cause_find("no_such_cause") == NULL);
	EXPECT_TRUE(rdiag_cause_find(NULL) == NULL);
	EXPECT_STREQ(rdiag_cause_find("no_listener")->layer, "cm");

	/* doctor.h: the verdict's documented ids and the findings' extra ones */
	EXPECT_TRUE(h != NULL);
	a = h ? strstr(h, "const char *cause;\t/* stable id:") : NULL;
	b = a ? strstr(a, "char sentence") : NULL;
	EXPECT_TRUE(a && b);
	if (a && b)
		EXPECT_EQ(check_quoted(a, b, "doctor.h verdict"), 0);
	a = h ? strstr(h, "const char *cause;\t/* stable cause id of a warning") : NULL;
	b = a ? strstr(a, "char subject") : NULL;
	EXPECT_TRUE(a && b);
	if (a && b)
		EXPECT_EQ(check_quoted(a, b, "doctor.h finding"), 0);
	free(h);
	EXPECT_EQ(check_sources(), 0);
	EXPECT_EQ(check_man("man/man1/rdmatrace.1", t, n), 0);
	EXPECT_EQ(check_man("man/man1/rdmadoctor.1", t, n), 0);
	return tap_done();
}
