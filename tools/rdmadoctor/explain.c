/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor explain 'LINE' | -: print what rdiag_explain_line() found.
 *
 * With "-", every line of standard input is read; the lines that hold a completion error are
 * explained, the others skipped.  A log repeats the same error (UCX prints one per QP): lines
 * that give the same explanation (status, vendor error, syndrome, firmware command, device,
 * peer, printer) are explained once, with how many there were and the first line's number. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "common/esc.h"
#include "common/out.h"
#include "common/tool.h"
#include "rdmadiag/explain.h"
#include "rdmadiag/selftest.h"

#define MAX_DISTINCT 256

struct seen {
	struct rdiag_explain e;
	char *line;		/* the first line that gave it */
	unsigned long first;	/* its number */
	unsigned long count;
};

/* where the status came from, in words: "its text", "its number", "the mlx5 CQE syndrome" */
static const char *status_from_words(const char *from)
{
	if (!strcmp(from, "text"))
		return "its text";
	if (!strcmp(from, "number"))
		return "its number";
	if (!strcmp(from, "mlx5_syndrome"))
		return "the mlx5 CQE syndrome";
	return from;
}

static void print_one(struct out *o, const struct rdiag_explain *e, const char *line,
		      unsigned long lineno, unsigned long count)
{
	size_t i;

	out_obj_begin(o, NULL);
	out_str(o, "command", NULL, "explain");
	if (lineno) {
		out_u64(o, "line_number", "line %" PRIu64, lineno);
		out_u64(o, "count", NULL, count);
		if (count > 1)
			out_text(o, " (and %lu more like it)", count - 1);
		out_text(o, ": %s\n", tool_esc_tmp(line));
		out_str(o, "line", NULL, line);
	} else {
		out_str(o, "line", NULL, line);
	}
	out_str(o, "printer", NULL, e->printer);
	if (e->wc_status >= 0) {
		out_i64(o, "status", NULL, e->wc_status);
		out_str(o, "status_name", "%s", tool_name_or(rdiag_wc_status_name(e->wc_status),
							      "UNKNOWN"));
		out_text(o, " (%d)", e->wc_status);
		out_str(o, "status_str", " %s", rdiag_wc_status_str(e->wc_status));
		out_str(o, "status_from", NULL, e->status_from);
		out_text(o, "  [status read from %s, printed by %s]\n",
			 status_from_words(e->status_from), e->printer);
		out_str(o, "meaning", "  meaning: %s\n", rdiag_wc_status_meaning(e->wc_status));
		if (e->status_conflict)
			out_bool(o, "status_conflict", "  note: the line also carries another status "
				 "number; the status text was taken\n", true);
	}
	if (e->has_cmd) {
		out_obj_begin(o, "firmware_command");
		out_text(o, "mlx5 firmware command %s", tool_esc_tmp(e->cmd));
		out_str(o, "name", NULL, e->cmd);
		out_u64(o, "opcode", " (0x%" PRIx64 ")", e->cmd_opcode);
		out_text(o, " failed: %s", tool_esc_tmp(e->cmd_status_str));
		out_str(o, "status_str", NULL, e->cmd_status_str);
		out_u64(o, "status", " (0x%" PRIx64 ")", e->cmd_status);
		out_u64(o, "syndrome", ", syndrome 0x%" PRIx64, e->cmd_syndrome);
		out_text(o, "  [printed by %s]\n", e->printer);
		if (e->cmd_verb)
			out_str(o, "verb", "  from the verbs call: %s\n", e->cmd_verb);
		out_text(o, "  the syndrome is firmware-internal: its meaning is not public\n");
		out_obj_end(o);
	}
	if (e->has_vendor_err) {
		out_obj_begin(o, "vendor_err");
		out_u64(o, "value", "  vendor error 0x%" PRIx64, e->vendor_err);
		out_text(o, " (%" PRIu32 "): %s\n", e->vendor_err,
			 e->vendor_meaning ? e->vendor_meaning : "meaning unknown");
		if (e->vendor_meaning)
			out_str(o, "meaning", NULL, e->vendor_meaning);
		out_str(o, "source", "    source: %s", e->vendor_source);
		out_str(o, "confidence", " (%s)\n", e->vendor_confidence);
		out_obj_end(o);
	}
	if (e->has_syndrome) {
		out_obj_begin(o, "mlx5_syndrome");
		out_u64(o, "value", "  mlx5 CQE syndrome 0x%" PRIx64, e->syndrome);
		if (e->syndrome_name)
			out_str(o, "name", " %s", e->syndrome_name);
		if (e->has_hw_synd) {
			out_u64(o, "hw_synd", ", hw_synd %" PRIu64, e->hw_synd);
			out_u64(o, "hw_synd_type", "/%" PRIu64, e->hw_synd_type);
		}
		out_text(o, "\n");
		out_obj_end(o);
	}
	if (e->device[0] || e->peer[0]) {
		out_text(o, " ");
		if (e->device[0]) {
			out_text(o, " device %s", tool_esc_tmp(e->device));
			out_str(o, "device", NULL, e->device);
			if (e->port)
				out_u64(o, "port", " port %" PRIu64, e->port);
		}
		if (e->peer[0]) {
			out_text(o, " peer %s", tool_esc_tmp(e->peer));
			out_str(o, "peer", NULL, e->peer);
		}
		out_text(o, "\n");
	}
	out_str(o, "cause", NULL, e->cause);
	out_text(o, "likely causes\n");
	out_arr_begin(o, "causes");
	for (i = 0; i < e->ncauses; i++) {
		out_obj_begin(o, NULL);
		out_text(o, "  %zu. ", i + 1);
		out_str(o, "id", "%s: ", e->causes[i].id);
		out_str(o, "text", "%s\n", e->causes[i].text);
		out_str(o, "check", "     check: %s\n", e->causes[i].check);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

static bool same(const struct rdiag_explain *a, const struct rdiag_explain *b)
{
	return a->wc_status == b->wc_status && a->has_vendor_err == b->has_vendor_err &&
	       a->vendor_err == b->vendor_err && a->has_syndrome == b->has_syndrome &&
	       a->syndrome == b->syndrome && a->has_cmd == b->has_cmd &&
	       !strcmp(a->cmd, b->cmd) && a->cmd_syndrome == b->cmd_syndrome &&
	       !strcmp(a->device, b->device) && a->port == b->port &&
	       !strcmp(a->peer, b->peer) && !strcmp(a->printer, b->printer);
}

static int explain_stdin(struct out *o)
{
	static struct seen seen[MAX_DISTINCT];
	struct rdiag_explain e;
	unsigned long lineno = 0, recognised = 0, dropped = 0;
	size_t nseen = 0, cap = 0, i;
	char *line = NULL;
	ssize_t n;

	while ((n = getline(&line, &cap, stdin)) >= 0) {
		lineno++;
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (rdiag_explain_line(line, (size_t)n, &e))
			continue;
		recognised++;
		for (i = 0; i < nseen && !same(&seen[i].e, &e); i++)
			;
		if (i < nseen) {
			seen[i].count++;
			continue;
		}
		if (nseen == MAX_DISTINCT) {
			dropped++;
			continue;
		}
		seen[nseen].e = e;
		seen[nseen].line = strdup(line);
		if (!seen[nseen].line)
			tool_die("out of memory");
		seen[nseen].first = lineno;
		seen[nseen].count = 1;
		nseen++;
	}
	free(line);
	if (ferror(stdin)) {
		out_free(o);
		tool_die("cannot read standard input: %s", strerror(errno));
	}
	for (i = 0; i < nseen; i++) {
		if (i)
			out_text(o, "\n");
		print_one(o, &seen[i].e, seen[i].line, seen[i].first, seen[i].count);
		free(seen[i].line);
	}
	if (!recognised)
		out_text(o, "no completion error recognised in %lu lines\n", lineno);
	if (dropped)
		tool_warn("%lu more lines gave other explanations than the first %d (not shown)",
			  dropped, MAX_DISTINCT);
	out_free(o);
	return recognised ? EXIT_FOUND : EXIT_OK;
}

int doctor_explain(const char *arg, bool json)
{
	struct out *o = out_new(stdout, json ? OUT_JSON : OUT_TEXT);
	struct rdiag_explain e;

	if (!o)
		tool_die("out of memory");
	if (!strcmp(arg, "-"))
		return explain_stdin(o);
	if (rdiag_explain_line(arg, strlen(arg), &e)) {
		out_obj_begin(o, NULL);
		out_str(o, "command", NULL, "explain");
		out_str(o, "line", NULL, arg);
		out_bool(o, "recognised", NULL, false);
		out_text(o, "no completion error recognised in this line\n");
		out_obj_end(o);
		out_free(o);
		return EXIT_OK;
	}
	print_one(o, &e, arg, 0, 1);
	out_free(o);
	return EXIT_FOUND;
}
