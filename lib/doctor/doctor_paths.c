/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor paths: which UDP source ports (ECMP paths) to one listener work.
 *
 * A RoCE v2 switch picks an ECMP member from the 5-tuple; between two hosts only the UDP
 * source port varies, and the RDMA device picks it per QP.  Each probe is the doctor's own
 * attempt (rd_doc_attempt_ex: rdma_create_id ... ESTABLISHED ... disconnect) with, once
 * ESTABLISHED, K small RDMA WRITEs each waited for (the data path's rd_doc_dp_one), timed,
 * and the connection's source port read from the QP's attributes (QPN, remote QPN, the flow
 * label of its address vector) through the driver's rule:
 *   - rxe since Linux 5.18 (rxe_modify_qp): an address vector with a GRH sets
 *     src_port = rdma_get_udp_sport(flow_label, qpn, dest_qpn), i.e. the flow label, or
 *     when it is 0 rdma_calc_flow_label(qpn, dest_qpn), folded to 14 bits | 0xc000
 *     (include/rdma/ib_verbs.h); both ends compute the same, so both directions of a
 *     connection use one port;
 *   - rxe before 5.18, and QPs never given an address vector (QP1, which carries the CM
 *     MADs, and UD QPs): rxe_qp_init_req's 0xc000 + hash_32(qpn, 14);
 *   - other drivers: the same kernel helpers are what most use (mlx5, hns, irdma for a zero
 *     flow label), but nothing confirms it here: said so.
 * The CM exchange itself travels on QP1, whose port never changes: a dropped source port
 * shows as an established connection whose data does not complete (WC 12 after the retries),
 * not as a failed connect.  Ports are covered until `paths` distinct ones or max_attempts
 * connections; a port is bad when any of its probes failed; the classifier
 * (rdiag_doc_paths_classify, a pure function) turns the marks into the verdict. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* pthread_timedjoin_np */
#endif
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <arpa/inet.h>

#include "internal.h"
#include "rdmadiag/capture.h"
#include "rdmadiag/packet.h"
#include "util/util.h"
#include "verbs/verbs.h"

#define EXCH_LEN 64
/* The transport's ACK timeout (4.096 us << exp): the smallest at least an eighth of the
 * exchange's wait, so that a dropped port ends in WC 12 after 3 of them (retry_count 2)
 * within half of it (default 2000 ms: 268 ms, ~0.8 s), not 3 x 537 ms as connect's; never
 * below 67 ms, where a busy host's (or a TCG guest's) late ACK would look like a drop */
static uint8_t ack_timeout_exp(int timeout_ms)
{
	uint8_t e = 14;

	while (e < 20 && (4.096e-3 * (double)(1u << e)) < timeout_ms / 8.0)
		e++;
	return e;
}

struct rd_paths {
	struct rdiag_doc_path_probe *probes;
	double *rtts;			/* probes[i]'s completed exchanges at rtts[i * k] */
	size_t nprobes, cap;
	unsigned int k;
	struct rdiag_doc_path *ports;
	size_t nports;
	unsigned int attempts;
	bool budget_hit;
	double ms;
	bool have_first_bad;
	struct rdiag_doc_verdict first_bad;
	char local[64], dst[64], ndev[64];
	uint16_t dport;
	char capture[320];		/* where the capture ran, or why not */
	unsigned int cap_seen, cap_differ;
};

/* ---- the kernel's source-port rules ---- */

uint16_t rdiag_roce_sport_flow_label(uint32_t fl)
{
	uint32_t lo = fl & 0x03fff, hi = fl & 0xfc000;

	lo ^= hi >> 14;
	return (uint16_t)(lo | 0xc000);
}

uint32_t rdiag_roce_calc_flow_label(uint32_t lqpn, uint32_t rqpn)
{
	uint64_t v = (uint64_t)lqpn * rqpn;

	v ^= v >> 20;
	v ^= v >> 40;
	return (uint32_t)(v & 0xfffff);
}

uint16_t rdiag_roce_sport_rxe_qpn(uint32_t qpn)
{
	/* hash_32() is hash_32_generic on every architecture but a few without a fast
	 * multiply: val * GOLDEN_RATIO_32 >> (32 - bits) */
	uint32_t h = (uint32_t)(qpn * 0x61C88647u) >> (32 - 14);

	return (uint16_t)(0xc000 + (h & 0x3fff));
}

const char *rdiag_doc_sport_how_str(enum rdiag_doc_sport_how h)
{
	switch (h) {
	case RDIAG_SPORT_UNKNOWN: return "unknown: no data was sent";
	case RDIAG_SPORT_RXE_FLOW: return "QPNs and flow label on rxe (rdma_get_udp_sport)";
	case RDIAG_SPORT_RXE_QPN: return "QPN hash on rxe (before Linux 5.18)";
	case RDIAG_SPORT_FLOW_LABEL: return "flow label (rdma_flow_label_to_udp_sport): unknown driver, computed, not confirmed";
	case RDIAG_SPORT_COMPUTED: return "unknown driver: computed from the QPNs, not confirmed";
	}
	return "unknown";
}

/* Linux >= 5.18: rxe takes the port from the address vector (rxe_modify_qp) */
static bool kernel_5_18(void)
{
	struct utsname u;
	unsigned int maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return true;
	return maj > 5 || (maj == 5 && min >= 18);
}

static bool driver_rxe(struct rdiag_doctor *d, const char *dev)
{
	const struct rdiag_devices *devs = NULL;
	const struct rdiag_device *x;

	if (rd_doc_devices(d, NULL, &devs) || !devs)
		return !strncmp(dev, "rxe", 3);
	x = rdiag_counters_device_find(devs, dev);
	return x ? !strcmp(x->driver, "rxe") : !strncmp(dev, "rxe", 3);
}

/* ---- the classifier ---- */

static int cmp_mark(const void *a, const void *b)
{
	const struct rdiag_doc_path_mark *x = a, *y = b;

	return (int)x->sport - (int)y->sport;
}

/* "lo" or "lo-hi (n ports)" after ", "; "..." once the buffer is full */
static void list_add(char *buf, size_t len, unsigned int lo, unsigned int hi, unsigned int n)
{
	size_t off = strlen(buf);

	if (off + 32 >= len) {
		if (off + 4 < len && strcmp(buf + off - 3, "..."))
			snprintf(buf + off, len - off, "...");
		return;
	}
	if (lo == hi)
		snprintf(buf + off, len - off, "%s%u", off ? ", " : "", lo);
	else
		snprintf(buf + off, len - off, "%s%u-%u (%u ports)", off ? ", " : "", lo, hi, n);
}

int rdiag_doc_paths_classify(const struct rdiag_doc_path_mark *m, size_t n,
			     struct rdiag_doc_paths_verdict *v)
{
	struct rdiag_doc_path_mark *s;
	size_t i, j, nfail = 0;
	bool in_run = false;

	memset(v, 0, sizeof(*v));
	v->cls = RDIAG_PATHS_NONE;
	v->name = "none";
	if (!n) {
		snprintf(v->sentence, sizeof(v->sentence), "nothing was probed");
		return 0;
	}
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, m, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_mark);
	for (i = 0; i < n; i++)
		nfail += !s[i].ok;
	for (i = 0; i < n; i = j) {
		bool bad = false, good = false;

		for (j = i; j < n && s[j].sport == s[i].sport; j++) {
			bad |= !s[j].ok;
			good |= s[j].ok;
		}
		if (!s[i].sport) {		/* failed before any data: no port to name */
			for (j = i; j < n && !s[j].sport; j++)
				v->nunplaced += !s[j].ok;
			in_run = false;
			continue;
		}
		v->nports++;
		if (!bad) {
			v->ngood++;
			in_run = false;
			continue;
		}
		v->nbad++;
		v->nflaky += good;
		if (in_run) {
			v->ranges[v->nranges - 1].hi = s[i].sport;
			v->ranges[v->nranges - 1].nbad++;
		} else if (v->nranges < RDIAG_DOC_PATHS_RANGES) {
			v->ranges[v->nranges].lo = v->ranges[v->nranges].hi = s[i].sport;
			v->ranges[v->nranges++].nbad = 1;
			in_run = true;
		} else {		/* full: the last one grows */
			v->ranges[v->nranges - 1].hi = s[i].sport;
			v->ranges[v->nranges - 1].nbad++;
		}
	}
	free(s);
	for (i = 0; i < v->nranges; i++) {
		const struct rdiag_doc_paths_range *r = &v->ranges[i];

		list_add(v->bad_list, sizeof(v->bad_list), r->lo, r->hi, r->nbad);
	}
	v->bad_fraction = v->nports ? (double)v->nbad / v->nports : 0;
	if (nfail == 0) {
		v->cls = RDIAG_PATHS_ALL_GOOD;
		v->name = "all_good";
		snprintf(v->sentence, sizeof(v->sentence),
			 "all %u source ports probed work: no path problem between the two hosts",
			 v->nports);
	} else if (v->ngood == 0) {
		v->cls = RDIAG_PATHS_ALL_BAD;
		v->name = "all_bad";
		snprintf(v->sentence, sizeof(v->sentence),
			 "every probe failed (%u source ports%s%u before any data): not a path problem, the connection itself fails; the doctor's verdict says why",
			 v->nports, v->nunplaced ? ", " : "; ", v->nunplaced);
	} else {
		v->cls = RDIAG_PATHS_SUBSET;
		v->name = "subset";
		snprintf(v->sentence, sizeof(v->sentence),
			 "%u of %u source ports fail (%.0f%%): %s%s; the others work: the connections whose 5-tuple hashes onto one ECMP member (a switch port or a link in the hash's reach) lose their packets, not the hosts%s",
			 v->nbad, v->nports, 100.0 * v->bad_fraction, v->bad_list,
			 v->nflaky ? " (some of them only sometimes)" : "",
			 v->nunplaced ? "; some probes also failed before any data" : "");
	}
	return 0;
}

/* ---- the run ---- */

struct run {
	pthread_mutex_t mu;
	pthread_cond_t cv;	/* a connection ended */
	struct rdiag_doctor *d;
	const struct rdiag_doc_opts *o;
	const struct rdiag_doc_paths_opts *po;
	struct rd_paths *r;
	unsigned int want, k, max_attempts, started, covered;
	unsigned int in_flight;	/* started, not yet counted: each may cover a new port */
	unsigned int done, unplaced;	/* ended, of which before any data (no port) */
	double t_end;		/* the budget's end (0: none) */
	bool exact;		/* one connection at a time: per-probe counter deltas */
	bool new_rxe;
	int err;		/* a probe could not be attempted: -errno, errmsg in d */
	uint8_t seen[65536 / 8];
};

struct probe_ctx {
	struct run *run;
	struct rdiag_doc_path_probe *p;
	double *rtt;
	int timeout_ms;
	char local[64];		/* this end's address of the connection */
};

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void rtt_stats(double *v, size_t n, double *mn, double *med, double *mx)
{
	*mn = *med = *mx = 0;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), cmp_dbl);
	*mn = v[0];
	*mx = v[n - 1];
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* once ESTABLISHED: the port from the QP's attributes, then the exchanges */
static void on_established(void *arg, struct rdiag_doctor *d, struct rdma_cm_id *id,
			   struct ibv_pd *pd, struct ibv_cq *cq, const uint8_t *rpdata,
			   size_t rplen)
{
	struct probe_ctx *c = arg;
	struct rdiag_doc_path_probe *p = c->p;
	struct ibv_qp_attr qa;
	struct ibv_qp_init_attr qi;
	struct ibv_mr *mr;
	struct rdiag_doc_finding *f;
	uint64_t raddr;
	uint32_t rkey, rlen;
	char buf[EXCH_LEN], why[160], subj[80];
	bool write, rxe;
	unsigned int i;
	size_t nrtt = 0;
	int r = 0;

	p->connected = true;
	p->qpn = id->qp->qp_num;
	{
		union rd_addr a;

		memcpy(&a, rdma_get_local_addr(id), sizeof(a));
		rd_addr_str(&a, c->local, sizeof(c->local));
	}
	snprintf(p->dev, sizeof(p->dev), "%s", ibv_get_device_name(id->verbs->device));
	memset(&qa, 0, sizeof(qa));
	if (ibv_query_qp(id->qp, &qa, IBV_QP_AV | IBV_QP_DEST_QPN, &qi) == 0) {
		p->remote_qpn = qa.dest_qp_num;
		if (qa.ah_attr.is_global)
			p->flow_label = qa.ah_attr.grh.flow_label;
		rxe = driver_rxe(d, p->dev);
		if (rxe && c->run->new_rxe && qa.ah_attr.is_global) {
			p->sport_how = RDIAG_SPORT_RXE_FLOW;
			p->sport = rdiag_roce_sport_flow_label(p->flow_label ? p->flow_label :
					rdiag_roce_calc_flow_label(p->qpn, p->remote_qpn));
		} else if (rxe) {
			p->sport_how = RDIAG_SPORT_RXE_QPN;
			p->sport = rdiag_roce_sport_rxe_qpn(p->qpn);
		} else if (p->flow_label) {
			p->sport_how = RDIAG_SPORT_FLOW_LABEL;
			p->sport = rdiag_roce_sport_flow_label(p->flow_label);
		} else {
			p->sport_how = RDIAG_SPORT_COMPUTED;
			p->sport = rdiag_roce_sport_flow_label(
				rdiag_roce_calc_flow_label(p->qpn, p->remote_qpn));
		}
	}
	p->sport_computed = p->sport;
	write = rd_doc_pdata_buf(rpdata, rplen, &raddr, &rkey, &rlen) && rlen >= EXCH_LEN;
	memset(buf, 0, sizeof(buf));
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		snprintf(p->detail, sizeof(p->detail), "ibv_reg_mr: %s", strerror(errno));
		return;
	}
	/* SENDs consume the listener's receives: no more of them than it posts */
	if (!write && p->exchanges > RD_DOC_DP_RECVS)
		p->exchanges = RD_DOC_DP_RECVS;
	for (i = 0; i < p->exchanges; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = EXCH_LEN, .lkey = mr->lkey };
		struct ibv_send_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1,
					  .opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED };
		double t0;

		if (write) {
			wr.wr.rdma.remote_addr = raddr;
			wr.wr.rdma.rkey = rkey;
		}
		t0 = rd_mono_ms();
		r = rd_doc_dp_one(id->qp, cq, &wr, c->timeout_ms);
		if (r)
			break;
		c->rtt[nrtt++] = rd_mono_ms() - t0;
	}
	p->completed = i;
	rtt_stats(c->rtt, nrtt, &p->rtt_min, &p->rtt_med, &p->rtt_max);
	ibv_dereg_mr(mr);
	if (!r)
		return;
	p->wc_status = r;
	snprintf(subj, sizeof(subj), "%s/%u", p->dev, id->port_num);
	rd_doc_dp_outcome(r, c->timeout_ms, why, sizeof(why));
	f = rd_doc_add(d, "data_path", "transport", RDIAG_DOC_PROBLEM, "datapath_drops", subj,
		       "the connection from UDP source port %u is established, but %s %u of %u (%d bytes) did not complete: %s",
		       p->sport, write ? "RDMA WRITE" : "SEND", i + 1, p->exchanges, EXCH_LEN, why);
	rd_doc_evidence(f, "QP 0x%x -> remote QP 0x%x, %u exchanges completed before it", p->qpn,
			p->remote_qpn, i);
	rd_doc_hint(f, "compare the other source ports: a subset failing is an ECMP member or a link in its reach");
	snprintf(p->detail, sizeof(p->detail), "%s %u of %u: %s", write ? "RDMA WRITE" : "SEND",
		 i + 1, p->exchanges, why);
}

/* a counter of transport retransmissions: rxe's completer_retry_err (one per retry),
 * mlx5's local_ack_timeout_err; not the retries-exhausted ones (the WC status says that) */
static bool retry_name(const char *n)
{
	return !strstr(n, "exceeded") && (strstr(n, "retry_err") || strstr(n, "ack_timeout_err"));
}

static void *worker(void *arg)
{
	struct run *run = arg;
	struct rdiag_doctor *wd = NULL;
	struct rd_doc_hooks h = {
		.no_counters = !run->exact,
		.set_tos = run->po->set_tos,
		.tos = run->po->tos,
		.ack_timeout = ack_timeout_exp(run->o->timeout_ms > 0 ? run->o->timeout_ms :
					       RDIAG_DOC_DEFAULT_TIMEOUT_MS),
		.established = on_established,
	};
	double *rtt = calloc(run->k ? run->k : 1, sizeof(double));
	int timeout = run->o->timeout_ms > 0 ? run->o->timeout_ms : RDIAG_DOC_DEFAULT_TIMEOUT_MS;

	if (!rtt || rdiag_doctor_open(&wd, NULL)) {
		pthread_mutex_lock(&run->mu);
		if (!run->err) {
			run->err = -ENOMEM;
			rd_doc_err(run->d, "cannot open a doctor handle for a probe: %s",
				   rdiag_doctor_errmsg(NULL));
		}
		pthread_mutex_unlock(&run->mu);
		free(rtt);
		return NULL;
	}
	for (;;) {
		struct rdiag_doc_path_probe p;
		struct rdiag_doc_verdict v;
		struct probe_ctx c = { run, &p, rtt, timeout, "" };
		struct rd_paths *r = run->r;
		double t0;
		unsigned int seq;
		size_t i;
		int ret;

		pthread_mutex_lock(&run->mu);
		/* as many connections as ports wanted all failed before any data: more would
		 * only fail the same way (no listener, no route ...), covering nothing */
		if (run->done >= run->want && run->unplaced == run->done) {
			pthread_mutex_unlock(&run->mu);
			break;
		}
		if (run->err || run->covered + run->in_flight >= run->want ||
		    run->started >= run->max_attempts ||
		    (run->t_end > 0 && rd_mono_ms() >= run->t_end)) {
			if (run->t_end > 0 && rd_mono_ms() >= run->t_end && run->covered < run->want &&
			    run->started < run->max_attempts)
				r->budget_hit = true;
			/* the others' connections may still fall short: wait for them */
			if (run->in_flight && !run->err && run->covered < run->want &&
			    run->started < run->max_attempts) {
				pthread_cond_wait(&run->cv, &run->mu);
				pthread_mutex_unlock(&run->mu);
				continue;
			}
			pthread_mutex_unlock(&run->mu);
			break;
		}
		seq = ++run->started;
		run->in_flight++;
		pthread_mutex_unlock(&run->mu);

		memset(&p, 0, sizeof(p));
		p.seq = seq;
		p.exchanges = run->k;
		p.deltas_exact = run->exact;
		wd->nfindings = 0;
		h.arg = &c;
		t0 = rd_mono_ms();
		ret = rd_doc_attempt_ex(wd, run->o, &h);
		p.ms = rd_mono_ms() - t0;
		if (ret) {
			pthread_mutex_lock(&run->mu);
			if (!run->err) {
				run->err = ret;
				rd_doc_err(run->d, "%s", wd->errmsg);
			}
			run->in_flight--;
			pthread_cond_broadcast(&run->cv);
			pthread_mutex_unlock(&run->mu);
			break;
		}
		rdiag_doctor_verdict(wd, &v);
		p.ok = p.connected && p.completed == p.exchanges && !p.wc_status;
		p.cause = p.ok ? "ok" : v.ok ? "datapath_drops" : v.cause;
		p.layer = p.ok ? "none" : v.ok ? "transport" : v.layer;
		if (!p.ok && !p.detail[0])
			snprintf(p.detail, sizeof(p.detail), "%.250s", v.sentence);
		for (i = 0; i < wd->ndeltas && p.ndeltas < RDIAG_DOC_PATH_DELTAS; i++)
			if (wd->deltas[i].after != wd->deltas[i].before)
				p.deltas[p.ndeltas++] = wd->deltas[i];

		pthread_mutex_lock(&run->mu);
		if (r->nprobes < r->cap) {
			memcpy(&r->rtts[r->nprobes * r->k], rtt, p.completed * sizeof(double));
			r->probes[r->nprobes++] = p;
		}
		if (p.sport && !(run->seen[p.sport / 8] & (1u << (p.sport % 8)))) {
			run->seen[p.sport / 8] |= (uint8_t)(1u << (p.sport % 8));
			run->covered++;
		}
		if (!p.ok && !r->have_first_bad) {
			r->have_first_bad = true;
			r->first_bad = v;
		}
		if (!r->local[0] && c.local[0])
			snprintf(r->local, sizeof(r->local), "%s", c.local);
		r->attempts = run->started;
		run->done++;
		run->unplaced += !p.sport;
		run->in_flight--;
		pthread_cond_broadcast(&run->cv);
		if (run->po->progress)
			run->po->progress(run->po->arg, (unsigned int)r->nprobes, run->covered,
					  run->want);
		pthread_mutex_unlock(&run->mu);
	}
	rdiag_doctor_close(wd);
	free(rtt);
	return NULL;
}

/* ---- the capture that confirms the ports ----
 * Software RoCE sends through the host's IP stack, so a live capture on the egress netdev
 * sees every data packet: the first one to the peer whose BTH destination QP is a probe's
 * remote QPN carries the UDP source port that connection used.  (Hardware RoCE bypasses the
 * stack: nothing is seen, and the ports stay computed.)  The packets wait in the kernel's
 * capture buffer during the run and are read after it. */
#define CAP_MAX 8192

struct cap_seen {
	size_t n;
	struct { uint32_t qp; uint16_t sport; } e[CAP_MAX];
};

static struct rdiag_capture *cap_open(struct rd_paths *r, const char *src)
{
	struct rdiag_capture_opts co = { 0 };
	struct rdiag_capture *c = NULL;
	char filt[200];
	int ret;

	if (!r->ndev[0]) {
		snprintf(r->capture, sizeof(r->capture), "not possible: no egress netdev known");
		return NULL;
	}
	snprintf(filt, sizeof(filt), "udp dst port 4791 and dst host %s%s%s", r->dst,
		 src ? " and src host " : "", src ? src : "");
	co.iface = r->ndev;
	co.live.snaplen = 128;
	co.live.buffer_kib = 4096;
	co.live.timeout_ms = 100;
	co.live.no_default_filter = true;
	co.live.filter = filt;
	ret = rdiag_capture_open(&c, &co);
	if (ret) {
		snprintf(r->capture, sizeof(r->capture), "cannot capture on %s: %s", r->ndev,
			 rdiag_capture_errmsg(NULL));
		return NULL;
	}
	snprintf(r->capture, sizeof(r->capture), "%s", r->ndev);
	return c;
}

/* the reader: every packet the run sends to the peer, the first source port seen for each
 * BTH destination QP (QP1, the CM's, left out).  It blocks in the capture (a TPACKET_V3
 * ring does not time out while empty) until rdiag_capture_break. */
struct cap_reader {
	struct rdiag_capture *c;
	struct cap_seen *cs;
};

static void *cap_read(void *arg)
{
	struct cap_reader *cr = arg;
	struct cap_seen *cs = cr->cs;
	struct rdiag_decode_opts dopts;
	struct rdiag_frame f;
	struct rdiag_pkt p;
	int lt = rdiag_capture_linktype(cr->c), ret;
	size_t j;

	rdiag_decode_opts_init(&dopts);
	dopts.check_icrc = false;
	dopts.decode_mad = false;
	for (;;) {
		ret = rdiag_capture_next(cr->c, &f);
		if (ret == -EAGAIN || ret == 0)
			continue;	/* a live read's timeout */
		if (ret < 0)
			break;		/* -EINTR: the run is over */
		if (rdiag_pkt_decode(&p, lt, f.data, f.caplen, f.len, &dopts) != 0 ||
		    !(p.present & RDIAG_HAS(RDIAG_HDR_BTH)) || p.bth.destqp <= 1)
			continue;
		for (j = 0; j < cs->n && cs->e[j].qp != p.bth.destqp; j++)
			;
		if (j == cs->n && cs->n < CAP_MAX) {
			cs->e[cs->n].qp = p.bth.destqp;
			cs->e[cs->n++].sport = p.sport;
		}
	}
	return NULL;
}

/* the port each probe's packets carried */
static void cap_match(struct rd_paths *r, const struct cap_seen *cs)
{
	size_t i, j;

	for (i = 0; i < r->nprobes; i++) {
		struct rdiag_doc_path_probe *pr = &r->probes[i];

		if (!pr->connected || !pr->remote_qpn)
			continue;
		for (j = 0; j < cs->n && cs->e[j].qp != pr->remote_qpn; j++)
			;
		if (j == cs->n)
			continue;
		pr->sport_seen = cs->e[j].sport;
		r->cap_seen++;
		if (pr->sport_seen != pr->sport_computed)
			r->cap_differ++;
		pr->sport = pr->sport_seen;	/* what the wire says wins */
	}
}

static int cmp_probe(const void *a, const void *b)
{
	const struct rdiag_doc_path_probe *x = a, *y = b;

	if (x->sport != y->sport)
		return (int)x->sport - (int)y->sport;
	return (int)x->seq - (int)y->seq;
}

/* the distinct ports, each probe merged into its own */
static int build_ports(struct rd_paths *r)
{
	struct rdiag_doc_path_probe *s;
	double *all;
	size_t i, j, n, m;

	r->nports = 0;
	if (!r->nprobes)
		return 0;
	s = malloc(r->nprobes * sizeof(*s));
	all = malloc((r->nprobes * r->k + 1) * sizeof(double));
	r->ports = calloc(r->nprobes, sizeof(*r->ports));
	if (!s || !all || !r->ports) {
		free(s);
		free(all);
		return -ENOMEM;
	}
	memcpy(s, r->probes, r->nprobes * sizeof(*s));
	qsort(s, r->nprobes, sizeof(*s), cmp_probe);
	for (i = 0; i < r->nprobes; i = j) {
		struct rdiag_doc_path *pt;

		for (j = i; j < r->nprobes && s[j].sport == s[i].sport; j++)
			;
		if (!s[i].sport)
			continue;
		pt = &r->ports[r->nports++];
		pt->sport = s[i].sport;
		pt->sport_how = s[i].sport_how;
		pt->cause = "ok";
		m = 0;
		for (n = i; n < j; n++) {
			size_t x, idx;

			pt->probes++;
			pt->ok += s[n].ok;
			pt->exchanges += s[n].exchanges;
			pt->completed += s[n].completed;
			if (!s[n].ok && !pt->bad) {
				pt->bad = true;
				pt->cause = s[n].cause;
			}
			for (x = 0; x < s[n].ndeltas; x++)
				if (s[n].deltas_exact && !s[n].deltas[x].cm &&
				    retry_name(s[n].deltas[x].name))
					pt->retries += s[n].deltas[x].after - s[n].deltas[x].before;
			/* its RTTs, from the probe's slot in the run's order */
			for (idx = 0; idx < r->nprobes && r->probes[idx].seq != s[n].seq; idx++)
				;
			for (x = 0; idx < r->nprobes && x < s[n].completed; x++)
				all[m++] = r->rtts[idx * r->k + x];
		}
		rtt_stats(all, m, &pt->rtt_min, &pt->rtt_med, &pt->rtt_max);
	}
	free(s);
	free(all);
	return 0;
}

static void rd_doc_paths_free(struct rdiag_doctor *d)
{
	if (!d->paths)
		return;
	free(d->paths->probes);
	free(d->paths->rtts);
	free(d->paths->ports);
	free(d->paths);
	d->paths = NULL;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int rdiag_doctor_paths(struct rdiag_doctor *d, const struct rdiag_doc_opts *o,
		       const struct rdiag_doc_paths_opts *po)
{
	static const struct rdiag_doc_paths_opts defaults;
	struct run *run;
	struct rd_paths *r;
	struct rdiag_samples *before = NULL, *after = NULL;
	struct rdiag_capture *cap = NULL;
	struct cap_reader cr = { NULL, NULL };
	pthread_t th[64], cap_th;
	unsigned int nth, i, started = 0;
	double t0;
	int ret;

	if (!po)
		po = &defaults;
	if (!o || !o->dst) {
		rd_doc_err(d, "paths: no destination");
		return -EINVAL;
	}
	if (po->paths > RDIAG_DOC_PATHS_MAX || po->probes > 1000 || po->concurrency > 64) {
		rd_doc_err(d, "paths: at most %d paths, 1000 probes per path, concurrency 64",
			   RDIAG_DOC_PATHS_MAX);
		return -EINVAL;
	}
	if (o->ps == RDMA_PS_UDP) {
		rd_doc_err(d, "paths: the UDP port space has no connection to carry the data exchange (use tcp or ib)");
		return -EINVAL;
	}
	ret = rd_rdmacm_load(d->errmsg, sizeof(d->errmsg));
	if (ret)
		return ret;
	rd_doc_paths_free(d);
	run = calloc(1, sizeof(*run));
	r = calloc(1, sizeof(*r));
	if (!run || !r) {
		free(run);
		free(r);
		return -ENOMEM;
	}
	d->paths = r;
	d->paths_free = rd_doc_paths_free;
	run->d = d;
	run->o = o;
	run->po = po;
	run->r = r;
	run->want = po->paths ? po->paths : RDIAG_DOC_PATHS_DEFAULT;
	run->k = po->probes ? po->probes : RDIAG_DOC_PROBES_DEFAULT;
	run->max_attempts = po->max_attempts ? po->max_attempts : 2 * run->want + 8;
	run->exact = po->concurrency <= 1;
	run->new_rxe = kernel_5_18();
	r->k = run->k;
	r->cap = run->max_attempts;
	r->probes = calloc(r->cap, sizeof(*r->probes));
	r->rtts = calloc((size_t)r->cap * r->k, sizeof(double));
	if (!r->probes || !r->rtts) {
		free(run);
		rd_doc_paths_free(d);
		return -ENOMEM;
	}
	snprintf(r->dst, sizeof(r->dst), "%s", o->dst);
	snprintf(r->ndev, sizeof(r->ndev), "%s", d->egress_ndev);
	r->dport = 4791;
	if (po->no_capture)
		snprintf(r->capture, sizeof(r->capture), "off");
	else
		cap = cap_open(r, o->src);
	if (cap) {
		cr.c = cap;
		cr.cs = calloc(1, sizeof(*cr.cs));
		if (!cr.cs || pthread_create(&cap_th, NULL, cap_read, &cr)) {
			snprintf(r->capture, sizeof(r->capture), "not possible: cannot start its reader");
			rdiag_capture_close(cap);
			free(cr.cs);
			cr.cs = NULL;
			cap = NULL;
		}
	}
	pthread_mutex_init(&run->mu, NULL);
	pthread_cond_init(&run->cv, NULL);
	d->ps = o->ps ? o->ps : RDMA_PS_TCP;
	before = rd_doc_sample_all(d);
	t0 = rd_mono_ms();
	if (po->budget_ms)
		run->t_end = t0 + po->budget_ms;
	nth = po->concurrency > 1 ? po->concurrency : 1;
	if (nth > run->max_attempts)
		nth = run->max_attempts;
	if (nth == 1) {
		worker(run);
	} else {
		for (i = 0; i < nth; i++)
			if (pthread_create(&th[i], NULL, worker, run) == 0)
				started++;
		if (!started)
			worker(run);
		for (i = 0; i < started; i++)
			pthread_join(th[i], NULL);
	}
	r->ms = rd_mono_ms() - t0;
	r->attempts = (unsigned int)r->nprobes;
	if (cap) {
		/* the ring hands over a block of packets when its timeout (100 ms) retires it:
		 * two of them after the last packet, everything has been read */
		struct timespec until;

		sleep_ms(250);
		rdiag_capture_break(cap);
		/* libpcap >= 1.10 wakes a blocked read; an older one may not: then the reader
		 * is left behind, its capture and table with it, and nothing is confirmed */
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 2;
		if (pthread_timedjoin_np(cap_th, NULL, &until) == 0) {
			cap_match(r, cr.cs);
			rdiag_capture_close(cap);
			free(cr.cs);
		} else {
			pthread_detach(cap_th);
			snprintf(r->capture, sizeof(r->capture),
				 "not possible: the capture on %s could not be stopped", r->ndev);
		}
	}
	if (before) {
		/* a sysfs hw_counters value is cached for up to its lifespan (rxe: 12 ms) */
		sleep_ms(25);
		after = rd_doc_sample_all(d);
		if (after)
			rd_doc_take_deltas(d, before, after);
	}
	rdiag_samples_free(before);
	rdiag_samples_free(after);
	ret = run->err;
	pthread_mutex_destroy(&run->mu);
	pthread_cond_destroy(&run->cv);
	free(run);
	if (ret && !r->nprobes)
		return ret;
	return build_ports(r);
}

size_t rdiag_doctor_paths_nprobes(const struct rdiag_doctor *d)
{
	return d->paths ? d->paths->nprobes : 0;
}

const struct rdiag_doc_path_probe *rdiag_doctor_paths_probe(const struct rdiag_doctor *d,
							    size_t i)
{
	return d->paths && i < d->paths->nprobes ? &d->paths->probes[i] : NULL;
}

size_t rdiag_doctor_paths_nports(const struct rdiag_doctor *d)
{
	return d->paths ? d->paths->nports : 0;
}

const struct rdiag_doc_path *rdiag_doctor_paths_port(const struct rdiag_doctor *d, size_t i)
{
	return d->paths && i < d->paths->nports ? &d->paths->ports[i] : NULL;
}

void rdiag_doctor_paths_run(const struct rdiag_doctor *d, unsigned int *attempts,
			    bool *budget_hit, double *ms)
{
	const struct rd_paths *r = d->paths;

	if (attempts)
		*attempts = r ? r->attempts : 0;
	if (budget_hit)
		*budget_hit = r && r->budget_hit;
	if (ms)
		*ms = r ? r->ms : 0;
}

const char *rdiag_doctor_paths_capture(const struct rdiag_doctor *d, unsigned int *seen,
				       unsigned int *differ)
{
	const struct rd_paths *r = d->paths;

	if (seen)
		*seen = r ? r->cap_seen : 0;
	if (differ)
		*differ = r ? r->cap_differ : 0;
	return r ? r->capture : "";
}

void rdiag_doctor_paths_verdict(const struct rdiag_doctor *d, struct rdiag_doc_paths_verdict *v)
{
	const struct rd_paths *r = d->paths;
	struct rdiag_doc_path_mark *m;
	size_t i;

	if (!r || !r->nprobes) {
		rdiag_doc_paths_classify(NULL, 0, v);
		return;
	}
	m = calloc(r->nprobes, sizeof(*m));
	if (!m) {
		rdiag_doc_paths_classify(NULL, 0, v);
		return;
	}
	for (i = 0; i < r->nprobes; i++) {
		m[i].sport = r->probes[i].sport;
		m[i].ok = r->probes[i].ok;
	}
	rdiag_doc_paths_classify(m, r->nprobes, v);
	free(m);
	if (v->cls == RDIAG_PATHS_ALL_BAD && r->have_first_bad)
		v->doctor = r->first_bad;
	if (v->cls == RDIAG_PATHS_SUBSET && v->nranges) {
		const char *ifn = r->ndev[0] ? r->ndev : "IF";
		unsigned int lo = v->ranges[0].lo, hi = v->ranges[0].hi;
		char filt[64];

		if (lo == hi)
			snprintf(filt, sizeof(filt), "udp src port %u", lo);
		else
			snprintf(filt, sizeof(filt), "udp src portrange %u-%u", lo, hi);
		snprintf(v->next, sizeof(v->next),
			 "watch a bad port's packets while this runs again: rdmadump -i %s '%s' here and on the peer (which end stops seeing them); on each switch between the hosts, the ECMP member its hash picks for the 5-tuple UDP %s:%u -> %s:%u (the vendor's hash calculator) and that link's error and drop counters; with software RoCE also the firewall rules on those ports",
			 ifn, filt, r->local[0] ? r->local : "SRC", lo, r->dst, r->dport);
	}
}
