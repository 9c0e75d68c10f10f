/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The doctor's rtnetlink lookups replayed: tests/fixtures/netlink/doctor-rtnl.rec (built by
 * mk_rtnl.py) through RDMADIAG_NL_REPLAY, the seam of lib/netlink's exchange that the counters
 * and fabric handles replay through too.  rd_rtnl_route_get()/rd_rtnl_neigh_get() parse the
 * recorded answers as they parse the kernel's, and rdiag_doctor_check_path() draws its
 * conclusions from them: a reachable neighbour, a FAILED one, none yet, a gateway as the next
 * hop, no route (the kernel's ENETUNREACH) and a broadcast destination.  The sysfs root is an
 * empty scratch directory, so nothing of this host is read but the interface names (the
 * recorded index 999999 has none: "if999999"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include <rdmadiag/doctor.h>
#include "doctor/internal.h"
#include "tap.h"

#define REC "tests/fixtures/netlink/doctor-rtnl.rec"

static struct rdiag_doctor *open_doctor(void)
{
	struct rdiag_doctor *d = NULL;

	EXPECT_EQ(rdiag_doctor_open(&d, NULL), 0);
	return d;
}

static const struct rdiag_doc_finding *finding(const struct rdiag_doctor *d, const char *check)
{
	size_t i;

	for (i = 0; i < rdiag_doctor_nfindings(d); i++)
		if (!strcmp(rdiag_doctor_finding(d, i)->check, check))
			return rdiag_doctor_finding(d, i);
	return NULL;
}

/* rdiag_doctor_check_path to dst on a new doctor; its route and neighbour findings */
static struct rdiag_doctor *path(const char *dst, const struct rdiag_doc_finding **route,
				 const struct rdiag_doc_finding **neigh)
{
	struct rdiag_doc_opts o = { .dst = dst };
	struct rdiag_doctor *d = open_doctor();

	*route = *neigh = NULL;
	if (!d)
		return NULL;
	EXPECT_EQ(rdiag_doctor_check_path(d, &o), 0);
	*route = finding(d, "route");
	*neigh = finding(d, "neighbour");
	EXPECT_TRUE(*route != NULL);
	return d;
}

static void lookups(void)
{
	struct rdiag_doctor *d = open_doctor();
	union rd_addr a, b;
	struct rd_route r;
	struct rd_neigh n;
	char s[64];

	if (!d)
		return;
	rd_addr_parse("198.18.0.2", &a);
	EXPECT_EQ(rd_rtnl_route_get(d, &a, NULL, 0, &r), 0);
	EXPECT_EQ(r.type, RTN_UNICAST);
	EXPECT_EQ(r.oif, 999999);
	EXPECT_STREQ(r.oifname, "if999999");
	EXPECT_EQ(r.table, RT_TABLE_MAIN);
	EXPECT_TRUE(r.has_prefsrc && !r.has_gateway);
	EXPECT_STREQ(rd_addr_str(&r.prefsrc, s, sizeof(s)), "198.18.0.1");
	EXPECT_EQ(rd_rtnl_neigh_get(d, &a, 999999, &n), 0);
	EXPECT_EQ(n.state, NUD_REACHABLE);
	EXPECT_EQ(n.has_lladdr, true);
	EXPECT_EQ(n.lladdr_len, 6);
	EXPECT_TRUE(!memcmp(n.lladdr, "\x52\x54\x00\x12\x34\x56", 6));
	/* asked again, the recorded answer again (the last exchange is reused) */
	memset(&r, 0, sizeof(r));
	EXPECT_EQ(rd_rtnl_route_get(d, &a, NULL, 0, &r), 0);
	EXPECT_EQ(r.oif, 999999);

	/* the neighbour on another interface was not recorded: not this host's answer either */
	EXPECT_EQ(rd_rtnl_neigh_get(d, &a, 1, &n), -ENOENT);
	/* the kernel's error, as recorded */
	rd_addr_parse("192.0.2.9", &b);
	EXPECT_EQ(rd_rtnl_route_get(d, &b, NULL, 0, &r), -ENETUNREACH);
	rd_addr_parse("198.18.0.4", &b);
	EXPECT_EQ(rd_rtnl_neigh_get(d, &b, 999999, &n), -ENOENT);
	/* a request the recording does not have */
	rd_addr_parse("198.18.0.99", &b);
	EXPECT_EQ(rd_rtnl_route_get(d, &b, NULL, 0, &r), -ENOENT);
	rdiag_doctor_close(d);
}

static void reachable(void)
{
	const struct rdiag_doc_finding *rt, *ne;
	struct rdiag_doctor *d = path("198.18.0.2", &rt, &ne);

	if (!d)
		return;
	EXPECT_EQ(rt->level, RDIAG_DOC_OK);
	EXPECT_STREQ(rt->summary, "198.18.0.2 via if999999 source 198.18.0.1");
	EXPECT_STREQ(rt->evidence, "RTM_GETROUTE 198.18.0.2 -> unicast 198.18.0.2 dev if999999 src 198.18.0.1 table 254");
	EXPECT_TRUE(ne != NULL);
	if (ne) {
		EXPECT_EQ(ne->level, RDIAG_DOC_OK);
		EXPECT_STREQ(ne->summary, "next hop 198.18.0.2 is REACHABLE on if999999");
		EXPECT_STREQ(ne->evidence, "198.18.0.2 dev if999999 lladdr 52:54:00:12:34:56 REACHABLE");
	}
	rdiag_doctor_close(d);
}

static void failed(void)
{
	const struct rdiag_doc_finding *rt, *ne;
	struct rdiag_doctor *d = path("198.18.0.3", &rt, &ne);

	if (!d)
		return;
	EXPECT_EQ(rt->level, RDIAG_DOC_OK);
	EXPECT_TRUE(ne != NULL);
	if (ne) {
		EXPECT_EQ(ne->level, RDIAG_DOC_PROBLEM);
		EXPECT_STREQ(ne->cause, "neighbour_unresolved");
		EXPECT_STREQ(ne->summary, "next hop 198.18.0.3 does not answer ARP/ND on if999999 (neighbour FAILED)");
	}
	rdiag_doctor_close(d);
}

static void unresolved(void)
{
	const struct rdiag_doc_finding *rt, *ne;
	struct rdiag_doctor *d = path("198.18.0.4", &rt, &ne);

	if (!d)
		return;
	EXPECT_EQ(rt->level, RDIAG_DOC_OK);
	EXPECT_TRUE(ne != NULL);
	if (ne) {
		EXPECT_EQ(ne->level, RDIAG_DOC_INFO);	/* no cause: not a problem yet */
		EXPECT_TRUE(ne->cause == NULL);
		EXPECT_STREQ(ne->summary, "no neighbour entry for next hop 198.18.0.4 on if999999 yet (it is resolved by the first attempt)");
		EXPECT_STREQ(ne->evidence, "RTM_GETNEIGH 198.18.0.4 dev if999999: no entry");
	}
	rdiag_doctor_close(d);
}

static void gateway(void)
{
	const struct rdiag_doc_finding *rt, *ne;
	struct rdiag_doctor *d = path("203.0.113.7", &rt, &ne);

	if (!d)
		return;
	EXPECT_EQ(rt->level, RDIAG_DOC_OK);
	EXPECT_STREQ(rt->summary, "203.0.113.7 via if999999 gateway 198.18.0.254 source 198.18.0.1");
	EXPECT_TRUE(ne != NULL);
	if (ne) {
		/* the next hop is the gateway, not the destination */
		EXPECT_EQ(ne->level, RDIAG_DOC_OK);
		EXPECT_STREQ(ne->subject, "198.18.0.254");
		EXPECT_STREQ(ne->summary, "next hop 198.18.0.254 is REACHABLE on if999999");
	}
	rdiag_doctor_close(d);
}

static void no_route(void)
{
	const struct rdiag_doc_finding *rt, *ne;
	struct rdiag_doctor *d = path("192.0.2.9", &rt, &ne);

	if (!d)
		return;
	EXPECT_EQ(rt->level, RDIAG_DOC_PROBLEM);
	EXPECT_STREQ(rt->cause, "no_route");
	EXPECT_STREQ(rt->summary, "no route to 192.0.2.9: the kernel answers Network is unreachable");
	EXPECT_STREQ(rt->evidence, "RTM_GETROUTE 192.0.2.9: -101 ENETUNREACH");
	EXPECT_TRUE(ne == NULL);	/* no next hop to ask about */
	rdiag_doctor_close(d);
}

static void broadcast(void)
{
	const struct rdiag_doc_finding *rt, *ne;
	struct rdiag_doctor *d = path("198.18.0.255", &rt, &ne);

	if (!d)
		return;
	EXPECT_EQ(rt->level, RDIAG_DOC_PROBLEM);
	EXPECT_STREQ(rt->cause, "no_route");
	EXPECT_STREQ(rt->summary, "the route to 198.18.0.255 is of type broadcast: packets are not forwarded");
	EXPECT_STREQ(rt->evidence, "broadcast 198.18.0.255 table 255");
	EXPECT_TRUE(ne == NULL);
	rdiag_doctor_close(d);
}

/* a replay that cannot be loaded answers nothing: no lookup reaches this host instead */
static void bad_replay(void)
{
	struct rdiag_doctor *d;
	union rd_addr a;
	struct rd_route r;

	setenv("RDMADIAG_NL_REPLAY", "tests/fixtures/netlink/no-such.rec", 1);
	d = open_doctor();
	if (d) {
		rd_addr_parse("127.0.0.1", &a);
		EXPECT_EQ(rd_rtnl_route_get(d, &a, NULL, 0, &r), -ENOENT);
		rdiag_doctor_close(d);
	}
	setenv("RDMADIAG_NL_REPLAY", REC, 1);
}

int main(void)
{
	char root[] = "/tmp/rdiag-rtnl-XXXXXX";

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	setenv("RDMADIAG_NL_REPLAY", REC, 1);
	lookups();
	reachable();
	failed();
	unresolved();
	gateway();
	no_route();
	broadcast();
	bad_replay();
	rmdir(root);
	return tap_done();
}
