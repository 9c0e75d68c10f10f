/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Work-completion strings: names and wording match libibverbs for every status it knows. */
#include <infiniband/verbs.h>

#include "tap.h"
#include "rdmadiag/selftest.h"

int main(void)
{
	int s;

	/* the installed libibverbs is the reference for the wording, status by status */
	for (s = IBV_WC_SUCCESS; s <= IBV_WC_TM_RNDV_INCOMPLETE; s++) {
		EXPECT_STREQ(rdiag_wc_status_str(s), ibv_wc_status_str((enum ibv_wc_status)s));
		EXPECT_TRUE(rdiag_wc_status_hint(s)[0] != '\0');
		EXPECT_EQ(rdiag_wc_status_from_name(rdiag_wc_status_name(s)), s);
	}
	EXPECT_STREQ(rdiag_wc_status_name(IBV_WC_RNR_RETRY_EXC_ERR), "IBV_WC_RNR_RETRY_EXC_ERR");
	EXPECT_STREQ(rdiag_wc_status_name(IBV_WC_REM_ACCESS_ERR), "IBV_WC_REM_ACCESS_ERR");
	EXPECT_STREQ(rdiag_wc_status_name(12), "IBV_WC_RETRY_EXC_ERR");
	EXPECT_EQ(rdiag_wc_status_from_name("rem_access_err"), 10);
	EXPECT_EQ(rdiag_wc_status_from_name("IBV_WC_NOPE"), -1);
	EXPECT_EQ(rdiag_wc_status_from_name(NULL), -1);
	/* out of range never crashes: no name (NULL), but the texts are never NULL */
	EXPECT_TRUE(rdiag_wc_status_name(-1) == NULL);
	EXPECT_TRUE(rdiag_wc_status_name(24) == NULL);
	EXPECT_STREQ(rdiag_wc_status_str(999), "unknown status");
	EXPECT_TRUE(rdiag_wc_status_hint(24) != NULL);
	/* the hints name the causes users look for */
	EXPECT_TRUE(strstr(rdiag_wc_status_hint(13), "receive") != NULL);
	EXPECT_TRUE(strstr(rdiag_wc_status_hint(10), "rkey") != NULL);
	EXPECT_TRUE(strstr(rdiag_wc_status_hint(12), "MTU") != NULL);
	EXPECT_TRUE(strstr(rdiag_wc_status_hint(5), "earlier") != NULL ||
		    strstr(rdiag_wc_status_hint(5), "first") != NULL);
	return tap_done();
}
