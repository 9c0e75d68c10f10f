/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* alignment: what the device accepts for MRs at odd addresses and lengths, and whether
 * SEND, RDMA WRITE and RDMA READ between odd addresses (local and remote) with odd lengths
 * move exactly the right bytes (the bytes around the target are checked too); atomics on
 * aligned and misaligned targets. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define GUARD 16

static void pattern(char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (char)((i * 31 + seed) ^ (i >> 8));
}

/* post one work request from a and wait; for SEND also the receive on b */
static int run_wr(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b,
		  struct ibv_send_wr *wr, const char *what, struct ibv_wc *out)
{
	struct ibv_wc wc;
	int rc;

	rd_st_step(st, "%s", what);
	rc = rd_st_post_send(st, a, wr);
	if (rc)
		return rc;
	rc = rd_st_poll(st, a->cq, &wc, 0);
	if (rc)
		return rd_st_fail(st, rc, "%s: waiting for the completion", what);
	if (out)
		*out = wc;
	if (wc.status != IBV_WC_SUCCESS)
		return out ? 1 : rd_st_wc_fail(st, &wc, what);
	if (wr->opcode == IBV_WR_SEND) {
		rc = rd_st_poll(st, b->cq, &wc, 0);
		if (rc)
			return rd_st_fail(st, rc, "%s: waiting for the receive", what);
		if (wc.status != IBV_WC_SUCCESS)
			return rd_st_wc_fail(st, &wc, what);
	}
	return 0;
}

/* dst[0..len) must equal src and the GUARD bytes either side must still be 0 */
static int verify(struct rdiag_selftest *st, const char *what, const char *src, const char *dst,
		  size_t len)
{
	size_t i;

	for (i = 1; i <= GUARD; i++)
		if (dst[-(long)i] || dst[len + i - 1])
			break;
	if (i <= GUARD || memcmp(src, dst, len)) {
		size_t bad = 0;

		while (bad < len && src[bad] == dst[bad])
			bad++;
		snprintf(st->res->expected, sizeof(st->res->expected), "%zu bytes copied, "
			 "guard bytes around the target untouched", len);
		snprintf(st->res->observed, sizeof(st->res->observed), bad < len ?
			 "first difference at byte %zu" : "a guard byte was overwritten", bad);
		return rd_st_fail(st, 0, "%s: data check", what);
	}
	return 0;
}

/* one SEND, WRITE or READ of len bytes from src to dst, both odd addresses; verified */
static int odd_op(struct rdiag_selftest *st, struct rdiag_st_result *r, struct rd_ep *a,
		  struct rd_ep *b, enum ibv_wr_opcode op, struct ibv_mr *ma, struct ibv_mr *mb,
		  char *src, char *dst, uint32_t len, const char *name)
{
	/* READ: the local buffer is the destination, the remote one the source */
	char *local = op == IBV_WR_RDMA_READ ? dst : src;
	char *remote = op == IBV_WR_RDMA_READ ? src : dst;
	char *clear = op == IBV_WR_RDMA_READ ? a->buf : b->buf;
	size_t clear_len = op == IBV_WR_RDMA_READ ? a->buflen : b->buflen;
	char what[96];
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct rdiag_st_check *ck;
	int rc;
	bool src_a = src >= a->buf && src < a->buf + a->buflen;
	bool dst_a = dst >= a->buf && dst < a->buf + a->buflen;

	snprintf(what, sizeof(what), "%s %u bytes %c+%zu -> %c+%zu", name, len, src_a ? 'a' : 'b',
		 (size_t)(src - (src_a ? a->buf : b->buf)), dst_a ? 'a' : 'b',
		 (size_t)(dst - (dst_a ? a->buf : b->buf)));
	memset(clear, 0, clear_len);	/* the target and its guard bytes start at 0 */
	pattern(src, len, (unsigned int)op + 1);
	if (op == IBV_WR_SEND) {
		rc = rd_st_post_recv(st, b, dst, len, mb->lkey, 1);
		if (rc)
			return rc;
	}
	rd_st_wr_init(&wr, &sge, op, local, len, ma->lkey);
	if (op != IBV_WR_SEND) {
		wr.wr.rdma.remote_addr = (uintptr_t)remote;
		wr.wr.rdma.rkey = mb->rkey;
	}
	if ((rc = run_wr(st, a, b, &wr, what, NULL)) || (rc = verify(st, what, src, dst, len)))
		return rc;
	ck = rd_st_check(r, RDIAG_PASS, name, "%s verified, %d guard bytes either side untouched",
			 what + strlen(name) + 1, GUARD);
	/* where in their pages the local and remote addresses lie (both odd) */
	rd_st_check_num(ck, "bytes", len);
	rd_st_check_num(ck, "local_page_off", (double)((uintptr_t)local & 4095));
	rd_st_check_num(ck, "remote_page_off", (double)((uintptr_t)remote & 4095));
	return 0;
}

/* SEND, RDMA WRITE and RDMA READ with every local and remote address odd (each at another
 * offset within its 8-byte word) and odd lengths, through MRs that themselves start at odd
 * addresses; the target is checked byte for byte with GUARD bytes either side */
static int data_ops(struct rdiag_selftest *st, struct rdiag_st_result *r, struct rd_ep *a,
		    struct rd_ep *b)
{
	struct ibv_mr *ma, *mb;
	int rc;

	ma = rd_st_reg_mr(st, a->pd, a->buf + 3, 20001, IBV_ACCESS_LOCAL_WRITE |
			  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	mb = rd_st_reg_mr(st, b->pd, b->buf + 5, 20003, IBV_ACCESS_LOCAL_WRITE |
			  IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE);
	if (!ma)
		ma = a->mr;
	if (!mb)
		mb = b->mr;
	/* SEND 5001 bytes a+3 -> b+1005 */
	rc = odd_op(st, r, a, b, IBV_WR_SEND, ma, mb, a->buf + 3, b->buf + 1005, 5001,
		    "SEND odd offset/length");
	/* RDMA WRITE 4099 bytes a+103 -> b+4101: the target crosses a page boundary */
	if (!rc)
		rc = odd_op(st, r, a, b, IBV_WR_RDMA_WRITE, ma, mb, a->buf + 103, b->buf + 4101,
			    4099, "WRITE odd offset/length");
	/* RDMA READ 3001 bytes b+15 -> a+10007: the local target crosses a page boundary */
	if (!rc)
		rc = odd_op(st, r, a, b, IBV_WR_RDMA_READ, ma, mb, b->buf + 15, a->buf + 10007,
			    3001, "READ odd offset/length");
	return rc;
}

static int atomic_op(struct rdiag_selftest *st, struct rd_ep *a, struct rd_ep *b,
		     enum ibv_wr_opcode op, uint64_t *target, uint64_t cmp_add, uint64_t swap,
		     uint64_t *old, struct ibv_wc *wc, const char *what)
{
	uint64_t *res = (uint64_t *)(void *)(a->buf + 16384);
	struct ibv_sge sge;
	struct ibv_send_wr wr;

	*res = 0xdeadbeefdeadbeefULL;
	rd_st_wr_init(&wr, &sge, op, res, 8, a->mr->lkey);
	wr.wr.atomic.remote_addr = (uintptr_t)target;
	wr.wr.atomic.rkey = b->mr->rkey;
	wr.wr.atomic.compare_add = cmp_add;
	wr.wr.atomic.swap = swap;
	{
		int rc = run_wr(st, a, b, &wr, what, wc);

		*old = *res;
		return rc;
	}
}

/* a misaligned atomic completed successfully: the device broke the alignment rule */
static int misaligned_succeeded(struct rdiag_selftest *st, struct rdiag_st_result *r,
				const uint64_t *mis, const uint64_t *v0)
{
	snprintf(r->expected, sizeof(r->expected), "an error completion "
		 "(IBV_WC_REM_INV_REQ_ERR expected)");
	snprintf(r->observed, sizeof(r->observed), "success, target now %s",
		 memcmp(mis, v0, 8) ? "modified" : "unchanged");
	rd_st_hint(st, "the IB spec requires atomics on 8-byte aligned addresses; a "
		   "device that accepts others may tear the value");
	return rd_st_fail(st, 0, "ATOMIC FETCH_AND_ADD on a misaligned target succeeded");
}

/* a misaligned atomic failed as it must (how: who refused it); it still fails the test if
 * the target changed anyway */
static int misaligned_refused(struct rdiag_selftest *st, struct rdiag_st_result *r,
			      const char *name, const char *how, const struct ibv_wc *wc,
			      const uint64_t *mis, const uint64_t *v0)
{
	struct rdiag_st_check *ck;

	ck = rd_st_check(r, RDIAG_PASS, name, "%s: WC %d %s, target %s", how, wc->status,
			 rd_st_wc_name((int)wc->status),
			 memcmp(mis, v0, 8) ? "MODIFIED" : "unchanged");
	ck->wc_status = (int)wc->status;
	r->wc_status = (int)wc->status;
	if (memcmp(mis, v0, 8))
		return rd_st_fail(st, 0, "misaligned atomic failed but modified the target");
	return 0;
}

/* an aligned atomic must return the old value and leave the new one in the target */
static int aligned_values(struct rdiag_selftest *st, struct rdiag_st_result *r, uint64_t old,
			  uint64_t now, uint64_t want_old, uint64_t want_now, const char *what)
{
	if (old == want_old && now == want_now)
		return 0;
	snprintf(r->expected, sizeof(r->expected), "old 0x%016llx, target now 0x%016llx",
		 (unsigned long long)want_old, (unsigned long long)want_now);
	snprintf(r->observed, sizeof(r->observed), "old 0x%016llx, target now 0x%016llx",
		 (unsigned long long)old, (unsigned long long)now);
	return rd_st_fail(st, 0, "%s: values", what);
}

/* a misaligned FETCH_AND_ADD through ibv_wr_*(): the responder must refuse it */
static int misaligned_ex(struct rdiag_selftest *st, struct rdiag_st_result *r, char *sum,
			 size_t sl)
{
	struct rd_ep a, b;
	struct rd_conn c;
	struct ibv_qp_ex *qx;
	struct ibv_wc wc;
	uint64_t *mis, v0 = 0x0102030405060708ULL;
	int rc;

	rd_st_conn_default(st, &c);
	rc = rd_st_ep_create_ex(st, &a, &st->a, IBV_QPT_RC, 32768,
				IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD);
	if (rc) {
		/* no extended QP on this device: the post-time refusal is all there is */
		st->res->verdict = RDIAG_PASS;
		st->res->step[0] = '\0';
		rd_st_check(r, RDIAG_SKIP, "misaligned atomic (wr API)", "ibv_create_qp_ex with "
			    "ATOMIC_FETCH_AND_ADD refused: %s", strerror(st->res->err));
		st->res->err = 0;
		snprintf(sum, sl, "CAS/FAA aligned ok, misaligned FAA refused at post");
		return 0;
	}
	rc = rd_st_ep_create(st, &b, &st->b, IBV_QPT_RC, 32768);
	if (!rc)
		rc = rd_st_connect(st, &a, &b, &c, &c);
	if (rc)
		return rc;
	mis = (uint64_t *)(void *)(b.buf + 8192 + 4);
	memcpy(mis, &v0, 8);
	qx = ibv_qp_to_qp_ex(a.qp);
	rd_st_step(st, "ATOMIC FETCH_AND_ADD on a misaligned target (+4) via ibv_wr_atomic_fetch_add");
	ibv_wr_start(qx);
	qx->wr_id = 77;
	qx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_atomic_fetch_add(qx, b.mr->rkey, (uintptr_t)mis, 1);
	ibv_wr_set_sge(qx, a.mr->lkey, (uintptr_t)(a.buf + 16384), 8);
	rc = ibv_wr_complete(qx);
	if (rc) {
		rd_st_check(r, RDIAG_PASS, "misaligned atomic (wr API)", "refused by "
			    "ibv_wr_complete: %s", strerror(rc));
		snprintf(sum, sl, "CAS/FAA aligned ok, misaligned FAA refused at post (both APIs)");
		return 0;
	}
	rc = rd_st_poll(st, a.cq, &wc, 0);
	if (rc)
		return rd_st_fail(st, rc, "misaligned atomic via ibv_wr_*: completion");
	if (wc.status == IBV_WC_SUCCESS)
		return misaligned_succeeded(st, r, mis, &v0);
	rc = misaligned_refused(st, r, "misaligned atomic (wr API)", "the responder refused it",
				&wc, mis, &v0);
	if (rc)
		return rc;
	snprintf(sum, sl, "CAS/FAA aligned ok, misaligned FAA refused at post and by the "
		 "responder (WC %d %s)", wc.status, rd_st_wc_name((int)wc.status));
	return 0;
}

int rd_align_atomics(struct rdiag_selftest *st, struct rdiag_st_result *r, struct rd_ep *a,
		     struct rd_ep *b, char *sum, size_t sl)
{
	uint64_t *t, *mis, old = 0, v0, v1;
	struct ibv_wc wc;
	int rc;

	if (st->a.dattr.orig_attr.atomic_cap == IBV_ATOMIC_NONE ||
	    st->b.dattr.orig_attr.atomic_cap == IBV_ATOMIC_NONE) {
		const char *dev = st->a.dattr.orig_attr.atomic_cap == IBV_ATOMIC_NONE ?
				  st->a.dev : st->b.dev;

		rd_st_check(r, RDIAG_SKIP, "atomics", "%s reports atomic_cap NONE "
			    "(ibv_query_device): no atomic operations to test", dev);
		snprintf(sum, sl, "atomics skipped: %s has no atomic support (atomic_cap NONE)",
			 dev);
		return 0;
	}
	t = (uint64_t *)(void *)(b->buf + 8192);
	v0 = 0x1111222233334444ULL;
	v1 = 0x5555666677778888ULL;
	*t = v0;
	rc = atomic_op(st, a, b, IBV_WR_ATOMIC_CMP_AND_SWP, t, v0, v1, &old, &wc,
		       "ATOMIC CMP_AND_SWP on an 8-byte aligned target");
	if (rc > 0)
		return rd_st_wc_fail(st, &wc, "ATOMIC CMP_AND_SWP aligned");
	if (rc)
		return rc;
	rc = aligned_values(st, r, old, *t, v0, v1, "ATOMIC CMP_AND_SWP aligned");
	if (rc)
		return rc;
	rd_st_check(r, RDIAG_PASS, "CMP_AND_SWP aligned", "old value 0x%016llx returned, swapped",
		    (unsigned long long)old);
	rc = atomic_op(st, a, b, IBV_WR_ATOMIC_FETCH_AND_ADD, t, 0x10, 0, &old, &wc,
		       "ATOMIC FETCH_AND_ADD on an 8-byte aligned target");
	if (rc > 0)
		return rd_st_wc_fail(st, &wc, "ATOMIC FETCH_AND_ADD aligned");
	if (rc)
		return rc;
	rc = aligned_values(st, r, old, *t, v1, v1 + 0x10, "ATOMIC FETCH_AND_ADD aligned");
	if (rc)
		return rc;
	rd_st_check(r, RDIAG_PASS, "FETCH_AND_ADD aligned", "old value 0x%016llx returned, added",
		    (unsigned long long)old);
	/* last, because a failed atomic moves the QP to ERR */
	mis = (uint64_t *)(void *)(b->buf + 8192 + 64 + 4);
	memcpy(mis, &v0, 8);
	rc = atomic_op(st, a, b, IBV_WR_ATOMIC_FETCH_AND_ADD, mis, 1, 0, &old, &wc,
		       "ATOMIC FETCH_AND_ADD on a misaligned target (+4)");
	if (rc < 0 && st->res->verdict == RDIAG_FAIL && !strstr(st->res->step, "post_send"))
		return rc;
	if (rc < 0) {
		/* refused at post time (librxe checks the address): the operation failed, but
		 * that says nothing about the responder, so ask it through the ibv_wr_*() API,
		 * which does not check */
		st->res->verdict = RDIAG_PASS;
		rd_st_check(r, RDIAG_PASS, "misaligned atomic", "refused by ibv_post_send: %s",
			    strerror(st->res->err));
		st->res->err = 0;
		st->res->step[0] = '\0';
		return misaligned_ex(st, r, sum, sl);
	}
	if (rc == 0)
		return misaligned_succeeded(st, r, mis, &v0);
	rc = misaligned_refused(st, r, "misaligned atomic", "failed as required", &wc, mis, &v0);
	if (rc)
		return rc;
	snprintf(sum, sl, "CAS/FAA aligned ok, misaligned FAA failed with WC %d %s", wc.status,
		 rd_st_wc_name((int)wc.status));
	return 0;
}

int rd_test_alignment(struct rdiag_selftest *st, struct rdiag_st_result *r)
{
	static const struct { size_t off, len; } cases[] = {
		{ 1, 4097 }, { 7, 5000 }, { 4095, 12289 }, { 4095, 1 },
	};
	struct rd_ep a, b;
	struct rd_conn c;
	char *buf, sum[128] = "";
	size_t i;
	int rc, accepted = 0;

	rd_st_conn_default(st, &c);
	rc = rd_st_pair(st, &a, &b, IBV_QPT_RC, 32768, &c);
	if (rc)
		return rc;
	buf = rd_st_alloc(st, 5 * 4096);
	if (!buf)
		return rd_st_fail(st, errno, "allocate 20 KiB");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ibv_mr *mr;
		char what[64];

		snprintf(what, sizeof(what), "reg_mr(buf+%zu, %zu)", cases[i].off, cases[i].len);
		rd_st_step(st, "ibv_reg_mr(buf+%zu, %zu)", cases[i].off, cases[i].len);
		mr = rd_st_reg_mr(st, a.pd, buf + cases[i].off, cases[i].len,
				  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				  IBV_ACCESS_REMOTE_READ);
		/* both answers are legal: record, do not judge */
		if (mr) {
			accepted++;
			rd_st_check(r, RDIAG_PASS, what, "accepted: lkey 0x%x rkey 0x%x", mr->lkey,
				    mr->rkey);
		} else {
			rd_st_check(r, RDIAG_PASS, what, "refused: %s", strerror(errno));
		}
	}
	rc = data_ops(st, r, &a, &b);
	if (rc)
		return rc;
	rc = rd_align_atomics(st, r, &a, &b, sum, sizeof(sum));
	if (rc)
		return rc;
	snprintf(r->summary, sizeof(r->summary), "odd-address MRs accepted %d/%zu; SEND/WRITE/READ "
		 "between odd addresses, odd lengths, verified byte for byte; %s", accepted,
		 sizeof(cases) / sizeof(cases[0]), sum);
	r->verdict = RDIAG_PASS;
	return 0;
}
