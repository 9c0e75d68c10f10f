/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal to the library: the one netlink exchange of every family (RDMA NLDEV in
 * lib/counters, rtnetlink in lib/doctor and lib/rtmon, dcbnl and ethtool generic netlink in
 * lib/fabric), its record/replay seam (RDMADIAG_NL_REPLAY, --nl-record), and what every walk
 * needs before it trusts a reply.  lib/netlink uses no other module. */
#ifndef RD_NETLINK_INTERNAL_H
#define RD_NETLINK_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nlmsghdr;
struct nlattr;
struct mnl_socket;
struct rd_replay;

/* ---- datagram.c, attr.c: bounds ---- */

/* 0 when every message of the datagram buf[0..len) has a length that fits in what remains
 * of it (at least a header, at most the rest; trailing bytes shorter than a header are
 * left to the caller), -EBADMSG otherwise.
 *
 * Why: libmnl's mnl_nlmsg_ok() compares the message length as an int, so a length with the
 * sign bit set passes and mnl_nlmsg_next() jumps about 4 GiB, and lengths 0xfffffffd to
 * 0xffffffff align to 0 and the walk never advances.  Call this on every datagram before
 * mnl_cb_run() or a walk with mnl_nlmsg_ok()/mnl_nlmsg_next() (rd_nl_talk and rd_nl_receive
 * do, for every datagram they hand on). */
int rd_nl_datagram_check(const void *buf, size_t len);

/* mnl_attr_parse(nlh, offset, cb, data) that stops at the message's length (nlmsg_len).
 * Why: libmnl walks attributes up to the message's aligned end, NLMSG_ALIGN(nlmsg_len),
 * which for a last message that is not padded (rd_nl_datagram_check lets it through) is up
 * to 3 bytes past the datagram: an attribute there was read past the reply (fuzz_rtnl).
 * Returns what mnl_attr_parse returns (MNL_CB_ERROR, MNL_CB_STOP or MNL_CB_OK). */
int rd_nl_attr_parse(const struct nlmsghdr *nlh, unsigned int offset,
		     int (*cb)(const struct nlattr *attr, void *data), void *data);

/* ---- exchange.c: one netlink socket, its requests and its receive loop ----
 *
 * The pattern of iproute2's rtnl_talk() and rdma-core's rdma tool: a socket of one protocol
 * opened on first use, a request sent with the next sequence number, then reply datagrams
 * read one by one, each checked (rd_nl_datagram_check) and handed to the caller's datagram
 * callback until it says the answer is complete.  With a replay (RDMADIAG_NL_REPLAY) the
 * datagrams come from the recording instead and no socket is opened; with a record file
 * every request and reply datagram is written to it (record.c's format).
 *
 * A datagram callback returns 0 for "more datagrams follow", a positive value for "the
 * answer is complete" and -errno to end the exchange with that error. */
typedef int (*rd_nl_dgram_cb)(const void *buf, size_t len, void *data);

#define RD_NL_BUF (64 * 1024)	/* one datagram: a dump's pages are at most 32 KiB */

struct rd_nl {
	int proto;			/* NETLINK_RDMA, NETLINK_ROUTE, NETLINK_GENERIC */
	const char *what;		/* names it in err: "netlink", "rtnetlink" ... */
	struct mnl_socket *sock;	/* opened on first use (rd_nl_open), or rd_nl_subscribe */
	bool subscriber;		/* a multicast subscriber: non-blocking receive */
	uint32_t seq;			/* the last request's nlmsg_seq */
	bool sent;			/* the last rd_nl_talk's request went out on the
					 * socket, or the replay has it */
	struct rd_replay *replay;	/* not owned: answers instead of the socket */
	FILE *record;			/* not owned: a copy of every request and reply */
	char *buf;			/* RD_NL_BUF bytes, on the first receive */
	/* after -EBADMSG from the datagram check: the datagram it was about (in buf or in the
	 * replay), so that a family's own parser can say what is wrong with it */
	const void *bad;
	size_t badlen;
	char ext_ack[256];		/* the kernel's extended ACK message of the last error
					 * reply (NETLINK_EXT_ACK), "" when it sent none */
	char err[256];			/* why the last call failed */
};

/* a closed exchange of protocol PROTO; WHAT names it in error text ("%s send: ...") */
void rd_nl_init(struct rd_nl *nl, int proto, const char *what);
/* open and bind the socket now (a no-op when open).  0 or -errno, with nl->err
 * "cannot open the WHAT socket: ..." */
int rd_nl_open(struct rd_nl *nl);
/* open the socket non-blocking as a subscriber of the N multicast GROUPS (RTNLGRP_* ...),
 * with a receive buffer of RCVBUF bytes (0 = the kernel's default).  0 or -errno (nl->err) */
int rd_nl_subscribe(struct rd_nl *nl, const unsigned int *groups, size_t n, int rcvbuf);
/* the socket's descriptor, -1 when not open */
int rd_nl_fd(const struct rd_nl *nl);
/* close the socket and free the buffer (not the replay, not the record file) */
void rd_nl_close(struct rd_nl *nl);

/* Send REQ (a complete message; nlmsg_seq is filled here) and hand every reply datagram to
 * CB until it returns nonzero.  Returns what CB returned last (> 0 complete, -errno); 0 only
 * with a replay whose recorded datagrams ran out before CB said the answer was complete.
 * nl->sent false: the request did not go out, -errno of the socket (nl->err "cannot open
 * the WHAT socket: ..." or "WHAT send: ...") or of the replay (-ENOENT: it has no such
 * request; nl->err not set, the caller says which request).  After it went out: -EBADMSG
 * from the check (nl->err says so and nl->bad is the datagram), -errno of the socket (nl->err
 * "WHAT receive: ..."), or CB's. */
int rd_nl_talk(struct rd_nl *nl, struct nlmsghdr *req, rd_nl_dgram_cb cb, void *data);

/* The datagram callback for a request whose replies a libmnl message callback reads: pass
 * rd_nl_walk_dgram and a struct rd_nl_walk to rd_nl_talk.  Each datagram goes through
 * mnl_cb_run: the callback's MNL_CB_STOP, NLMSG_DONE or an ACK complete the answer (1); an
 * NLMSG_ERROR is its -errno.  On the socket the replies must carry the request's sequence
 * number and port; a replay's carry the recorded ones. */
struct rd_nl_walk {
	struct rd_nl *nl;
	int (*cb)(const struct nlmsghdr *nlh, void *data);	/* libmnl's mnl_cb_t */
	void *data;
};
int rd_nl_walk_dgram(const void *buf, size_t len, void *arg);

/* The receive loop.  A request socket: datagrams until CB returns nonzero, as rd_nl_talk.
 * A subscriber: everything queued now, until the socket would block; an interrupted read is
 * retried, a malformed datagram (the check, or CB's -EBADMSG) is skipped and the loop goes
 * on.  The subscriber's result: 0, -ENOBUFS when the kernel dropped messages because the
 * socket's buffer was full, else -EBADMSG when a datagram was skipped, or -errno of the
 * socket. */
int rd_nl_receive(struct rd_nl *nl, rd_nl_dgram_cb cb, void *data);

/* the text of NLMSGERR_ATTR_MSG of the NLMSG_ERROR message NLH (NLM_F_ACK_TLVS) into
 * buf[0..len), "" when it has none; bounds-checked within nlmsg_len */
void rd_nl_ext_ack(const struct nlmsghdr *nlh, char *buf, size_t len);

/* the replay RDMADIAG_NL_REPLAY names (secure_getenv: not when setuid).  0 with *out NULL
 * when it is not set; -errno with err set when the file cannot be loaded.  (In exchange.c:
 * record.c holds only the four functions below, which fuzz_nldev replaces.) */
int rd_nl_replay_env(struct rd_replay **out, char *err, size_t errlen);

/* ---- route.c: one route lookup ---- */
struct rd_nl_route {
	int type;			/* RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE ...; -1 none */
	int oif;
	uint32_t table;
	bool has_prefsrc, has_gateway;
	unsigned char prefsrc[16], gateway[16];	/* 4 or 16 bytes, as the family */
};
/* RTM_GETROUTE on NL (NETLINK_ROUTE) for DST (4 or 16 bytes, as FAMILY), from SRC when not
 * NULL, out of OIF when > 0: 0 with *r the answer (type -1 when a replay ran out before
 * one), or -errno: the kernel's (-ENETUNREACH, -EHOSTUNREACH ... : no route), the socket's,
 * the replay's, -EAFNOSUPPORT for another family */
int rd_nl_route_get(struct rd_nl *nl, int family, const void *dst, const void *src, int oif,
		    struct rd_nl_route *r);

/* ---- record.c: record/replay files ---- */
int rd_replay_load(const char *path, struct rd_replay **out, char *err, size_t errlen);
void rd_replay_free(struct rd_replay *r);
/* the reply datagrams recorded for request req[0..reqlen) (matched with nlmsg_seq and
 * nlmsg_pid zeroed; identical requests in order, the last one again when they run out).
 * 0 or -ENOENT */
int rd_replay_lookup(struct rd_replay *r, const void *req, size_t reqlen,
		     const uint8_t *const **bufs, const size_t **lens, size_t *n);
/* one line "TAG HEX" */
void rd_record_write(FILE *f, const char *tag, const void *buf, size_t len);

#endif
