/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The verdict: the first failing layer, a stable cause id, one sentence, the evidence and the
 * next step.  Host checks that found a problem come first in layer order (host, link,
 * address, network, firewall, transport), because the attempt's failure is then their
 * consequence; otherwise the attempt's failing step is decoded, using the checks as evidence
 * (the firewall rule for a timeout, the neighbour entry for an ADDR_ERROR).  An established
 * connection whose disconnect did not complete stays ok, with the cause disconnect_failed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "rdmadiag/cause.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/selftest.h"
#include "verbs/verbs.h"


static const char *const layer_order[] = { "host", "link", "address", "network", "firewall",
					   "transport" };

/* the cause id is the shared table's (rdmadiag/cause.h: rdmatrace's verdicts use the same
 * ids and meanings); an id missing from it is kept as given, and test_verbs_cause fails */
static void set(struct rdiag_doc_verdict *v, const char *layer, const char *cause)
{
	const struct rdiag_cause *c = rdiag_cause_find(cause);

	v->ok = !strcmp(cause, "ok");
	v->layer = layer;
	v->cause = c ? c->id : cause;
}

static void append(char *buf, size_t len, const char *s)
{
	size_t off = strlen(buf);

	if (!s || !*s || off + 2 >= len)
		return;
	if (off)
		buf[off++] = '\n', buf[off] = 0;
	snprintf(buf + off, len - off, "%s", s);
}

static const struct rdiag_doc_step *failed_step(const struct rdiag_doctor *d)
{
	size_t i;

	for (i = 0; i < d->nsteps; i++)
		if (d->steps[i].done && !d->steps[i].ok && d->steps[i].id != RDIAG_DOC_STEP_DISCONNECT)
			return &d->steps[i];
	return NULL;
}

static bool established(const struct rdiag_doctor *d)
{
	const struct rdiag_doc_step *s = rd_doc_step_find(d, RDIAG_DOC_STEP_CONNECT);

	return s && s->ok;
}

/* ESTABLISHED, but the disconnect did not complete: the connection works (ok stays true),
 * the cause names the disconnect; unless the device under it was removed (DEVICE_REMOVAL:
 * rdmatrace's device_removed, a problem) */
static void disconnect_evidence(const struct rdiag_doc_step *s, struct rdiag_doc_verdict *v)
{
	char line[400];

	snprintf(line, sizeof(line), "disconnect: %s after %.1f ms: %s",
		 s->timed_out ? "timed out" : "failed", s->ms, s->detail);
	append(v->evidence, sizeof(v->evidence), line);
}

static void disconnect_failed(const struct rdiag_doctor *d, const struct rdiag_doc_step *s,
			      struct rdiag_doc_verdict *v)
{
	if (s->event == RDMA_CM_EVENT_DEVICE_REMOVAL) {
		set(v, "host", "device_removed");
		snprintf(v->sentence, sizeof(v->sentence),
			 "rdma_connect to %s port %u was ESTABLISHED, then the RDMA device under it was removed (%.200s while disconnecting)",
			 d->dst, d->port, s->detail);
		snprintf(v->next, sizeof(v->next), "%s; check 'rdma link' and the kernel log",
			 rdiag_cm_status_cause(s->event, s->status));
		disconnect_evidence(s, v);
		return;
	}
	set(v, "cm", "disconnect_failed");
	v->ok = true;
	if (!s->done || (!s->timed_out && s->event < 0 && !s->err)) {
		snprintf(v->sentence, sizeof(v->sentence),
			 "rdma_connect to %s port %u works (ESTABLISHED), but the disconnect was not made",
			 d->dst, d->port);
		snprintf(v->next, sizeof(v->next), "see the disconnect step");
	} else if (s->timed_out) {
		snprintf(v->sentence, sizeof(v->sentence),
			 "rdma_connect to %s port %u works (ESTABLISHED), but the disconnect did not complete: no DISCONNECTED within %d ms (the doctor gave up; the peer did not answer the DREQ)",
			 d->dst, d->port, d->timeout_ms);
		snprintf(v->next, sizeof(v->next), "the peer's application must call rdma_disconnect() (or destroy its id) when it gets DISCONNECTED, or ib_cm never sends the DREP; check that the path still works after the connection (firewall, link)");
	} else if (s->event >= 0) {
		snprintf(v->sentence, sizeof(v->sentence),
			 "rdma_connect to %s port %u works (ESTABLISHED), but the disconnect ended with %.200s instead of DISCONNECTED",
			 d->dst, d->port, s->detail);
		snprintf(v->next, sizeof(v->next), "%s", rdiag_cm_status_cause(s->event, s->status));
	} else {
		snprintf(v->sentence, sizeof(v->sentence),
			 "rdma_connect to %s port %u works (ESTABLISHED), but the disconnect failed: %.200s",
			 d->dst, d->port, s->detail);
		snprintf(v->next, sizeof(v->next), "see the disconnect step's error; the connection itself works");
	}
	disconnect_evidence(s, v);
}

/* the step that decided the outcome (the failed one, else connect); the others are in the
 * steps list already */
static void step_evidence(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v)
{
	const struct rdiag_doc_step *s = NULL;
	char line[400];
	size_t i;

	for (i = 0; i < d->nsteps && !s; i++)
		if (!d->steps[i].ok)
			s = &d->steps[i];
	if (!s)
		s = rd_doc_step_find(d, RDIAG_DOC_STEP_CONNECT);
	if (!s)
		return;
	snprintf(line, sizeof(line), "%s: %s after %.1f ms: %s", s->name,
		 s->ok ? "ok" : s->timed_out ? "timed out" : "failed", s->ms, s->detail);
	append(v->evidence, sizeof(v->evidence), line);
}

static void cm_delta_evidence(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v)
{
	char line[160];
	size_t i;

	for (i = 0; i < d->ndeltas; i++) {
		const struct rdiag_doc_delta *x = &d->deltas[i];

		if (!x->cm || strcmp(x->dev, d->egress_dev) || x->port != d->egress_port ||
		    !rd_doc_cm_counter(d->ps, x->name))
			continue;
		snprintf(line, sizeof(line), "%s/%u %s +%llu", x->dev, x->port, x->name,
			 (unsigned long long)(x->after - x->before));
		append(v->evidence, sizeof(v->evidence), line);
	}
}

static const char *ps_name(int ps)
{
	const char *n = rdiag_port_space_name((unsigned int)ps);

	return n ? n : "?";
}

/* the peer's description says its listener is on the port connected to, in another port
 * space: the REQ's service ID (port space << 16 | port) matched nothing there */
static bool port_space_mismatch(const struct rdiag_doctor *d)
{
	return d->peer_listen_port && d->peer_listen_port == d->port && d->peer_listen_ps[0] &&
	       strcmp(d->peer_listen_ps, ps_name(d->ps));
}

static void port_space_verdict(const struct rdiag_doctor *d, const char *what,
			       struct rdiag_doc_verdict *v)
{
	char a[8], b[8];

	set(v, "cm", "peer_port_space_mismatch");
	snprintf(v->sentence, sizeof(v->sentence),
		 "%s: nothing listens on %s port %u in the %s port space, but the listener there is in the %s port space (its side channel says so)",
		 what, d->dst, d->port, ps_name(d->ps), d->peer_listen_ps);
	snprintf(v->next, sizeof(v->next), "use one port space on both ends: connect with --ps %s, or run the listener with --ps %s",
		 rd_doc_ps_opt(d->peer_listen_ps, a, sizeof(a)), rd_doc_ps_opt(ps_name(d->ps), b, sizeof(b)));
	snprintf(v->evidence, sizeof(v->evidence),
		 "the peer's description: rdma_cm listening on port %u in port space %s; this end connected in %s",
		 d->peer_listen_port, d->peer_listen_ps, ps_name(d->ps));
}

static bool from_finding(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v)
{
	size_t l, i;

	for (l = 0; l < sizeof(layer_order) / sizeof(layer_order[0]); l++)
		for (i = 0; i < d->nfindings; i++) {
			const struct rdiag_doc_finding *f = &d->findings[i];

			if (f->level != RDIAG_DOC_PROBLEM || strcmp(f->layer, layer_order[l]))
				continue;
			set(v, f->layer, f->cause ? f->cause : "attempt_failed");
			snprintf(v->sentence, sizeof(v->sentence), "%s", f->summary);
			append(v->evidence, sizeof(v->evidence), f->evidence);
			snprintf(v->next, sizeof(v->next), "%s", f->hint);
			return true;
		}
	return false;
}

/* what the attempt's failed step and the checks show, for rdiag_cause_decide(): the one
 * decision rdmatrace makes too, from the same kind of evidence (the event and status, the
 * route, the neighbour; the firewall and the peer's port space are the doctor's own) */
static const char *attempt_cause(const struct rdiag_doctor *d, const struct rdiag_doc_step *s)
{
	const struct rdiag_doc_finding *fw = rd_doc_find(d, "firewall", RDIAG_DOC_WARN);
	const struct rdiag_doc_finding *bad = rd_doc_find(d, "route", RDIAG_DOC_PROBLEM);
	struct rdiag_cause_evidence e;

	memset(&e, 0, sizeof(e));
	e.event = s->event;
	e.status = s->event >= 0 ? s->status : s->err;
	e.destroyed = true;
	if (s->id == RDIAG_DOC_STEP_RESOLVE_ADDR && s->event != RDMA_CM_EVENT_DEVICE_REMOVAL)
		e.event = RDMA_CM_EVENT_ADDR_ERROR;	/* the event, or rdma_resolve_addr's errno */
	else if (s->id == RDIAG_DOC_STEP_RESOLVE_ROUTE && s->event != RDMA_CM_EVENT_DEVICE_REMOVAL)
		e.event = RDMA_CM_EVENT_ROUTE_ERROR;
	else if (s->id == RDIAG_DOC_STEP_CONNECT && s->timed_out && s->event < 0)
		e.req_sent = true;	/* the doctor gave up waiting for the answer */
	else if (s->id == RDIAG_DOC_STEP_CONNECT && s->event < 0)
		e.event = RDMA_CM_EVENT_CONNECT_ERROR;
	else if (s->event < 0)
		return NULL;		/* not an rdma_cm step: the doctor's own */
	/* the route check's own finding: no route, or a route (its ok line) */
	if (bad && bad->cause && !strcmp(bad->cause, "no_route"))
		e.route = RDIAG_CAUSE_ROUTE_NONE;
	else if (!bad && rd_doc_find(d, "route", RDIAG_DOC_OK))
		e.route = RDIAG_CAUSE_ROUTE_OK;
	e.neighbour_failed = rd_doc_find(d, "neighbour", RDIAG_DOC_WARN) != NULL;
	e.firewall_drops_roce = fw && fw->cause && !strcmp(fw->cause, "firewall_drops_roce");
	e.port_space_mismatch = port_space_mismatch(d);
	return rdiag_cause_decide(&e);
}

static void from_step(const struct rdiag_doctor *d, const struct rdiag_doc_step *s,
		      struct rdiag_doc_verdict *v)
{
	const struct rdiag_doc_finding *fw = rd_doc_find(d, "firewall", RDIAG_DOC_WARN);
	const struct rdiag_doc_finding *nb = rd_doc_find(d, "neighbour", RDIAG_DOC_WARN);
	const char *cause = attempt_cause(d, s);
	int st = s->event >= 0 ? s->status : s->err;
	const char *ev = s->event >= 0 ? rd_doc_event_name(s->event) :
			 s->id == RDIAG_DOC_STEP_RESOLVE_ADDR ? "rdma_resolve_addr" : s->name;
	bool sidr = s->event == RDMA_CM_EVENT_UNREACHABLE && s->status > 0;
	const char *rn = s->event == RDMA_CM_EVENT_REJECTED ?
			 rdiag_cm_rej_reason_name((unsigned int)s->status) : NULL;
	char stx[96], what[200];

	rdiag_cm_status_str(s->event, st, stx, sizeof(stx));
	if (s->event == RDMA_CM_EVENT_REJECTED)
		snprintf(what, sizeof(what), "REJECTED with reason %d (%s)", s->status, rn ? rn : "?");
	else if (sidr)
		snprintf(what, sizeof(what), "UNREACHABLE with %s", stx);
	else
		snprintf(what, sizeof(what), "%s %s", ev, stx);
	if (!cause) {
		if (s->id == RDIAG_DOC_STEP_CREATE_QP) {
			set(v, "host", "qp_create_failed");
			snprintf(v->sentence, sizeof(v->sentence), "creating the QP failed: %s", s->detail);
			snprintf(v->next, sizeof(v->next), "check the memlock limit and the device's QP/CQ limits ('rdma res')");
		} else {
			set(v, "host", "attempt_failed");
			snprintf(v->sentence, sizeof(v->sentence), "%s failed: %s", s->name, s->detail);
			snprintf(v->next, sizeof(v->next), "see the step's error");
		}
		return;
	}
	set(v, rdiag_cause_find(cause) ? rdiag_cause_find(cause)->layer : "cm", cause);
	if (!strcmp(cause, "device_removed")) {
		/* the device under the id went away during the attempt: rdmatrace's id too */
		v->layer = "host";
		snprintf(v->sentence, sizeof(v->sentence),
			 "the RDMA device was removed during %s (%s)", s->name, s->detail);
		snprintf(v->next, sizeof(v->next), "%s; check 'rdma link' and the kernel log",
			 rdiag_cm_status_cause(s->event, st));
	} else if (!strcmp(cause, "neighbour_unresolved")) {
		snprintf(v->sentence, sizeof(v->sentence),
			 "address resolution of %s failed (%s %s): the next hop's neighbour entry never resolved",
			 d->dst, ev, stx);
		if (nb)
			append(v->evidence, sizeof(v->evidence), nb->evidence);
		snprintf(v->next, sizeof(v->next), "check that the next hop answers ARP/ND on the egress netdev ('ip neigh', 'ip route get %s')", d->dst);
	} else if (!strcmp(cause, "no_route")) {
		snprintf(v->sentence, sizeof(v->sentence), "there is no usable route to %s (%s %s)",
			 d->dst, ev, stx);
		snprintf(v->next, sizeof(v->next), "add a route to %s through the RDMA netdev ('ip route get %s')", d->dst, d->dst);
	} else if (!strcmp(cause, "not_rdma_netdev")) {
		snprintf(v->sentence, sizeof(v->sentence), "%s: %s",
			 stx, rdiag_cm_status_cause(RDMA_CM_EVENT_ADDR_ERROR, -ENODEV));
		snprintf(v->next, sizeof(v->next), "use a source/destination on an RDMA netdev in this namespace");
	} else if (!strcmp(cause, "no_gid_for_source")) {
		snprintf(v->sentence, sizeof(v->sentence), "the source %s is not a local address (%s)", d->src, stx);
		snprintf(v->next, sizeof(v->next), "use a --src configured on the RDMA netdev");
	} else if (!strcmp(cause, "addr_error")) {
		snprintf(v->sentence, sizeof(v->sentence), "address resolution of %s failed: %s", d->dst, stx);
		snprintf(v->next, sizeof(v->next), "%s", rdiag_cm_status_cause(RDMA_CM_EVENT_ADDR_ERROR, st));
	} else if (!strcmp(cause, "route_error")) {
		snprintf(v->sentence, sizeof(v->sentence), "route resolution to %s failed: %s", d->dst, stx);
		snprintf(v->next, sizeof(v->next), "%s", rdiag_cm_status_cause(RDMA_CM_EVENT_ROUTE_ERROR, st));
	} else if (!strcmp(cause, "peer_port_space_mismatch")) {
		port_space_verdict(d, sidr ? "UNREACHABLE with SIDR status 1 (UNSUPPORTED)" : what, v);
	} else if (!strcmp(cause, "no_listener") && sidr) {
		/* a SIDR REQ (UDP port space) that no listener takes gets a SIDR REP of status
		 * UNSUPPORTED, which rdma_cm passes on as UNREACHABLE with that status */
		snprintf(v->sentence, sizeof(v->sentence),
			 "UNREACHABLE with SIDR status 1 (UNSUPPORTED: no listener for the service ID): nothing listens on %s port %u in the UDP port space",
			 d->dst, d->port);
		snprintf(v->next, sizeof(v->next), "start the server on %s port %u (e.g. 'rdmadoctor listen --ps udp %s:%u') or check the port and the port space (--ps)",
			 d->dst, d->port, d->dst, d->port);
	} else if (!strcmp(cause, "no_listener")) {
		snprintf(v->sentence, sizeof(v->sentence),
			 "%s: nothing listens on %s port %u in the %s port space",
			 what, d->dst, d->port, ps_name(d->ps));
		snprintf(v->next, sizeof(v->next), "start the server on %s port %u (e.g. 'rdmadoctor listen %s:%u') or check the port and the port space (--ps)",
			 d->dst, d->port, d->dst, d->port);
	} else if (!strcmp(cause, "rejected_by_application")) {
		snprintf(v->sentence, sizeof(v->sentence),
			 "%s: the application on %s called rdma_reject()", what, d->dst);
		snprintf(v->next, sizeof(v->next), "look at the server application's log; its private data may say why");
	} else if (!strcmp(cause, "rejected")) {
		snprintf(v->sentence, sizeof(v->sentence), "%s: %s", what, sidr ?
			 rdiag_cm_status_cause(RDMA_CM_EVENT_UNREACHABLE, s->status) :
			 rdiag_cm_rej_reason_meaning((unsigned int)s->status));
		snprintf(v->next, sizeof(v->next), "%s", rdiag_cm_status_cause(s->event, s->status));
	} else if (!strcmp(cause, "firewall_drops_roce") || !strcmp(cause, "cm_no_response") ||
		   !strcmp(cause, "peer_unreachable")) {
		const struct rd_doc_cm_counters *cc = rd_doc_cm_counters(d->ps);
		char counts[128], tail[160] = "";

		/* a timeout is the doctor giving up, not an rdma_cm event: say so */
		if (s->timed_out && s->event < 0) {
			snprintf(what, sizeof(what), "no %s within %d ms of the %s%s", cc->answer,
				 d->timeout_ms, cc->rej ? "CM " : "", cc->req_msg);
			snprintf(tail, sizeof(tail), "; the doctor gave up waiting (no rdma_cm event: rdma_cm would resend the %s up to 15 times before UNREACHABLE)",
				 cc->req_msg);
		} else {
			snprintf(what, sizeof(what), "UNREACHABLE (%s)", stx);
		}
		if (!strcmp(cause, "firewall_drops_roce")) {
			rd_doc_cm_counts(d, true, counts, sizeof(counts));
			snprintf(v->sentence, sizeof(v->sentence),
				 "%s (%s): a firewall rule drops RoCE v2 (UDP 4791)%s", what, counts, tail);
			append(v->evidence, sizeof(v->evidence), fw->evidence);
			snprintf(v->next, sizeof(v->next), "%s", fw->hint);
		} else {
			rd_doc_cm_counts(d, false, counts, sizeof(counts));
			snprintf(v->sentence, sizeof(v->sentence),
				 "%s (%s): %s%s", what, counts, !strcmp(cause, "cm_no_response") ?
				 "the peer does not answer at the CM level" :
				 rdiag_cm_status_cause(RDMA_CM_EVENT_UNREACHABLE, s->status), tail);
			snprintf(v->next, sizeof(v->next), "check the firewall on the peer for UDP 4791, that the peer host and its RDMA port are up, and the GID/route on both ends");
			if (rd_doc_static_neigh(d)) {
				char evd[896];

				snprintf(evd, sizeof(evd), "static neighbour entry: check that it is the peer's MAC: %s",
					 rd_doc_static_neigh(d));
				append(v->evidence, sizeof(v->evidence), evd);
				snprintf(v->next, sizeof(v->next), "check that the static neighbour entry of the next hop is the peer's MAC (ip neigh show), then the firewall on the peer for UDP 4791 and that its RDMA port is up");
			}
		}
	} else {
		snprintf(v->sentence, sizeof(v->sentence), "the connection failed: %s", s->detail);
		snprintf(v->next, sizeof(v->next), "%s", rdiag_cm_status_cause(s->event, st));
	}
}

/* the findings at warning level: what an "ok" verdict counts */
static size_t warnings(const struct rdiag_doctor *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->nfindings; i++)
		n += d->findings[i].level == RDIAG_DOC_WARN;
	return n;
}

/* the checks that warned, each once, in the order they ran: "lossless, gid" */
static const char *warning_checks(const struct rdiag_doctor *d, char *buf, size_t len)
{
	size_t i, j, off = 0;

	buf[0] = '\0';
	for (i = 0; i < d->nfindings && off < len; i++) {
		if (d->findings[i].level != RDIAG_DOC_WARN)
			continue;
		for (j = 0; j < i; j++)
			if (d->findings[j].level == RDIAG_DOC_WARN &&
			    !strcmp(d->findings[j].check, d->findings[i].check))
				break;
		if (j < i)
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
					d->findings[i].check);
	}
	return buf;
}

void rdiag_doctor_verdict(const struct rdiag_doctor *d, struct rdiag_doc_verdict *v)
{
	const struct rdiag_doc_step *s;
	char checks[160];
	size_t nwarn;

	memset(v, 0, sizeof(*v));
	if (d->devices_checked && !d->ndevices) {
		set(v, "host", "no_rdma_device");
		snprintf(v->sentence, sizeof(v->sentence), "there is no RDMA device on this host");
		if (rd_doc_find(d, "devices", RDIAG_DOC_PROBLEM))
			append(v->evidence, sizeof(v->evidence),
			       rd_doc_find(d, "devices", RDIAG_DOC_PROBLEM)->evidence);
		if (rd_doc_find(d, "modules", RDIAG_DOC_WARN))
			append(v->evidence, sizeof(v->evidence),
			       rd_doc_find(d, "modules", RDIAG_DOC_WARN)->summary);
		snprintf(v->next, sizeof(v->next), "load the RDMA driver or create a soft device (rdma link add rxe0 type rxe netdev NETDEV)");
		return;
	}
	if (d->attempted && established(d)) {
		const struct rdiag_doc_peer_info *p = &d->peer;
		const struct rdiag_doc_finding *dp;
		const struct rdiag_doc_step *dis = rd_doc_step_find(d, RDIAG_DOC_STEP_DISCONNECT);
		struct rdiag_doc_step none = {
			.id = RDIAG_DOC_STEP_DISCONNECT,
			.name = rdiag_doc_step_name(RDIAG_DOC_STEP_DISCONNECT),
			.event = -1,
		};
		bool dis_ok = dis && dis->ok;

		step_evidence(d, v);
		/* the data-path step's proof comes before any prediction */
		dp = rd_doc_find(d, "data_path", RDIAG_DOC_PROBLEM);
		if (dp) {
			/* the MTU step's, or rdiag_doctor_paths' exchange (datapath_drops) */
			if (dp->cause && !strcmp(dp->cause, "datapath_drops"))
				set(v, "transport", "datapath_drops");
			else
				set(v, "transport", "datapath_mtu_fails");
			snprintf(v->sentence, sizeof(v->sentence), "%s", dp->summary);
			append(v->evidence, sizeof(v->evidence), dp->evidence);
			snprintf(v->next, sizeof(v->next), "%s", dp->hint);
			return;
		}
		if (p->valid && p->path_mtu && d->egress_mtu &&
		    p->path_mtu != rdiag_roce_path_mtu(d->egress_mtu)) {
			/* the data-path step carried the larger packets: this link does not
			 * enforce the smaller MTU today, a switch or NIC that does drops them */
			dp = rd_doc_find(d, "data_path", RDIAG_DOC_OK);
			set(v, "transport", "mtu_mismatch");
			snprintf(v->sentence, sizeof(v->sentence),
				 dp && dp->level == RDIAG_DOC_OK && dp->cause == NULL ?
				 "the connection is established, but the MTUs differ: here %s netdev MTU %u -> RoCE path MTU %u, peer %s netdev MTU %u -> %u; this link carried the larger packets in the data-path step, but a switch port or NIC that enforces the smaller MTU drops them and the sender ends with WC %d %s (%s)" :
				 "the connection is established, but the MTUs differ: here %s netdev MTU %u -> RoCE path MTU %u, peer %s netdev MTU %u -> %u; packets larger than the smaller MTU are dropped and the sender ends with WC %d %s (%s)",
				 d->egress_ndev[0] ? d->egress_ndev : "?", d->egress_mtu,
				 rdiag_roce_path_mtu(d->egress_mtu), p->dev, p->netdev_mtu, p->path_mtu,
				 IBV_WC_RETRY_EXC_ERR, rdiag_wc_status_name(IBV_WC_RETRY_EXC_ERR),
				 rdiag_wc_status_str(IBV_WC_RETRY_EXC_ERR));
			snprintf(v->next, sizeof(v->next), "set the same MTU on both ends (and every switch port between them)");
			if (dp && dp->level == RDIAG_DOC_OK)
				append(v->evidence, sizeof(v->evidence), dp->summary);
			if (!dis_ok)
				append(v->evidence, sizeof(v->evidence), dis ? dis->detail :
				       "disconnect: not made");
			return;
		}
		/* the two ends compared (rdiag_doctor_compare_peer): a difference that breaks or
		 * degrades RDMA is the verdict even though this connection came up */
		if (rd_doc_peer_verdict(d, v))
			return;
		if (!dis_ok) {
			disconnect_failed(d, dis ? dis : &none, v);
			return;
		}
		set(v, "none", "ok");
		snprintf(v->sentence, sizeof(v->sentence),
			 "rdma_connect to %s port %u works: ESTABLISHED and disconnected cleanly", d->dst,
			 d->port);
		snprintf(v->next, sizeof(v->next), "nothing to do at the connection level; for data-path problems run rdmacheck");
		return;
	}
	if (from_finding(d, v)) {
		if (d->attempted)
			step_evidence(d, v);
		return;
	}
	s = d->attempted ? failed_step(d) : NULL;
	if (s) {
		from_step(d, s, v);
		step_evidence(d, v);
		cm_delta_evidence(d, v);
		return;
	}
	set(v, "none", "ok");
	nwarn = warnings(d);
	if (nwarn)	/* they do not stop a connection, but they are not "no problem" */
		snprintf(v->sentence, sizeof(v->sentence), "%s; %zu warning%s above (%s)",
			 d->attempted ? "the attempt completed without a failure" :
			 "no problem that stops a connection found by the host checks", nwarn,
			 nwarn == 1 ? "" : "s", warning_checks(d, checks, sizeof(checks)));
	else
		snprintf(v->sentence, sizeof(v->sentence), d->attempted ?
			 "the attempt completed without a failure" :
			 "no problem found by the host checks");
	snprintf(v->next, sizeof(v->next), "%s", d->attempted ? "" :
		 "run 'rdmadoctor connect DST' to try a real connection");
}
