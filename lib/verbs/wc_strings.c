/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Work-completion status names, libibverbs' own wording, and the likely causes.
 *
 * ibv_wc_status_str() says *what* happened ("remote access error"); the hint says *why* it
 * usually happens and what to look at.  The table is ours (not ibv_wc_status_str) so that
 * tools without libibverbs at hand (a capture analyser, a doctor reading a log) can use
 * it, and so that a status newer than the installed libibverbs still gets its name.
 * Values follow enum ibv_wc_status (rdma-core libibverbs/verbs.h); they are ABI. */
#include <stddef.h>
#include <strings.h>

#include "rdmadiag/selftest.h"

struct wc_string {
	const char *name;	/* enumerator */
	const char *str;	/* ibv_wc_status_str() text */
	const char *hint;	/* likely cause, what to check */
};

static const struct wc_string wc_strings[] = {
	[0] = { "IBV_WC_SUCCESS", "success", "the operation completed" },
	[1] = { "IBV_WC_LOC_LEN_ERR", "local length error",
		"the incoming message is longer than the posted receive buffer, or a send is "
		"longer than the port's max message size; compare the sizes posted on both ends" },
	[2] = { "IBV_WC_LOC_QP_OP_ERR", "local QP operation error",
		"the work request does not fit the QP: too many SGEs, inline data above "
		"max_inline_data, an opcode the QP type does not allow, or a QP not in RTS" },
	[3] = { "IBV_WC_LOC_EEC_OP_ERR", "local EE context operation error",
		"reliable-datagram (EE context) error; not expected on RC, UC or UD" },
	[4] = { "IBV_WC_LOC_PROT_ERR", "local protection error",
		"the local lkey is wrong, the SGE falls outside its MR, or the MR belongs to "
		"another PD; check lkey, address and length of every SGE" },
	[5] = { "IBV_WC_WR_FLUSH_ERR", "Work Request Flushed Error",
		"a consequence, not a cause: the QP was already in the error state when this "
		"request was processed; look at the first completion that failed before it" },
	[6] = { "IBV_WC_MW_BIND_ERR", "memory management operation error",
		"a memory-window bind or an invalidate failed: the MR lacks MW_BIND access, or "
		"the window's PD or type does not match" },
	[7] = { "IBV_WC_BAD_RESP_ERR", "bad response error",
		"the responder answered with an unexpected opcode: the remote QP was reset or "
		"recreated with other PSNs, or a peer implementation bug" },
	[8] = { "IBV_WC_LOC_ACCESS_ERR", "local access error",
		"a local buffer receiving data (RDMA READ response, atomic result, receive) is "
		"in an MR without LOCAL_WRITE access" },
	[9] = { "IBV_WC_REM_INV_REQ_ERR", "remote invalid request error",
		"the responder refused the request: message longer than its receive buffer, "
		"opcode not allowed on its QP (RDMA READ/atomic without max_dest_rd_atomic, "
		"no REMOTE_* access on the QP), or a misaligned atomic target" },
	[10] = { "IBV_WC_REM_ACCESS_ERR", "remote access error",
		 "the responder rejected the rkey or range: wrong or stale rkey, an MR of "
		 "another PD, the MR or QP lacks REMOTE_WRITE/REMOTE_READ/REMOTE_ATOMIC, or "
		 "address+length runs past the end of the remote MR" },
	[11] = { "IBV_WC_REM_OP_ERR", "remote operation error",
		 "the responder could not finish the operation: its receive WQE was bad "
		 "(lkey, length) or its QP went to the error state" },
	[12] = { "IBV_WC_RETRY_EXC_ERR", "transport retry counter exceeded",
		 "no ACK within timeout x (retry_cnt+1): peer unreachable (wrong dgid or GID "
		 "index, RoCE v1/v2 mismatch, ARP/route), path MTU above the real link MTU, "
		 "packet loss (PFC/ECN, firewall on UDP 4791), or the remote QP is not in "
		 "RTR/RTS or has another QP number" },
	[13] = { "IBV_WC_RNR_RETRY_EXC_ERR", "RNR retry counter exceeded",
		 "the receiver had no receive posted (RNR NAK) more times than rnr_retry "
		 "allows: post receives before the peer sends, use rnr_retry=7 (infinite), "
		 "raise min_rnr_timer, or add flow control" },
	[14] = { "IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation error",
		 "reliable-datagram domain violation; not expected on RC, UC or UD" },
	[15] = { "IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request",
		 "reliable-datagram request refused by the remote EE context; RD only" },
	[16] = { "IBV_WC_REM_ABORT_ERR", "aborted error",
		 "the responder aborted the operation, e.g. while deregistering the MR or "
		 "resetting its QP" },
	[17] = { "IBV_WC_INV_EECN_ERR", "invalid EE context number",
		 "reliable-datagram EE context number invalid; RD only" },
	[18] = { "IBV_WC_INV_EEC_STATE_ERR", "invalid EE context state",
		 "reliable-datagram EE context in the wrong state; RD only" },
	[19] = { "IBV_WC_FATAL_ERR", "fatal error",
		 "the device reported a fatal (catastrophic) error: check dmesg, the async "
		 "event queue and the firmware" },
	[20] = { "IBV_WC_RESP_TIMEOUT_ERR", "response timeout error",
		 "the response did not arrive in time (RD, XRC or vendor specific): peer "
		 "too slow or unreachable" },
	[21] = { "IBV_WC_GENERAL_ERR", "general error",
		 "vendor-specific error: read dmesg and the completion's vendor_err" },
	[22] = { "IBV_WC_TM_ERR", "TM error",
		 "tag-matching error: the tag list or the TM-SRQ capacity was exceeded" },
	[23] = { "IBV_WC_TM_RNDV_INCOMPLETE", "TM software rendezvous",
		 "tag-matching rendezvous must be completed in software" },
};

#define WC_COUNT (sizeof(wc_strings) / sizeof(wc_strings[0]))

static const struct wc_string *wc_lookup(int status)
{
	if (status < 0 || (size_t)status >= WC_COUNT || !wc_strings[status].name)
		return NULL;
	return &wc_strings[status];
}

const char *rdiag_wc_status_name(int status)
{
	const struct wc_string *w = wc_lookup(status);

	return w ? w->name : NULL;
}

const char *rdiag_wc_status_str(int status)
{
	const struct wc_string *w = wc_lookup(status);

	return w ? w->str : "unknown status";
}

const char *rdiag_wc_status_hint(int status)
{
	const struct wc_string *w = wc_lookup(status);

	return w ? w->hint : "status unknown to rdmadiag: newer libibverbs or a vendor value";
}

int rdiag_wc_status_from_name(const char *name)
{
	size_t i, off;

	if (!name)
		return -1;
	for (i = 0; i < WC_COUNT; i++) {
		const char *n = wc_strings[i].name;

		if (!n)
			continue;
		/* accept "IBV_WC_RNR_RETRY_EXC_ERR" and "RNR_RETRY_EXC_ERR" */
		off = 0;
		if (strncasecmp(name, "IBV_WC_", 7) != 0)
			off = 7;
		if (strcasecmp(name, n + off) == 0)
			return (int)i;
	}
	return -1;
}
