/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* flow: per-QP analysis of a capture file - one line per flow (who talks to which QP, packets,
 * PSN gaps and duplicates, NAKs) and the totals.
 *
 * Uses rdmadiag/flow.h (open, add, get, total, close) fed by rdmadiag/capture.h and
 * rdmadiag/packet.h.  The flow records (struct rdiag_flow_info, struct rdiag_flow_total) are
 * allocated here and filled by the library: build against the headers of the library you run
 * with (librdmadiag(3), Conventions, Records).
 *
 *	./flow FILE.pcap
 */
#include <stdio.h>
#include <rdmadiag/capture.h>
#include <rdmadiag/flow.h>
#include <rdmadiag/packet.h>

int main(int argc, char **argv)
{
	const struct rdiag_capture_opts co = { .file = argc > 1 ? argv[1] : "-" };
	struct rdiag_flow_table *ft;
	struct rdiag_capture *c;
	struct rdiag_flow_total t;
	struct rdiag_flow_info fi;
	struct rdiag_frame f;
	struct rdiag_pkt p;
	char src[64], dst[64];

	if (rdiag_capture_open(&c, &co) < 0) {
		fprintf(stderr, "flow: %s\n", rdiag_capture_errmsg(NULL));
		return 2;
	}
	if (rdiag_flow_open(&ft, NULL) < 0) {
		fprintf(stderr, "flow: %s\n", rdiag_flow_errmsg(NULL));
		rdiag_capture_close(c);
		return 2;
	}
	while (rdiag_capture_next(c, &f) > 0) {
		if (rdiag_pkt_decode(&p, f.linktype, f.data, f.caplen, f.len, NULL) != 0) {
			rdiag_flow_add_other(ft);	/* counted in the total only */
			continue;
		}
		if (rdiag_flow_add(ft, &p, f.ts_sec * 1000000000ull + f.ts_nsec, NULL) < 0)
			fprintf(stderr, "flow: frame %llu: %s\n", (unsigned long long)f.n,
				rdiag_flow_errmsg(ft));
	}
	for (size_t i = 0; i < rdiag_flow_count(ft); i++) {
		if (rdiag_flow_get(ft, i, &fi) < 0)
			continue;
		rdiag_flow_addr_str(fi.key.kind, fi.key.src, src, sizeof(src));
		rdiag_flow_addr_str(fi.key.kind, fi.key.dst, dst, sizeof(dst));
		printf("%s > %s qp 0x%06x: %llu pkts, %llu gaps, %llu dup, %llu naks\n", src, dst,
		       fi.key.destqp, (unsigned long long)fi.pkts, (unsigned long long)fi.psn_gaps,
		       (unsigned long long)fi.psn_dup,
		       (unsigned long long)(fi.naks[0] + fi.naks[1] + fi.naks[2] + fi.naks[3] +
					    fi.naks[4] + fi.naks[RDIAG_NAK_OTHER]));
	}
	if (rdiag_flow_total(ft, &t) == 0)
		printf("total: %llu frames, %llu RDMA, %llu flows, %llu PSN gaps\n",
		       (unsigned long long)t.frames, (unsigned long long)t.rdma,
		       (unsigned long long)t.flows, (unsigned long long)t.psn_gaps);
	rdiag_flow_close(ft);
	rdiag_capture_close(c);
	return 0;
}
