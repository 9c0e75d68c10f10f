/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* DCB through rtnetlink's dcbnl (what iproute2's dcb asks): RTM_GETDCB with DCB_CMD_IEEE_GET
 * answers PFC, ETS, the APP table, the peer's PFC/ETS/APP, maxrate and (when the driver has
 * getdcbx) the DCBX mode in one message; DCB_CMD_GDCBX asks the mode alone when that message
 * had none.  Layout: linux/dcbnl.h.  Every datagram goes through rd_nl_datagram_check and
 * every attribute walk through rd_nl_attr_parse (lib/netlink); a known attribute shorter
 * than its structure is a malformed reply, a longer one (a newer kernel) is read up to the
 * size known here.  libmnl ends a walk quietly at an attribute whose length does not fit;
 * here such a walk is a malformed reply (walk() checks that the attributes cover the payload). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "netlink/netlink.h"

#ifndef DCB_APP_SEL_PCP
#define DCB_APP_SEL_PCP 255
#endif

struct parse_ctx {
	struct rdiag_dcb *d;
	const char *why;
};

static int bad(struct parse_ctx *x, const char *why)
{
	x->why = why;
	return MNL_CB_ERROR;
}

/* the attributes of NEST (or of message NLH after OFFSET bytes when nest is NULL) through
 * cb; MNL_CB_ERROR also when they stop short of the payload's end */
static int walk(struct parse_ctx *x, const struct nlmsghdr *nlh, unsigned int offset,
		const struct nlattr *nest, mnl_attr_cb_t cb)
{
	int ret = rd_fabric_walk(nlh, offset, nest, cb, x);

	if (ret == RD_WALK_SHORT)
		return bad(x, "an attribute past its message");
	return ret;
}

/* one APP entry into a table (DCB_ATTR_IEEE_APP: struct dcb_app) */
static int app_add(struct parse_ctx *x, struct rdiag_dcb_apps *t, const struct nlattr *a)
{
	struct dcb_app app;

	if (mnl_attr_get_payload_len(a) < sizeof(app))
		return bad(x, "APP entry shorter than struct dcb_app");
	memcpy(&app, mnl_attr_get_payload(a), sizeof(app));
	if (t->n >= RDIAG_DCB_APP_MAX) {
		t->dropped++;
		return MNL_CB_OK;
	}
	t->app[t->n].selector = app.selector;
	t->app[t->n].priority = app.priority;
	t->app[t->n].protocol = app.protocol;
	t->n++;
	return MNL_CB_OK;
}

static int app_table_cb(const struct nlattr *a, void *data)
{
	struct parse_ctx *x = data;

	if (mnl_attr_get_type(a) != DCB_ATTR_IEEE_APP)
		return MNL_CB_OK;
	return app_add(x, &x->d->app, a);
}

static int peer_app_cb(const struct nlattr *a, void *data)
{
	struct parse_ctx *x = data;
	struct rdiag_dcb_apps *t = &x->d->peer_app;
	const uint8_t *p = mnl_attr_get_payload(a);
	uint16_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_APP_UNSPEC:	/* struct dcb_peer_app_info: willing, error */
		if (len < 1)
			return bad(x, "peer APP info empty");
		t->has_info = true;
		t->willing = p[0];
		t->error = len >= 2 ? p[1] : 0;
		return MNL_CB_OK;
	case DCB_ATTR_IEEE_APP:
		return app_add(x, t, a);
	}
	return MNL_CB_OK;
}

static int copy_pfc(struct parse_ctx *x, struct rdiag_dcb_pfc *out, const struct nlattr *a)
{
	struct ieee_pfc pfc;
	int i;

	if (mnl_attr_get_payload_len(a) < sizeof(pfc))
		return bad(x, "PFC attribute shorter than struct ieee_pfc");
	memcpy(&pfc, mnl_attr_get_payload(a), sizeof(pfc));
	out->present = true;
	out->pfc_cap = pfc.pfc_cap;
	out->pfc_en = pfc.pfc_en;
	out->mbc = pfc.mbc;
	out->delay = pfc.delay;
	for (i = 0; i < RDIAG_DCB_PRIOS; i++) {
		out->requests[i] = pfc.requests[i];
		out->indications[i] = pfc.indications[i];
	}
	return MNL_CB_OK;
}

static int copy_ets(struct parse_ctx *x, struct rdiag_dcb_ets *out, const struct nlattr *a)
{
	struct ieee_ets ets;

	if (mnl_attr_get_payload_len(a) < sizeof(ets))
		return bad(x, "ETS attribute shorter than struct ieee_ets");
	memcpy(&ets, mnl_attr_get_payload(a), sizeof(ets));
	out->present = true;
	out->willing = ets.willing;
	out->ets_cap = ets.ets_cap;
	out->cbs = ets.cbs;
	memcpy(out->tc_tx_bw, ets.tc_tx_bw, RDIAG_DCB_PRIOS);
	memcpy(out->tc_rx_bw, ets.tc_rx_bw, RDIAG_DCB_PRIOS);
	memcpy(out->tc_tsa, ets.tc_tsa, RDIAG_DCB_PRIOS);
	memcpy(out->prio_tc, ets.prio_tc, RDIAG_DCB_PRIOS);
	memcpy(out->tc_reco_bw, ets.tc_reco_bw, RDIAG_DCB_PRIOS);
	memcpy(out->tc_reco_tsa, ets.tc_reco_tsa, RDIAG_DCB_PRIOS);
	memcpy(out->reco_prio_tc, ets.reco_prio_tc, RDIAG_DCB_PRIOS);
	return MNL_CB_OK;
}

static int ieee_cb(const struct nlattr *a, void *data)
{
	struct parse_ctx *x = data;
	struct rdiag_dcb *d = x->d;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE_ETS:
		return copy_ets(x, &d->ets, a);
	case DCB_ATTR_IEEE_PEER_ETS:
		return copy_ets(x, &d->peer_ets, a);
	case DCB_ATTR_IEEE_PFC:
		return copy_pfc(x, &d->pfc, a);
	case DCB_ATTR_IEEE_PEER_PFC:
		return copy_pfc(x, &d->peer_pfc, a);
	case DCB_ATTR_IEEE_MAXRATE: {
		struct ieee_maxrate m;
		int i;

		if (mnl_attr_get_payload_len(a) < sizeof(m))
			return bad(x, "MAXRATE attribute shorter than struct ieee_maxrate");
		memcpy(&m, mnl_attr_get_payload(a), sizeof(m));
		d->has_maxrate = true;
		for (i = 0; i < RDIAG_DCB_PRIOS; i++)
			d->tc_maxrate[i] = m.tc_maxrate[i];
		return MNL_CB_OK;
	}
	case DCB_ATTR_IEEE_APP_TABLE:
		d->app.present = true;
		return walk(x, NULL, 0, a, app_table_cb);
	case DCB_ATTR_IEEE_PEER_APP:
		d->peer_app.present = true;
		return walk(x, NULL, 0, a, peer_app_cb);
	}
	return MNL_CB_OK;
}

static int top_cb(const struct nlattr *a, void *data)
{
	struct parse_ctx *x = data;

	switch (mnl_attr_get_type(a)) {
	case DCB_ATTR_IEEE:
		return walk(x, NULL, 0, a, ieee_cb);
	case DCB_ATTR_DCBX:
		if (mnl_attr_get_payload_len(a) < 1)
			return bad(x, "DCBX attribute empty");
		x->d->has_dcbx = true;
		x->d->dcbx = mnl_attr_get_u8(a);
		return MNL_CB_OK;
	}
	return MNL_CB_OK;
}

int rd_dcb_parse_datagram(const void *buf, size_t len, struct rdiag_dcb *out,
			  const char **why)
{
	const struct nlmsghdr *nlh = buf;
	struct parse_ctx x = { out, NULL };
	int rem = (int)len;
	bool seen = false;

	if (why)
		*why = NULL;
	if (len > INT32_MAX || rd_nl_datagram_check(buf, len) < 0) {
		if (why)
			*why = "a message length that does not fit the datagram";
		return -EBADMSG;
	}
	while (mnl_nlmsg_ok(nlh, rem)) {
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)) ||
			    e->error < -4095 || e->error > 0) {
				if (why)
					*why = "malformed error message";
				return -EBADMSG;
			}
			if (e->error)
				return e->error;
		} else if (nlh->nlmsg_type == RTM_GETDCB && !seen) {
			if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(struct dcbmsg))) {
				if (why)
					*why = "message shorter than struct dcbmsg";
				return -EBADMSG;
			}
			if (walk(&x, nlh, sizeof(struct dcbmsg), NULL, top_cb) == MNL_CB_ERROR) {
				if (why)
					*why = x.why ? x.why : "an attribute past its message";
				return -EBADMSG;
			}
			seen = true;
		}
		nlh = mnl_nlmsg_next(nlh, &rem);
	}
	if (!seen) {
		if (why)
			*why = "no dcbnl message in the reply";
		return -EBADMSG;
	}
	return 0;
}

/* one RTM_GETDCB request for IFNAME and its answer parsed into *d */
static int dcb_request(struct rdiag_fabric *f, const char *ifname, uint8_t cmd,
		       struct rdiag_dcb *d)
{
	char req[256];
	struct nlmsghdr *nlh;
	struct dcbmsg *dm;
	const void *rep;
	const char *why = NULL;
	size_t replen;
	int ret;

	if (strlen(ifname) >= 16) {
		rd_fabric_seterr(f, "'%s': not an interface name (too long)", ifname);
		return -EINVAL;
	}
	/* libmnl 1.0.4 (Debian 12) does not zero an attribute's padding: the request must be
	 * the same bytes every time, for the kernel and for the replay's matching */
	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = RTM_GETDCB;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	dm = mnl_nlmsg_put_extra_header(nlh, sizeof(*dm));
	dm->dcb_family = AF_UNSPEC;
	dm->cmd = cmd;
	mnl_attr_put_strz(nlh, DCB_ATTR_IFNAME, ifname);

	ret = rd_fabric_exchange(f, false, req, &rep, &replen);
	if (ret == -ENOENT) {
		rd_fabric_seterr(f, "netlink replay: no recorded dcbnl reply for %s", ifname);
		return ret;
	}
	if (ret == -ENXIO) {
		/* a fake sysfs tree describes another machine: this host's dcbnl is not asked */
		rd_fabric_seterr(f, "%s: a sysfs root without RDMADIAG_NL_REPLAY: this host's dcbnl is not asked",
				 ifname);
		return ret;
	}
	if (ret < 0)
		return ret;
	ret = rd_dcb_parse_datagram(rep, replen, d, &why);
	/* an NLMSG_ERROR of -EBADMSG is the kernel refusing, not a malformed reply: no why */
	if (ret == -EBADMSG && why)
		rd_fabric_seterr(f, "malformed dcbnl reply for %s: %s", ifname, why);
	else if (ret == -EOPNOTSUPP)
		rd_fabric_seterr(f, "%s has no DCB (the driver does not implement dcbnl)",
				 ifname);
	else if (ret == -ENODEV)
		rd_fabric_seterr(f, "%s: no such network device", ifname);
	else if (ret < 0 && ret != -ENXIO)
		rd_fabric_seterr(f, "dcbnl query for %s refused: %s", ifname, strerror(-ret));
	return ret;
}

int rdiag_fabric_dcb(struct rdiag_fabric *f, const char *ifname, struct rdiag_dcb *out)
{
	struct rdiag_dcb d;
	int ret;

	memset(&d, 0, sizeof(d));
	f->err[0] = '\0';
	ret = dcb_request(f, ifname, DCB_CMD_IEEE_GET, &d);
	if (ret < 0)
		return ret;
	if (!d.has_dcbx) {
		struct rdiag_dcb x;

		/* a driver without getdcbx answers GDCBX with an error: the mode stays absent */
		memset(&x, 0, sizeof(x));
		if (dcb_request(f, ifname, DCB_CMD_GDCBX, &x) == 0 && x.has_dcbx) {
			d.has_dcbx = true;
			d.dcbx = x.dcbx;
		}
		f->err[0] = '\0';
	}
	*out = d;
	return 0;
}

int rdiag_dcb_app_dscp_prio(const struct rdiag_dcb_apps *a, unsigned int dscp,
			    unsigned int *count)
{
	int first = -ENOENT;
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < a->n; i++) {
		if (a->app[i].selector != IEEE_8021QAZ_APP_SEL_DSCP || a->app[i].protocol != dscp ||
		    a->app[i].priority >= RDIAG_DCB_PRIOS)
			continue;
		if (!n++)
			first = a->app[i].priority;
	}
	if (count)
		*count = n;
	return first;
}

const char *rdiag_dcb_tsa_name(uint8_t tsa)
{
	switch (tsa) {
	case IEEE_8021QAZ_TSA_STRICT:
		return "strict";
	case IEEE_8021QAZ_TSA_CB_SHAPER:
		return "cbs";
	case IEEE_8021QAZ_TSA_ETS:
		return "ets";
	case IEEE_8021QAZ_TSA_VENDOR:
		return "vendor";
	}
	return NULL;
}
