/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A decoded RoCEv2 packet as the flow analysis sees it, made by hand for the flow unit tests:
 * opcode op from 10.0.0.src to 10.0.0.dst, destination QP qp, PSN psn, 62 bytes, good ICRC.
 * Unit-test helper. */
#ifndef RDIAG_FLOW_PKT_H
#define RDIAG_FLOW_PKT_H
#include <string.h>
#include <sys/socket.h>
#include <rdmadiag/packet.h>

static struct rdiag_pkt pkt(uint8_t op, int src, int dst, uint32_t qp, uint32_t psn)
{
	struct rdiag_pkt p;

	memset(&p, 0, sizeof(p));
	p.present = RDIAG_HAS(RDIAG_HDR_LINK) | RDIAG_HAS(RDIAG_HDR_IPV4) |
		    RDIAG_HAS(RDIAG_HDR_UDP) | RDIAG_HAS_BTH | RDIAG_HAS_ICRC;
	p.encap = RDIAG_ENCAP_ROCEV2;
	p.linktype = RDIAG_DLT_EN10MB;
	p.ip_family = AF_INET;
	p.ip_src[0] = 10; p.ip_src[3] = (uint8_t)src;
	p.ip_dst[0] = 10; p.ip_dst[3] = (uint8_t)dst;
	p.dport = 4791;
	p.bth.opcode = op;
	p.bth.destqp = qp;
	p.bth.psn = psn & 0xffffff;
	p.bth.pkey = 0xffff;
	p.len = p.caplen = 62;
	p.icrc_checked = true;
	p.icrc_ok = true;
	return p;
}
#endif
