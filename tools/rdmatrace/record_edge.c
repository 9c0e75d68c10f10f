/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: the edge trigger of the judged triggers (record_thresholds.c,
 * record_pause.c).  A set remembers what is breaching, by (rule, port, counter): a breach
 * fires only when it starts, and is re-armed by a snapshot in which it was neither breaching
 * nor left unjudged. */
#include <stdlib.h>
#include <string.h>

#include "record.h"

struct rec_edge {
	size_t rule;
	char *dev, *name;
	uint32_t port;
	bool seen;		/* breaching (or not judged) in this snapshot */
};

static struct rec_edge *find(struct rec_edges *e, size_t rule, const struct rdiag_sample *s)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (e->v[i].rule == rule && e->v[i].port == s->port && !strcmp(e->v[i].dev, s->dev) &&
		    !strcmp(e->v[i].name, s->name))
			return &e->v[i];
	return NULL;
}

void rec_edge_begin(struct rec_edges *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		e->v[i].seen = false;
}

void rec_edge_keep(struct rec_edges *e, size_t rule, const struct rdiag_sample *s)
{
	struct rec_edge *x = find(e, rule, s);

	if (x)
		x->seen = true;
}

bool rec_edge_breach(struct rec_edges *e, size_t rule, const struct rdiag_sample *s)
{
	struct rec_edge *x = find(e, rule, s), *n;

	if (x) {
		x->seen = true;
		return false;
	}
	n = realloc(e->v, (e->n + 1) * sizeof(*e->v));
	if (!n)
		return true;	/* fires, and may fire again: better than never */
	e->v = n;
	x = &e->v[e->n];
	x->dev = strdup(s->dev);
	x->name = strdup(s->name);
	if (!x->dev || !x->name) {
		free(x->dev);
		free(x->name);
		return true;
	}
	x->rule = rule;
	x->port = s->port;
	x->seen = true;
	e->n++;
	return true;
}

void rec_edge_end(struct rec_edges *e)
{
	size_t i;

	for (i = 0; i < e->n;) {
		if (e->v[i].seen) {
			i++;
			continue;
		}
		free(e->v[i].dev);
		free(e->v[i].name);
		e->v[i] = e->v[--e->n];
	}
}

void rec_edge_free(struct rec_edges *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->v[i].dev);
		free(e->v[i].name);
	}
	free(e->v);
	e->v = NULL;
	e->n = 0;
}
