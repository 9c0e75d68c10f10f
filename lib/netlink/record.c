/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Netlink record/replay files.
 *
 * Text, so recordings can be reviewed in a diff and malformed replies built by hand:
 *     # comment
 *     req 1400...        one request message, hex
 *     rep 3c00...        each reply datagram that followed it, hex
 * Replay matches a request by its bytes with nlmsg_seq and nlmsg_pid zeroed.  Requests repeat
 * (rdmastat -i): identical exchanges are consumed in order, and the last one is reused when
 * the recording runs out.
 *
 * Only the four functions of internal.h's record.c section are here: fuzz_nldev defines the
 * same four to answer requests from its input, and the linker takes its copies. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include "netlink.h"

struct rd_exchange {
	uint8_t *req;
	size_t reqlen;
	size_t n;
	uint8_t **rep;
	size_t *replen;
	bool used;
};

struct rd_replay {
	size_t n;
	struct rd_exchange *x;
};

void rd_record_write(FILE *f, const char *tag, const void *buf, size_t len)
{
	const uint8_t *b = buf;
	size_t i;

	fprintf(f, "%s ", tag);
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", b[i]);
	fputc('\n', f);
}

static int unhex(const char *s, uint8_t **out, size_t *len)
{
	size_t n = 0, l = strlen(s);
	uint8_t *b = malloc(l / 2 + 1);
	unsigned int v;

	if (!b)
		return -ENOMEM;
	while (*s) {
		if (isspace((unsigned char)*s)) {
			s++;
			continue;
		}
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) ||
		    sscanf(s, "%2x", &v) != 1) {
			free(b);
			return -EINVAL;
		}
		b[n++] = (uint8_t)v;
		s += 2;
	}
	*out = b;
	*len = n;
	return 0;
}

static void normalize(uint8_t *req, size_t len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)req;

	if (len >= sizeof(*h)) {
		h->nlmsg_seq = 0;
		h->nlmsg_pid = 0;
	}
}

void rd_replay_free(struct rd_replay *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < r->x[i].n; j++)
			free(r->x[i].rep[j]);
		free(r->x[i].rep);
		free(r->x[i].replen);
		free(r->x[i].req);
	}
	free(r->x);
	free(r);
}

int rd_replay_load(const char *path, struct rd_replay **out, char *err, size_t errlen)
{
	struct rd_replay *r;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	ssize_t l;
	int ret = 0;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot open netlink replay '%s': %s", path, strerror(errno));
		return ret;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		fclose(f);
		return -ENOMEM;
	}
	while (!ret && (l = getline(&line, &cap, f)) >= 0) {
		uint8_t *b;
		size_t bl;

		lineno++;
		while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r'))
			line[--l] = '\0';
		if (!l || line[0] == '#')
			continue;
		if (l < 4 || (strncmp(line, "req ", 4) && strncmp(line, "rep ", 4)) ||
		    unhex(line + 4, &b, &bl) < 0) {
			snprintf(err, errlen, "%s: line %u: expected 'req HEX' or 'rep HEX'", path,
				 lineno);
			ret = -EINVAL;
			break;
		}
		if (line[2] == 'q') {
			struct rd_exchange *nx = realloc(r->x, (r->n + 1) * sizeof(*nx));

			if (!nx) {
				free(b);
				ret = -ENOMEM;
				break;
			}
			r->x = nx;
			memset(&nx[r->n], 0, sizeof(nx[r->n]));
			normalize(b, bl);
			nx[r->n].req = b;
			nx[r->n].reqlen = bl;
			r->n++;
		} else {
			struct rd_exchange *x;
			uint8_t **nr;
			size_t *nl;

			if (!r->n) {
				free(b);
				snprintf(err, errlen, "%s: line %u: 'rep' before any 'req'", path,
					 lineno);
				ret = -EINVAL;
				break;
			}
			x = &r->x[r->n - 1];
			nr = realloc(x->rep, (x->n + 1) * sizeof(*nr));
			nl = nr ? realloc(x->replen, (x->n + 1) * sizeof(*nl)) : NULL;
			if (nr)
				x->rep = nr;
			if (!nr || !nl) {
				free(b);
				ret = -ENOMEM;
				break;
			}
			x->replen = nl;
			x->rep[x->n] = b;
			x->replen[x->n++] = bl;
		}
	}
	free(line);
	fclose(f);
	if (ret) {
		rd_replay_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

int rd_replay_lookup(struct rd_replay *r, const void *req, size_t reqlen,
		     const uint8_t *const **bufs, const size_t **lens, size_t *n)
{
	uint8_t tmp[4096];
	struct rd_exchange *last = NULL;
	size_t i;

	if (reqlen > sizeof(tmp))
		return -EINVAL;
	memcpy(tmp, req, reqlen);
	normalize(tmp, reqlen);
	for (i = 0; i < r->n; i++) {
		struct rd_exchange *x = &r->x[i];

		if (x->reqlen != reqlen || memcmp(x->req, tmp, reqlen))
			continue;
		last = x;
		if (!x->used)
			break;
	}
	if (!last)
		return -ENOENT;
	last->used = true;
	*bufs = (const uint8_t *const *)last->rep;
	*lens = last->replen;
	*n = last->n;
	return 0;
}
