/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The real attempt: rdma_create_id -> rdma_resolve_addr -> rdma_resolve_route -> QP ->
 * rdma_connect -> ESTABLISHED (-> rdma_disconnect) or the failure event.  Each step is timed
 * from the call to its event.  The resolve steps get min(timeout_ms, 2000) as rdma_cm's own
 * timeout (what rping and perftest give); the doctor waits timeout_ms for the connect and
 * disconnect events (rdma_cm's own REQ retries take far longer; the default timeout sees one
 * of them, see rdmadoctor(1)).
 * The IB CM and hw counters of every port are sampled before and after, and the ones that
 * moved are kept as deltas. */
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>

#include "rdmadiag/cmstr.h"
#include "rdmadiag/packet.h"
#include "verbs/verbs.h"
#include "internal.h"
#include "util/util.h"

/* ---- private data: "RDOC", version 1, GID type, netdev/path/active MTU (16 bits each,
 * network order), the RDMA device name (up to 19 bytes, NUL padded) ---- */
void rd_doc_pdata_pack(uint8_t *b, const struct rdiag_doc_peer_info *p)
{
	memset(b, 0, RD_DOC_PDATA_LEN);
	memcpy(b, "RDOC", 4);
	b[4] = 1;
	b[5] = (uint8_t)p->gid_type;
	b[6] = (uint8_t)(p->netdev_mtu >> 8), b[7] = (uint8_t)p->netdev_mtu;
	b[8] = (uint8_t)(p->path_mtu >> 8), b[9] = (uint8_t)p->path_mtu;
	b[10] = (uint8_t)(p->active_mtu >> 8), b[11] = (uint8_t)p->active_mtu;
	memcpy(b + 12, p->dev, strnlen(p->dev, sizeof(p->dev) - 1));	/* 19 bytes at most */
}

int rd_doc_pdata_unpack(const uint8_t *b, size_t len, struct rdiag_doc_peer_info *p)
{
	memset(p, 0, sizeof(*p));
	/* the first 32 bytes are the record (older doctors send only those) */
	if (!b || len < 32 || memcmp(b, "RDOC", 4) || b[4] != 1)
		return -EINVAL;
	p->valid = true;
	p->gid_type = b[5];
	p->netdev_mtu = (unsigned int)(b[6] << 8 | b[7]);
	p->path_mtu = (unsigned int)(b[8] << 8 | b[9]);
	p->active_mtu = (unsigned int)(b[10] << 8 | b[11]);
	memcpy(p->dev, b + 12, sizeof(p->dev) - 1);
	p->dev[sizeof(p->dev) - 1] = 0;
	return 0;
}

static unsigned int netdev_mtu(const char *ifname)
{
	char path[128];
	unsigned int mtu = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/class/net/%s/mtu", ifname);
	fp = fopen(path, "re");
	if (!fp)
		return 0;
	if (fscanf(fp, "%u", &mtu) != 1)
		mtu = 0;
	fclose(fp);
	return mtu;
}

void rd_doc_qp_init_attr(struct ibv_qp_init_attr *qa, struct ibv_cq *cq, bool ud)
{
	memset(qa, 0, sizeof(*qa));
	qa->send_cq = qa->recv_cq = cq;
	qa->qp_type = ud ? IBV_QPT_UD : IBV_QPT_RC;
	qa->cap.max_send_wr = 4;
	qa->cap.max_recv_wr = RD_DOC_DP_RECVS;
	qa->cap.max_send_sge = qa->cap.max_recv_sge = 1;
}

/* one RDMA READ/atomic in flight each way, RNR retries forever; retry_count is the
 * client's (the listener has always sent 0) */
void rd_doc_conn_param(struct rdma_conn_param *cp, uint8_t *pdata,
		       const struct rdiag_doc_peer_info *p, uint8_t retry_count)
{
	rd_doc_pdata_pack(pdata, p);
	memset(cp, 0, sizeof(*cp));
	cp->private_data = pdata;
	cp->private_data_len = RD_DOC_PDATA_LEN;
	cp->responder_resources = 1;
	cp->initiator_depth = 1;
	cp->retry_count = retry_count;
	cp->rnr_retry_count = 7;
}

void rd_doc_local_info(struct rdma_cm_id *id, struct rdiag_doc_peer_info *p)
{
	struct ibv_port_attr pa;
	union rd_addr a;
	char ifname[IF_NAMESIZE + 1] = "";

	memset(p, 0, sizeof(*p));
	p->valid = true;
	if (id->verbs) {
		snprintf(p->dev, sizeof(p->dev), "%s", ibv_get_device_name(id->verbs->device));
		if (ibv_query_port(id->verbs, id->port_num, &pa) == 0)
			p->active_mtu = rdiag_mtu_bytes(pa.active_mtu);
	}
	memcpy(&a, rdma_get_local_addr(id), sizeof(a));
	if (rd_addr_owner(&a, ifname, sizeof(ifname)) > 0) {
		p->netdev_mtu = netdev_mtu(ifname);
		p->path_mtu = rdiag_roce_path_mtu(p->netdev_mtu);
	}
	/* rdma_cm on RoCE uses the port's default RoCE mode; rxe and current mlx5 default to v2 */
	p->gid_type = RDIAG_GID_ROCE_V2;
}

/* ---- steps ---- */

static struct rdiag_doc_step *step_begin(struct rdiag_doctor *d, enum rdiag_doc_step_id id)
{
	struct rdiag_doc_step *s = &d->steps[d->nsteps < RD_DOC_MAX_STEPS ? d->nsteps++ :
					     RD_DOC_MAX_STEPS - 1];

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->name = rdiag_doc_step_name(id);
	s->done = true;
	s->event = -1;
	return s;
}

/* wait for the next event on the channel for at most timeout_ms; the event is copied and
 * acknowledged.  Returns 0, -ETIMEDOUT or -errno. */
static int wait_event(struct rdma_event_channel *ch, int timeout_ms, struct rdma_cm_event *copy,
		      uint8_t *pdata, size_t *pdata_len)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return -ETIMEDOUT;
	if (rdma_get_cm_event(ch, &ev))
		return -errno;
	*copy = *ev;
	if (pdata && pdata_len) {
		size_t n = ev->param.conn.private_data_len;

		if (!ev->param.conn.private_data)
			n = 0;
		if (n > *pdata_len)
			n = *pdata_len;
		if (n)
			memcpy(pdata, ev->param.conn.private_data, n);
		*pdata_len = n;
	}
	rdma_ack_cm_event(ev);
	return 0;
}

/* run one asynchronous step: the call was made, now wait for its event.  (The CM MAD
 * counters cannot show retries live: ib_cm adds a MAD's sends and retries to cm_tx_* only
 * when the send completes, i.e. after the last retry or when the id is destroyed.) */
static bool step_wait(struct rdiag_doc_step *s, struct rdma_event_channel *ch, int timeout_ms,
		      double t0, int want, uint8_t *pdata, size_t *plen, int resolve_timeout, int ps)
{
	const struct rd_doc_cm_counters *cc = rd_doc_cm_counters(ps);
	struct rdma_cm_event ev;
	char st[96];
	int ret;

	memset(&ev, 0, sizeof(ev));
	ret = wait_event(ch, timeout_ms, &ev, pdata, plen);
	s->ms = rd_mono_ms() - t0;
	if (ret == -ETIMEDOUT) {
		/* the doctor gave up: reported as ETIMEDOUT, like rdma_cm's own timeouts, but no
		 * event came, and the detail says so */
		s->timed_out = true;
		s->err = -ETIMEDOUT;
		if (want == RDMA_CM_EVENT_ESTABLISHED)
			snprintf(s->detail, sizeof(s->detail),
				 "no %s within %d ms: the doctor gave up (no rdma_cm event; rdma_cm would resend the %s up to 15 times before UNREACHABLE)",
				 cc->answer, timeout_ms, cc->req_msg);
		else if (want == RDMA_CM_EVENT_DISCONNECTED)
			snprintf(s->detail, sizeof(s->detail),
				 "no DISCONNECTED within %d ms: the doctor gave up (no rdma_cm event; the peer did not answer the DREQ)",
				 timeout_ms);
		else
			snprintf(s->detail, sizeof(s->detail),
				 "no %s or error event within %d ms: the doctor gave up (no rdma_cm event, not even rdma_cm's own timeout)",
				 rd_doc_event_name(want), timeout_ms);
		return false;
	}
	if (ret) {
		s->err = ret;
		snprintf(s->detail, sizeof(s->detail), "rdma_get_cm_event: %s", strerror(-ret));
		return false;
	}
	s->event = ev.event;
	s->status = ev.status;
	s->ok = (int)ev.event == want;
	snprintf(s->detail, sizeof(s->detail), "%s, status %s", rd_doc_event_name(ev.event),
		 rdiag_cm_status_str(ev.event, ev.status, st, sizeof(st)));
	/* seen on rxe/6.1: a first-contact ARP is answered at once, but without a neighbour
	 * netevent rdma_cm completes the resolution only when its own timer fires, so
	 * resolve_addr takes (nearly) its whole timeout */
	if (s->ok && want == RDMA_CM_EVENT_ADDR_RESOLVED && s->ms >= resolve_timeout * 0.9)
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
			 "; slow neighbour resolution: completed only when rdma_cm's %d ms timer fired (the neighbour was not cached)",
			 resolve_timeout);
	return s->ok;
}

static bool step_call_failed(struct rdiag_doc_step *s, const char *call, double t0)
{
	s->err = -errno;
	s->ms = rd_mono_ms() - t0;
	snprintf(s->detail, sizeof(s->detail), "%s: %d %s (%s)", call, s->err,
		 rdiag_errno_name(s->err), strerror(-s->err));
	return false;
}

/* ---- counters around the attempt ---- */

static void take_deltas(struct rdiag_doctor *d, const struct rdiag_samples *a,
			const struct rdiag_samples *b)
{
	size_t i, n = rdiag_samples_count(b);

	d->ndeltas = 0;
	for (i = 0; i < n && d->ndeltas < RD_DOC_MAX_DELTAS; i++) {
		const struct rdiag_sample *sb = rdiag_samples_get(b, i), *sa;
		bool cm, key;
		struct rdiag_doc_delta *x;

		if (sb->err)
			continue;
		sa = rdiag_samples_find(a, sb->dev, sb->port, sb->name);
		if (!sa || sa->err)
			continue;
		cm = sb->origin == RDIAG_ORIG_CM;
		/* the CM counters of the egress port for this port space are always reported, moved or not */
		key = cm && rd_doc_cm_counter(d->ps, sb->name) && !strcmp(sb->dev, d->egress_dev) &&
		      sb->port == d->egress_port;
		if (sa->value == sb->value && !key)
			continue;
		x = &d->deltas[d->ndeltas++];
		snprintf(x->dev, sizeof(x->dev), "%s", sb->dev);
		x->port = sb->port;
		snprintf(x->name, sizeof(x->name), "%s", sb->name);
		x->before = sa->value;
		x->after = sb->value;
		x->cm = cm;
	}
}

/* ---- IB CM counters without the counters handle ---------------------------------------
 * Since Linux 5.14 the CM MAD counters live in /sys/class/infiniband/<dev>/ports/<p>/
 * cm_{tx_msgs,tx_retries,rx_msgs,rx_duplicates}/<msg> and /sys/class/infiniband_cm is gone
 * (the 6.1 guest has only the former).  rdiag_counters_sample() reads both places, so its
 * samples normally carry the CM counters; this reader of ports/N/cm_* (under the doctor's
 * RDMADIAG_SYSFS_ROOT, like every other check) is only the fallback for when the samples
 * carry none (no counters handle, or sampling failed). */
#define CM_SNAP_MAX 512
struct cm_snap {
	size_t n;
	struct { char dev[64]; uint32_t port; char name[48]; uint64_t v; } e[CM_SNAP_MAX];
};

static void cm_snap_read(const struct rdiag_doctor *d, struct cm_snap *cs)
{
	static const char *const groups[] = { "cm_tx_msgs", "cm_tx_retries", "cm_rx_msgs",
					      "cm_rx_duplicates" };
	DIR *dd, *pd, *gd;
	struct dirent *de, *pe, *ge;
	char path[512];
	size_t g;

	cs->n = 0;
	dd = opendir(rd_doc_path(d, path, sizeof(path), "/sys/class/infiniband"));
	if (!dd)
		return;
	while ((de = readdir(dd))) {
		if (de->d_name[0] == '.')
			continue;
		rd_doc_path(d, path, sizeof(path), "/sys/class/infiniband/%.63s/ports", de->d_name);
		pd = opendir(path);
		if (!pd)
			continue;
		while ((pe = readdir(pd))) {
			if (pe->d_name[0] == '.')
				continue;
			for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
				rd_doc_path(d, path, sizeof(path),
					    "/sys/class/infiniband/%.63s/ports/%.15s/%s", de->d_name,
					    pe->d_name, groups[g]);
				gd = opendir(path);
				if (!gd)
					continue;
				while ((ge = readdir(gd)) && cs->n < CM_SNAP_MAX) {
					unsigned long long v;
					FILE *fp;

					if (ge->d_name[0] == '.')
						continue;
					rd_doc_path(d, path, sizeof(path),
						    "/sys/class/infiniband/%.63s/ports/%.15s/%s/%.31s",
						    de->d_name, pe->d_name, groups[g], ge->d_name);
					fp = fopen(path, "re");
					if (!fp)
						continue;
					if (fscanf(fp, "%llu", &v) == 1) {
						snprintf(cs->e[cs->n].dev, sizeof(cs->e[0].dev), "%.63s", de->d_name);
						cs->e[cs->n].port = (uint32_t)strtoul(pe->d_name, NULL, 10);
						snprintf(cs->e[cs->n].name, sizeof(cs->e[0].name), "%s/%.20s",
							 groups[g], ge->d_name);
						cs->e[cs->n].v = v;
						cs->n++;
					}
					fclose(fp);
				}
				closedir(gd);
			}
		}
		closedir(pd);
	}
	closedir(dd);
}

static void cm_snap_deltas(struct rdiag_doctor *d, const struct cm_snap *a, const struct cm_snap *b)
{
	size_t i, j;

	for (i = 0; i < b->n && d->ndeltas < RD_DOC_MAX_DELTAS; i++) {
		bool key = rd_doc_cm_counter(d->ps, b->e[i].name) && !strcmp(b->e[i].dev, d->egress_dev) &&
			   b->e[i].port == d->egress_port;
		struct rdiag_doc_delta *x;

		for (j = 0; j < a->n; j++)
			if (!strcmp(a->e[j].dev, b->e[i].dev) && a->e[j].port == b->e[i].port &&
			    !strcmp(a->e[j].name, b->e[i].name))
				break;
		if (j == a->n || (a->e[j].v == b->e[i].v && !key))
			continue;
		x = &d->deltas[d->ndeltas++];
		snprintf(x->dev, sizeof(x->dev), "%s", b->e[i].dev);
		x->port = b->e[i].port;
		snprintf(x->name, sizeof(x->name), "%s", b->e[i].name);
		x->before = a->e[j].v;
		x->after = b->e[i].v;
		x->cm = true;
	}
}

void rd_doc_take_deltas(struct rdiag_doctor *d, const struct rdiag_samples *a,
			const struct rdiag_samples *b)
{
	take_deltas(d, a, b);
}

struct rdiag_samples *rd_doc_sample_all(struct rdiag_doctor *d)
{
	struct rdiag_counters *c = NULL;
	struct rdiag_samples *s = NULL;

	rd_doc_devices(d, &c, NULL);
	if (!c || rdiag_counters_sample(c, NULL, &s))
		return NULL;
	return s;
}

static bool has_cm_samples(const struct rdiag_samples *s)
{
	size_t i, n = rdiag_samples_count(s);

	for (i = 0; i < n; i++)
		if (rdiag_samples_get(s, i)->origin == RDIAG_ORIG_CM)
			return true;
	return false;
}

static struct rdiag_samples *sample_all(struct rdiag_counters *c)
{
	struct rdiag_samples *s = NULL;

	if (!c || rdiag_counters_sample(c, NULL, &s))
		return NULL;
	return s;
}

static void sleep_ms(double ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1000);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1000) * 1e6);
	nanosleep(&ts, NULL);
}

/* the longest cache of the samples: a sysfs hw_counters value may be up to its lifespan
 * old (rxe: 12 ms); 0 when nothing is cached (netlink, PMA and CM counters) */
static uint32_t max_cache_ms(const struct rdiag_samples *s)
{
	size_t i, n = rdiag_samples_count(s);
	uint32_t m = 0;

	for (i = 0; i < n; i++)
		if (rdiag_samples_get(s, i)->cache_ms > m)
			m = rdiag_samples_get(s, i)->cache_ms;
	return m;
}

int rdiag_doctor_attempt(struct rdiag_doctor *d, const struct rdiag_doc_opts *o)
{
	return rd_doc_attempt_ex(d, o, NULL);
}

int rd_doc_attempt_ex(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
		      const struct rd_doc_hooks *h)
{
	struct rdma_event_channel *ch = NULL;
	struct rdma_cm_id *id = NULL;
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct rdiag_counters *c = NULL;
	struct rdiag_samples *before = NULL, *after = NULL;
	struct cm_snap *cm0 = calloc(1, sizeof(*cm0)), *cm1 = calloc(1, sizeof(*cm1));
	struct rdiag_doc_step *s;
	const struct rdiag_doc_step *addr;
	struct rdma_conn_param cp;
	struct ibv_qp_init_attr qa;
	struct rdiag_doc_peer_info mine;
	union rd_addr dst, src;
	uint8_t pdata[RD_DOC_PDATA_LEN], rpdata[256];
	size_t rplen;
	bool qp = false, ok;
	double t0, t_end;
	int timeout = o->timeout_ms > 0 ? o->timeout_ms : RDIAG_DOC_DEFAULT_TIMEOUT_MS;
	int rtimeout = RDIAG_DOC_RESOLVE_MS(timeout);
	uint16_t port = o->port ? o->port : RD_DOC_DEFAULT_PORT;
	int ps = o->ps ? o->ps : RDMA_PS_TCP;
	int ret;

	d->nsteps = 0;
	d->ndeltas = 0;
	memset(&d->peer, 0, sizeof(d->peer));
	if (!o->dst || rd_addr_parse(o->dst, &dst)) {
		rd_doc_err(d, "cannot parse destination '%s'", o->dst ? o->dst : "");
		ret = -EINVAL;
	} else if (o->src && rd_addr_parse(o->src, &src)) {
		rd_doc_err(d, "cannot parse source '%s'", o->src);
		ret = -EINVAL;
	} else {
		/* "cannot load librdmacm: librdmacm.so.1: cannot open shared object file: ..." */
		ret = rd_rdmacm_load(d->errmsg, sizeof(d->errmsg));
	}
	if (ret) {
		free(cm0);
		free(cm1);
		return ret;
	}
	d->attempted = true;
	rd_addr_str(&dst, d->dst, sizeof(d->dst));
	if (o->src)
		rd_addr_str(&src, d->src, sizeof(d->src));
	d->port = port;
	d->ps = ps;
	d->timeout_ms = timeout;
	if (dst.sa.sa_family == AF_INET)
		dst.in.sin_port = htons(port);
	else
		dst.in6.sin6_port = htons(port);

	if (!(h && h->no_counters)) {
		rd_doc_devices(d, &c, NULL);
		before = sample_all(c);
		if (cm0)
			cm_snap_read(d, cm0);
	} else {
		free(cm0);
		free(cm1);
		cm0 = cm1 = NULL;
	}

	ch = rdma_create_event_channel();
	s = step_begin(d, RDIAG_DOC_STEP_CREATE_ID);
	t0 = rd_mono_ms();
	if (!ch) {
		step_call_failed(s, "rdma_create_event_channel", t0);
		goto out;
	}
	if (rdma_create_id(ch, &id, NULL, (enum rdma_port_space)ps)) {
		step_call_failed(s, "rdma_create_id", t0);
		goto out;
	}
	s->ok = true;
	s->ms = rd_mono_ms() - t0;
	snprintf(s->detail, sizeof(s->detail), "port space %s",
		 rdiag_port_space_name((unsigned int)ps) ? rdiag_port_space_name((unsigned int)ps) : "?");
	/* the ToS goes into the route's traffic class: set before resolving it */
	if (h && h->set_tos) {
		uint8_t tos = h->tos;

		if (rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_TOS, &tos, sizeof(tos)))
			snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
				 "; ToS %u refused: %s", tos, strerror(errno));
		else
			snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
				 ", ToS %u", tos);
	}

	s = step_begin(d, RDIAG_DOC_STEP_RESOLVE_ADDR);
	t0 = rd_mono_ms();
	if (rdma_resolve_addr(id, o->src ? &src.sa : NULL, &dst.sa, rtimeout)) {
		step_call_failed(s, "rdma_resolve_addr", t0);
		goto out;
	}
	/* rdma_cm ends the step itself after rtimeout: wait a little longer for its event */
	if (!step_wait(s, ch, rtimeout + 1000 + rtimeout / 2, t0, RDMA_CM_EVENT_ADDR_RESOLVED, NULL,
		       NULL, rtimeout, ps))
		goto out;
	if (id->verbs)
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
			 "; device %s port %u", ibv_get_device_name(id->verbs->device), id->port_num);
	/* the attempt's device/port are the truth for the counter deltas */
	if (id->verbs) {
		snprintf(d->egress_dev, sizeof(d->egress_dev), "%s",
			 ibv_get_device_name(id->verbs->device));
		d->egress_port = id->port_num;
	}

	s = step_begin(d, RDIAG_DOC_STEP_RESOLVE_ROUTE);
	t0 = rd_mono_ms();
	if (rdma_resolve_route(id, rtimeout)) {
		step_call_failed(s, "rdma_resolve_route", t0);
		goto out;
	}
	if (!step_wait(s, ch, rtimeout + 1000 + rtimeout / 2, t0, RDMA_CM_EVENT_ROUTE_RESOLVED, NULL,
		       NULL, rtimeout, ps))
		goto out;
	if (id->route.num_paths > 0 && id->route.path_rec)
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
			 "; path MTU %u, packet lifetime %u",
			 rdiag_mtu_bytes(id->route.path_rec->mtu), id->route.path_rec->packet_life_time);

	s = step_begin(d, RDIAG_DOC_STEP_CREATE_QP);
	t0 = rd_mono_ms();
	pd = ibv_alloc_pd(id->verbs);
	if (!pd) {
		step_call_failed(s, "ibv_alloc_pd", t0);
		goto out;
	}
	cq = ibv_create_cq(id->verbs, 8, NULL, NULL, 0);
	if (!cq) {
		step_call_failed(s, "ibv_create_cq", t0);
		goto out;
	}
	/* the UDP port space is unconnected: a UD QP, and rdma_connect is a SIDR exchange */
	rd_doc_qp_init_attr(&qa, cq, ps == RDMA_PS_UDP);
	if (rdma_create_qp(id, pd, &qa)) {
		step_call_failed(s, "rdma_create_qp", t0);
		goto out;
	}
	qp = true;
	s->ok = true;
	s->ms = rd_mono_ms() - t0;
	snprintf(s->detail, sizeof(s->detail), "%s QP 0x%x", ps == RDMA_PS_UDP ? "UD" : "RC",
		 id->qp->qp_num);

	s = step_begin(d, RDIAG_DOC_STEP_CONNECT);
	rd_doc_local_info(id, &mine);
	/* a data-path size that is dropped ends in WC 12 after 3 local ACK timeouts of 537 ms
	 * (4.096 us << 17), not 8 of rdma_cm's 2 s (packet lifetime 18 + 1 on rxe): the
	 * timeout is rdma_cm's option since Linux 5.x (refused before: the default stays) */
	{
		uint8_t ack = h && h->ack_timeout ? h->ack_timeout : 17;

		(void)rdma_set_option(id, RDMA_OPTION_ID, RDMA_OPTION_ID_ACK_TIMEOUT, &ack,
				      sizeof(ack));
	}
	rd_doc_conn_param(&cp, pdata, &mine, 2);
	t0 = rd_mono_ms();
	if (rdma_connect(id, &cp)) {
		step_call_failed(s, "rdma_connect", t0);
		goto out;
	}
	rplen = sizeof(rpdata);
	ok = step_wait(s, ch, timeout, t0, RDMA_CM_EVENT_ESTABLISHED, rpdata, &rplen, timeout, ps);
	if (!ok)
		goto out;
	rd_doc_pdata_unpack(rpdata, rplen, &d->peer);
	if (d->peer.valid)
		snprintf(s->detail + strlen(s->detail), sizeof(s->detail) - strlen(s->detail),
			 "; peer %s netdev MTU %u, path MTU %u, active MTU %u", d->peer.dev,
			 d->peer.netdev_mtu, d->peer.path_mtu, d->peer.active_mtu);

	if (ps == RDMA_PS_UDP) {
		/* SIDR resolved the peer's UD QP: there is no connection, nothing to tear down
		 * (the data-path step's RDMA WRITEs need a connected QP) */
		s = step_begin(d, RDIAG_DOC_STEP_DISCONNECT);
		s->ok = true;
		snprintf(s->detail, sizeof(s->detail),
			 "UDP port space: no connection to disconnect (SIDR gave the peer's UD QP)");
		goto out;
	}
	/* proof instead of prediction: one packet of each size up to the path MTU (or the
	 * caller's own exchange) */
	if (h && h->established)
		h->established(h->arg, d, id, pd, cq, rpdata, rplen);
	else
		rd_doc_datapath(d, id, pd, cq, rpdata, rplen, 3000);

	s = step_begin(d, RDIAG_DOC_STEP_DISCONNECT);
	t0 = rd_mono_ms();
	if (rdma_disconnect(id)) {
		step_call_failed(s, "rdma_disconnect", t0);
		goto out;
	}
	step_wait(s, ch, timeout, t0, RDMA_CM_EVENT_DISCONNECTED, NULL, NULL, timeout, ps);
out:
	if (qp)
		rdma_destroy_qp(id);
	if (cq)
		ibv_destroy_cq(cq);
	if (pd)
		ibv_dealloc_pd(pd);
	if (id)
		rdma_destroy_id(id);
	if (ch)
		rdma_destroy_event_channel(ch);
	t_end = rd_mono_ms();
	if (before) {
		/* a cached value may predate the end of the attempt: read again only once the
		 * longest cache (the hw_counters lifespan) has passed since then, plus a jiffy at
		 * HZ=100 because the kernel counts the lifespan in jiffies */
		uint32_t cache = max_cache_ms(before);

		if (cache)
			sleep_ms(t_end + cache + 10 - rd_mono_ms());
		after = sample_all(c);
		if (after)
			take_deltas(d, before, after);
	}
	/* the CM counters are read live (no cache) */
	if (cm0 && cm1 && !(after && has_cm_samples(after))) {
		cm_snap_read(d, cm1);
		cm_snap_deltas(d, cm0, cm1);
	}
	free(cm0);
	free(cm1);
	rdiag_samples_free(before);
	rdiag_samples_free(after);
	/* after an address failure the neighbour entry is the answer: read it again */
	addr = rd_doc_step_find(d, RDIAG_DOC_STEP_RESOLVE_ADDR);
	if (addr && !addr->ok && d->have_hop && addr->event == RDMA_CM_EVENT_ADDR_ERROR) {
		char ifname[IF_NAMESIZE + 1] = "";

		if (if_indextoname((unsigned int)d->hop_ifindex, ifname))
			rd_doc_check_neigh(d, &d->hop, d->hop_ifindex, ifname, true);
	}
	return 0;
}
