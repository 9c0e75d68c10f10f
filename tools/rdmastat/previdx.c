/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The previous interval's samples by counter (previdx.h): indices sorted by (Ethernet or
 * not, port, device, name, index), so that a binary search finds the first of equals. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool.h"
#include "previdx.h"

void prev_index_init(struct prev_index *x, const struct rdiag_samples *set)
{
	x->set = set;
	x->ord = NULL;
	x->n = 0;
}

void prev_index_free(struct prev_index *x)
{
	free(x->ord);
	x->ord = NULL;
}

static int key_cmp(const struct rdiag_sample *a, const struct rdiag_sample *b)
{
	bool ea = a->origin == RDIAG_ORIG_ETH, eb = b->origin == RDIAG_ORIG_ETH;
	int c;

	if (ea != eb)
		return ea ? 1 : -1;
	if (a->port != b->port)
		return a->port < b->port ? -1 : 1;
	c = strcmp(a->dev, b->dev);
	return c ? c : strcmp(a->name, b->name);
}

static int ord_cmp(const void *pa, const void *pb, void *arg)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int c = key_cmp(rdiag_samples_get(arg, a), rdiag_samples_get(arg, b));

	return c ? c : a < b ? -1 : a > b;
}

const struct rdiag_sample *prev_index_find(struct prev_index *x, const struct rdiag_sample *s)
{
	size_t lo = 0, hi, i;
	const struct rdiag_sample *p;

	if (!x->set)
		return NULL;
	if (!x->ord) {
		x->n = rdiag_samples_count(x->set);
		x->ord = malloc((x->n ? x->n : 1) * sizeof(*x->ord));
		if (!x->ord)
			tool_die("out of memory");
		for (i = 0; i < x->n; i++)
			x->ord[i] = i;
		qsort_r(x->ord, x->n, sizeof(*x->ord), ord_cmp, (void *)(uintptr_t)x->set);
	}
	/* the lower bound: the first of equal keys is the lowest index */
	hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(rdiag_samples_get(x->set, x->ord[mid]), s) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == x->n)
		return NULL;
	p = rdiag_samples_get(x->set, x->ord[lo]);
	return key_cmp(p, s) ? NULL : p;
}
