/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* make bench helper: CPU per refresh of rdmatop's model and view alone (no I/O).
 *   top_model PORTS COUNTERS ROUNDS  -> prints milliseconds per refresh
 * Each round ingests a synthetic snapshot of PORTS x COUNTERS (rxe counter names cycled so
 * the catalogue is consulted, values rising), derives the port figures, evaluates one
 * threshold rule, sorts, and renders every Ports row as the batch view does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "table.h"
#include "thresh.h"

static const char *const names[] = { "sent_pkts", "rcvd_pkts", "duplicate_request",
	"out_of_seq_request", "rcvd_rnr_err", "send_rnr_err", "rcvd_seq_err", "ack_deferred",
	"retry_exceeded_err", "retry_rnr_exceeded_err", "completer_retry_err", "send_err",
	"link_downed", "rdma_sends", "rdma_recvs" };

int main(int argc, char **argv)
{
	int np = argc > 1 ? atoi(argv[1]) : 16, nc = argc > 2 ? atoi(argv[2]) : 64;
	int rounds = argc > 3 ? atoi(argv[3]) : 1000, r, i, j;
	char (*nm)[48] = calloc((size_t)np * nc, sizeof(*nm));
	struct rt_thresholds *th = NULL;
	struct rt_model m;
	struct rt_snap s;
	struct timespec a, b;
	char line[1024], cells[PC__N][RT_CELL];
	bool shown[PC__N];
	size_t idx[256];
	volatile size_t sink = 0;

	rt_model_init(&m);
	rt_thresh_parse(&th, "rnr_nak_received > 100/s\n", line, sizeof(line));
	m.th = th;
	rt_cols_fit(rt_port_cols, PC__N, 0, shown);
	memset(&s, 0, sizeof(s));
	s.nports = (size_t)np;
	s.ports = calloc((size_t)np, sizeof(*s.ports));
	for (i = 0; i < np; i++) {
		struct rt_snap_port *p = &s.ports[i];

		snprintf(p->dev, sizeof(p->dev), "rxe%d", i);
		p->port = 1;
		strcpy(p->state, "ACTIVE");
		p->link_gbps = 100;
		p->nctr = (size_t)nc;
		p->ctr = calloc((size_t)nc, sizeof(*p->ctr));
		for (j = 0; j < nc; j++) {
			char *n = nm[i * nc + j];

			if (j < 15)
				snprintf(n, 48, "%s", names[j]);
			else
				snprintf(n, 48, "vendor_counter_%d", j);
			p->ctr[j].name = n;
			rt_meta_lookup(&p->ctr[j].meta, n, "rxe", RDIAG_ORIG_SYSFS_HW);
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (r = 0; r < rounds; r++) {
		size_t n;

		s.t_ns = (uint64_t)(r + 1) * 1000000000ull;
		for (i = 0; i < np; i++) {
			s.ports[i].t_ns = s.t_ns;
			for (j = 0; j < nc; j++)
				s.ports[i].ctr[j].value += (uint64_t)(j + 1);
		}
		rt_model_ingest(&m, &s);
		n = rt_sort_ports(&m, RT_PK_NAME, false, idx);
		for (i = 0; i < (int)n; i++) {
			rt_port_cells(&m.ports[idx[i]], cells);
			sink += strlen(rt_row(rt_port_cols, PC__N, shown, cells, line, sizeof(line)));
		}
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	printf("%.3f\n", ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6) / rounds);
	return sink == 0;
}
