/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Names and encodings used by the self-tests: QP attribute masks, the two IB timer encodings
 * and GIDs (QP types and states are named by the counters module, MTU codes by the packet
 * module).  No device needed, so all of it is unit-tested. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "rdmadiag/selftest.h"
#include "verbs/verbs.h"
#include "internal.h"

static const struct {
	unsigned int bit;
	const char *name;
} qp_mask_names[] = {
	{ IBV_QP_STATE, "STATE" },
	{ IBV_QP_CUR_STATE, "CUR_STATE" },
	{ IBV_QP_EN_SQD_ASYNC_NOTIFY, "EN_SQD_ASYNC_NOTIFY" },
	{ IBV_QP_ACCESS_FLAGS, "ACCESS_FLAGS" },
	{ IBV_QP_PKEY_INDEX, "PKEY_INDEX" },
	{ IBV_QP_PORT, "PORT" },
	{ IBV_QP_QKEY, "QKEY" },
	{ IBV_QP_AV, "AV" },
	{ IBV_QP_PATH_MTU, "PATH_MTU" },
	{ IBV_QP_TIMEOUT, "TIMEOUT" },
	{ IBV_QP_RETRY_CNT, "RETRY_CNT" },
	{ IBV_QP_RNR_RETRY, "RNR_RETRY" },
	{ IBV_QP_RQ_PSN, "RQ_PSN" },
	{ IBV_QP_MAX_QP_RD_ATOMIC, "MAX_QP_RD_ATOMIC" },
	{ IBV_QP_ALT_PATH, "ALT_PATH" },
	{ IBV_QP_MIN_RNR_TIMER, "MIN_RNR_TIMER" },
	{ IBV_QP_SQ_PSN, "SQ_PSN" },
	{ IBV_QP_MAX_DEST_RD_ATOMIC, "MAX_DEST_RD_ATOMIC" },
	{ IBV_QP_PATH_MIG_STATE, "PATH_MIG_STATE" },
	{ IBV_QP_CAP, "CAP" },
	{ IBV_QP_DEST_QPN, "DEST_QPN" },
	{ IBV_QP_RATE_LIMIT, "RATE_LIMIT" },
};

char *rdiag_qp_mask_str(unsigned int mask, char *buf, size_t len)
{
	size_t i, used = 0;
	unsigned int left = mask;
	int n;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (i = 0; i < sizeof(qp_mask_names) / sizeof(qp_mask_names[0]); i++) {
		if (!(mask & qp_mask_names[i].bit))
			continue;
		left &= ~qp_mask_names[i].bit;
		n = snprintf(buf + used, len - used, "%s%s", used ? "|" : "",
			     qp_mask_names[i].name);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';	/* whole names only */
			return buf;
		}
		used += (size_t)n;
	}
	if (left)
		snprintf(buf + used, len - used, "%s0x%x", used ? "|" : "", left);
	else if (!used)
		snprintf(buf, len, "0");
	return buf;
}

/* IBA table 45 (enum ib_rnr_timeout), in units of 10 us; code 0 is the longest */
static const long rnr_timer_10us[32] = {
	65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768,
	1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152,
};

long rdiag_rnr_timer_us(int code)
{
	if (code < 0 || code > 31)
		return -1;
	return rnr_timer_10us[code] * 10;
}

int rdiag_rnr_timer_code(long us)
{
	int c;

	for (c = 1; c <= 31; c++)
		if (rnr_timer_10us[c] * 10 >= us)
			return c;
	return 0;	/* only code 0 (655.36 ms) is longer */
}

double rdiag_ack_timeout_us(int code)
{
	if (code <= 0 || code > 31)
		return 0;
	return 4.096 * (double)(1UL << code);
}

const char *rdiag_verdict_name(enum rdiag_verdict v)
{
	switch (v) {
	case RDIAG_PASS: return "pass";
	case RDIAG_FAIL: return "fail";
	case RDIAG_SKIP: return "skip";
	}
	return "unknown";
}

const char *rd_st_gid_type_name(int type)
{
	switch (type) {
	case IBV_GID_TYPE_IB: return "IB";
	case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
	case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
	}
	return "unknown";
}

void rd_st_gid_str(const union ibv_gid *gid, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid->raw, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}
