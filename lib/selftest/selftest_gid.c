/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* gid-sweep: for every populated GID of the port, connect an RC pair with that source GID
 * and send one message.  Reports which indexes work, with type, netdev and IP, and which one
 * to use (the first working RoCE v2 IPv4 GID; else the first that works). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void gid_ip(const union ibv_gid *g, char *buf, size_t len)
{
	static const uint8_t v4[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	if (!memcmp(g->raw, v4, 12))
		inet_ntop(AF_INET, g->raw + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, g->raw, buf, (socklen_t)len);
}

/* the peer GID of the same type and family as the local entry */
static int peer_gid(struct rdiag_selftest *st, const struct ibv_gid_entry *local,
		    struct ibv_gid_entry *out)
{
	struct ibv_gid_entry *tab;
	ssize_t n, i;
	bool v4 = local->gid.raw[10] == 0xff && local->gid.raw[11] == 0xff &&
		  !local->gid.global.subnet_prefix;
	int rc = -ENOENT;

	if (st->loopback) {
		*out = *local;
		return 0;
	}
	tab = calloc((size_t)st->b.pattr.gid_tbl_len + 1, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	n = ibv_query_gid_table(st->b.ctx, tab, (size_t)st->b.pattr.gid_tbl_len + 1, 0);
	for (i = 0; i < n; i++) {
		bool pv4 = tab[i].gid.raw[10] == 0xff && tab[i].gid.raw[11] == 0xff &&
			   !tab[i].gid.global.subnet_prefix;

		if (tab[i].port_num != (uint32_t)st->b.port || tab[i].gid_type != local->gid_type ||
		    pv4 != v4)
			continue;
		/* link-local talks to link-local, global to global */
		if ((tab[i].gid.raw[0] == 0xfe) != (local->gid.raw[0] == 0xfe))
			continue;
		*out = tab[i];
		rc = 0;
		break;
	}
	free(tab);
	return rc;
}

static int try_index(struct rdiag_selftest *st, const struct ibv_gid_entry *e,
		     const struct ibv_gid_entry *pe, char *err, size_t el)
{
	struct rdiag_st_result scratch, *real = st->res;
	struct rd_port pa = st->a, pb = st->b;
	struct rd_ep a, b;
	struct rd_conn c;
	struct ibv_sge sge;
	struct ibv_send_wr wr;
	struct ibv_wc wc;
	size_t mark = rd_st_mark(st);
	int rc;

	/* failures of one index are data, not the test's failure: collect them aside */
	memset(&scratch, 0, sizeof(scratch));
	scratch.wc_status = -1;
	st->res = &scratch;
	pa.gid_index = (int)e->gid_index;
	pa.gid = e->gid;
	pb.gid_index = (int)pe->gid_index;
	pb.gid = pe->gid;
	rd_st_conn_default(st, &c);
	c.timeout = 12;		/* 16.8 ms: a dead index should not hold the sweep long */
	c.retry_cnt = 2;
	rc = rd_st_ep_create(st, &a, &pa, IBV_QPT_RC, 4096);
	if (!rc)
		rc = rd_st_ep_create(st, &b, &pb, IBV_QPT_RC, 4096);
	if (!rc)
		rc = rd_st_connect(st, &a, &b, &c, &c);
	if (!rc) {
		rd_st_wr_init(&wr, &sge, IBV_WR_SEND, a.buf, 512, a.mr->lkey);
		rc = rd_st_post_recv(st, &b, b.buf, 4096, b.mr->lkey, 1);
		if (!rc)
			rc = rd_st_post_send(st, &a, &wr);
		if (!rc)
			rc = rd_st_poll(st, a.cq, &wc, 0);
		if (!rc && wc.status != IBV_WC_SUCCESS)
			rc = rd_st_wc_fail(st, &wc, "SEND");
		else if (rc && !scratch.step[0])
			rd_st_fail(st, rc, "SEND completion");
	}
	rd_st_release_to(st, mark);
	st->res = real;
	if (rc)
		snprintf(err, el, "%s%s%s%s", scratch.step, scratch.err ? ": " : "",
			 scratch.err ? strerror(scratch.err) : "", "");
	return rc;
}

int rd_test_gid_sweep(struct rdiag_selftest *st, struct rdiag_st_result *r)
{
	struct ibv_gid_entry *tab, pe;
	ssize_t n, i;
	int works = 0, tried = 0, best = -1, best_score = -1, rc;
	char ip[64], nd[IF_NAMESIZE], err[256];
	struct rdiag_st_check *ck;

	if (!st->a.eth) {
		rd_st_check(r, RDIAG_SKIP, "gid-sweep", "InfiniBand link layer: GIDs are not "
			    "tied to netdevs; index 0 is used");
		snprintf(r->summary, sizeof(r->summary), "InfiniBand port: nothing to sweep");
		r->verdict = RDIAG_SKIP;
		return 0;
	}
	tab = calloc((size_t)st->a.pattr.gid_tbl_len + 1, sizeof(*tab));
	if (!tab)
		return rd_st_fail(st, ENOMEM, "allocate the GID table");
	n = ibv_query_gid_table(st->a.ctx, tab, (size_t)st->a.pattr.gid_tbl_len + 1, 0);
	if (n < 0) {
		free(tab);
		return rd_st_fail(st, (int)-n, "ibv_query_gid_table");
	}
	for (i = 0; i < n; i++) {
		const struct ibv_gid_entry *e = &tab[i];
		char what[64];
		int score;

		if (e->port_num != (uint32_t)st->a.port)
			continue;
		tried++;
		gid_ip(&e->gid, ip, sizeof(ip));
		if (!e->ndev_ifindex || !if_indextoname(e->ndev_ifindex, nd))
			snprintf(nd, sizeof(nd), "-");
		snprintf(what, sizeof(what), "gid %u", e->gid_index);
		rd_st_step(st, "GID index %u (%s %s %s)", e->gid_index,
			   rd_st_gid_type_name((int)e->gid_type), nd, ip);
		if (peer_gid(st, e, &pe)) {
			ck = rd_st_check(r, RDIAG_SKIP, what, "%s %s %s: the peer %s has no GID of "
					 "the same type and family", rd_st_gid_type_name((int)e->gid_type),
					 nd, ip, st->b.dev);
			continue;
		}
		rc = try_index(st, e, &pe, err, sizeof(err));
		if (st->interrupted)
			break;
		ck = rd_st_check(r, rc ? RDIAG_FAIL : RDIAG_PASS, what, "%s %s %s: %s",
				 rd_st_gid_type_name((int)e->gid_type), nd, ip,
				 rc ? err : "RC connection and SEND work");
		rd_st_check_num(ck, "index", e->gid_index);
		if (rc)
			continue;
		works++;
		score = (e->gid_type == IBV_GID_TYPE_ROCE_V2) * 2 + (strchr(ip, '.') != NULL);
		if (score > best_score) {
			best_score = score;
			best = (int)e->gid_index;
		}
	}
	free(tab);
	if (st->interrupted)
		return rd_st_fail(st, EINTR, "gid-sweep interrupted");
	if (!works) {
		snprintf(r->expected, sizeof(r->expected), "at least one GID index that works");
		snprintf(r->observed, sizeof(r->observed), "%d tried, none works", tried);
		rd_st_hint(st, "no GID carries RC traffic: check the netdev's addresses and link, "
			   "and the per-index errors above");
		return rd_st_fail(st, 0, "every GID index failed");
	}
	snprintf(r->summary, sizeof(r->summary), "%d of %d GID indexes work; use -g %d (%s)",
		 works, tried, best, best_score >= 3 ? "RoCE v2, IPv4" : best_score == 2 ?
		 "RoCE v2" : "first working");
	r->verdict = RDIAG_PASS;
	return 0;
}
