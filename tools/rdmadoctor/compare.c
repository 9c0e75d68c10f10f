/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor compare: read the documents (each non-empty line of each file is one, so a file
 * per host and a file of JSON lines both work; the host is its host.hostname, else the file
 * name and, after the first, its line number), then print each property that differs with
 * its majority value and the hosts that differ, most harmful first. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "common/esc.h"
#include "common/out.h"
#include "common/tool.h"
#include "rdmadiag/describe.h"

#define TEXT_HOSTS 8	/* hosts listed per property in text (JSON lists them all) */

void doctor_compare_read(struct rdiag_describe_compare *c, FILE *f, const char *name)
{
	char *line = NULL, hname[320];
	size_t cap = 0;
	unsigned long lineno = 0, docs = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
			line[--n] = 0;
		if (!n)
			continue;
		if (docs++)
			snprintf(hname, sizeof(hname), "%s:%lu", name, lineno);
		else
			snprintf(hname, sizeof(hname), "%s", name);
		if (rdiag_describe_compare_add(c, line, (size_t)n, hname))
			tool_die("%s line %lu: %s", name, lineno, rdiag_describe_compare_errmsg(c));
	}
	free(line);
	if (ferror(f))
		tool_die("cannot read '%s': %s", name, strerror(errno));
}

static const char *level_of(enum rdiag_cmp_impact i)
{
	return i <= RDIAG_CMP_LARGE ? "problem" : i == RDIAG_CMP_DEGRADES ? "warning" : "info";
}

static const char *tag_of(enum rdiag_cmp_impact i)
{
	return i <= RDIAG_CMP_LARGE ? "PROBLEM" : i == RDIAG_CMP_DEGRADES ? "WARNING" : "info";
}

static void prop_out(struct out *o, const struct rdiag_desc_cmp_prop *p, bool verbose)
{
	size_t i;

	if (!out_json(o) && !p->ndiffer && !verbose)
		return;
	out_obj_begin(o, NULL);
	out_text(o, "%-8s %s: ", p->ndiffer ? tag_of(p->impact) : "same", tool_esc_tmp(p->name));
	out_str(o, "name", NULL, p->name);
	out_str(o, "field", NULL, p->field);
	out_str(o, "impact", NULL, rdiag_cmp_impact_name(p->impact));
	if (p->ndiffer)
		out_str(o, "level", NULL, level_of(p->impact));
	if (p->majority) {
		out_text(o, "%s", tool_esc_tmp(p->majority));
		out_str(o, "majority", NULL, p->majority);
	} else {
		out_text(o, "(absent)");
	}
	out_u64(o, "majority_hosts", " on %" PRIu64 " host(s)", p->nmajority);
	out_arr_begin(o, "differ");
	if (p->ndiffer)
		out_text(o, "; %zu differ:", p->ndiffer);
	for (i = 0; i < p->ndiffer; i++) {
		bool shown = i < TEXT_HOSTS;

		out_obj_begin(o, NULL);
		if (shown)
			out_text(o, " %s=%s", tool_esc_tmp(p->differ[i].host),
				 p->differ[i].value ? tool_esc_tmp(p->differ[i].value) : "(absent)");
		out_str(o, "host", NULL, p->differ[i].host);
		if (p->differ[i].value)
			out_str(o, "value", NULL, p->differ[i].value);
		out_obj_end(o);
	}
	if (p->ndiffer > TEXT_HOSTS)
		out_text(o, " (+%zu more)", p->ndiffer - TEXT_HOSTS);
	out_arr_end(o);
	out_text(o, "\n");
	if (p->ndiffer)
		out_str(o, "why", "         %s\n", p->why);
	out_obj_end(o);
}

int doctor_compare(char **args, int nargs, bool json, bool verbose)
{
	struct rdiag_describe_compare *c;
	size_t i, n, ndiff = 0, nsame = 0;
	bool bad = false;
	struct out *o;
	int k;

	if (rdiag_describe_compare_open(&c, NULL))
		tool_die("out of memory");
	for (k = 0; k < nargs; k++) {
		FILE *f;

		if (!strcmp(args[k], "-")) {
			doctor_compare_read(c, stdin, "stdin");
			continue;
		}
		f = fopen(args[k], "re");
		if (!f)
			tool_die("cannot open '%s': %s", args[k], strerror(errno));
		doctor_compare_read(c, f, args[k]);
		fclose(f);
	}
	if (rdiag_describe_compare_nhosts(c) < 2)
		tool_die("compare needs the documents of at least 2 hosts (got %zu)",
			 rdiag_describe_compare_nhosts(c));
	if (rdiag_describe_compare_run(c))
		tool_die("out of memory");
	n = rdiag_describe_compare_nprops(c);
	for (i = 0; i < n; i++) {
		const struct rdiag_desc_cmp_prop *p = rdiag_describe_compare_prop(c, i);

		if (p->ndiffer) {
			ndiff++;
			bad |= p->impact <= RDIAG_CMP_DEGRADES;
		} else {
			nsame++;
		}
	}
	o = out_new(stdout, json ? OUT_JSON : OUT_TEXT);
	if (!o)
		tool_die("out of memory");
	out_hold(o, true);
	out_obj_begin(o, NULL);
	out_str(o, "command", NULL, "compare");
	out_u64(o, "hosts", "compare: %" PRIu64 " hosts", rdiag_describe_compare_nhosts(c));
	out_text(o, ", %zu properties, %zu differ\n", n, ndiff);
	out_arr_begin(o, "properties");
	for (i = 0; i < n; i++)
		prop_out(o, rdiag_describe_compare_prop(c, i), verbose);
	out_arr_end(o);
	if (nsame && !verbose)
		out_text(o, "%zu properties are the same on every host (-v lists them)\n", nsame);
	out_obj_end(o);
	out_free(o);
	rdiag_describe_compare_close(c);
	return bad ? EXIT_FOUND : EXIT_OK;
}
