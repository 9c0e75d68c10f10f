/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/netlink's one exchange (struct rd_nl): a replayed request answered datagram by
 * datagram until the walk says the answer is complete, the recording running out, a request
 * the recording does not have, a datagram that does not fit (never handed to the walk, and
 * kept for the family's parser), the kernel's extended ACK text of an error reply (echoed
 * request or capped, and bounds-checked), and on this host's rtnetlink: a request and its
 * answer with a copy of both in the record file, and a multicast subscriber's non-blocking
 * read of nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "netlink/netlink.h"
#include "tap.h"

struct seen {
	int n;			/* datagrams handed to the walk */
	int done_at;		/* complete at this one (0: never) */
	size_t len[8];
};

static int walk(const void *buf, size_t len, void *data)
{
	struct seen *s = data;

	(void)buf;
	if (s->n < 8)
		s->len[s->n] = len;
	s->n++;
	return s->n == s->done_at;
}

/* a request of type TYPE with one u32 attribute (so that requests differ by it) */
static struct nlmsghdr *request(char *buf, uint16_t type, uint32_t v)
{
	struct nlmsghdr *nlh;
	struct rtgenmsg *g;

	memset(buf, 0, 64);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->rtgen_family = AF_UNSPEC;
	mnl_attr_put_u32(nlh, 1, v);
	return nlh;
}

/* an NLMSG_ERROR for REQ with error ERR and, when MSG, NLMSGERR_ATTR_MSG; the request
 * echoed whole unless CAPPED */
static size_t error_msg(char *buf, const struct nlmsghdr *req, int err, const char *msg,
			bool capped)
{
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	memset(buf, 0, 256);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = (msg ? NLM_F_ACK_TLVS : 0) | (capped ? NLM_F_CAPPED : 0);
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = err;
	e->msg = *req;
	if (!capped) {
		size_t l = req->nlmsg_len - sizeof(*req);

		memcpy(mnl_nlmsg_get_payload_tail(nlh), (const char *)req + sizeof(*req), l);
		nlh->nlmsg_len += (uint32_t)MNL_ALIGN(l);
	}
	if (msg)
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
	return nlh->nlmsg_len;
}

static void ext_ack(void)
{
	char req[64], buf[256], text[64];
	struct nlmsghdr *r = request(req, RTM_GETLINK, 7), *e = (struct nlmsghdr *)buf;

	error_msg(buf, r, -EINVAL, "Invalid prefix for given prefix length", false);
	rd_nl_ext_ack(e, text, sizeof(text));
	EXPECT_STREQ(text, "Invalid prefix for given prefix length");
	error_msg(buf, r, -EINVAL, "capped", true);
	rd_nl_ext_ack(e, text, sizeof(text));
	EXPECT_STREQ(text, "capped");
	rd_nl_ext_ack(e, text, 4);
	EXPECT_STREQ(text, "cap");
	error_msg(buf, r, -EINVAL, NULL, false);
	rd_nl_ext_ack(e, text, sizeof(text));
	EXPECT_STREQ(text, "");
	/* an echoed request longer than the error message: nothing read past it */
	error_msg(buf, r, -EINVAL, "x", false);
	((struct nlmsgerr *)mnl_nlmsg_get_payload(e))->msg.nlmsg_len = 0xfffffff0;
	rd_nl_ext_ack(e, text, sizeof(text));
	EXPECT_STREQ(text, "");
	((struct nlmsgerr *)mnl_nlmsg_get_payload(e))->msg.nlmsg_len = 3;
	rd_nl_ext_ack(e, text, sizeof(text));
	EXPECT_STREQ(text, "");
	/* not an error message */
	e->nlmsg_type = RTM_NEWLINK;
	rd_nl_ext_ack(e, text, sizeof(text));
	EXPECT_STREQ(text, "");
}

static void replay(void)
{
	char path[] = "/tmp/rdiag-nlx-XXXXXX", req[64], buf[256];
	struct rd_replay *rp = NULL;
	struct rd_nl nl;
	struct seen s;
	struct nlmsghdr *r;
	uint8_t good[16] = { 16, 0, 0, 0, NLMSG_DONE, 0 }, bad[16] = { 17, 0, 0, 0, 3, 0 };
	size_t el;
	char err[256];
	FILE *f;
	int fd = mkstemp(path);

	EXPECT_TRUE(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	/* 1: three datagrams; 2: one that does not fit; 3: an error with the kernel's words;
	 * 4: recorded without a reply */
	r = request(req, RTM_GETLINK, 1);
	rd_record_write(f, "req", r, r->nlmsg_len);
	rd_record_write(f, "rep", good, 16);
	rd_record_write(f, "rep", good, 15);
	rd_record_write(f, "rep", good, 16);
	r = request(req, RTM_GETLINK, 2);
	rd_record_write(f, "req", r, r->nlmsg_len);
	rd_record_write(f, "rep", bad, 16);
	r = request(req, RTM_GETLINK, 3);
	el = error_msg(buf, r, -EOPNOTSUPP, "not here", false);
	rd_record_write(f, "req", r, r->nlmsg_len);
	rd_record_write(f, "rep", buf, el);
	r = request(req, RTM_GETLINK, 4);
	rd_record_write(f, "req", r, r->nlmsg_len);
	fclose(f);
	EXPECT_EQ(rd_replay_load(path, &rp, err, sizeof(err)), 0);
	unlink(path);
	if (!rp)
		return;
	rd_nl_init(&nl, NETLINK_ROUTE, "rtnetlink");
	nl.replay = rp;

	/* complete at the second datagram: the third is not handed on */
	memset(&s, 0, sizeof(s));
	s.done_at = 2;
	EXPECT_EQ(rd_nl_talk(&nl, request(req, RTM_GETLINK, 1), walk, &s), 1);
	EXPECT_EQ(nl.sent, true);
	EXPECT_EQ(s.n, 2);
	EXPECT_EQ(s.len[1], 15);
	/* never complete: 0 once the recorded datagrams are used up (the same exchange again) */
	memset(&s, 0, sizeof(s));
	EXPECT_EQ(rd_nl_talk(&nl, request(req, RTM_GETLINK, 1), walk, &s), 0);
	EXPECT_EQ(s.n, 3);
	/* a length past the datagram: not walked, kept for the family's parser */
	memset(&s, 0, sizeof(s));
	EXPECT_EQ(rd_nl_talk(&nl, request(req, RTM_GETLINK, 2), walk, &s), -EBADMSG);
	EXPECT_EQ(s.n, 0);
	EXPECT_EQ(nl.badlen, 16);
	EXPECT_TRUE(nl.bad && !memcmp(nl.bad, bad, 16));
	EXPECT_STREQ(nl.err, "truncated netlink reply (a message length that does not fit the datagram)");
	/* the error reply goes to the walk, its extended ACK text is kept */
	memset(&s, 0, sizeof(s));
	s.done_at = 1;
	EXPECT_EQ(rd_nl_talk(&nl, request(req, RTM_GETLINK, 3), walk, &s), 1);
	EXPECT_STREQ(nl.ext_ack, "not here");
	EXPECT_STREQ(nl.err, "");
	/* recorded without a reply; not recorded at all */
	EXPECT_EQ(rd_nl_talk(&nl, request(req, RTM_GETLINK, 4), walk, &s), 0);
	EXPECT_STREQ(nl.ext_ack, "");
	EXPECT_EQ(rd_nl_talk(&nl, request(req, RTM_GETLINK, 5), walk, &s), -ENOENT);
	EXPECT_EQ(nl.sent, false);
	EXPECT_EQ(rd_nl_fd(&nl), -1);	/* a replay opens no socket */
	rd_nl_close(&nl);
	rd_replay_free(rp);
}

/* RTM_GETLINK for lo (index 1) on this host's rtnetlink: one RTM_NEWLINK */
static int link_walk(const void *buf, size_t len, void *data)
{
	const struct nlmsghdr *nlh = buf;

	(void)len;
	if (nlh->nlmsg_type == RTM_NEWLINK)
		*(int *)data = 1;
	return 1;
}

static void live(void)
{
	char path[] = "/tmp/rdiag-nlx-XXXXXX", req[64], line[4096];
	static const unsigned int groups[] = { RTNLGRP_LINK };
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;
	struct rd_nl nl;
	int got = 0, fd = mkstemp(path), reqs = 0, reps = 0;
	FILE *f;

	EXPECT_TRUE(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w+");
	rd_nl_init(&nl, NETLINK_ROUTE, "rtnetlink");
	nl.record = f;
	memset(req, 0, sizeof(req));
	nlh = mnl_nlmsg_put_header(req);
	nlh->nlmsg_type = RTM_GETLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_index = 1;
	EXPECT_EQ(rd_nl_talk(&nl, nlh, link_walk, &got), 1);
	EXPECT_EQ(got, 1);
	EXPECT_EQ(nl.seq, 1);
	EXPECT_EQ(nlh->nlmsg_seq, 1);
	EXPECT_TRUE(rd_nl_fd(&nl) >= 0);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		reqs += !strncmp(line, "req ", 4);
		reps += !strncmp(line, "rep ", 4);
	}
	EXPECT_EQ(reqs, 1);
	EXPECT_EQ(reps, 1);
	fclose(f);
	unlink(path);
	rd_nl_close(&nl);
	EXPECT_EQ(rd_nl_fd(&nl), -1);

	/* a subscriber with nothing queued: the read ends at once */
	rd_nl_init(&nl, NETLINK_ROUTE, "rtnetlink");
	EXPECT_EQ(rd_nl_subscribe(&nl, groups, 1, 256 * 1024), 0);
	EXPECT_EQ(rd_nl_subscribe(&nl, groups, 1, 0), -EBUSY);
	got = 0;
	EXPECT_EQ(rd_nl_receive(&nl, link_walk, &got), 0);
	rd_nl_close(&nl);
}

int main(void)
{
	ext_ack();
	replay();
	live();
	return tap_done();
}
