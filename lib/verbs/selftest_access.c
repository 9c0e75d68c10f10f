/* access: three RDMA WRITEs the responder must refuse with a remote access error (WC 10):
 * into an MR registered without REMOTE_WRITE, with a wrong rkey, and running past the end
 * of the MR.  Each uses a fresh QP pair (the error moves the QP to ERR) and checks that not
 * one byte landed in the target. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "selftest_int.h"

enum { NO_REMOTE_WRITE, WRONG_RKEY, PAST_END };

static const char *const case_name[] = {
	"WRITE without REMOTE_WRITE", "WRITE with a wrong rkey", "WRITE past the MR end",
};

static int one(struct rdiag_selftest *st, struct rdiag_st_result *r, int which)
{
	struct rd_ep a, b;
	struct rd_conn c;
	struct rd_ctr_snap *a0, *a1, *b0 = NULL, *b1 = NULL;
	struct ibv_mr *mr;
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct ibv_wc wc;
	struct rdiag_st_check *ck;
	struct rdiag_st_counter *cnt;
	char *target, cnt_txt[128] = "";
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
	rd_ctr_settle(st, &st->a);
	a0 = rd_ctr_snap(st, &st->a);
	if (!st->loopback)
		b0 = rd_ctr_snap(st, &st->b);
	rd_st_wr_init(&wr, &sge, IBV_WR_RDMA_WRITE, a.buf, len, a.mr->lkey);
	wr.wr.rdma.remote_addr = (uintptr_t)target;
	wr.wr.rdma.rkey = rkey;
	rd_st_step(st, "%s: %u bytes to 0x%llx rkey 0x%x", case_name[which], len,
		   (unsigned long long)(uintptr_t)target, rkey);
	rc = rd_st_post_send(st, &a, &wr);
	if (!rc)
		rc = rd_st_poll(st, a.cq, &wc, 0);
	if (rc) {
		rd_st_fail(st, rc, "%s: completion", case_name[which]);
		goto out;
	}
	if (wc.status != IBV_WC_REM_ACCESS_ERR) {
		r->wc_status = (int)wc.status;
		snprintf(r->expected, sizeof(r->expected), "WC 10 IBV_WC_REM_ACCESS_ERR");
		snprintf(r->observed, sizeof(r->observed), "WC %d %s", wc.status,
			 rdiag_wc_status_name((int)wc.status));
		rc = rd_st_fail(st, 0, "%s: requester completion", case_name[which]);
		rd_st_hint(st, "%s", wc.status == IBV_WC_SUCCESS ? "the responder let a write through "
			   "that the MR does not allow: memory protection is broken" :
			   rdiag_wc_status_hint((int)wc.status));
		goto out;
	}
	for (i = 0; i < b.buflen; i++)
		if (b.buf[i])
			break;
	if (i < b.buflen) {
		snprintf(r->expected, sizeof(r->expected), "target memory untouched");
		snprintf(r->observed, sizeof(r->observed), "byte %zu of the responder buffer "
			 "written", i);
		rc = rd_st_fail(st, 0, "%s: responder memory", case_name[which]);
		goto out;
	}
	rd_ctr_settle(st, &st->a);
	a1 = rd_ctr_snap(st, &st->a);
	if (!st->loopback)
		b1 = rd_ctr_snap(st, &st->b);
	cnt = rd_ctr_delta(r, a0, a1, "remote_access_error", RDIAG_DIR_REQUESTER);
	if (cnt)
		snprintf(cnt_txt, sizeof(cnt_txt), "; %s +%lld", cnt->name, (long long)cnt->delta);
	cnt = rd_ctr_delta(r, st->loopback ? a0 : b0, st->loopback ? a1 : b1,
			   "remote_access_error", RDIAG_DIR_RESPONDER);
	if (cnt)
		snprintf(cnt_txt + strlen(cnt_txt), sizeof(cnt_txt) - strlen(cnt_txt),
			 "; %s +%lld", cnt->name, (long long)cnt->delta);
	if (!cnt_txt[0])
		snprintf(cnt_txt, sizeof(cnt_txt), "; no remote-access counter on this driver");
	rd_ctr_snap_free(a1);
	rd_ctr_snap_free(b1);
	ck = rd_st_check(r, RDIAG_PASS, case_name[which], "WC 10 IBV_WC_REM_ACCESS_ERR, requester "
			 "QP %s, target untouched%s", rdiag_qp_state_name(rd_st_qp_state(a.qp)),
			 cnt_txt);
	ck->wc_status = (int)wc.status;
	r->wc_status = (int)wc.status;
	rc = 0;
out:
	rd_ctr_snap_free(a0);
	rd_ctr_snap_free(b0);
	return rc;
}

int rd_test_access(struct rdiag_selftest *st, struct rdiag_st_result *r)
{
	int i, rc;

	for (i = NO_REMOTE_WRITE; i <= PAST_END; i++) {
		rc = one(st, r, i);
		if (rc)
			return rc;
	}
	snprintf(r->summary, sizeof(r->summary), "WRITE without REMOTE_WRITE, wrong rkey, past the "
		 "MR end: each WC 10 IBV_WC_REM_ACCESS_ERR, target memory untouched");
	r->verdict = RDIAG_PASS;
	return 0;
}
