/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdma_cm strings (rdmadiag/cmstr.h): names against librdmacm's own rdma_event_str(), the
 * status decoding per event, causes, reject-reason meanings. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rdma/rdma_cma.h>

#include "tap.h"
#include "rdmadiag/cmstr.h"
#include "rdmadiag/packet.h"

static int contains(const char *s, const char *sub)
{
	return s && strstr(s, sub) != NULL;
}

int main(void)
{
	char buf[128], want[64];
	int i, same = 0, named = 0, meant = 0;

	/* librdmacm knows the names up to TIMEWAIT_EXIT (15) in every version we support */
	for (i = 0; i <= RDMA_CM_EVENT_TIMEWAIT_EXIT; i++) {
		snprintf(want, sizeof(want), "RDMA_CM_EVENT_%s", rdiag_cm_event_name(i));
		same += strcmp(want, rdma_event_str((enum rdma_cm_event_type)i)) == 0;
	}
	EXPECT_EQ(same, RDMA_CM_EVENT_TIMEWAIT_EXIT + 1);
	EXPECT_STREQ(rdiag_cm_event_name(8), "REJECTED");
	EXPECT_STREQ(rdiag_cm_event_name(19), "INTERNAL");
	EXPECT_TRUE(rdiag_cm_event_name(20) == NULL);
	EXPECT_TRUE(rdiag_cm_event_name(-1) == NULL);
	EXPECT_EQ(rdiag_cm_event_from_name("RDMA_CM_EVENT_REJECTED"), 8);
	EXPECT_EQ(rdiag_cm_event_from_name("established"), 9);
	EXPECT_EQ(rdiag_cm_event_from_name("nope"), -1);
	EXPECT_EQ(rdiag_cm_event_from_name(NULL), -1);
	EXPECT_EQ(rdiag_cm_event_is_error(RDMA_CM_EVENT_ADDR_ERROR), 1);
	EXPECT_EQ(rdiag_cm_event_is_error(RDMA_CM_EVENT_UNREACHABLE), 1);
	EXPECT_EQ(rdiag_cm_event_is_error(RDMA_CM_EVENT_ESTABLISHED), 0);
	EXPECT_EQ(rdiag_cm_event_is_error(99), 0);
	EXPECT_TRUE(contains(rdiag_cm_event_meaning(RDMA_CM_EVENT_REJECTED), "reject reason"));
	EXPECT_STREQ(rdiag_cm_event_meaning(-5), "unknown rdma_cm event");

	/* event->status: reject reason for REJECTED, negative errno elsewhere */
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_REJECTED, 8, buf, sizeof(buf)),
		     "reject reason 8 INVALID_SERVICE_ID");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_REJECTED, 28, buf, sizeof(buf)),
		     "reject reason 28 CONSUMER_DEFINED");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_REJECTED, 34, buf, sizeof(buf)),
		     "reject reason 34 (unassigned)");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT, buf, sizeof(buf)),
		     "-110 ETIMEDOUT (Connection timed out)");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_ADDR_ERROR, -ENODEV, buf, sizeof(buf)),
		     "-19 ENODEV (No such device)");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_ESTABLISHED, 0, buf, sizeof(buf)),
		     "0 (success)");
	/* a positive status of UNREACHABLE is a SIDR REP's (a UD id), named; elsewhere as is */
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_UNREACHABLE, 1, buf, sizeof(buf)),
		     "SIDR status 1 UNSUPPORTED (no such service)");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_UNREACHABLE, 2, buf, sizeof(buf)),
		     "SIDR status 2 REJECT");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_UNREACHABLE, 9, buf, sizeof(buf)),
		     "SIDR status 9 (unassigned)");
	EXPECT_STREQ(rdiag_cm_status_str(RDMA_CM_EVENT_CONNECT_ERROR, 2, buf, sizeof(buf)), "2");
	/* truncation keeps a terminated string */
	rdiag_cm_status_str(RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT, buf, 8);
	EXPECT_EQ(strlen(buf), 7);

	/* causes per (event, status) */
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_REJECTED, 8), "nothing listens"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_REJECTED, 28), "rdma_reject"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_REJECTED, 33), "compare"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT), "neighbour"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_ADDR_ERROR, -ENODEV), "namespace"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_ADDR_ERROR, -EADDRNOTAVAIL), "source"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_ADDR_ERROR, -EPERM), "address resolution failed"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT), "UDP 4791"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_UNREACHABLE, 1), "no such service"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_UNREACHABLE, 2), "rdma_reject"));
	EXPECT_TRUE(contains(rdiag_cm_status_cause(RDMA_CM_EVENT_ROUTE_ERROR, -ETIMEDOUT), "subnet administrator"));
	EXPECT_STREQ(rdiag_cm_status_cause(RDMA_CM_EVENT_ESTABLISHED, 0), "not an error");

	/* every assigned reject reason has a name (packet module) and a meaning (here) */
	for (i = 1; i <= 35; i++) {
		if (i == 34)
			continue;
		named += rdiag_cm_rej_reason_name((unsigned int)i) != NULL;
		meant += strcmp(rdiag_cm_rej_reason_meaning((unsigned int)i), "unassigned reject reason") != 0;
	}
	EXPECT_EQ(named, 34);
	EXPECT_EQ(meant, 34);
	EXPECT_STREQ(rdiag_cm_rej_reason_meaning(34), "unassigned reject reason");
	EXPECT_STREQ(rdiag_cm_rej_reason_meaning(0), "unassigned reject reason");
	EXPECT_STREQ(rdiag_cm_rej_reason_meaning(1000), "unassigned reject reason");
	EXPECT_TRUE(contains(rdiag_cm_rej_reason_meaning(8), "no listener"));
	EXPECT_TRUE(contains(rdiag_cm_rej_reason_meaning(26), "MTU"));

	EXPECT_STREQ(rdiag_errno_name(110), "ETIMEDOUT");
	EXPECT_STREQ(rdiag_errno_name(-99), "EADDRNOTAVAIL");
	EXPECT_STREQ(rdiag_errno_name(0), "0");
	EXPECT_STREQ(rdiag_errno_name(100000), "E?");
	return tap_done();
}
