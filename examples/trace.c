/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* trace: the rdma_cm connections in a saved copy of tracefs (as rdmatrace --input reads
 * it), each with its outcome, its cause id and what the cause means.
 *
 * Uses rdmadiag/trace.h (decoding the kernel's rdma_cma/ib_cma/ib_mad records, assembling
 * connections) and rdmadiag/cause.h (the cause ids rdmadoctor shares).  Live tracing is the
 * same program with rdiag_trace_open() and rdiag_trace_read() called in a loop, as root.
 *
 *	./trace DIR        e.g. tests/fixtures/trace/rxe-6.1
 */
#include <stdio.h>
#include <rdmadiag/cause.h>
#include <rdmadiag/trace.h>

static struct rdiag_trace_conns *conns;

static void on_conn(const struct rdiag_trace_conn *c, void *arg)
{
	const struct rdiag_cause *k = rdiag_cause_find(c->cause);

	(void)arg;
	printf("cm.id %u pid %d %s %s: %s [%s] %s\n", c->cm_id, c->pid,
	       c->passive ? "passive" : "active", rdiag_trace_outcome_name(c->outcome), c->cause,
	       k ? k->layer : "?", k ? k->meaning : "");
}

static int on_event(const struct rdiag_trace_event *ev, void *arg)
{
	(*(unsigned int *)arg)++;
	return rdiag_trace_conns_add(conns, ev, on_conn, NULL);
}

int main(int argc, char **argv)
{
	struct rdiag_trace *t;
	unsigned int events = 0;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: trace DIR\n");
		return 2;
	}
	if (rdiag_trace_open_dir(&t, argv[1], NULL) < 0) {
		fprintf(stderr, "trace: %s\n", rdiag_trace_errmsg(NULL));
		return 2;
	}
	if (rdiag_trace_conns_open(&conns, NULL) < 0) {
		rdiag_trace_close(t);
		return 2;
	}
	err = rdiag_trace_read(t, on_event, &events, NULL);
	if (err < 0)
		fprintf(stderr, "trace: %s\n", rdiag_trace_errmsg(t));
	rdiag_trace_conns_flush(conns, 0, on_conn, NULL);
	printf("%u events\n", events);
	rdiag_trace_conns_close(conns);
	rdiag_trace_close(t);
	return err < 0 ? 1 : 0;
}
