/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What the fuzz targets of the netlink replies do with a counters handle: every request the
 * tools make (rdmastat, rdmatop -b, rdmacheck), with the results read back and checked.
 * The handle reads a replayed netlink recording (RDMADIAG_NL_REPLAY) and a sysfs root
 * (RDMADIAG_SYSFS_ROOT) that the target sets: nothing here touches a real device. */
#ifndef FUZZ_COUNTERS_EXERCISE_H
#define FUZZ_COUNTERS_EXERCISE_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/counters.h"
#include "rdmadiag/resources.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#define SAMPLES_FIND_MAX 32
#define SAMPLES_ABSENT "\x01not-a-counter"

static void exercise_resources(struct rdiag_counters *c, const char *dev)
{
	struct rdiag_qp *qp = NULL;
	struct rdiag_cm_id *cm = NULL;
	struct rdiag_qp_counter *qc = NULL;
	size_t n = 0, i;

	if (rdiag_counters_qps(c, dev, &qp, &n) == 0) {
		for (i = 0; i < n; i++) {
			CHECK(memchr(qp[i].dev, 0, sizeof(qp[i].dev)));
			CHECK(memchr(qp[i].comm, 0, sizeof(qp[i].comm)));
			(void)rdiag_qp_type_name(qp[i].type);
			(void)rdiag_qp_state_name(qp[i].state);
		}
		free(qp);
	}
	n = 0;
	if (rdiag_counters_cm_ids(c, dev, &cm, &n) == 0) {
		for (i = 0; i < n; i++) {
			char a[128];

			CHECK(memchr(cm[i].dev, 0, sizeof(cm[i].dev)));
			(void)rdiag_res_cm_state_name(cm[i].state);
			if (cm[i].has_src)
				(void)rdiag_sockaddr_str(&cm[i].src, a, sizeof(a));
			if (cm[i].has_dst)
				(void)rdiag_sockaddr_str(&cm[i].dst, a, sizeof(a));
		}
		free(cm);
	}
	n = 0;
	if (rdiag_counters_qp_counters(c, dev, &qc, &n) == 0)
		rdiag_counters_qp_counters_free(qc, n);
}

static void exercise_counters(const struct rdiag_counters_opts *o)
{
	struct rdiag_counters *c;
	struct rdiag_devices *ds = NULL;
	struct rdiag_samples *s = NULL;
	size_t i, j;

	if (rdiag_counters_open(&c, o) < 0)
		return;
	if (rdiag_counters_discover(c, &ds) == 0) {
		for (i = 0; i < ds->n && i < 8; i++) {
			const struct rdiag_device *d = &ds->dev[i];

			CHECK(memchr(d->name, 0, sizeof(d->name)));
			CHECK(rdiag_counters_device_find(ds, d->name) != NULL);
			for (j = 0; j < d->n_ports && j < 8; j++) {
				struct rdiag_counter_status st;

				memset(&st, 0, sizeof(st));
				if (rdiag_counters_status(c, d->name, d->ports[j].port, &st) == 0)
					rdiag_counters_status_free(&st);
			}
			exercise_resources(c, d->name);
		}
		rdiag_counters_devices_free(ds);
	}
	if (rdiag_counters_sample(c, NULL, &s) == 0) {
		size_t n = rdiag_samples_count(s);
		/* rdiag_samples_find() is a linear search: asked for every sample it was most
		 * of an input's time (n^2 with hundreds of samples).  Every sample is read back;
		 * find is asked for at most SAMPLES_FIND_MAX of them, spread over the whole set
		 * (the first and the last among them), and must give one with the same key at
		 * or before it; and a key that is most likely in no set is looked up too (the
		 * search to the end), with the answer a plain scan gives. */
		size_t step = n > SAMPLES_FIND_MAX ? (n + SAMPLES_FIND_MAX - 1) / SAMPLES_FIND_MAX : 1;

		for (i = 0; i < n; i++) {
			const struct rdiag_sample *x = rdiag_samples_get(s, i), *y;

			CHECK(x && x->dev && x->name);
			if (i % step && i != n - 1)
				continue;
			y = rdiag_samples_find(s, x->dev, x->port, x->name);
			CHECK(y && y <= x && y->port == x->port && !strcmp(y->name, x->name) &&
			      !strcmp(y->dev, x->dev));
		}
		if (n) {
			const char *dev = rdiag_samples_get(s, 0)->dev;
			const struct rdiag_sample *first = NULL;

			for (i = 0; i < n && !first; i++) {
				const struct rdiag_sample *x = rdiag_samples_get(s, i);

				if (x->port == 0 && !strcmp(x->name, SAMPLES_ABSENT) &&
				    !strcmp(x->dev, dev))
					first = x;
			}
			CHECK(rdiag_samples_find(s, dev, 0, SAMPLES_ABSENT) == first);
		}
		rdiag_samples_free(s);
	}
	exercise_resources(c, NULL);
	(void)rdiag_counters_errmsg(c);
	rdiag_counters_close(c);
}

#endif
