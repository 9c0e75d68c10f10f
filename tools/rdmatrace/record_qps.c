/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace record: the QPs of every RDMA device (RES_QP over netlink, the resources module)
 * at every counter snapshot, against the previous look.  A QP that appeared, changed state or
 * went away is a record "dev\tport\tqpn\ttype\tfrom\tto\tpid\tcomm" (from "" when it is new,
 * to "" when it is gone); one that enters ERR (or appears in it) also triggers, once: its
 * state has to change again before it can trigger again.  The first look is the baseline.
 * Netlink refused or missing: one warning, and no more looks; another failure skips the look. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/tool.h"
#include "rdmadiag/resources.h"
#include "rdmadiag/ring.h"
#include "record.h"

static struct rdiag_qp *seen;
static size_t nseen;
static bool baseline, given_up, warned;

static int qp_cmp(const void *a, const void *b)
{
	const struct rdiag_qp *x = a, *y = b;
	int d = strcmp(x->dev, y->dev);

	if (d)
		return d;
	return x->lqpn < y->lqpn ? -1 : x->lqpn > y->lqpn;
}

static const char *state_str(const struct rdiag_qp *q, char *buf, size_t len)
{
	const char *n;

	if (!q)
		return "";
	n = rdiag_qp_state_name(q->state);
	if (n)
		return n;
	snprintf(buf, len, "%u", q->state);
	return buf;
}

/* one record: was (NULL: new) -> now (NULL: gone) */
static void changed(const struct rdiag_qp *was, const struct rdiag_qp *now, uint64_t t)
{
	const struct rdiag_qp *q = now ? now : was;
	const char *type = rdiag_qp_type_name(q->type);
	char b1[16], b2[16], tbuf[16];

	if (!type) {
		snprintf(tbuf, sizeof(tbuf), "%u", q->type);
		type = tbuf;
	}
	rec_put_text(RDIAG_REC_QP, t, "%s\t%u\t%u\t%s\t%s\t%s\t%u\t%s", q->dev, q->port, q->lqpn,
		     type, state_str(was, b1, sizeof(b1)), state_str(now, b2, sizeof(b2)), q->pid,
		     q->comm);
	if (now && now->state == RDIAG_QPS_ERR) {
		char why[256];

		snprintf(why, sizeof(why), "QP in ERR: %s/%u qpn %u %s pid %u/%s", q->dev, q->port,
			 q->lqpn, type, q->pid, q->comm[0] ? q->comm : "?");
		rec_trigger(why, t);
	}
}

void rec_qps_check(struct rdiag_counters *c, uint64_t t)
{
	struct rdiag_qp *v = NULL;
	size_t n = 0, i = 0, j = 0;
	int rc;

	if (given_up)
		return;
	rc = rdiag_counters_qps(c, NULL, &v, &n);
	if (rc < 0) {
		const char *why = rdiag_counters_errmsg(c);

		if (rc == -EOPNOTSUPP || rc == -EPERM || rc == -EACCES ||
		    rc == -EPROTONOSUPPORT || rc == -EAFNOSUPPORT) {
			tool_warn("recording without QP states: %s", *why ? why : strerror(-rc));
			given_up = true;
		} else if (!warned) {
			tool_warn("cannot read the QPs (trying again at every snapshot): %s",
				  *why ? why : strerror(-rc));
			warned = true;
		}
		return;
	}
	qsort(v, n, sizeof(*v), qp_cmp);
	while (baseline && (i < nseen || j < n)) {
		int d = i == nseen ? 1 : j == n ? -1 : qp_cmp(&seen[i], &v[j]);

		if (d < 0) {
			changed(&seen[i++], NULL, t);
		} else if (d > 0) {
			changed(NULL, &v[j++], t);
		} else {
			if (seen[i].state != v[j].state)
				changed(&seen[i], &v[j], t);
			i++;
			j++;
		}
	}
	free(seen);
	seen = v;
	nseen = n;
	baseline = true;
}

void rec_qps_free(void)
{
	free(seen);
	seen = NULL;
	nseen = 0;
}
