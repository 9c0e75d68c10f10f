/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor explain: read one completion-error line from a log (rdmadiag/explain.h).
 *
 * What is read, from the printers' own formats (tests/fixtures/explain/lines.tsv holds real
 * lines from public bug reports, each with its source):
 *   status text   ibv_wc_status_str() wording in any case ("transport retry counter
 *                 exceeded"), UCX's mlx5 wording ("Transport retry count exceeded"), Open
 *                 MPI's ("RETRY EXCEEDED ERROR"), enumerators ("IBV_WC_REM_ACCESS_ERR",
 *                 "IB_WC_RETRY_EXC_ERR")
 *   status number "status=12", "status 12", "status: (12)", "status: 0xc", "status number
 *                 12", NCCL's old "completion with error 12"; only in a line that speaks of
 *                 completions, work requests, QPs or RDMA (an "exit status 1" is not one)
 *   vendor error  "vendor err 129" (decimal, NCCL), "vendor_err 0x51", "vendor_err=0xa",
 *                 "vend 0x81" (UCX), "vendor syndrome 0xf9" (kernel), and a bare "syndrome
 *                 0x81" / perftest's "syndrom 0x51" when the line has no other vendor field
 *                 (UCX's verbs transports and perftest print wc.vendor_err that way)
 *   mlx5 syndrome "synd 0x15" (UCX), "syndrome 0x5, vendor syndrome ..." (kernel
 *                 mlx5_poll_one), "hw_synd 0/0", and the last row of an mlx5 CQE dump,
 *                 in words ("00000000 00008813 1001af37 115e97d3": vendor 0x88, syndrome
 *                 0x13; libmlx5's, or an old kernel's in dmesg) or in bytes (the kernel's
 *                 print_hex_dump: "00000030: 00 00 00 00 00 00 81 15 ...")
 *   firmware      "mlx5_cmd_check ... NAME(0xOP) op_mod(0x..) failed, status TEXT(0xS),
 *                 syndrome (0xSYN)"
 * The status comes from the text when there is one (a printer's other numbers sit next to
 * it), else from the number, else from the mlx5 syndrome. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "rdmadiag/explain.h"
#include "rdmadiag/selftest.h"

#define LINE_MAX_READ 4096

struct scan {
	char lc[LINE_MAX_READ];		/* the line in lower case, NUL-terminated */
	char orig[LINE_MAX_READ];	/* as given (for names that keep their case) */
	size_t len;
};

/* ---- small readers ---- */

static bool word_start(const struct scan *s, const char *p)
{
	return p == s->lc || !isalnum((unsigned char)p[-1]);
}

/* a number at p: "0x1f" hex, else decimal; *end after it; false when there is none */
static bool read_num(const char *p, uint32_t *v, const char **end)
{
	unsigned long long x;
	char *e;

	if (!isdigit((unsigned char)*p))
		return false;
	errno = 0;
	if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2]))
		x = strtoull(p + 2, &e, 16);
	else
		x = strtoull(p, &e, 10);
	if (errno || x > 0xffffffffull)
		return false;
	*v = (uint32_t)x;
	if (end)
		*end = e;
	return true;
}

static const char *skip_seps(const char *p, const char *seps)
{
	while (*p && strchr(seps, *p))
		p++;
	return p;
}

/* the value after a keyword: separators, then a number */
static bool num_after(const char *p, const char *seps, uint32_t *v)
{
	return read_num(skip_seps(p, seps), v, NULL);
}

/* ---- the status ---- */

struct alias {
	const char *text;
	int status;
};

/* wordings other than ibv_wc_status_str()'s, as the printers write them */
static const struct alias aliases[] = {
	{ "transport retry count exceeded", 12 },	/* UCX mlx5 */
	{ "retry exceeded error", 12 },			/* Open MPI openib */
	{ "rnr retry count exceeded", 13 },
	{ "receiver not ready retry", 13 },
	{ "local protection on ", 4 },			/* UCX mlx5: "Local protection on mlx5_0" */
	{ "remote access (synd", 10 },			/* UCX mlx5 (older) */
	{ "wr flush error", 5 },
	{ "work request flushed", 5 },
};

static bool is_word_end(char c)
{
	return !isalnum((unsigned char)c);
}

static bool speaks_of_completions(const struct scan *s);

/* texts that are also ordinary words in other logs ("fatal error", "general error"): a
 * status only in a line that speaks of completions */
static bool weak_text(int status)
{
	return status == 16 || status == 19 || status == 21 || status == 22 || status == 23;
}

static int status_from_text(const struct scan *s)
{
	size_t best_len = 0, i;
	int best = -1, st;
	const char *p;

	for (st = 1; st < 64; st++) {
		const char *t = rdiag_wc_status_name(st) ? rdiag_wc_status_str(st) : NULL;
		char low[64];
		size_t n, k;

		if (!t || (weak_text(st) && !speaks_of_completions(s)))
			continue;
		n = strlen(t);
		if (n >= sizeof(low))
			continue;
		for (k = 0; k <= n; k++)
			low[k] = (char)tolower((unsigned char)t[k]);
		for (p = strstr(s->lc, low); p; p = strstr(p + 1, low))
			if (word_start(s, p) && is_word_end(p[n]) && n > best_len) {
				best = st;
				best_len = n;
			}
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		size_t n = strlen(aliases[i].text);

		for (p = strstr(s->lc, aliases[i].text); p; p = strstr(p + 1, aliases[i].text))
			if (word_start(s, p) && n > best_len) {
				best = aliases[i].status;
				best_len = n;
			}
	}
	/* an enumerator: IBV_WC_RETRY_EXC_ERR, IB_WC_REM_ACCESS_ERR */
	for (p = strstr(s->lc, "wc_"); p; p = strstr(p + 1, "wc_")) {
		char tok[48];
		size_t n = 0;
		const char *q = p + 3;

		if (p < s->lc + 3 || (strncmp(p - 3, "ib_", 3) && (p < s->lc + 4 ||
							     strncmp(p - 4, "ibv_", 4))))
			continue;
		while ((isalnum((unsigned char)*q) || *q == '_') && n + 1 < sizeof(tok))
			tok[n++] = *q++;
		tok[n] = 0;
		st = rdiag_wc_status_from_name(tok);
		if (st > 0 && n + 7 > best_len) {
			best = st;
			best_len = n + 7;
		}
	}
	return best;
}

/* words that make a bare "status N" a completion status */
static bool speaks_of_completions(const struct scan *s)
{
	static const char *const words[] = {
		"completion", "cqe", "wc ", "wc_", "wr_id", "qp", "vendor", "net/ib", "rdma",
		"ibv", "opcode", "synd",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(s->lc, words[i]))
			return true;
	return false;
}

static int status_from_number(const struct scan *s)
{
	static const char *const kws[] = { "status", "with error" };
	size_t k;

	if (!speaks_of_completions(s))
		return -1;
	for (k = 0; k < sizeof(kws) / sizeof(kws[0]); k++) {
		const char *p;
		size_t n = strlen(kws[k]);

		for (p = strstr(s->lc, kws[k]); p; p = strstr(p + 1, kws[k])) {
			const char *q = p + n;
			uint32_t v;

			if (isalpha((unsigned char)*q))
				continue;		/* "status_str", "statuses" */
			q = skip_seps(q, " \t:=(#");
			if (!strncmp(q, "number", 6))
				q = skip_seps(q + 6, " \t:=(#");
			if (read_num(q, &v, NULL) && v > 0 && rdiag_wc_status_name((int)v))
				return (int)v;
		}
	}
	return -1;
}

/* ---- vendor error and mlx5 syndrome ---- */

static bool has_vendor_field(const struct scan *s)
{
	return strstr(s->lc, "vendor") || strstr(s->lc, "vend ");
}

static void read_vendor_and_syndrome(const struct scan *s, struct rdiag_explain *e)
{
	static const char *const vkw[] = { "vendor error", "vendor err", "vendor_err",
					   "vendor syndrome", "vend " };
	const char *p;
	uint32_t v;
	size_t k;

	for (k = 0; k < sizeof(vkw) / sizeof(vkw[0]) && !e->has_vendor_err; k++)
		for (p = strstr(s->lc, vkw[k]); p && !e->has_vendor_err; p = strstr(p + 1, vkw[k]))
			if ((p == s->lc || !isalpha((unsigned char)p[-1])) &&
			    num_after(p + strlen(vkw[k]), " \t:=(", &v)) {
				e->has_vendor_err = true;
				e->vendor_err = v;
			}
	/* "synd 0x15" (UCX's mlx5 log): the CQE syndrome */
	for (p = strstr(s->lc, "synd "); p && !e->has_syndrome; p = strstr(p + 1, "synd "))
		if (word_start(s, p) && num_after(p + 5, " \t:=(", &v)) {
			e->has_syndrome = true;
			e->syndrome = v;
		}
	/* "syndrome 0x5" / "syndrom 0x51": the CQE syndrome when the line has a vendor field
	 * of its own, else what UCX's verbs transports and perftest print as wc.vendor_err */
	for (p = strstr(s->lc, "syndrom"); p; p = strstr(p + 1, "syndrom")) {
		const char *q = p + 7 + (p[7] == 'e');

		if (!word_start(s, p) || (p >= s->lc + 7 && !strncmp(p - 7, "vendor ", 7)))
			continue;
		if (!num_after(q, " \t:=(", &v))
			continue;
		if (has_vendor_field(s)) {
			if (!e->has_syndrome) {
				e->has_syndrome = true;
				e->syndrome = v;
			}
		} else if (!e->has_vendor_err) {
			e->has_vendor_err = true;
			e->vendor_err = v;
		}
		break;
	}
	/* "hw_synd 0/0" */
	p = strstr(s->lc, "hw_synd ");
	if (p) {
		const char *q;
		uint32_t a, b;

		if (read_num(skip_seps(p + 8, " "), &a, &q) && *q == '/' &&
		    read_num(q + 1, &b, NULL)) {
			e->has_hw_synd = true;
			e->hw_synd = a;
			e->hw_synd_type = b;
		}
	}
}

/* which dump a line is the last row of (read_cqe_dump_row) */
enum cqe_dump {
	DUMP_NONE,
	DUMP_WORDS,	/* "00000000 00008813 1001af37 115e97d3": rdma-core's libmlx5 on the
			 * application's stderr, or an older kernel's mlx5 dump_cqe in dmesg */
	DUMP_BYTES,	/* "00000030: 00 00 00 00 00 00 81 15 ...": the kernel's mlx5
			 * print_hex_dump (DUMP_PREFIX_OFFSET, 16 bytes a row) */
};

/* what the last 16 bytes of an mlx5 error CQE say: byte 6 vendor_err_synd, byte 7 the
 * syndrome, byte 15 op_own with the CQE opcode REQ_ERR (0xd) or RESP_ERR (0xe) in its high
 * nibble; false when it is not an error CQE with a syndrome the provider defines */
static bool cqe_tail(const uint8_t b[16], struct rdiag_explain *e)
{
	if ((b[15] >> 4) != 0xd && (b[15] >> 4) != 0xe)
		return false;
	if (rdiag_mlx5_syndrome_wc_status(b[7]) < 0)
		return false;
	e->has_syndrome = true;
	e->syndrome = b[7];
	e->has_vendor_err = true;
	e->vendor_err = b[6];
	return true;
}

/* the kernel's row at offset 0x30 (the CQE's last 16 bytes): "00000030: " and 16 two-digit
 * hex bytes, one space apart */
static bool read_cqe_bytes_row(const struct scan *s, struct rdiag_explain *e)
{
	const char *p = strstr(s->lc, "00000030: ");
	uint8_t b[16];
	int i;

	if (!p || !word_start(s, p))
		return false;
	p += 10;
	for (i = 0; i < 16; i++) {
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
			return false;
		b[i] = (uint8_t)((isdigit((unsigned char)p[0]) ? p[0] - '0' : p[0] - 'a' + 10) << 4 |
				 (isdigit((unsigned char)p[1]) ? p[1] - '0' : p[1] - 'a' + 10));
		p += 2;
		if (i < 15 && *p++ != ' ')
			return false;
	}
	return cqe_tail(b, e);
}

/* the last row of a dump in four 8-digit hex words (big-endian: the second word's low byte
 * is the syndrome, the fourth's is op_own) */
static bool read_cqe_words_row(const struct scan *s, struct rdiag_explain *e)
{
	uint32_t w[4];
	uint8_t b[16];
	const char *end = s->lc + s->len, *p;
	int i;

	while (end > s->lc && isspace((unsigned char)end[-1]))
		end--;
	p = end;
	for (i = 3; i >= 0; i--) {
		const char *wend = p;
		char hex[9];

		while (p > s->lc && isxdigit((unsigned char)p[-1]))
			p--;
		if (wend - p != 8)
			return false;
		memcpy(hex, p, 8);
		hex[8] = 0;
		w[i] = (uint32_t)strtoul(hex, NULL, 16);
		if (i && (p == s->lc || (p[-1] != ' ' && p[-1] != '\t')))
			return false;
		while (i && p > s->lc && (p[-1] == ' ' || p[-1] == '\t'))
			p--;
	}
	if (p > s->lc && !isspace((unsigned char)p[-1]) && p[-1] != ']' && p[-1] != ':')
		return false;
	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(w[i / 4] >> (8 * (3 - i % 4)));
	return cqe_tail(b, e);
}

static enum cqe_dump read_cqe_dump_row(const struct scan *s, struct rdiag_explain *e)
{
	if (read_cqe_bytes_row(s, e))
		return DUMP_BYTES;
	if (read_cqe_words_row(s, e))
		return DUMP_WORDS;
	return DUMP_NONE;
}

/* ---- who, where, which peer ---- */

/* a line as dmesg gives it: "[ 1234.567890] ..." or, with -H/--reltime, "[  +0.000001] ..." */
static bool dmesg_prefix(const struct scan *s)
{
	const char *p = s->lc;

	if (*p++ != '[')
		return false;
	p += strspn(p, " +");
	return isdigit((unsigned char)*p) && strchr(p, ']');
}

static const char *printer_of(const struct scan *s, enum cqe_dump cqe_dump)
{
	/* the words row: the kernel's (dmesg, or a kernel word on the line) or libmlx5's */
	if (cqe_dump == DUMP_WORDS && !dmesg_prefix(s) && !strstr(s->lc, "kernel:") &&
	    !strstr(s->lc, "mlx5_core") && !strstr(s->lc, "mlx5_ib") && !strstr(s->lc, "infiniband "))
		return "libmlx5";
	if (strstr(s->lc, "net/ib") || strstr(s->lc, "nccl"))
		return "nccl";
	if (strstr(s->lc, "ib_mlx5_log") || strstr(s->lc, "ucx") || strstr(s->lc, "uct_") ||
	    strstr(s->lc, "rc_verbs") || strstr(s->lc, "dc_verbs") || strstr(s->lc, "dc_mlx5") ||
	    strstr(s->lc, "rc_mlx5") || strstr(s->lc, " dci qp ") ||
	    (strstr(s->lc, "(synd 0x") && strstr(s->lc, " vend 0x")))
		return "ucx";
	if (strstr(s->lc, "libfabric") || strstr(s->lc, "fi_cq") || strstr(s->lc, "ofi_"))
		return "libfabric";
	if (strstr(s->lc, "btl_openib") || strstr(s->lc, "error polling") ||
	    strstr(s->lc, "openib"))
		return "openmpi";
	if (strstr(s->lc, "*error*") || strstr(s->lc, "spdk") ||
	    strstr(s->lc, "nvme_rdma_log_wc_status") || strstr(s->lc, "nvmf_rdma"))
		return "spdk";
	if (strstr(s->lc, "completion with error at") || strstr(s->lc, "failed status "))
		return "perftest";
	if (cqe_dump != DUMP_NONE || strstr(s->lc, "mlx5_cmd_check") || strstr(s->lc, "mlx5_poll_one") ||
	    strstr(s->lc, "nvmet_rdma") || strstr(s->lc, "nvme_rdma") || strstr(s->lc, "ib_wc_") ||
	    strstr(s->lc, "infiniband ") || strstr(s->lc, "mlx5_core") ||
	    (s->lc[0] == '[' && isdigit((unsigned char)s->lc[strspn(s->lc, "[ ")])))
		return "kernel";
	return "application";
}

/* an RDMA device name: letters/digits, '_' and digits at the end ("mlx5_0", "mlx5_bond_0",
 * "erdma_0"), optionally ":PORT"; or the word after "infiniband " (kernel messages) */
static void find_device(const struct scan *s, struct rdiag_explain *e)
{
	const char *p = s->orig, *end = s->orig + s->len;

	while (p < end) {
		const char *t = p, *q, *us = NULL;

		while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		if (p > t && isalpha((unsigned char)*t)) {
			for (q = t; q < p; q++)
				if (*q == '_')
					us = q;
			if (us && us + 1 < p && strspn(us + 1, "0123456789") == (size_t)(p - us - 1) &&
			    (size_t)(p - t) < sizeof(e->device) && strncmp(t, "wr_", 3) &&
			    strncasecmp(t, "qp_", 3) && strncasecmp(t, "cq_", 3)) {
				uint32_t port;

				snprintf(e->device, sizeof(e->device), "%.*s", (int)(p - t), t);
				if (*p == ':' && read_num(p + 1, &port, NULL) && port < 256)
					e->port = port;
				return;
			}
		}
		if (p == t)
			p++;
	}
	p = strstr(s->lc, "infiniband ");
	if (p) {
		const char *t = s->orig + (p - s->lc) + 11;
		size_t n = strcspn(t, ": \t");

		if (n && n < sizeof(e->device))
			snprintf(e->device, sizeof(e->device), "%.*s", (int)n, t);
	}
}

static void copy_addr(char *dst, size_t len, const char *p)
{
	size_t n = strspn(p, "0123456789abcdefABCDEF.:");

	while (n && p[n - 1] == ':')
		n--;
	if (n && n < len)
		snprintf(dst, len, "%.*s", (int)n, p);
}

/* NCCL: "remoteGids::ffff:29.87.88.182" / "remoteGid ::ffff:..." (the IPv4 of a v4-mapped
 * GID), else "from peer 7.6.13.83<36315>" */
static void find_peer(const struct scan *s, struct rdiag_explain *e)
{
	const char *p = strstr(s->lc, "remotegid");

	if (p) {
		const char *q = s->orig + (p - s->lc) + 9;

		if (*q == 's')
			q++;
		q = skip_seps(q, " \t=:");
		if (!strncasecmp(q, "ffff:", 5))
			q += 5;
		copy_addr(e->peer, sizeof(e->peer), q);
		if (e->peer[0])
			return;
	}
	p = strstr(s->lc, "from peer ");
	if (p)
		copy_addr(e->peer, sizeof(e->peer), s->orig + (p - s->lc) + 10);
}

/* ---- causes ---- */

/* check with PEER and DEV filled in; without a device, "DEV " and "-d DEV " are dropped
 * (rdmastat and rdmacheck then take every device or their default one) */
static void fill_check(char *dst, size_t len, const char *check, const struct rdiag_explain *e)
{
	size_t o = 0;
	const char *p = check;

	while (*p && o + 1 < len) {
		bool start = p == check || !isalpha((unsigned char)p[-1]);

		if (start && !strncmp(p, "PEER", 4) && !isalpha((unsigned char)p[4]) && e->peer[0]) {
			o += (size_t)snprintf(dst + o, len - o, "%s", e->peer);
			p += 4;
		} else if (start && !strncmp(p, "DEV", 3) && !isalpha((unsigned char)p[3])) {
			if (e->device[0]) {
				o += (size_t)snprintf(dst + o, len - o, "%s", e->device);
				p += 3;
			} else {
				p += 3;
				if (o >= 3 && !strncmp(dst + o - 3, "-d ", 3))
					o -= 3;
				if (*p == ' ')
					p++;
				else if (o && dst[o - 1] == ' ')
					o--;
			}
		} else {
			dst[o++] = *p++;
		}
		if (o >= len)
			o = len - 1;
	}
	dst[o] = 0;
}

static void add_cause(struct rdiag_explain *e, const char *id, const char *text,
		      const char *check)
{
	struct rdiag_explain_cause *c;

	if (e->ncauses >= RDIAG_EXPLAIN_MAX_CAUSES)
		return;
	c = &e->causes[e->ncauses++];
	c->id = id;
	c->text = text;
	fill_check(c->check, sizeof(c->check), check, e);
}

static void rank_causes(struct rdiag_explain *e)
{
	const struct rdiag_wc_cause *c;
	size_t n, i;

	n = rdiag_wc_status_causes(e->wc_status, &c);
	for (i = 0; i < n; i++)
		add_cause(e, c[i].id, c[i].text, c[i].check);
	if (!e->ncauses)
		add_cause(e, "unknown", rdiag_wc_status_hint(e->wc_status),
			  "dmesg | grep -i -e mlx5 -e infiniband");
	e->cause = e->causes[0].id;
}

/* ---- mlx5 firmware command failures ---- */

static int read_cmd_check(const struct scan *s, struct rdiag_explain *e)
{
	const char *op = strstr(s->lc, "op_mod("), *st, *q, *open, *name;
	uint32_t v;

	if (!op || !(st = strstr(op, "failed, status ")))
		return -ENOENT;
	/* "NAME(0x504) op_mod" */
	q = op;
	while (q > s->lc && q[-1] == ' ')
		q--;
	if (q == s->lc || q[-1] != ')')
		return -ENOENT;
	open = q - 1;
	while (open > s->lc && *open != '(')
		open--;
	if (*open != '(' || !read_num(open + 1, &v, NULL))
		return -ENOENT;
	e->cmd_opcode = v;
	name = open;
	while (name > s->lc && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
		name--;
	snprintf(e->cmd, sizeof(e->cmd), "%.*s", (int)(open - name), s->orig + (name - s->lc));
	/* "status bad parameter(0x3)" */
	st += 15;
	q = strchr(st, '(');
	if (!q || !read_num(q + 1, &v, NULL))
		return -ENOENT;
	e->cmd_status = v;
	while (q > st && q[-1] == ' ')
		q--;
	snprintf(e->cmd_status_str, sizeof(e->cmd_status_str), "%.*s", (int)(q - st),
		 s->orig + (st - s->lc));
	q = strstr(q, "syndrome (");
	if (q && read_num(q + 10, &v, NULL))
		e->cmd_syndrome = v;
	e->has_cmd = true;
	e->cmd_verb = rd_explain_mlx5_cmd_verb(e->cmd);
	return 0;
}

static void cmd_causes(struct rdiag_explain *e)
{
	if (e->cmd_verb && !strcmp(e->cmd_verb, "ibv_modify_qp"))
		add_cause(e, "qp_attr_rejected", "the QP attributes were refused: path MTU, GID "
			  "index, timeout, retry counts or max_rd_atomic beyond what the port or "
			  "device allows, or a transition from the wrong state",
			  "rdmacheck -d DEV qp-states; rdmastat devices");
	else if (e->cmd_verb && !strncmp(e->cmd_verb, "ibv_reg_mr", 10))
		add_cause(e, "mr_registration_refused", "the memory registration was refused: "
			  "memory the device cannot map (GPU memory, DAX, a range it does not "
			  "support), a memlock limit, or too many MRs",
			  "rdmadoctor local (memlock); rdmacheck -d DEV mr-cost");
	add_cause(e, "firmware_command_failed", "the device firmware refused a command the "
		  "driver sent for a verbs call; the syndrome is firmware-internal (NVIDIA "
		  "support and the firmware release notes map it)",
		  "dmesg | grep mlx5_cmd_check; rdmastat devices (firmware version)");
	e->cause = e->causes[0].id;
}

/* ---- the whole line ---- */

int rdiag_explain_line(const char *line, size_t len, struct rdiag_explain *e)
{
	struct scan s;
	int text, number, synd_status = -1;
	enum cqe_dump dump;
	size_t i;

	if (!line || !e)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	e->wc_status = -1;
	if (len >= sizeof(s.lc))
		len = sizeof(s.lc) - 1;
	for (i = 0; i < len && line[i] && line[i] != '\n'; i++) {
		s.orig[i] = line[i];
		s.lc[i] = (char)tolower((unsigned char)line[i]);
	}
	s.len = i;
	s.orig[i] = s.lc[i] = 0;
	find_device(&s, e);
	find_peer(&s, e);

	if (read_cmd_check(&s, e) == 0) {
		e->printer = "kernel";
		cmd_causes(e);
		return 0;
	}
	memset(e, 0, sizeof(*e));
	e->wc_status = -1;
	find_device(&s, e);
	find_peer(&s, e);

	dump = read_cqe_dump_row(&s, e);
	if (dump == DUMP_NONE)
		read_vendor_and_syndrome(&s, e);
	text = dump != DUMP_NONE ? -1 : status_from_text(&s);
	number = dump != DUMP_NONE ? -1 : status_from_number(&s);
	if (e->has_syndrome) {
		e->syndrome_name = rdiag_mlx5_syndrome_name(e->syndrome);
		synd_status = rdiag_mlx5_syndrome_wc_status(e->syndrome);
	}
	if (text > 0) {
		e->wc_status = text;
		e->status_from = "text";
		e->status_conflict = number > 0 && number != text;
	} else if (number > 0) {
		e->wc_status = number;
		e->status_from = "number";
	} else if (synd_status > 0) {
		e->wc_status = synd_status;
		e->status_from = "mlx5_syndrome";
	} else {
		return -ENOENT;
	}
	e->printer = printer_of(&s, dump);
	if (e->has_vendor_err) {
		/* mlx5's values: said of a line from an mlx5 device, or with no device named
		 * (NCCL and the verbs printers do not name it) */
		bool mlx5 = !e->device[0] || !strncmp(e->device, "mlx5", 4) || e->has_syndrome;
		const struct rd_explain_vendor *v = mlx5 ?
			rd_explain_mlx5_vendor(e->vendor_err, e->wc_status) : NULL;

		if (v) {
			e->vendor_meaning = v->meaning;
			e->vendor_source = v->source;
			e->vendor_confidence = v->confidence;
		} else {
			e->vendor_source = "device specific: not in rdmadiag's table (mlx5 values "
					   "only, from public reports)";
			e->vendor_confidence = "unknown";
		}
	}
	rank_causes(e);
	return 0;
}
