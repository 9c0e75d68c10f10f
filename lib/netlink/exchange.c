/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The one netlink exchange of the library (netlink.h says what it does): the only place in
 * lib/ that opens a netlink socket, sends a request on it and receives from it.  The callers
 * bring their family's request and their walk of a reply datagram; the socket, the sequence
 * numbers, the datagram check, the extended ACK, the recording and the replay are here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <libmnl/libmnl.h>

#include "netlink.h"

void rd_nl_init(struct rd_nl *nl, int proto, const char *what)
{
	memset(nl, 0, sizeof(*nl));
	nl->proto = proto;
	nl->what = what;
}

/* socket + bind, the one opener */
static int sock_open(struct rd_nl *nl, int flags)
{
	int err;

	errno = 0;
	nl->sock = mnl_socket_open2(nl->proto, SOCK_CLOEXEC | flags);
	if (nl->sock && mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) == 0)
		return 0;
	err = errno ? errno : EPROTONOSUPPORT;
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	snprintf(nl->err, sizeof(nl->err), "cannot open the %s socket: %s", nl->what,
		 strerror(err));
	return -err;
}

int rd_nl_open(struct rd_nl *nl)
{
	int one = 1, ret;

	if (nl->sock)
		return 0;
	ret = sock_open(nl, 0);
	if (ret < 0)
		return ret;
	/* the kernel's own words with an error reply (rd_nl_ext_ack); a kernel before 4.12
	 * refuses the option and sends none */
	(void)mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	return 0;
}

int rd_nl_subscribe(struct rd_nl *nl, const unsigned int *groups, size_t n, int rcvbuf)
{
	size_t i;
	int ret;

	if (nl->sock)
		return -EBUSY;
	nl->subscriber = true;
	ret = sock_open(nl, SOCK_NONBLOCK);
	if (ret < 0)
		return ret;
	if (rcvbuf > 0 && setsockopt(mnl_socket_get_fd(nl->sock), SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				     sizeof(rcvbuf)) < 0) {
		ret = -errno;
		snprintf(nl->err, sizeof(nl->err), "%s receive buffer of %d bytes: %s", nl->what,
			 rcvbuf, strerror(errno));
		goto fail;
	}
	for (i = 0; i < n; i++) {
		int g = (int)groups[i];

		if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &g, sizeof(g)) < 0) {
			ret = -errno;
			snprintf(nl->err, sizeof(nl->err), "cannot join %s group %d: %s",
				 nl->what, g, strerror(errno));
			goto fail;
		}
	}
	return 0;
fail:
	mnl_socket_close(nl->sock);
	nl->sock = NULL;
	return ret;
}

int rd_nl_fd(const struct rd_nl *nl)
{
	return nl->sock ? mnl_socket_get_fd(nl->sock) : -1;
}

void rd_nl_close(struct rd_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
	free(nl->buf);
	nl->buf = NULL;
}

static int ext_ack_cb(const struct nlattr *a, void *data)
{
	const struct nlattr **msg = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		*msg = a;
	return MNL_CB_OK;
}

void rd_nl_ext_ack(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *msg = NULL;
	size_t off = sizeof(*e);

	if (len)
		buf[0] = '\0';
	if (nlh->nlmsg_type != NLMSG_ERROR || !(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*e)))
		return;
	/* the request comes back after the error unless the kernel capped it (iproute2's
	 * nl_dump_ext_ack reads it the same way) */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(struct nlmsghdr))
			return;
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	if (off >= nlh->nlmsg_len - MNL_NLMSG_HDRLEN)
		return;
	rd_nl_attr_parse(nlh, (unsigned int)off, ext_ack_cb, &msg);
	if (msg && len)
		snprintf(buf, len, "%s", mnl_attr_get_str(msg));
}

/* one datagram: checked, its extended ACK kept, then the caller's walk */
static int dgram(struct rd_nl *nl, const void *buf, size_t len, rd_nl_dgram_cb cb, void *data)
{
	const struct nlmsghdr *nlh = buf;
	size_t rem = len;

	if (len > INT32_MAX || rd_nl_datagram_check(buf, len) < 0) {
		nl->bad = buf;
		nl->badlen = len;
		snprintf(nl->err, sizeof(nl->err),
			 "truncated netlink reply (a message length that does not fit the datagram)");
		return -EBADMSG;
	}
	while (rem >= sizeof(*nlh)) {
		size_t step = NLMSG_ALIGN(nlh->nlmsg_len);

		if (nlh->nlmsg_type == NLMSG_ERROR)
			rd_nl_ext_ack(nlh, nl->ext_ack, sizeof(nl->ext_ack));
		if (step >= rem)
			break;
		rem -= step;
		nlh = (const struct nlmsghdr *)((const char *)nlh + step);
	}
	return cb(buf, len, data);
}

int rd_nl_receive(struct rd_nl *nl, rd_nl_dgram_cb cb, void *data)
{
	int rc = 0, ret;

	if (!nl->sock)
		return -ENOTCONN;
	if (!nl->buf) {
		nl->buf = malloc(RD_NL_BUF);
		if (!nl->buf)
			return -ENOMEM;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(nl->sock, nl->buf, RD_NL_BUF);

		if (n < 0) {
			int err = errno;

			if (nl->subscriber) {
				if (err == EAGAIN)
					return rc;
				if (err == EINTR)
					continue;
				if (err == ENOBUFS) {
					rc = -ENOBUFS;
					continue;
				}
			}
			snprintf(nl->err, sizeof(nl->err), "%s receive: %s", nl->what,
				 strerror(err));
			return -err;
		}
		if (n == 0 && nl->subscriber)
			return rc;
		if (nl->record)
			rd_record_write(nl->record, "rep", nl->buf, (size_t)n);
		ret = dgram(nl, nl->buf, (size_t)n, cb, data);
		if (nl->subscriber) {
			/* a malformed datagram is skipped, the next one is read */
			if (ret == -EBADMSG && !rc)
				rc = -EBADMSG;
			continue;
		}
		if (ret)
			return ret;
	}
}

int rd_nl_talk(struct rd_nl *nl, struct nlmsghdr *req, rd_nl_dgram_cb cb, void *data)
{
	int ret;

	nl->sent = false;
	nl->err[0] = '\0';
	nl->ext_ack[0] = '\0';
	nl->bad = NULL;
	nl->badlen = 0;
	if (nl->replay) {
		const uint8_t *const *bufs;
		const size_t *lens;
		size_t n, i;

		ret = rd_replay_lookup(nl->replay, req, req->nlmsg_len, &bufs, &lens, &n);
		if (ret < 0)
			return ret;
		nl->sent = true;
		for (i = 0; i < n && !ret; i++)
			ret = dgram(nl, bufs[i], lens[i], cb, data);
		return ret;
	}
	ret = rd_nl_open(nl);
	if (ret < 0)
		return ret;
	req->nlmsg_seq = ++nl->seq;
	if (nl->record)
		rd_record_write(nl->record, "req", req, req->nlmsg_len);
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0) {
		ret = -errno;
		snprintf(nl->err, sizeof(nl->err), "%s send: %s", nl->what, strerror(errno));
		return ret;
	}
	nl->sent = true;
	ret = rd_nl_receive(nl, cb, data);
	if (nl->record)
		fflush(nl->record);
	return ret;
}

int rd_nl_replay_env(struct rd_replay **out, char *err, size_t errlen)
{
	const char *path = secure_getenv("RDMADIAG_NL_REPLAY");

	*out = NULL;
	if (!path || !*path)
		return 0;
	return rd_replay_load(path, out, err, errlen);
}

int rd_nl_walk_dgram(const void *buf, size_t len, void *arg)
{
	const struct rd_nl_walk *w = arg;
	bool live = !w->nl->replay;
	int ret;

	if (!len)
		return 1;
	errno = 0;
	ret = mnl_cb_run(buf, len, live ? w->nl->seq : 0,
			 live ? mnl_socket_get_portid(w->nl->sock) : 0, w->cb, w->data);
	if (ret < 0)
		return errno ? -errno : -EBADMSG;
	return ret == MNL_CB_STOP;
}
