/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* access: three RDMA WRITEs the responder must refuse with a remote access error (WC 10):
 * into an MR registered without REMOTE_WRITE, with a wrong rkey, and running past the end
 * of the MR.  Each uses a fresh QP pair (the error moves the QP to ERR) and checks that not
 * one byte landed in the target.
 *
 * Counters: where the driver counts remote access errors (catalogue concept
 * remote_access_error: mlx5 req_/resp_remote_access_errors, bnxt_re remote_access_err and
 * res_rx_*, efa rdma_write_wr_err), each refused WRITE is one NAK: the requester's counters
 * must move by 1 and the responder's by 1, case by case, and by 3 over the test.  Where it
 * has none at an end (rxe has none at all) the result says "not counted by this driver"
 * and no time is spent waiting for counters. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

enum { NO_REMOTE_WRITE, WRONG_RKEY, PAST_END, NCASES };

static const char *const case_name[] = {
	"WRITE without REMOTE_WRITE", "WRITE with a wrong rkey", "WRITE past the MR end",
};

#define CONCEPT "remote_access_error"

/* counter snapshots of the requester (a) and responder (b) end; b is a in loopback */
struct ends {
	struct rd_ctr_snap *a, *b;
	size_t nreq, nresp;	/* counters of the concept at each end (0: not counted) */
};

static void ends_snap(struct rdiag_selftest *st, struct ends *e)
{
	e->a = rd_ctr_snap(st, &st->a);
	e->b = st->loopback ? NULL : rd_ctr_snap(st, &st->b);
}

static void ends_free(struct ends *e)
{
	rd_ctr_snap_free(e->a);
	rd_ctr_snap_free(e->b);
	e->a = e->b = NULL;
}

static const struct rd_ctr_snap *resp_of(const struct rdiag_selftest *st, const struct ends *e)
{
	return st->loopback ? e->a : e->b;
}

/* "; remote access error counters: requester +1, responder +1", or which end does not count */
static void counted_text(char *buf, size_t len, const struct ends *e, int64_t req, int64_t resp)
{
	char rq[40] = "not counted by this driver", rs[40] = "not counted by this driver";

	if (!e->nreq && !e->nresp) {
		snprintf(buf, len, "; remote access errors not counted by this driver");
		return;
	}
	if (e->nreq)
		snprintf(rq, sizeof(rq), "%+lld", (long long)req);
	if (e->nresp)
		snprintf(rs, sizeof(rs), "%+lld", (long long)resp);
	snprintf(buf, len, "; remote access error counters: requester %s, responder %s", rq, rs);
}

/* after one case: each end's remote access error counters moved by exactly one event */
static int case_counters(struct rdiag_selftest *st, struct rdiag_st_result *r, struct ends *prev,
			 int which, char *txt, size_t tl)
{
	struct ends now = { 0 };
	int64_t req = 0, resp = 0, got;
	size_t nreq, nresp, n;
	const char *end;

	if (!prev->nreq && !prev->nresp) {
		counted_text(txt, tl, prev, 0, 0);
		return 0;
	}
	rd_ctr_settle(st, &st->a);
	ends_snap(st, &now);
	nreq = rd_ctr_sum(prev->a, now.a, CONCEPT, RDIAG_DIR_REQUESTER, &req);
	nresp = rd_ctr_sum(resp_of(st, prev), resp_of(st, &now), CONCEPT, RDIAG_DIR_RESPONDER,
			   &resp);
	now.nreq = prev->nreq;
	now.nresp = prev->nresp;
	ends_free(prev);
	*prev = now;
	counted_text(txt, tl, prev, req, resp);
	/* one refused WRITE is one NAK: each counter counts it at most once, one at least */
	if (nreq && (req < 1 || req > (int64_t)nreq)) {
		end = "requester";
		got = req;
		n = nreq;
	} else if (nresp && (resp < 1 || resp > (int64_t)nresp)) {
		end = "responder";
		got = resp;
		n = nresp;
	} else {
		return 0;
	}
	snprintf(r->expected, sizeof(r->expected), "%s %s counters +1 (one refused WRITE, one "
		 "NAK)", end, CONCEPT);
	snprintf(r->observed, sizeof(r->observed), "%+lld over %zu counter%s", (long long)got, n,
		 n == 1 ? "" : "s");
	rd_st_fail(st, 0, "%s: the %s's remote access error counters", case_name[which], end);
	rd_st_hint(st, "the driver counts remote access errors differently, or other traffic "
		   "on the port hit one during the test");
	return -EIO;
}

static int one(struct rdiag_selftest *st, struct rdiag_st_result *r, int which, struct ends *e)
{
	struct rd_ep a, b;
	struct rd_conn c;
	struct ibv_mr *mr;
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct ibv_wc wc;
	struct rdiag_st_check *ck;
	char *target, cnt_txt[160] = "";
	uint32_t rkey, len = 64;
	size_t i;
	int rc;

	rd_st_conn_default(st, &c);
	rc = rd_st_pair(st, &a, &b, IBV_QPT_RC, 8192, &c);
	if (rc)
		return rc;
	switch (which) {
	case NO_REMOTE_WRITE:
		/* REMOTE_READ so that the MR has a real rkey: only the WRITE right is missing */
		mr = rd_st_reg_mr(st, b.pd, b.buf + 4096, 4096,
				  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		if (!mr)
			return rd_st_fail(st, errno, "ibv_reg_mr without REMOTE_WRITE");
		target = b.buf + 4096;
		rkey = mr->rkey;
		break;
	case WRONG_RKEY:
		target = b.buf + 4096;
		rkey = b.mr->rkey ^ 0x5a;	/* same MR index, other key byte */
		break;
	default:
		/* starts inside the MR, ends 32 bytes after it */
		target = b.buf + b.buflen - 32;
		rkey = b.mr->rkey;
		break;
	}
	memset(b.buf, 0, b.buflen);
	memset(a.buf, 0xa5, len);
	rd_st_wr_init(&wr, &sge, IBV_WR_RDMA_WRITE, a.buf, len, a.mr->lkey);
	wr.wr.rdma.remote_addr = (uintptr_t)target;
	wr.wr.rdma.rkey = rkey;
	rd_st_step(st, "%s: %u bytes to 0x%llx rkey 0x%x", case_name[which], len,
		   (unsigned long long)(uintptr_t)target, rkey);
	rc = rd_st_post_send(st, &a, &wr);
	if (!rc)
		rc = rd_st_poll(st, a.cq, &wc, 0);
	if (rc)
		return rd_st_fail(st, rc, "%s: completion", case_name[which]);
	if (wc.status != IBV_WC_REM_ACCESS_ERR) {
		r->wc_status = (int)wc.status;
		snprintf(r->expected, sizeof(r->expected), "WC 10 IBV_WC_REM_ACCESS_ERR");
		snprintf(r->observed, sizeof(r->observed), "WC %d %s", wc.status,
			 rd_st_wc_name((int)wc.status));
		rc = rd_st_fail(st, 0, "%s: requester completion", case_name[which]);
		rd_st_hint(st, "%s", wc.status == IBV_WC_SUCCESS ? "the responder let a write through "
			   "that the MR does not allow: memory protection is broken" :
			   rdiag_wc_status_hint((int)wc.status));
		return rc;
	}
	for (i = 0; i < b.buflen; i++)
		if (b.buf[i])
			break;
	if (i < b.buflen) {
		snprintf(r->expected, sizeof(r->expected), "target memory untouched");
		snprintf(r->observed, sizeof(r->observed), "byte %zu of the responder buffer "
			 "written", i);
		return rd_st_fail(st, 0, "%s: responder memory", case_name[which]);
	}
	rc = case_counters(st, r, e, which, cnt_txt, sizeof(cnt_txt));
	if (rc)
		return rc;
	ck = rd_st_check(r, RDIAG_PASS, case_name[which], "WC 10 IBV_WC_REM_ACCESS_ERR, requester "
			 "QP %s, target untouched%s", rd_st_qp_state_name(rd_st_qp_state(a.qp)),
			 cnt_txt);
	ck->wc_status = (int)wc.status;
	r->wc_status = (int)wc.status;
	return 0;
}

/* one end's counters over the whole test, recorded and asserted: NCASES events */
static int end_total(struct rdiag_selftest *st, struct rdiag_st_result *r,
		     const struct rd_ctr_snap *before, const struct rd_ctr_snap *after, int dir,
		     const char *end)
{
	struct rdiag_st_counter *c;
	size_t n;
	int64_t sum;

	n = rd_ctr_delta_all(r, before, after, CONCEPT, dir, &c);
	if (!n || rd_ctr_expect_sum(c, n, NCASES, NCASES, &sum))
		return 0;
	snprintf(r->expected, sizeof(r->expected), "%s %s counters +%d", end, CONCEPT, NCASES);
	snprintf(r->observed, sizeof(r->observed), "%+lld", (long long)sum);
	return rd_st_fail(st, 0, "the %s's remote access error counters over the test", end);
}

/* the counters over the whole test, recorded and asserted: NCASES events at each end */
static int totals(struct rdiag_selftest *st, struct rdiag_st_result *r, const struct ends *e0,
		  const struct ends *e1)
{
	int rc = end_total(st, r, e0->a, e1->a, RDIAG_DIR_REQUESTER, "requester");

	return rc ? rc : end_total(st, r, resp_of(st, e0), resp_of(st, e1), RDIAG_DIR_RESPONDER,
				   "responder");
}

int rd_test_access(struct rdiag_selftest *st, struct rdiag_st_result *r)
{
	struct ends e0 = { 0 }, e = { 0 };
	int64_t zero;
	int i, rc = 0;

	/* a first look says whether the driver counts the concept at all; only then is a
	 * settled baseline worth its wait */
	ends_snap(st, &e0);
	e0.nreq = rd_ctr_sum(e0.a, e0.a, CONCEPT, RDIAG_DIR_REQUESTER, &zero);
	e0.nresp = rd_ctr_sum(resp_of(st, &e0), resp_of(st, &e0), CONCEPT, RDIAG_DIR_RESPONDER,
			      &zero);
	if (e0.nreq || e0.nresp) {
		size_t nreq = e0.nreq, nresp = e0.nresp;

		ends_free(&e0);
		rd_ctr_settle(st, &st->a);
		ends_snap(st, &e0);
		e0.nreq = nreq;
		e0.nresp = nresp;
	}
	/* e walks from case to case; e0 stays the baseline */
	e.nreq = e0.nreq;
	e.nresp = e0.nresp;
	if (e0.nreq || e0.nresp)
		ends_snap(st, &e);
	for (i = NO_REMOTE_WRITE; i < NCASES && !rc; i++)
		rc = one(st, r, i, &e);
	if (!rc && (e0.nreq || e0.nresp))
		rc = totals(st, r, &e0, &e);
	ends_free(&e0);
	ends_free(&e);
	if (rc)
		return rc;
	snprintf(r->summary, sizeof(r->summary), "WRITE without REMOTE_WRITE, wrong rkey, past the "
		 "MR end: each WC 10 IBV_WC_REM_ACCESS_ERR, target memory untouched; %s%s%s",
		 !e0.nreq && !e0.nresp ? "remote access errors not counted by this driver" :
		 e0.nreq ? "remote access errors counted +1 per case by the requester" :
		 "requester does not count remote access errors",
		 !e0.nreq && !e0.nresp ? "" : e0.nresp ? ", +1 by the responder" :
		 ", the responder does not", "");
	r->verdict = RDIAG_PASS;
	return 0;
}
