/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat fabric -i's RDMA counters (stat_fabric_rdma.h) */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/rate.h>

#include "common/esc.h"
#include "common/out.h"
#include "fabric_rdma.h"

/* catalogue concepts, in the order shown: retransmissions are retransmitted_packets where
 * the driver counts packets, else the retry events (rxe's completer_retry_err, mlx5's
 * adaptive retransmissions) */
static const char *const concepts[] = {
	"rx_packets", "tx_packets", "cnp_sent", "cnp_received", "cnp_handled", "ecn_marked",
	"retransmitted_packets", "transport_retry", "adaptive_retransmission",
};

struct rdiag_samples *fabric_rdma_sample(struct rdiag_counters *c, const char *dev,
					 uint32_t port)
{
	struct rdiag_filter f = { dev, port };
	struct rdiag_samples *s;

	return rdiag_counters_sample(c, &f, &s) < 0 ? NULL : s;
}

/* the first readable port counter of concept in b (device-level ones have port 0) */
static const struct rdiag_sample *by_concept(const struct rdiag_samples *b, const char *concept)
{
	size_t i;

	for (i = 0; i < rdiag_samples_count(b); i++) {
		const struct rdiag_sample *s = rdiag_samples_get(b, i);

		if (s->port && !s->err && s->cat && s->cat->concept &&
		    !strcmp(s->cat->concept, concept))
			return s;
	}
	return NULL;
}

void fabric_rdma_print(struct out *o, const struct rdiag_samples *a,
		       const struct rdiag_samples *b)
{
	size_t k;
	bool head = false;

	out_arr_begin(o, "rdma_counters");
	for (k = 0; a && b && k < sizeof(concepts) / sizeof(concepts[0]); k++) {
		const struct rdiag_sample *sb = by_concept(b, concepts[k]), *sa;
		struct rdiag_rate r;

		if (!sb)
			continue;
		sa = rdiag_samples_find(a, sb->dev, sb->port, sb->name);
		if (!sa || sa->err || rdiag_rate_samples(sa, sb, &r) < 0 ||
		    r.state != RDIAG_RATE_VALID)
			continue;
		if (!head) {
			out_text(o, "  RDMA counters over the interval (delta, per second):\n");
			head = true;
		}
		out_obj_begin(o, NULL);
		out_str(o, "concept", "    %-22s", concepts[k]);
		out_str(o, "counter", " %-28s", sb->name);
		out_u64(o, "delta", " %12" PRIu64, r.delta);
		out_dbl(o, "per_s", " %12.1f", r.per_sec);
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
}
