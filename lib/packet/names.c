/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Small name tables of the packet layer: AETH syndrome parts, result codes, header names. */
#include "internal.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* AETH NAK codes (syndrome 011x_xxxx): IBTA vol 1 9.7.5.2.8, rdma-reference §3.14 */
static const char *const nak_names[] = {
	[0] = "PSN_SEQ_ERR",
	[1] = "INVALID_REQ",
	[2] = "REMOTE_ACCESS_ERR",
	[3] = "REMOTE_OP_ERR",
	[4] = "INVALID_RD_REQ",
};

const char *rdiag_nak_name(unsigned int code)
{
	if (code < ARRAY_SIZE(nak_names) && nak_names[code])
		return nak_names[code];
	return "RESERVED";
}

/* RNR timer encoding (enum ib_rnr_timeout; rdma-reference §3.13), in units of 10 us so the
 * table is exact; code 0 is the largest value, 655.36 ms. */
static const unsigned int rnr_10us[32] = {
	65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
	256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576,
	32768, 49152,
};

double rdiag_rnr_timer_ms(unsigned int code)
{
	if (code >= ARRAY_SIZE(rnr_10us))
		return -1.0;
	return rnr_10us[code] / 100.0;
}

/* AETH credit codes (syndrome 000x_xxxx): the IBTA vol 1 end-to-end credit encoding, the table
 * rdmavt keeps as credit_table[]; code 31 means invalid, no end-to-end flow control */
static const int32_t aeth_credits[31] = {
	0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
	256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576,
	32768,
};

int32_t rdiag_aeth_credits(unsigned int code)
{
	return code < ARRAY_SIZE(aeth_credits) ? aeth_credits[code] : -1;
}

const char *rdiag_aeth_kind_name(unsigned int kind)
{
	static const char *const n[] = { "ack", "rnr_nak", "reserved", "nak" };

	return kind < ARRAY_SIZE(n) ? n[kind] : "reserved";
}

const char *rdiag_encap_name(unsigned int encap)
{
	static const char *const n[] = { "none", "rocev2", "rocev1", "ib", "pause", "pfc" };

	return encap < ARRAY_SIZE(n) ? n[encap] : "none";
}

const char *rdiag_pkt_status_name(unsigned int status)
{
	static const char *const n[] = { "ok", "truncated", "invalid" };

	return status < ARRAY_SIZE(n) ? n[status] : "invalid";
}

/* the same spelling as the rdmadump -j keys */
static const char *const hdr_names[RDIAG_HDR__COUNT] = {
	[RDIAG_HDR_NONE] = "none",
	[RDIAG_HDR_LINK] = "link",
	[RDIAG_HDR_VLAN] = "vlan",
	[RDIAG_HDR_IPV4] = "ipv4",
	[RDIAG_HDR_IPV6] = "ipv6",
	[RDIAG_HDR_UDP] = "udp",
	[RDIAG_HDR_LRH] = "lrh",
	[RDIAG_HDR_GRH] = "grh",
	[RDIAG_HDR_BTH] = "bth",
	[RDIAG_HDR_RDETH] = "rdeth",
	[RDIAG_HDR_DETH] = "deth",
	[RDIAG_HDR_XRCETH] = "xrceth",
	[RDIAG_HDR_RETH] = "reth",
	[RDIAG_HDR_ATOMICETH] = "atomiceth",
	[RDIAG_HDR_AETH] = "aeth",
	[RDIAG_HDR_ATOMICACKETH] = "atomicacketh",
	[RDIAG_HDR_IMMDT] = "immdt",
	[RDIAG_HDR_IETH] = "ieth",
	[RDIAG_HDR_FETH] = "feth",
	[RDIAG_HDR_PAYLOAD] = "payload",
	[RDIAG_HDR_MAD] = "mad",
	[RDIAG_HDR_CM] = "cm",
	[RDIAG_HDR_ICRC] = "icrc",
	[RDIAG_HDR_VCRC] = "vcrc",
	[RDIAG_HDR_MACC] = "mac_control",
	[RDIAG_HDR_RMPP] = "rmpp",
	[RDIAG_HDR_MAD_CLASS] = "mad_class",
	[RDIAG_HDR_MAD_DATA] = "mad_data",
};

const char *rdiag_hdr_name(unsigned int hdr)
{
	return hdr < ARRAY_SIZE(hdr_names) && hdr_names[hdr] ? hdr_names[hdr] : "unknown";
}

const char *rdiag_pkt_skip_name(int skip)
{
	switch (skip) {
	case RDIAG_SKIP_ETHERTYPE:
		return "not RoCE/IB transport";
	case RDIAG_SKIP_IP_PROTO:
		return "not UDP";
	case RDIAG_SKIP_UDP_PORT:
		return "not a RoCEv2 port";
	case RDIAG_SKIP_FRAGMENT:
		return "IP fragment";
	case RDIAG_SKIP_SHORT:
		return "too short to identify";
	default:
		return "unknown";
	}
}

/* IBA PathMTU / enum ibv_mtu: 1 = 256 ... 5 = 4096 bytes */
unsigned int rdiag_mtu_bytes(unsigned int code)
{
	return code >= 1 && code <= 5 ? 128u << code : 0;
}

unsigned int rdiag_mtu_from_bytes(unsigned int bytes)
{
	unsigned int code;

	for (code = 1; code <= 5; code++)
		if (rdiag_mtu_bytes(code) == bytes)
			return code;
	return 0;
}

/* the one port state table (rdmadiag/packet.h); the same strings as iproute2 rdma */
const char *rdiag_port_state_name(uint8_t s)
{
	static const char *const t[] = {
		[RDIAG_PORT_NOP] = "NOP",
		[RDIAG_PORT_DOWN] = "DOWN",
		[RDIAG_PORT_INIT] = "INIT",
		[RDIAG_PORT_ARMED] = "ARMED",
		[RDIAG_PORT_ACTIVE] = "ACTIVE",
		[RDIAG_PORT_ACTIVE_DEFER] = "ACTIVE_DEFER",
	};

	return s < ARRAY_SIZE(t) ? t[s] : NULL;
}
