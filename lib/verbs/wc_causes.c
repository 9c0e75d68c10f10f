/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Work-completion statuses: what each one means and its likely causes, ranked, with the next
 * check for each (rdmadoctor explain).
 *
 * The ranking is the order in which the causes turn up in public bug reports of NCCL, UCX,
 * Open MPI, libfabric and SPDK (tests/fixtures/explain/lines.tsv keeps the lines and their
 * sources) and in the IB specification's description of each status (vol. 1, 11.6.2).  In a
 * check, PEER, DEV and NETDEV stand for the peer's address, the RDMA device and its netdev
 * (rdmadoctor explain fills in PEER and DEV when the log line names them).  Statuses follow
 * enum ibv_wc_status. */
#include <stddef.h>

#include "rdmadiag/selftest.h"

#define MAX_CAUSES 5

struct wc_explained {
	const char *meaning;
	struct rdiag_wc_cause causes[MAX_CAUSES];
};

#define CHK_RETRY "rdmastat DEV -c retry_exceeded -c ack_timeout -c out_of_sequence -c retransmitted_packets -i 1"

static const struct wc_explained wc_explained[] = {
	[1] = { "a message did not fit: the receive buffer posted was shorter than the message "
		"that arrived, or a send was longer than the port allows",
		{ { "recv_buffer_too_small", "the receiver posted a buffer shorter than the "
		    "message the sender sent", "compare the send and receive sizes of both ends; "
		    "rdmastat DEV -c local_length_error" },
		  { "message_above_max", "the message is longer than the port's max message size "
		    "or the SGE list's total", "rdmacheck -d DEV alignment" } } },
	[2] = { "the work request does not fit the QP it was posted on",
		{ { "wr_exceeds_qp_caps", "more SGEs or more inline data than the QP was created "
		    "with, or an opcode its type does not allow", "rdmacheck -d DEV qp-states" },
		  { "qp_not_ready", "the QP is not in RTS (send) or RTR (receive) yet",
		    "rdmastat qp DEV" } } },
	[4] = { "the local buffer of the work request is not covered by a valid memory "
		"registration (lkey, range or protection domain)",
		{ { "bad_lkey_or_range", "a wrong lkey, or an SGE that runs past the end of its MR",
		    "rdmacheck -d DEV access" },
		  { "mr_deregistered", "the MR was deregistered (or its memory freed) while work "
		    "requests still used it", "rdmastat qp DEV" },
		  { "gpu_memory_not_mapped", "the buffer is GPU memory the NIC cannot reach: "
		    "nvidia-peermem or DMA-BUF not available, IOMMU or ACS in the way",
		    "lsmod | grep -e nvidia_peermem -e ib_peer; dmesg | grep -i iommu" },
		  { "other_pd", "the MR belongs to another protection domain than the QP",
		    "rdmacheck -d DEV access" } } },
	[5] = { "the request was flushed: the QP was already in the error state; this is a "
		"consequence, not a cause",
		{ { "earlier_error", "an earlier completion on the same QP failed and moved it "
		    "to the error state: that first error is the one to explain",
		    "look earlier in the log for the first completion error of this QP" },
		  { "qp_torn_down", "the application moved the QP to error or destroyed the "
		    "connection while requests were outstanding (normal at shutdown)",
		    "rdmastat cm DEV" } } },
	[6] = { "a memory-window bind or an invalidate failed",
		{ { "mw_access", "the MR lacks MW_BIND access, or the window's PD or type does "
		    "not match", "rdmacheck -d DEV access" } } },
	[7] = { "the responder answered with an unexpected packet",
		{ { "peer_qp_recreated", "the remote QP was reset or recreated with other PSNs",
		    "rdmadump -i NETDEV --errors" },
		  { "peer_bug", "an implementation bug on the responder", "rdmadump -i NETDEV "
		    "--errors" } } },
	[8] = { "data could not be written into a local buffer",
		{ { "no_local_write", "the buffer receiving data (receive, RDMA READ response, "
		    "atomic result) is in an MR without LOCAL_WRITE access",
		    "rdmacheck -d DEV access" } } },
	[9] = { "the responder refused the request as invalid",
		{ { "message_above_recv_buffer", "the message is longer than the receive buffer "
		    "the responder posted", "rdmastat DEV -c remote_invalid_request" },
		  { "op_not_enabled", "RDMA READ or atomic without max_dest_rd_atomic, or the QP "
		    "lacks the REMOTE_* access the operation needs", "rdmacheck -d DEV access" },
		  { "misaligned_atomic", "an atomic target not 8-byte aligned",
		    "rdmacheck -d DEV alignment" } } },
	[10] = { "the responder rejected the remote key or the address range",
		 { { "bad_or_stale_rkey", "a wrong or stale rkey: the peer deregistered or "
		     "re-registered the buffer, or the key belongs to another connection",
		     "on the peer: rdmastat -c remote_access_error" },
		   { "range_outside_mr", "address + length runs past the end of the remote MR",
		     "rdmacheck -d DEV access" },
		   { "missing_remote_access", "the remote MR or QP lacks REMOTE_WRITE, "
		     "REMOTE_READ or REMOTE_ATOMIC", "rdmacheck -d DEV access" },
		   { "gpu_memory_not_mapped", "the remote buffer is GPU memory its NIC cannot "
		     "reach (GPUDirect RDMA not enabled there)",
		     "on the peer: lsmod | grep nvidia_peermem" } } },
	[11] = { "the responder could not complete the operation",
		 { { "peer_recv_wqe_bad", "the responder's receive WQE was bad (lkey, length) "
		     "or its QP went to the error state", "the peer's log: its first completion "
		     "error" },
		   { "peer_process_gone", "the responder process exited or reset its QP",
		     "rdmadoctor connect PEER" } } },
	[12] = { "the requester sent a packet and got no acknowledgement within timeout x "
		 "(retry_cnt + 1): the peer never answered, or the answers were lost",
		 { { "peer_unreachable", "the peer cannot be reached at all: wrong destination "
		     "GID or GID index (RoCE v1 on one side, v2 on the other), no route or ARP "
		     "entry, a port down", "rdmadoctor connect PEER" },
		   { "packet_loss", "packets are dropped on the way: congestion without PFC or "
		     "ECN, a firewall dropping UDP 4791, a bad cable or a flapping link",
		     CHK_RETRY },
		   { "mtu_above_path", "the path MTU is larger than the real MTU of a link on the "
		     "path: small messages pass, large ones are dropped",
		     "rdmadoctor local on both ends; rdmadump -i NETDEV --errors" },
		   { "peer_process_gone", "the remote process died or its QP was destroyed or "
		     "moved to error first (its log shows the real error)",
		     "the peer's log; rdmastat cm DEV" },
		   { "timeout_too_short", "the ACK timeout is too short for the fabric's delay "
		     "under load (NCCL_IB_TIMEOUT, UCX_RC_TIMEOUT, the QP's timeout)",
		     CHK_RETRY } } },
	[13] = { "the receiver answered RNR NAK (no receive posted) more times than rnr_retry "
		 "allows",
		 { { "rnr_no_receive", "the receiver had not posted a receive when the SEND "
		     "arrived: receives posted too late or too few",
		     "rdmastat DEV -c rnr_nak_received -c rnr_nak_sent -i 1" },
		   { "rnr_retry_low", "rnr_retry is below 7 (7 retries forever), or "
		     "min_rnr_timer is too short for the receiver", "rdmacheck -d DEV rnr" },
		   { "receiver_stalled", "the receiving process is stuck or too slow to repost "
		     "receives under load", "rdmastat DEV -c rnr_nak_sent -i 1 on the peer" } } },
	[16] = { "the responder aborted the operation",
		 { { "peer_aborted", "the responder deregistered the MR or reset its QP while "
		     "the operation ran", "the peer's log" } } },
	[19] = { "the device reported a fatal error",
		 { { "device_fatal", "a catastrophic device or firmware error",
		     "dmesg | grep -i -e mlx5 -e infiniband; rdmastat devices" } } },
	[20] = { "a response did not arrive in time",
		 { { "peer_slow_or_unreachable", "the peer is too slow or cannot be reached",
		     "rdmadoctor connect PEER" } } },
	[21] = { "a vendor-specific error with no other status",
		 { { "vendor_specific", "the device's own error: the vendor error and dmesg tell "
		     "more", "dmesg | grep -i -e mlx5 -e infiniband" } } },
};

#define EXPLAINED_COUNT (sizeof(wc_explained) / sizeof(wc_explained[0]))

const char *rdiag_wc_status_meaning(int status)
{
	if (status >= 0 && (size_t)status < EXPLAINED_COUNT && wc_explained[status].meaning)
		return wc_explained[status].meaning;
	return rdiag_wc_status_hint(status);
}

size_t rdiag_wc_status_causes(int status, const struct rdiag_wc_cause **causes)
{
	size_t n = 0;

	*causes = NULL;
	if (status < 0 || (size_t)status >= EXPLAINED_COUNT)
		return 0;
	while (n < MAX_CAUSES && wc_explained[status].causes[n].id)
		n++;
	if (n)
		*causes = wc_explained[status].causes;
	return n;
}
