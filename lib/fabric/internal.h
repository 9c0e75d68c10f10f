/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal to lib/fabric: the handle and the parsers the fuzz targets and unit tests reach
 * (rd_ prefix, never exported). */
#ifndef RD_FABRIC_INTERNAL_H
#define RD_FABRIC_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rdmadiag/fabric.h>
#include "netlink/netlink.h"

struct rd_replay;
struct rd_eth_replay;
struct nlmsghdr;
struct nlattr;

struct rdiag_fabric {
	char root[4096];		/* RDMADIAG_SYSFS_ROOT ("" = the real /) */
	struct rd_replay *replay;	/* RDMADIAG_NL_REPLAY: dcbnl and ethtool replies */
	struct rd_eth_replay *eth_replay; /* RDMADIAG_ETHTOOL_REPLAY */
	struct rd_nl rt;		/* NETLINK_ROUTE (dcbnl), opened on first use */
	struct rd_nl genl;		/* NETLINK_GENERIC (ethtool netlink), on first use */
	int ethtool_family;		/* its id once resolved; 0 not yet, -errno refused */
	FILE *record;
	char err[256];
};

void rd_fabric_seterr(struct rdiag_fabric *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- nl_exchange.c ---- */
/* send request REQ (a complete message; seq filled here) on the rtnetlink exchange, or the
 * generic netlink one when GENERIC (lib/netlink: the socket, or the replay, and the record
 * file); *rep and *replen: the first reply datagram (valid until the next request of the
 * same exchange).  0; -ENOENT not in the replay and -ENXIO a sysfs root without a replay
 * (the caller says which request); other -errno with f->err set */
int rd_fabric_exchange(struct rdiag_fabric *f, bool generic, void *req, const void **rep,
		       size_t *replen);

/* ---- nl_walk.c ---- */
/* the attributes of NEST (or of message NLH after OFFSET bytes when nest is NULL) through cb,
 * within the message (lib/netlink's rd_nl_attr_parse).  libmnl ends a walk quietly at an
 * attribute whose length does not fit; this returns RD_WALK_SHORT then (the attributes
 * stop short of the payload's end), else what the walk returned (MNL_CB_ERROR from cb). */
#define RD_WALK_SHORT (-2)
int rd_fabric_walk(const struct nlmsghdr *nlh, unsigned int offset, const struct nlattr *nest,
		   int (*cb)(const struct nlattr *a, void *data), void *data);

/* ---- genl.c: generic netlink (family lookup, one exchange; replay and record) ---- */
/* the first message of type TYPE of reply datagram buf[0..len), checked to hold its
 * genlmsghdr.  0 (*out); -errno of an NLMSG_ERROR; -EBADMSG malformed (why, may be NULL) */
int rd_genl_reply(const void *buf, size_t len, uint16_t type, const struct nlmsghdr **out,
		  const char **why);
/* the family id of CTRL_CMD_GETFAMILY's reply datagram buf[0..len).  0; -errno of an
 * NLMSG_ERROR (-ENOENT: no such family in this kernel); -EBADMSG malformed (why says) */
int rd_genl_family_parse(const void *buf, size_t len, uint16_t *id, const char **why);
/* rd_fabric_exchange on the generic netlink exchange.  0 or -errno (f->err set) */
int rd_genl_exchange(struct rdiag_fabric *f, void *req, const void **rep, size_t *replen);
/* the id of the "ethtool" family (cached).  0; -EOPNOTSUPP this kernel has none; -errno */
int rd_genl_ethtool_family(struct rdiag_fabric *f, uint16_t *id);

/* ---- pause.c ---- */
/* Fill *out from one ETHTOOL_MSG_PAUSE_GET reply datagram of family FAMILY.  0; -errno of
 * an NLMSG_ERROR; -EBADMSG malformed (why says).  Unknown attributes are skipped. */
int rd_pause_parse_datagram(const void *buf, size_t len, uint16_t family,
			    struct rdiag_eth_pause *out, const char **why);

/* ---- dcb.c ---- */
/* Fill *out from one dcbnl reply datagram buf[0..len) (what RTM_GETDCB answers: one
 * message, or NLMSG_ERROR).  0; -errno of an NLMSG_ERROR; -EBADMSG when malformed (a
 * message past the datagram, an attribute past its message, a known attribute of the wrong
 * size).  Attributes this code does not know are skipped.  why (may be NULL) gets a short
 * reason for a malformed reply, and stays NULL for the kernel's own error: that may be
 * -EBADMSG too (the kernel refusing the request), so tell the two apart by why. */
int rd_dcb_parse_datagram(const void *buf, size_t len, struct rdiag_dcb *out,
			  const char **why);

/* ---- ethtool.c ---- */
#define RD_ETH_GSTRING_LEN 32
#define RD_ETH_MAX_STATS 65536u	/* more names than any driver has: a corrupt count */
struct rdiag_ethstats;
/* Build the statistics from ETHTOOL_GSTRINGS' names (n * 32 bytes, each NUL-padded, not
 * always NUL-terminated) and ETHTOOL_GSTATS' values (n u64).  0, -EBADMSG when the two do
 * not describe the same number of statistics or n is out of range, -ENOMEM. */
int rd_ethstats_build(const char *driver, const void *strings, size_t slen,
		      const void *values, size_t vlen, struct rdiag_ethstats **out);
int rd_eth_replay_load(const char *path, struct rd_eth_replay **out, char *err,
		       size_t errlen);
void rd_eth_replay_free(struct rd_eth_replay *r);

/* ---- eth_catalog_data.c ---- */
extern const struct rdiag_eth_catalog_entry rd_eth_catalog[];
extern const size_t rd_eth_catalog_n;

/* ---- eth_catalog.c ---- */
#define RD_ETH_CATALOG_DRV_MAX 64	/* entries of one driver (mlx5_core has 20) */
/* the catalogue's entries of DRIVER, in catalogue order, into out[0..max): how many */
size_t rd_eth_catalog_driver(const char *driver, const struct rdiag_eth_catalog_entry **out,
			     size_t max);
/* NAME against the entries ents[0..n) of one driver: the first that matches (and *prio, may
 * be NULL: its priority, -1 none), or NULL.  rdiag_eth_catalog_lookup is the two in a row; a
 * sample of N statistics asks rd_eth_catalog_driver once, not N times */
const struct rdiag_eth_catalog_entry *
rd_eth_catalog_match(const struct rdiag_eth_catalog_entry *const *ents, size_t n,
		     const char *name, int *prio);

#endif
