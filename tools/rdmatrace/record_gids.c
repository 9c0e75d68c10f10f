/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: the GID table of every port, as a discovery read it from sysfs (gids/N,
 * gid_attrs/types/N, gid_attrs/ndevs/N; RDMADIAG_SYSFS_ROOT honoured), against the previous
 * look.  An entry added, removed or changed is a record
 * "dev\tport\tindex\tadded|removed|changed\tgid\ttype\tndev\told_gid" (the entry as it is now,
 * as it was for removed; old_gid the GID it had, for changed only).  The first look is the
 * baseline; the entries of a port that appears later are added, those of one that goes away
 * removed. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/ring.h"
#include "record.h"

struct gid_entry {
	char dev[64];
	uint32_t port;
	unsigned int index;
	char gid[46];
	enum rdiag_gid_type type;
	char ndev[64];
};

static struct gid_entry *seen;
static size_t nseen;
static bool baseline;

static int entry_cmp(const void *a, const void *b)
{
	const struct gid_entry *x = a, *y = b;
	int d = strcmp(x->dev, y->dev);

	if (d)
		return d;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool same(const struct gid_entry *x, const struct gid_entry *y)
{
	return !strcmp(x->gid, y->gid) && x->type == y->type && !strcmp(x->ndev, y->ndev);
}

static void put(const char *what, const struct gid_entry *e, const char *old_gid, uint64_t t)
{
	rec_put_text(RDIAG_REC_GID, t, "%s\t%u\t%u\t%s\t%s\t%s\t%s\t%s", e->dev, e->port,
		     e->index, what, e->gid, e->type == RDIAG_GID_UNKNOWN ? "" :
		     rdiag_gid_type_name(e->type), e->ndev, old_gid);
}

static struct gid_entry *collect(const struct rdiag_devices *d, size_t *count)
{
	size_t n = 0, i, j, k;
	struct gid_entry *v;

	for (i = 0; i < d->n; i++)
		for (j = 0; j < d->dev[i].n_ports; j++)
			n += d->dev[i].ports[j].n_gids;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return NULL;
	n = 0;
	for (i = 0; i < d->n; i++)
		for (j = 0; j < d->dev[i].n_ports; j++) {
			const struct rdiag_port *p = &d->dev[i].ports[j];

			for (k = 0; k < p->n_gids; k++, n++) {
				snprintf(v[n].dev, sizeof(v[n].dev), "%s", d->dev[i].name);
				v[n].port = p->port;
				v[n].index = p->gids[k].index;
				snprintf(v[n].gid, sizeof(v[n].gid), "%s", p->gids[k].gid);
				v[n].type = p->gids[k].type;
				snprintf(v[n].ndev, sizeof(v[n].ndev), "%s", p->gids[k].ndev);
			}
		}
	qsort(v, n, sizeof(*v), entry_cmp);
	*count = n;
	return v;
}

void rec_gids_check(const struct rdiag_devices *d, uint64_t t)
{
	size_t n = 0, i = 0, j = 0;
	struct gid_entry *v = collect(d, &n);

	if (!v)
		return;
	while (baseline && (i < nseen || j < n)) {
		int c = i == nseen ? 1 : j == n ? -1 : entry_cmp(&seen[i], &v[j]);

		if (c < 0) {
			put("removed", &seen[i++], "", t);
		} else if (c > 0) {
			put("added", &v[j++], "", t);
		} else {
			if (!same(&seen[i], &v[j]))
				put("changed", &v[j], strcmp(seen[i].gid, v[j].gid) ? seen[i].gid : "",
				    t);
			i++;
			j++;
		}
	}
	free(seen);
	seen = v;
	nseen = n;
	baseline = true;
}

void rec_gids_free(void)
{
	free(seen);
	seen = NULL;
	nseen = 0;
}
