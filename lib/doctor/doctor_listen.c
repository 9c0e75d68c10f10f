/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The listening side of rdmadoctor: accept every connection attempt, answer with this
 * side's MTU record in the private data, and report each event (request, established,
 * disconnected, errors) through the callback.  Next to the rdma_cm id, a TCP socket on the
 * same address and port number serves this host's description (doctor_side.c) from a thread
 * of its own: it never holds up the CM events.  Each connection owns its PD, CQ and QP,
 * released on DISCONNECTED or on any error event. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "internal.h"
#include "util/util.h"
#include "rdmadiag/cmstr.h"
#include "verbs/verbs.h"

struct conn {
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;	/* the data-path step's receives and WRITEs land here */
	char *buf;
	bool qp;
	double t0;
	struct rdiag_doc_peer_info peer;
};

static void sa_str(struct sockaddr *sa, char *buf, size_t len)
{
	union rd_addr a;
	char ip[64];
	unsigned int port;

	memcpy(&a, sa, sizeof(a));
	rd_addr_str(&a, ip, sizeof(ip));
	port = ntohs(a.sa.sa_family == AF_INET ? a.in.sin_port : a.in6.sin6_port);
	snprintf(buf, len, a.sa.sa_family == AF_INET6 ? "[%s]:%u" : "%s:%u", ip, port);
}

static void conn_free(struct rdma_cm_id *id)
{
	struct conn *c = id->context;

	if (c) {
		if (c->qp)
			rdma_destroy_qp(id);
		if (c->mr)
			ibv_dereg_mr(c->mr);
		free(c->buf);
		if (c->cq)
			ibv_destroy_cq(c->cq);
		if (c->pd)
			ibv_dealloc_pd(c->pd);
		free(c);
	}
	rdma_destroy_id(id);
}

static int accept_conn(struct rdma_cm_id *id, struct conn *c, char *note, size_t nlen)
{
	struct ibv_qp_init_attr qa;
	struct rdma_conn_param cp;
	struct rdiag_doc_peer_info mine;
	uint8_t pdata[RD_DOC_PDATA_LEN];

	c->pd = ibv_alloc_pd(id->verbs);
	c->cq = c->pd ? ibv_create_cq(id->verbs, 8, NULL, NULL, 0) : NULL;
	if (!c->cq) {
		snprintf(note, nlen, "PD/CQ allocation failed: %s; rejecting", strerror(errno));
		rdma_reject(id, NULL, 0);
		return -errno;
	}
	rd_doc_qp_init_attr(&qa, c->cq, id->ps == RDMA_PS_UDP);
	if (rdma_create_qp(id, c->pd, &qa)) {
		snprintf(note, nlen, "rdma_create_qp failed: %s; rejecting", strerror(errno));
		rdma_reject(id, NULL, 0);
		return -errno;
	}
	c->qp = true;
	/* a buffer for the client's data-path step: receives for its SENDs, the target of
	 * its WRITEs (offered in the private data); without it the client skips the step */
	c->buf = calloc(1, RD_DOC_DP_BUF);
	c->mr = c->buf ? ibv_reg_mr(c->pd, c->buf, RD_DOC_DP_BUF,
				    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE) : NULL;
	if (c->mr) {
		struct ibv_sge sge = { .addr = (uintptr_t)c->buf, .length = RD_DOC_DP_BUF,
				       .lkey = c->mr->lkey };
		struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;
		int i;

		for (i = 0; i < RD_DOC_DP_RECVS; i++)
			if (ibv_post_recv(id->qp, &wr, &bad))
				break;
	}
	rd_doc_local_info(id, &mine);
	if (c->peer.valid && c->peer.path_mtu && mine.path_mtu && c->peer.path_mtu != mine.path_mtu)
		snprintf(note, nlen, "MTU mismatch: client %s netdev MTU %u (RoCE path MTU %u), here %s netdev MTU %u (path MTU %u)",
			 c->peer.dev, c->peer.netdev_mtu, c->peer.path_mtu, mine.dev, mine.netdev_mtu,
			 mine.path_mtu);
	rd_doc_conn_param(&cp, pdata, &mine, 0);
	if (c->mr)
		rd_doc_pdata_set_buf(pdata, (uintptr_t)c->buf, c->mr->rkey, RD_DOC_DP_BUF);
	if (rdma_accept(id, &cp)) {
		snprintf(note, nlen, "rdma_accept failed: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

int rdiag_doctor_listen(struct rdiag_doctor *d, const char *addr, uint16_t port, int ps,
			rdiag_doc_listen_cb cb, void (*ready)(void *arg, const char *where),
			void *arg, unsigned int max_conns, volatile bool *stop)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *lid = NULL;
	union rd_addr a;
	char where[128];
	unsigned int closed = 0;
	bool quit = false;
	int ret = 0, side;

	memset(&a, 0, sizeof(a));
	if (addr && *addr) {
		if (rd_addr_parse(addr, &a)) {
			rd_doc_err(d, "cannot parse address '%s'", addr);
			return -EINVAL;
		}
	} else {
		a.sa.sa_family = AF_INET;
	}
	if (a.sa.sa_family == AF_INET)
		a.in.sin_port = htons(port ? port : RD_DOC_DEFAULT_PORT);
	else
		a.in6.sin6_port = htons(port ? port : RD_DOC_DEFAULT_PORT);
	ret = rd_rdmacm_load(d->errmsg, sizeof(d->errmsg));
	if (ret)
		return ret;
	ch = rdma_create_event_channel();
	if (!ch) {
		ret = -errno;
		rd_doc_err(d, "rdma_create_event_channel: %s", strerror(-ret));
		return ret;
	}
	if (rdma_create_id(ch, &lid, NULL, (enum rdma_port_space)(ps ? ps : RDMA_PS_TCP)) ||
	    rdma_bind_addr(lid, &a.sa) || rdma_listen(lid, 16)) {
		ret = -errno;
		rd_doc_err(d, "cannot listen on %s: %s", addr && *addr ? addr : "*", strerror(-ret));
		goto out;
	}
	d->listen_port = port ? port : RD_DOC_DEFAULT_PORT;
	d->listen_ps = ps ? ps : RDMA_PS_TCP;
	sa_str(rdma_get_local_addr(lid), where, sizeof(where));
	side = rd_doc_side_open(d, &a);	/* none (said in side_channel): the CM still listens */
	if (side >= 0) {
		char *json;

		/* describe once now: the ports' active MTUs through verbs (opening the devices
		 * takes most of a second under QEMU/TCG) are read once per doctor, and the first
		 * walk of the GID tables in sysfs is the slow one; a client is then served in
		 * a fraction of that */
		if (!rdiag_doctor_describe(d, &json))
			free(json);
		if (rd_doc_side_start(d, side))
			snprintf(d->side_channel, sizeof(d->side_channel),
				 "none: cannot start its thread");
	}
	if (lid->verbs)
		snprintf(where + strlen(where), sizeof(where) - strlen(where), " (%s port %u)",
			 ibv_get_device_name(lid->verbs->device), lid->port_num);
	if (ready)
		ready(arg, where);
	while (!quit && !(stop && *stop) && !(max_conns && closed >= max_conns)) {
		struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
		struct rdma_cm_event *ev;
		struct rdma_cm_id *id;
		struct rdiag_doc_conn rc;
		struct conn *c;
		int n = poll(&pfd, 1, 200);
		bool release = false;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			continue;
		if (!(pfd.revents & POLLIN))
			continue;
		if (rdma_get_cm_event(ch, &ev)) {
			ret = -errno;
			break;
		}
		id = ev->id;
		memset(&rc, 0, sizeof(rc));
		rc.event = ev->event;
		rc.status = ev->status;
		sa_str(rdma_get_peer_addr(id), rc.peer, sizeof(rc.peer));
		sa_str(rdma_get_local_addr(id), rc.local, sizeof(rc.local));
		if (id->verbs)
			snprintf(rc.dev, sizeof(rc.dev), "%s", ibv_get_device_name(id->verbs->device));
		rc.port = id->port_num;
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
			c = calloc(1, sizeof(*c));
			id->context = c;
			if (c) {
				c->t0 = rd_mono_ms();
				rd_doc_pdata_unpack(ev->param.conn.private_data,
						    ev->param.conn.private_data_len, &c->peer);
			}
		}
		c = id->context;
		if (c) {
			rc.ms = rd_mono_ms() - c->t0;
			rc.peer_info = c->peer;
		}
		rdma_ack_cm_event(ev);

		switch (rc.event) {
		case RDMA_CM_EVENT_CONNECT_REQUEST:
			if (!c || accept_conn(id, c, rc.note, sizeof(rc.note))) {
				release = true;
			} else if (id->ps == RDMA_PS_UDP) {
				/* a SIDR request, answered: UDP has no connection to
				 * establish or close, so it ends here */
				release = true;
				closed++;
			}
			break;
		case RDMA_CM_EVENT_ESTABLISHED:
			break;
		case RDMA_CM_EVENT_DISCONNECTED:
			release = true;
			closed++;
			break;
		default:
			if (!rdiag_cm_event_is_error(rc.event))
				break;	/* ADDR_CHANGE, TIMEWAIT_EXIT ...: nothing to undo */
			if (id == lid) {
				/* DEVICE_REMOVAL of the listening device: nothing left to listen on */
				quit = true;
				break;
			}
			/* an error on an accepted connection: it is over */
			release = true;
			closed++;
			break;
		}
		if (cb && cb(arg, &rc))
			quit = true;
		if (release && id != lid)
			conn_free(id);
	}
out:
	rd_doc_side_stop(d);
	if (lid)
		rdma_destroy_id(lid);
	rdma_destroy_event_channel(ch);
	return ret;
}
