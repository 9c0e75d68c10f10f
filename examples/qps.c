/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* qps: the queue pairs of every RDMA device (as `rdma res show qp`), read over netlink.
 *
 * Uses rdmadiag/resources.h on the counters handle of rdmadiag/counters.h: the resource
 * calls share its netlink socket, its record/replay seam and its errmsg.
 *
 *	./qps [DEV]
 *	RDMADIAG_NL_REPLAY=tests/fixtures/netlink/rxe-qp.rec ./qps   (a recorded kernel)
 */
#include <stdio.h>
#include <stdlib.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/resources.h>

int main(int argc, char **argv)
{
	const struct rdiag_counters_opts co = { .source = RDIAG_SRC_NETLINK };
	struct rdiag_counters *c;
	struct rdiag_qp *q = NULL;
	size_t n = 0;

	if (rdiag_counters_open(&c, &co) < 0) {
		fprintf(stderr, "qps: %s\n", rdiag_counters_errmsg(NULL));
		return 2;
	}
	if (rdiag_counters_qps(c, argc > 1 ? argv[1] : NULL, &q, &n) < 0) {
		fprintf(stderr, "qps: %s\n", rdiag_counters_errmsg(c));
		rdiag_counters_close(c);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		/* a name function gives NULL for a value it has no name for */
		const char *type = rdiag_qp_type_name(q[i].type);
		const char *state = rdiag_qp_state_name(q[i].state);

		printf("%s/%u lqpn %u %s %s", q[i].dev, q[i].port, q[i].lqpn,
		       type ? type : "UNKNOWN", state ? state : "UNKNOWN");
		if (q[i].has_rqpn)
			printf(" rqpn %u", q[i].rqpn);
		printf(" pid %u%s%s\n", q[i].pid, q[i].comm[0] ? " " : "", q[i].comm);
	}
	free(q);
	rdiag_counters_close(c);
	return 0;
}
