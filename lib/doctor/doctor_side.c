/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The listener's side channel: a TCP socket on the rdma_cm id's address and port number,
 * served by a thread of its own in one poll() loop, so that neither the CM events nor one
 * client ever wait on another client.  Each connection takes a slot, at most d->side_max of
 * them (the rest wait in the kernel's accept queue, first come first served, and are taken
 * as slots free), and has two deadlines: its request line within RD_SIDE_REQ_MS (a client
 * that sends none is an older client: it gets the description), and the whole answer
 * written within RD_SIDE_CONN_MS, else the connection is reset.  A connection closed before
 * it asked anything costs nothing.  The answers to every request that is ready are made in
 * one round: the host described once, the counters sampled once, and under --serve port
 * each cut to the port whose netdev carries the address the client connected to
 * (rd_desc_scope_port, rd_pc_json). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "internal.h"
#include "util/util.h"

#define RD_SIDE_REQ_MS 300	/* the request line's deadline, ms after the accept */
#define RD_SIDE_CONN_MS 5000	/* the whole answer's, ms after the accept */
#define RD_SIDE_BACKLOG 128	/* connections waiting for a slot in the kernel (somaxconn caps) */

enum side_state { SIDE_READ, SIDE_READY, SIDE_WRITE };

struct side_conn {
	int fd;
	enum side_state st;
	double req_end, end;	/* the deadlines, rd_mono_ms() */
	char req[64];		/* the request line as read so far */
	size_t nreq;
	char ip[64];		/* the address the client connected to */
	char *out;		/* the answer, sent from off */
	size_t len, off;
};

struct rd_side {
	struct rdiag_doctor *d;
	int fd, wake[2];
	pthread_t thread;
	bool port_only;
	unsigned int max, n;
	struct side_conn *c;
	struct rd_desc *host, *cut;	/* this round's description, and one client's copy */
};

int rd_doc_side_open(struct rdiag_doctor *d, const union rd_addr *a)
{
	char ip[64];
	unsigned int port = ntohs(a->sa.sa_family == AF_INET ? a->in.sin_port : a->in6.sin6_port);
	socklen_t alen = a->sa.sa_family == AF_INET ? sizeof(a->in) : sizeof(a->in6);
	int fd, one = 1, ret;

	rd_addr_str(a, ip, sizeof(ip));
	fd = socket(a->sa.sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, &a->sa, alen) || listen(fd, RD_SIDE_BACKLOG))
		goto fail;
	snprintf(d->side_channel, sizeof(d->side_channel),
		 a->sa.sa_family == AF_INET6 ? "tcp [%s]:%u" : "tcp %s:%u", ip, port);
	return fd;
fail:
	ret = -errno;
	/* iWARP's rdma_cm takes the real TCP port: then there is no side channel */
	snprintf(d->side_channel, sizeof(d->side_channel), "none: cannot listen on tcp %s:%u: %s",
		 ip, port, strerror(-ret));
	if (fd >= 0)
		close(fd);
	return ret;
}

/* a socket's own address as the description names it (an IPv4-mapped one as IPv4); *any
 * (unless NULL): it is the wildcard */
static void own_addr(int fd, char *ip, size_t len, bool *any)
{
	union rd_addr a;
	socklen_t alen = sizeof(a);

	ip[0] = 0;
	if (any)
		*any = false;
	memset(&a, 0, sizeof(a));
	if (getsockname(fd, &a.sa, &alen))
		return;
	if (a.sa.sa_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&a.in6.sin6_addr)) {
		struct in_addr v4;

		memcpy(&v4, &a.in6.sin6_addr.s6_addr[12], sizeof(v4));
		memset(&a, 0, sizeof(a));
		a.in.sin_family = AF_INET;
		a.in.sin_addr = v4;
	}
	if (any)
		*any = a.sa.sa_family == AF_INET ? a.in.sin_addr.s_addr == htonl(INADDR_ANY) :
		       IN6_IS_ADDR_UNSPECIFIED(&a.in6.sin6_addr);
	rd_addr_str(&a, ip, len);
}

/* the slot's connection ends: the last slot moves into its place.  reset: an RST (a client
 * past its deadline; the kernel keeps nothing for it) */
static void drop(struct rd_side *s, unsigned int i, bool reset)
{
	struct side_conn *c = &s->c[i];

	if (reset) {
		struct linger l = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
	}
	close(c->fd);
	free(c->out);
	s->c[i] = s->c[--s->n];
}

static void take(struct rd_side *s)
{
	double now = rd_mono_ms();

	while (s->n < s->max) {
		struct side_conn *c = &s->c[s->n];
		int fd = accept4(s->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0)
			return;	/* EAGAIN: none left; EMFILE...: the next round tries again */
		memset(c, 0, sizeof(*c));
		c->fd = fd;
		c->st = SIDE_READ;
		c->req_end = now + RD_SIDE_REQ_MS;
		c->end = now + RD_SIDE_CONN_MS;
		own_addr(fd, c->ip, sizeof(c->ip), NULL);
		s->n++;
	}
}

/* the request line, as much as has come; false: the connection is over */
static bool read_req(struct side_conn *c)
{
	ssize_t r = recv(c->fd, c->req + c->nreq, sizeof(c->req) - 1 - c->nreq, MSG_DONTWAIT);

	if (r < 0)
		return errno == EAGAIN || errno == EINTR;
	if (r == 0) {
		/* closed: a line without its newline is still a request; nothing asked, nothing
		 * to answer */
		c->st = SIDE_READY;
		return c->nreq > 0;
	}
	c->nreq += (size_t)r;
	c->req[c->nreq] = 0;
	if (memchr(c->req, '\n', c->nreq) || c->nreq == sizeof(c->req) - 1)
		c->st = SIDE_READY;
	return true;
}

/* send what the socket takes; false: the connection is over (all sent, or an error) */
static bool write_some(struct side_conn *c)
{
	ssize_t r = send(c->fd, c->out + c->off, c->len - c->off, MSG_NOSIGNAL | MSG_DONTWAIT);

	if (r < 0)
		return errno == EAGAIN || errno == EINTR;
	c->off += (size_t)r;
	return c->off < c->len;
}

/* one client's answer from this round's description (NULL: it could not be made) and
 * counter sample (NULL: not taken or failed); 0 or -errno (no answer: the client sees the
 * connection closed) */
static int answer(struct rd_side *s, struct side_conn *c, const struct rd_desc *host,
		  const struct rdiag_samples *smp)
{
	const struct rd_desc_port *p = NULL;

	if (s->port_only && host)
		p = rd_desc_port_of(host, c->ip, NULL);
	if (!strcmp(c->req, "counters")) {
		if (!smp || (s->port_only && !host))
			return -EIO;
		/* --serve port and no RDMA port carries the address: no counter at all */
		return rd_pc_json(smp, s->port_only ? (p ? p->dev : "") : NULL, p ? p->port : 0,
				  &c->out, &c->len);
	}
	if (!host)
		return -EIO;
	if (!s->port_only)
		return rd_desc_line(host, &c->out, &c->len);
	*s->cut = *host;
	rd_desc_scope_port(s->cut, c->ip);
	return rd_desc_line(s->cut, &c->out, &c->len);
}

/* every ready request in one round: describe and sample once, answer each, send what fits */
static void serve_ready(struct rd_side *s)
{
	struct rdiag_counters *cnt = NULL;
	struct rdiag_samples *smp = NULL;
	bool want_desc = false, want_cnt = false, have_desc = false;
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		struct side_conn *c = &s->c[i];

		if (c->st != SIDE_READY)
			continue;
		c->req[strcspn(c->req, "\r\n")] = 0;
		if (!strcmp(c->req, "counters"))
			want_cnt = true;
		/* the port of the client's address comes from the description */
		if (strcmp(c->req, "counters") || s->port_only)
			want_desc = true;
	}
	if (want_desc && !rd_doc_desc_local(s->d, s->host)) {
		rd_doc_listening(s->d, s->host);
		have_desc = true;
	}
	if (want_cnt && !rdiag_counters_open(&cnt, NULL))
		(void)rdiag_counters_sample(cnt, NULL, &smp);
	for (i = s->n; i-- > 0;) {
		struct side_conn *c = &s->c[i];

		if (c->st != SIDE_READY)
			continue;
		if (answer(s, c, have_desc ? s->host : NULL, smp)) {
			drop(s, i, false);
			continue;
		}
		c->st = SIDE_WRITE;
		if (!write_some(c))
			drop(s, i, false);
	}
	rdiag_samples_free(smp);
	rdiag_counters_close(cnt);
}

/* past a deadline: an older client's description, or the end; the ms to the next one
 * (-1: none) */
static int deadlines(struct rd_side *s)
{
	double now = rd_mono_ms(), next = -1;
	unsigned int i;

	for (i = s->n; i-- > 0;) {
		struct side_conn *c = &s->c[i];
		double t;

		if (now >= c->end) {
			drop(s, i, true);
			continue;
		}
		if (c->st == SIDE_READ && now >= c->req_end)
			c->st = SIDE_READY;	/* no request line: an older client */
		t = c->st == SIDE_READ ? c->req_end : c->st == SIDE_WRITE ? c->end : now;
		if (next < 0 || t < next)
			next = t;
	}
	return next < 0 ? -1 : (int)(next - now) + 1;
}

static void *side_thread(void *arg)
{
	struct rd_side *s = arg;
	struct pollfd *pfd = calloc(s->max + 2, sizeof(*pfd));

	while (pfd) {
		unsigned int i, n;
		int timeout = deadlines(s);
		bool ready = false;

		for (i = 0; i < s->n; i++)
			ready |= s->c[i].st == SIDE_READY;
		if (ready) {
			serve_ready(s);
			continue;
		}
		pfd[0] = (struct pollfd){ .fd = s->wake[0], .events = POLLIN };
		/* a full house: the next clients wait in the accept queue */
		pfd[1] = (struct pollfd){ .fd = s->n < s->max ? s->fd : -1, .events = POLLIN };
		for (i = 0, n = s->n; i < n; i++)
			pfd[2 + i] = (struct pollfd){ .fd = s->c[i].fd,
				.events = s->c[i].st == SIDE_WRITE ? POLLOUT : POLLIN };
		if (poll(pfd, 2 + n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents)
			break;
		for (i = n; i-- > 0;) {
			struct side_conn *c = &s->c[i];
			bool more;

			if (!pfd[2 + i].revents)
				continue;
			more = c->st == SIDE_WRITE ? write_some(c) : read_req(c);
			if (!more)
				drop(s, i, false);
		}
		if (pfd[1].revents)
			take(s);
	}
	free(pfd);
	return NULL;
}

int rd_doc_side_start(struct rdiag_doctor *d, int fd)
{
	struct rd_side *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	char ip[64];
	bool any = false;
	int ret;

	if (!s) {
		close(fd);
		return -ENOMEM;
	}
	s->d = d;
	s->fd = fd;
	s->wake[0] = s->wake[1] = -1;
	s->max = d->side_max ? d->side_max : RDIAG_DOC_SIDE_MAX_CLIENTS;
	own_addr(fd, ip, sizeof(ip), &any);
	d->side_serve = d->side_opt ? d->side_opt : any ? RDIAG_DOC_SERVE_HOST :
		RDIAG_DOC_SERVE_PORT;
	s->port_only = d->side_serve == RDIAG_DOC_SERVE_PORT;
	s->c = calloc(s->max, sizeof(*s->c));
	s->host = malloc(sizeof(*s->host));
	s->cut = malloc(sizeof(*s->cut));
	ret = !s->c || !s->host || !s->cut ? -ENOMEM : 0;
	if (!ret && pipe2(s->wake, O_CLOEXEC | O_NONBLOCK))
		ret = -errno;
	if (ret)
		goto fail;
	/* the signals are the caller's thread's (rdmadoctor's SIGINT ends its loop) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = -pthread_create(&s->thread, NULL, side_thread, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret)
		goto fail;
	d->side = s;
	return 0;
fail:
	if (s->wake[0] >= 0) {
		close(s->wake[0]);
		close(s->wake[1]);
	}
	free(s->c);
	free(s->host);
	free(s->cut);
	free(s);
	close(fd);
	return ret;
}

void rd_doc_side_stop(struct rdiag_doctor *d)
{
	struct rd_side *s = d->side;

	if (!s)
		return;
	(void)!write(s->wake[1], "", 1);
	pthread_join(s->thread, NULL);
	while (s->n)
		drop(s, 0, true);
	close(s->wake[0]);
	close(s->wake[1]);
	close(s->fd);
	free(s->c);
	free(s->host);
	free(s->cut);
	free(s);
	d->side = NULL;
}

enum rdiag_doc_serve rdiag_doctor_side_serve(const struct rdiag_doctor *d)
{
	return d->side_serve;
}
