/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The data-path step of rdmadoctor connect: once the connection is ESTABLISHED, SENDs and
 * RDMA WRITEs of one packet each at every path MTU from 256 bytes up to the QP's negotiated
 * one, so that an MTU problem is shown rather than predicted: the largest size that
 * completes, and for the first that does not, its completion status (the counters that
 * moved are in the attempt's counter list, the peer's from its side channel when
 * rdiag_doctor_peer_counters took a set before).  A size gets timeout_ms for its completion: a
 * working one takes milliseconds; a dropped one ends in WC 12 after the QP's retries, or
 * (rxe, when the sending netdev refuses the frame) never, its send_err counter racing.   The listener posts receives and offers a
 * buffer for the WRITEs in its CM private data (rd_doc_pdata_buf). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/util.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/selftest.h"
#include "verbs/verbs.h"

#define DP_BUF 4096

/* the listener's buffer after the 32-byte MTU record of the private data (here, not with
 * the record in doctor_attempt.c: the attempt calls the data path, not the reverse) */
void rd_doc_pdata_set_buf(uint8_t *b, uint64_t addr, uint32_t rkey, uint32_t len)
{
	int i;

	for (i = 0; i < 8; i++)
		b[32 + i] = (uint8_t)(addr >> (56 - 8 * i));
	for (i = 0; i < 4; i++) {
		b[40 + i] = (uint8_t)(rkey >> (24 - 8 * i));
		b[44 + i] = (uint8_t)(len >> (24 - 8 * i));
	}
}

bool rd_doc_pdata_buf(const uint8_t *b, size_t len, uint64_t *addr, uint32_t *rkey,
		      uint32_t *blen)
{
	int i;

	*addr = 0;
	*rkey = *blen = 0;
	if (!b || len < RD_DOC_PDATA_LEN || memcmp(b, "RDOC", 4))
		return false;
	for (i = 0; i < 8; i++)
		*addr = *addr << 8 | b[32 + i];
	for (i = 0; i < 4; i++) {
		*rkey = *rkey << 8 | b[40 + i];
		*blen = *blen << 8 | b[44 + i];
	}
	return *blen != 0;
}

/* one signalled work request and its completion within timeout_ms; 0, or the WC status
 * (> 0), or -ETIMEDOUT / -errno */
int rd_doc_dp_one(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_send_wr *wr, int timeout_ms)
{
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	double start = rd_mono_ms(), end = start + timeout_ms;
	int n;

	if (ibv_post_send(qp, wr, &bad))
		return -errno;
	for (;;) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			return -EIO;
		if (n == 1)
			return wc.status == IBV_WC_SUCCESS ? 0 : (int)wc.status;
		if (rd_mono_ms() > end)
			return -ETIMEDOUT;
		/* polled without sleeping for the first 2 ms, so that a round trip is timed
		 * to the microsecond (rdmadoctor paths' RTTs); then every millisecond */
		if (rd_mono_ms() - start > 2)
			poll(NULL, 0, 1);
	}
}

const char *rd_doc_dp_outcome(int r, int timeout_ms, char *buf, size_t len)
{
	if (r > 0)
		snprintf(buf, len, "WC %d %s (%s)", r, rdiag_wc_status_name(r), rdiag_wc_status_str(r));
	else if (r == -ETIMEDOUT)
		snprintf(buf, len, "no completion within %d ms", timeout_ms);
	else
		snprintf(buf, len, "cannot post it: %s", strerror(-r));
	return buf;
}

void rd_doc_datapath(struct rdiag_doctor *d, struct rdma_cm_id *id, struct ibv_pd *pd,
		     struct ibv_cq *cq, const uint8_t *rpdata, size_t rplen, int timeout_ms)
{
	struct rdiag_doc_finding *f;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	struct ibv_mr *mr = NULL;
	char *buf = NULL, why[160], subj[80];
	uint64_t raddr = 0;
	uint32_t rkey = 0, rlen = 0;
	unsigned int mtu, m, best = 0;
	bool write = false;
	int r = 0;
	const char *op = "SEND";

	d->peer_after = false;
	snprintf(subj, sizeof(subj), "%s/%u", d->egress_dev, d->egress_port);
	if (ibv_query_qp(id->qp, &qa, IBV_QP_PATH_MTU, &qi))
		return;
	mtu = rdiag_mtu_bytes(qa.path_mtu);
	if (!rd_doc_pdata_buf(rpdata, rplen, &raddr, &rkey, &rlen)) {
		f = rd_doc_add(d, "data_path", "transport", RDIAG_DOC_INFO, NULL, subj,
			       "no data-path step: the peer offers no buffer (not rdmadoctor listen, or an older one)");
		rd_doc_evidence(f, "the CM private data of the REP carries no buffer record");
		return;
	}
	buf = calloc(1, DP_BUF);
	mr = buf ? ibv_reg_mr(pd, buf, DP_BUF, IBV_ACCESS_LOCAL_WRITE) : NULL;
	if (!mr) {
		free(buf);
		return;
	}
	for (m = 256; m <= mtu && m <= DP_BUF; m *= 2) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = m, .lkey = mr->lkey };
		struct ibv_send_wr wr = { .wr_id = m, .sg_list = &sge, .num_sge = 1,
					  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };

		op = "SEND";
		r = rd_doc_dp_one(id->qp, cq, &wr, timeout_ms);
		if (r)
			break;
		if (m <= rlen) {
			wr.opcode = IBV_WR_RDMA_WRITE;
			wr.wr.rdma.remote_addr = raddr;
			wr.wr.rdma.rkey = rkey;
			op = "RDMA WRITE";
			write = true;
			r = rd_doc_dp_one(id->qp, cq, &wr, timeout_ms);
			if (r)
				break;
		}
		best = m;
	}
	if (!r) {
		f = rd_doc_add(d, "data_path", "transport", RDIAG_DOC_OK, NULL, subj,
			       "SEND%s complete at every path MTU from 256 to %u bytes (the QP's)",
			       write ? " and RDMA WRITE" : "", mtu);
		rd_doc_evidence(f, "one packet each, sizes 256..%u; largest that completed: %u", mtu, best);
	} else {
		f = rd_doc_add(d, "data_path", "transport", RDIAG_DOC_PROBLEM, "datapath_mtu_fails", subj,
			       "the connection is established, but %s %s of %u bytes (one packet at path MTU %u) does not complete: %s; the largest path MTU that works is %u",
			       !strcmp(op, "RDMA WRITE") ? "an" : "a", op, m, mtu, rd_doc_dp_outcome(r, timeout_ms, why, sizeof(why)), best);
		rd_doc_evidence(f, "sizes 256..%u, one packet each; %s of %u: %s; largest that completed: %u (the counters that moved are listed with the attempt)",
				mtu, op, m, why, best);
		/* what the peer's end saw of it, while the listener is still there (one
		 * with --count leaves after the disconnect) */
		rd_doc_peer_counters_after(d);
		if (best)
			rd_doc_hint(f, "make the MTUs agree on both ends and on every switch port between them, or cap the path MTU at %u", best);
		else
			rd_doc_hint(f, "no size completes: check the path for drops of RoCE packets (firewall, MTU of every hop)");
	}
	ibv_dereg_mr(mr);
	free(buf);
}
