/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/packet.h: decode one captured frame into a RoCEv2 / RoCEv1 / InfiniBand record.
 *
 * The decoder is a pure function of the bytes: it fills a caller-provided struct rdiag_pkt,
 * never allocates, never prints and never reads past caplen.  Every packet byte is read through
 * one bounds-checked cursor, so a frame cut by the snap length ("truncated") and a malformed
 * frame ("invalid") are told apart and a partial decode is still usable: the record says which
 * header the decoder stopped in, and every header decoded before that point is present.
 *
 *	struct rdiag_decode_opts opts;
 *	struct rdiag_pkt p;
 *
 *	rdiag_decode_opts_init(&opts);          (UDP port 4791, ICRC check on)
 *	r = rdiag_pkt_decode(&p, DLT_EN10MB, data, hdr->caplen, hdr->len, &opts);
 *	if (r < 0)        bad arguments or unsupported link type (-EINVAL, -EPROTONOSUPPORT)
 *	else if (r > 0)   not an RDMA packet (enum rdiag_pkt_skip says why): skip it
 *	else              an RDMA packet, or a PAUSE / PFC frame (p.encap RDIAG_ENCAP_PAUSE or
 *	                  RDIAG_ENCAP_PFC, p.macc); p.status says ok / truncated / invalid,
 *	                  p.present which headers were decoded (RDIAG_HAS_*)
 *
 * All multi-byte fields are in host byte order; addresses and GIDs are kept as network-order
 * bytes.  Offsets (payload_off, ip_opt_off, ...) are byte offsets into the caller's data.
 */
#ifndef RDMADIAG_PACKET_H
#define RDMADIAG_PACKET_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- link types (pcap LINKTYPE_ / DLT_ numbers) accepted by rdiag_pkt_decode ------------ */
enum {
	RDIAG_DLT_EN10MB = 1,
	RDIAG_DLT_RAW_12 = 12,		/* DLT_RAW on most BSDs */
	RDIAG_DLT_RAW_14 = 14,		/* DLT_RAW on OpenBSD */
	RDIAG_DLT_RAW = 101,		/* LINKTYPE_RAW */
	RDIAG_DLT_LINUX_SLL = 113,
	RDIAG_DLT_IPV4 = 228,
	RDIAG_DLT_IPV6 = 229,
	RDIAG_DLT_INFINIBAND = 247,
	RDIAG_DLT_LINUX_SLL2 = 276,
};
bool rdiag_linktype_supported(int linktype);

/* ---- options ------------------------------------------------------------------------------ */
#define RDIAG_ROCEV2_PORT	4791
#define RDIAG_MAX_PORTS		8

struct rdiag_decode_opts {
	uint16_t ports[RDIAG_MAX_PORTS];	/* UDP destination ports that mean RoCEv2 */
	unsigned int n_ports;			/* 0 is treated as { 4791 } */
	bool check_icrc;			/* compute and compare the ICRC (and VCRC on IB) */
	bool decode_mad;			/* decode MAD/CM on QP1 (default on) */
};
/* defaults: ports = { 4791 }, check_icrc = true, decode_mad = true.  NULL opts = defaults. */
void rdiag_decode_opts_init(struct rdiag_decode_opts *o);
/* append a port; 0, -EEXIST (already there, harmless) or -ENOSPC */
int rdiag_decode_opts_add_port(struct rdiag_decode_opts *o, uint16_t port);

/* ---- result codes ------------------------------------------------------------------------- */

/* positive return values of rdiag_pkt_decode: "not RDMA, skip it" */
enum rdiag_pkt_skip {
	RDIAG_SKIP_ETHERTYPE = 1,	/* neither IPv4, IPv6, RoCEv1 (0x8915) nor a PAUSE/PFC
					 * MAC control frame (0x8808, opcode 0x0001/0x0101) */
	RDIAG_SKIP_IP_PROTO = 2,	/* IP but not UDP */
	RDIAG_SKIP_UDP_PORT = 3,	/* UDP, destination port not in opts->ports */
	RDIAG_SKIP_FRAGMENT = 4,	/* IPv4 non-first fragment or IPv6 fragment header */
	RDIAG_SKIP_SHORT = 5,		/* cut (or malformed) before it could be identified */
};

/* p->status */
enum rdiag_pkt_status {
	RDIAG_PKT_OK = 0,
	RDIAG_PKT_TRUNCATED = 1,	/* caplen < len cut a header: everything before is valid */
	RDIAG_PKT_INVALID = 2,		/* malformed (a length field lies, bad version, ...) */
};

/* Headers, in wire order.  Used for p->stopped_in and for the RDIAG_HAS_ bit of each. */
enum rdiag_hdr {
	RDIAG_HDR_NONE = 0,
	RDIAG_HDR_LINK,		/* Ethernet / SLL / SLL2 header */
	RDIAG_HDR_VLAN,
	RDIAG_HDR_IPV4,
	RDIAG_HDR_IPV6,
	RDIAG_HDR_UDP,
	RDIAG_HDR_LRH,
	RDIAG_HDR_GRH,
	RDIAG_HDR_BTH,
	RDIAG_HDR_RDETH,
	RDIAG_HDR_DETH,
	RDIAG_HDR_XRCETH,
	RDIAG_HDR_RETH,
	RDIAG_HDR_ATOMICETH,
	RDIAG_HDR_AETH,
	RDIAG_HDR_ATOMICACKETH,
	RDIAG_HDR_IMMDT,
	RDIAG_HDR_IETH,
	RDIAG_HDR_FETH,
	RDIAG_HDR_PAYLOAD,
	RDIAG_HDR_MAD,		/* MAD common header (QP1) */
	RDIAG_HDR_CM,		/* CM class message body */
	RDIAG_HDR_ICRC,
	RDIAG_HDR_VCRC,
	RDIAG_HDR_MACC,		/* MAC control parameters: PAUSE time / PFC vector and times */
	RDIAG_HDR_RMPP,		/* RMPP header (SA, and classes that set RMPP active) */
	RDIAG_HDR_MAD_CLASS,	/* class header: SMP M_Key (+ directed route), SA, PerfMgt */
	RDIAG_HDR_MAD_DATA,	/* the attribute itself (rdiag_mad.layout) */
	RDIAG_HDR__COUNT
};
#define RDIAG_HAS(h)	(1u << (h))
/* convenience masks */
#define RDIAG_HAS_BTH	RDIAG_HAS(RDIAG_HDR_BTH)
#define RDIAG_HAS_AETH	RDIAG_HAS(RDIAG_HDR_AETH)
#define RDIAG_HAS_RETH	RDIAG_HAS(RDIAG_HDR_RETH)
#define RDIAG_HAS_DETH	RDIAG_HAS(RDIAG_HDR_DETH)
#define RDIAG_HAS_GRH	RDIAG_HAS(RDIAG_HDR_GRH)
#define RDIAG_HAS_LRH	RDIAG_HAS(RDIAG_HDR_LRH)
#define RDIAG_HAS_ICRC	RDIAG_HAS(RDIAG_HDR_ICRC)
#define RDIAG_HAS_MAD	RDIAG_HAS(RDIAG_HDR_MAD)
#define RDIAG_HAS_CM	RDIAG_HAS(RDIAG_HDR_CM)
#define RDIAG_HAS_MACC	RDIAG_HAS(RDIAG_HDR_MACC)
#define RDIAG_HAS_RMPP	RDIAG_HAS(RDIAG_HDR_RMPP)
#define RDIAG_HAS_MAD_CLASS	RDIAG_HAS(RDIAG_HDR_MAD_CLASS)
#define RDIAG_HAS_MAD_DATA	RDIAG_HAS(RDIAG_HDR_MAD_DATA)

enum rdiag_encap {
	RDIAG_ENCAP_NONE = 0,
	RDIAG_ENCAP_ROCEV2 = 1,		/* Eth/IP/UDP 4791/BTH */
	RDIAG_ENCAP_ROCEV1 = 2,		/* Eth 0x8915/GRH/BTH */
	RDIAG_ENCAP_IB = 3,		/* LRH [GRH] BTH ... ICRC VCRC */
	RDIAG_ENCAP_PAUSE = 4,		/* Eth 0x8808 opcode 0x0001: IEEE 802.3x PAUSE */
	RDIAG_ENCAP_PFC = 5,		/* Eth 0x8808 opcode 0x0101: IEEE 802.1Qbb PFC */
};

/* ---- records of the individual headers ------------------------------------------------------ */
#define RDIAG_VLAN_MAX 8

struct rdiag_vlan {
	uint16_t tpid;		/* 0x8100, 0x88a8 or 0x9100 */
	uint16_t vid;
	uint8_t pcp, dei;
};

struct rdiag_lrh {
	uint8_t vl, lver, sl, lnh;	/* lnh: 0 raw, 1 IP, 2 IBA local (BTH), 3 IBA global (GRH) */
	uint16_t dlid, slid;
	uint16_t pktlen;		/* in 4-byte words, LRH through ICRC */
};

struct rdiag_grh {
	uint8_t ipver, tclass;
	uint32_t flow_label;
	uint16_t paylen;
	uint8_t nxthdr, hoplmt;
	uint8_t sgid[16], dgid[16];
};

struct rdiag_bth {
	uint8_t opcode;
	uint8_t se, m, padcnt, tver;
	uint16_t pkey;
	uint8_t fecn, becn, resv6;	/* resv6: the 6 reserved bits after F/B */
	uint32_t destqp;
	uint8_t ackreq, resv7;		/* A bit, the 7 reserved bits after it */
	uint32_t psn;
};

enum rdiag_aeth_kind {
	RDIAG_AETH_ACK = 0,		/* syndrome bits 6:5 = 00 */
	RDIAG_AETH_RNR_NAK = 1,		/* 01 */
	RDIAG_AETH_RESERVED = 2,	/* 10 (reserved by IBTA) */
	RDIAG_AETH_NAK = 3,		/* 11 */
};

struct rdiag_aeth {
	uint8_t syndrome;		/* the whole 8-bit syndrome */
	uint8_t kind;			/* enum rdiag_aeth_kind */
	uint8_t credits_code;		/* ACK: the 5-bit credit field as on the wire */
	int32_t credits;		/* ACK: rdiag_aeth_credits(credits_code): the count, -1 for
					 * code 31 (invalid: no end-to-end flow control) */
	uint8_t timer;			/* RNR NAK: timer code 0..31 */
	uint8_t nak;			/* NAK: code 0..31 */
	double timer_ms;		/* RNR NAK: rdiag_rnr_timer_ms(timer) */
	const char *nak_name;		/* NAK: rdiag_nak_name(nak), static string */
	uint32_t msn;
};

struct rdiag_reth {
	uint64_t va;
	uint32_t rkey, dmalen;
};

struct rdiag_atomiceth {
	uint64_t va;
	uint32_t rkey;
	uint64_t swap, compare;		/* swap (or add) data, compare data */
};

struct rdiag_feth {
	uint32_t raw;
	uint8_t sel;			/* selectivity level (bits 5:4) */
	uint8_t plt;			/* placement type (bits 3:0) */
};

/* A field of a MAD attribute layout (lib/packet/mad_fields.c: SMP, SA, PerfMgt, CM LAP/APR/
 * SIDR).  Offsets and widths are in bits from the start of the record, most significant bit
 * first, as IBTA and libibmad count them.  Read a value with rdiag_mad_bits(). */
enum rdiag_mad_fkind {
	RDIAG_MF_UINT = 0,	/* an unsigned number of up to 64 bits */
	RDIAG_MF_GID,		/* 128 bits: a GID */
	RDIAG_MF_TEXT,		/* bits/8 bytes of NUL-padded text (NodeDescription) */
	RDIAG_MF_RESERVED,	/* counted as an SA component, never shown */
	RDIAG_MF_SUB,		/* an embedded attribute (sub) at this offset */
};

struct rdiag_mad_attr;

struct rdiag_mad_field {
	const char *name;		/* snake_case IBTA name: "master_sm_lid" */
	uint16_t off, bits;		/* bit offset in the record, width of one element */
	uint8_t kind;			/* enum rdiag_mad_fkind */
	uint8_t count;			/* 0: scalar; n: an array of n elements stride bits apart */
	uint16_t stride;
	int8_t comp;			/* SA component mask bit (first of count), -1: none */
	const struct rdiag_mad_attr *sub;	/* RDIAG_MF_SUB */
	const char *(*vname)(unsigned int v);	/* names of the values, or NULL */
};

struct rdiag_mad_attr {
	uint16_t attr_id;
	const char *name;		/* IBTA name: "PortInfo" */
	const char *key;		/* JSON object name without the class: "port_info" */
	uint16_t len;			/* bytes of one record */
	uint16_t n_fields;
	const struct rdiag_mad_field *fields;
};

/* RMPP header (MAD bytes 24..35) */
enum {
	RDIAG_RMPP_FLAG_ACTIVE = 1,
	RDIAG_RMPP_FLAG_FIRST = 2,
	RDIAG_RMPP_FLAG_LAST = 4,
};
struct rdiag_rmpp {
	uint8_t version, type;		/* type 1 DATA, 2 ACK, 3 STOP, 4 ABORT */
	uint8_t resp_time, flags;	/* RRespTime (5 bits), RMPPFlags (3 bits) */
	uint8_t status;
	uint32_t seg_num;		/* DATA: SegmentNumber; ACK: SegmentNumber */
	uint32_t paylen;		/* DATA: PayloadLength; ACK: NewWindowLast */
};

/* MAD common header (first 24 bytes of every MAD), then what lib/packet knows of the class:
 * the SMP header (classes 0x01, 0x81), RMPP and SA headers (0x03), PerfMgt (0x04), and the
 * layout of the attribute with where its records are. */
struct rdiag_mad {
	uint8_t base_version, mgmt_class, class_version;
	uint8_t method;			/* with the R (response) bit 0x80 */
	uint16_t status, class_specific;	/* as on the wire (DR SMP: D bit 15, hop pointer
					 * and count) */
	uint64_t tid;
	uint16_t attr_id;
	uint32_t attr_mod;
	/* the rest is zero unless the class sets it; unspecified without RDIAG_HAS_MAD */
	/* RDIAG_HAS_MAD_CLASS */
	bool dr;			/* directed-route SMP (class 0x81) */
	uint8_t d_bit;			/* DR: direction, 1 = returning */
	uint8_t hop_ptr, hop_cnt;	/* DR: class_specific split */
	uint16_t dr_slid, dr_dlid;	/* DR */
	uint32_t path_off;		/* DR: offset into data of the initial path (64 bytes);
					 * the return path follows it */
	uint64_t m_key;			/* SMP */
	uint64_t sm_key, comp_mask;	/* SA */
	uint16_t attr_offset;		/* SA: record stride in 8-byte words */
	/* RDIAG_HAS_RMPP */
	struct rdiag_rmpp rmpp;
	/* RDIAG_HAS_MAD_DATA: n_records complete records of layout at data_off, rec_stride bytes
	 * apart; first_record is the index of the first in an RMPP-segmented SA table */
	const struct rdiag_mad_attr *layout;
	uint32_t data_off;
	uint16_t n_records, rec_stride;
	uint32_t first_record;
};

/* MAD management classes (IBTA vol 1 13.4.4 "Management Class values", the kernel's
 * IB_MGMT_CLASS_*); rdiag_mad_class_name() names them */
enum rdiag_mad_class {
	RDIAG_MAD_CLASS_SUBN_LID_ROUTED = 0x01,	/* SMP, LID-routed */
	RDIAG_MAD_CLASS_SUBN_ADM = 0x03,	/* SA (subnet administration) */
	RDIAG_MAD_CLASS_PERF = 0x04,		/* PerfMgt */
	RDIAG_MAD_CLASS_BM = 0x05,		/* baseboard management */
	RDIAG_MAD_CLASS_DEVICE_MGMT = 0x06,
	RDIAG_MAD_CLASS_CM = 0x07,		/* communication management */
	RDIAG_MAD_CLASS_SNMP = 0x08,
	RDIAG_MAD_CLASS_VENDOR_RANGE1_START = 0x09,	/* vendor classes without RMPP */
	RDIAG_MAD_CLASS_VENDOR_RANGE1_END = 0x0F,
	RDIAG_MAD_CLASS_CONG_MGMT = 0x21,	/* congestion control */
	RDIAG_MAD_CLASS_VENDOR_RANGE2_START = 0x30,	/* vendor classes with an RMPP header */
	RDIAG_MAD_CLASS_VENDOR_RANGE2_END = 0x4F,
	RDIAG_MAD_CLASS_SUBN_DIRECTED = 0x81,	/* SMP, directed-route */
};

/* attribute IDs of the SMP and SA classes the library looks for (IBTA vol 1 14.2.5, 15.2.5;
 * the CM's are enum rdiag_cm_msg) */
enum rdiag_mad_attr_id {
	RDIAG_MAD_ATTR_CLASS_PORT_INFO = 0x0001,	/* every class */
	RDIAG_MAD_ATTR_NOTICE = 0x0002,			/* SMP and SA: traps and reports */
	RDIAG_MAD_ATTR_NODE_DESC = 0x0010,		/* SMP */
	RDIAG_MAD_ATTR_NODE_INFO = 0x0011,		/* SMP */
	RDIAG_MAD_ATTR_PORT_INFO = 0x0015,		/* SMP */
	RDIAG_MAD_ATTR_PATH_RECORD = 0x0035,		/* SA */
};

/* IB CM (management class 0x07, RDIAG_MAD_CLASS_CM) attribute IDs */
enum rdiag_cm_msg {
	RDIAG_CM_CLASSPORTINFO = 0x0001,
	RDIAG_CM_REQ = 0x0010,
	RDIAG_CM_MRA = 0x0011,
	RDIAG_CM_REJ = 0x0012,
	RDIAG_CM_REP = 0x0013,
	RDIAG_CM_RTU = 0x0014,
	RDIAG_CM_DREQ = 0x0015,
	RDIAG_CM_DREP = 0x0016,
	RDIAG_CM_SIDR_REQ = 0x0017,
	RDIAG_CM_SIDR_REP = 0x0018,
	RDIAG_CM_LAP = 0x0019,
	RDIAG_CM_APR = 0x001A,
};

/* IB CM reject reasons (IBTA vol 1 ch. 12 "REJ reason", kernel enum ib_cm_rej_reason); the
 * status of RDMA_CM_EVENT_REJECTED on IB and RoCE.  34 is unassigned. */
enum rdiag_cm_rej_reason {
	RDIAG_REJ_NO_QP = 1,
	RDIAG_REJ_NO_EEC = 2,
	RDIAG_REJ_NO_RESOURCES = 3,
	RDIAG_REJ_TIMEOUT = 4,
	RDIAG_REJ_UNSUPPORTED = 5,
	RDIAG_REJ_INVALID_COMM_ID = 6,
	RDIAG_REJ_INVALID_COMM_INSTANCE = 7,
	RDIAG_REJ_INVALID_SERVICE_ID = 8,
	RDIAG_REJ_INVALID_TRANSPORT_TYPE = 9,
	RDIAG_REJ_STALE_CONN = 10,
	RDIAG_REJ_RDC_NOT_EXIST = 11,
	RDIAG_REJ_INVALID_GID = 12,
	RDIAG_REJ_INVALID_LID = 13,
	RDIAG_REJ_INVALID_SL = 14,
	RDIAG_REJ_INVALID_TRAFFIC_CLASS = 15,
	RDIAG_REJ_INVALID_HOP_LIMIT = 16,
	RDIAG_REJ_INVALID_PACKET_RATE = 17,
	RDIAG_REJ_INVALID_ALT_GID = 18,
	RDIAG_REJ_INVALID_ALT_LID = 19,
	RDIAG_REJ_INVALID_ALT_SL = 20,
	RDIAG_REJ_INVALID_ALT_TRAFFIC_CLASS = 21,
	RDIAG_REJ_INVALID_ALT_HOP_LIMIT = 22,
	RDIAG_REJ_INVALID_ALT_PACKET_RATE = 23,
	RDIAG_REJ_PORT_CM_REDIRECT = 24,
	RDIAG_REJ_PORT_REDIRECT = 25,
	RDIAG_REJ_INVALID_MTU = 26,
	RDIAG_REJ_INSUFFICIENT_RESP_RESOURCES = 27,
	RDIAG_REJ_CONSUMER_DEFINED = 28,
	RDIAG_REJ_INVALID_RNR_RETRY = 29,
	RDIAG_REJ_DUPLICATE_LOCAL_COMM_ID = 30,
	RDIAG_REJ_INVALID_CLASS_VERSION = 31,
	RDIAG_REJ_INVALID_FLOW_LABEL = 32,
	RDIAG_REJ_INVALID_ALT_FLOW_LABEL = 33,
	RDIAG_REJ_VENDOR_OPTION_NOT_SUPPORTED = 35,
};

/* RDMA IP port spaces (enum rdma_port_space) */
enum {
	RDIAG_PS_IPOIB = 0x0002,
	RDIAG_PS_TCP = 0x0106,
	RDIAG_PS_UDP = 0x0111,
	RDIAG_PS_IB = 0x013F,
};

/* Key fields of a CM message.  Which fields are meaningful depends on msg:
 *   REQ:  local_comm_id service_id(+ps/port) local_ca_guid local_qpn starting_psn path_mtu
 *         retry_count rnr_retry_count resp_resources initiator_depth transport local_cm_timeout
 *         remote_cm_timeout max_cm_retries pkey primary_{slid,dlid,sgid,dgid} ip
 *   MRA:  local/remote_comm_id msg_mraed service_timeout
 *   REJ:  local/remote_comm_id msg_rejected reason reason_name ari_len
 *   REP:  local/remote_comm_id local_ca_guid local_qpn starting_psn resp_resources
 *         initiator_depth rnr_retry_count target_ack_delay
 *   RTU, DREP: local/remote_comm_id;  DREQ: + remote_qpn (the remote QPN/EECN field)
 *   SIDR_REQ: request_id(=local_comm_id) pkey service_id ip
 *   SIDR_REP: request_id(=local_comm_id) sidr_status local_qpn service_id qkey
 */
struct rdiag_cm {
	uint16_t msg;			/* enum rdiag_cm_msg (= MAD attribute id) */
	uint32_t local_comm_id, remote_comm_id;
	uint64_t service_id;
	bool sid_is_ip;			/* service_id has the RDMA IP form 0x00000000_01PPPPPP */
	uint16_t port_space, port;	/* valid when sid_is_ip */
	uint64_t local_ca_guid;
	uint32_t local_qpn, remote_qpn;	/* remote_qpn: DREQ */
	uint32_t starting_psn;
	uint32_t qkey;			/* REQ local Q_Key (UD), SIDR_REP Q_Key */
	uint16_t pkey;
	uint8_t path_mtu;		/* IB MTU code: 1=256 ... 5=4096 */
	uint8_t retry_count, rnr_retry_count;
	uint8_t resp_resources, initiator_depth;
	uint8_t transport;		/* REQ transport service type: 0 RC, 1 UC, 2 RD, 3 reserved */
	uint8_t local_cm_timeout, remote_cm_timeout, max_cm_retries;
	uint8_t target_ack_delay;	/* REP */
	uint16_t primary_slid, primary_dlid;		/* REQ primary path */
	uint8_t primary_sgid[16], primary_dgid[16];
	uint8_t msg_mraed, service_timeout;	/* MRA */
	uint8_t msg_rejected;		/* REJ: 0 REQ, 1 REP, 2 other */
	uint8_t ari_len;		/* REJ additional reject info length */
	uint16_t reason;		/* REJ reason */
	const char *reason_name;	/* rdiag_cm_rej_reason_name(reason) */
	uint8_t sidr_status;		/* SIDR_REP */
	uint32_t priv_off, priv_len;	/* private data: offset into data, length (as captured) */
	/* rdma_cm IP private data (REQ / SIDR_REQ when sid_is_ip and present) */
	bool has_ip;
	uint8_t ip_cma_version;		/* cma_hdr version (0x00) */
	uint8_t ip_family;		/* AF_INET / AF_INET6 (from the ip_version nibble) */
	uint16_t ip_src_port;
	uint8_t ip_src[16], ip_dst[16];	/* IPv4: first 4 bytes */
};

/* MAC control frame (p->encap PAUSE or PFC; the fields are there when RDIAG_HAS_MACC).
 * Times are in pause quanta of 512 bit times; 0 is XON (resume), > 0 XOFF. */
#define RDIAG_PFC_PRIOS 8
struct rdiag_macc {
	uint16_t opcode;		/* 0x0001 PAUSE, 0x0101 PFC */
	uint16_t pause_quanta;		/* PAUSE: pause_time */
	uint8_t pfc_enable;		/* PFC: priority-enable vector, bit n = priority n */
	uint8_t pfc_reserved;		/* PFC: the vector's reserved first octet (non-zero:
					 * the frame is invalid, stopped_in RDIAG_HDR_MACC) */
	uint16_t pfc_quanta[RDIAG_PFC_PRIOS];	/* PFC: time[n], meaningful where enabled */
};

/* ---- the decoded packet ---------------------------------------------------------------------- */
struct rdiag_pkt {
	uint32_t present;		/* RDIAG_HAS(RDIAG_HDR_x) bits */
	uint8_t status;			/* enum rdiag_pkt_status */
	uint8_t stopped_in;		/* enum rdiag_hdr: where truncation/invalid hit (else NONE) */
	uint8_t encap;			/* enum rdiag_encap */
	int linktype;
	uint32_t caplen, len;
	const uint8_t *data;		/* the frame decoded: the caller's buffer, valid as long
					 * as it is (the MAD layouts read their fields from it) */

	/* link layer (present & RDIAG_HAS(RDIAG_HDR_LINK)) */
	uint8_t eth_dst[6], eth_src[6];	/* Ethernet; SLL/SLL2: src = link address (first 6) */
	uint16_t ethertype;		/* the innermost ethertype / SLL protocol */
	uint16_t sll_pkttype;		/* SLL/SLL2 packet type (0 host, 4 outgoing, ...) */
	uint32_t sll_ifindex;		/* SLL2 only */
	uint8_t n_vlan;			/* tags stored in vlan[] (<= RDIAG_VLAN_MAX) */
	uint8_t vlan_depth;		/* tags seen (may exceed n_vlan) */
	struct rdiag_vlan vlan[RDIAG_VLAN_MAX];	/* outermost first */

	/* IP (RoCEv2) */
	uint8_t ip_family;		/* 0, AF_INET or AF_INET6 */
	uint8_t ip_src[16], ip_dst[16];	/* network order; IPv4 uses the first 4 bytes */
	uint8_t dscp, ecn;
	uint8_t ttl;			/* TTL / hop limit */
	uint8_t ip_proto;		/* protocol / next header */
	uint16_t ip_id;			/* IPv4 identification */
	uint8_t ip_df;			/* IPv4 don't fragment */
	uint32_t flow_label;		/* IPv6 */
	uint16_t ip_hdr_len;		/* IPv4 IHL * 4, IPv6 40 (+ extension headers) */
	uint16_t ip_tot_len;		/* IPv4 total length; IPv6 40 + payload length */
	uint16_t ip_csum;		/* IPv4 header checksum as on the wire */
	uint16_t ip_opt_off, ip_opt_len;	/* IPv4 options: offset into data and length */
	uint32_t ip_off;		/* offset of the IP header in data */

	/* UDP */
	uint16_t sport, dport, udp_len, udp_csum;

	/* InfiniBand / RoCEv1 routing */
	struct rdiag_lrh lrh;
	struct rdiag_grh grh;

	/* transport */
	uint32_t bth_off;		/* offset of the BTH in data */
	struct rdiag_bth bth;
	uint32_t rdeth_eecnxt;
	uint32_t deth_qkey, deth_srcqp;
	uint32_t xrceth_xrcsrq;
	struct rdiag_reth reth;
	struct rdiag_atomiceth atomiceth;
	struct rdiag_aeth aeth;
	uint64_t atomicacketh_orig;
	uint32_t immdt;			/* immediate data, host order of the wire bytes */
	uint32_t ieth_rkey;
	struct rdiag_feth feth;

	/* payload: offset into data, length on the wire (excludes pad and ICRC), captured part */
	uint32_t payload_off, payload_len, payload_caplen;
	uint8_t pad;			/* pad bytes (= bth.padcnt) */

	/* ICRC: value as a CRC-32 (the 4 wire bytes read little-endian, as rxe writes them;
	 * tshark's infiniband.invariant.crc reads them big-endian, i.e. byte-swapped) */
	uint32_t icrc, icrc_computed;
	bool icrc_checked;		/* computed (check on and the bytes were all captured) */
	bool icrc_ok;
	/* VCRC (native IB): CRC-16 over LRH..ICRC */
	uint16_t vcrc, vcrc_computed;
	bool vcrc_checked, vcrc_ok;

	/* CM messages on QP1 (the MAD header is the last member, below) */
	struct rdiag_cm cm;

	/* MAC control: PAUSE / PFC (encap RDIAG_ENCAP_PAUSE / RDIAG_ENCAP_PFC) */
	struct rdiag_macc macc;

	/* management datagrams on QP0/QP1: last, so that what follows its common header (from
	 * mad.dr on) is cleared only for a MAD; without RDIAG_HAS_MAD it is unspecified */
	struct rdiag_mad mad;
};

/* Decode one frame.  Returns 0 (an RDMA packet or a PAUSE/PFC frame: see p->encap,
 * p->status / p->present), a positive
 * enum rdiag_pkt_skip (not RDMA), -EINVAL (NULL p, or NULL data with caplen > 0; caplen > len is clamped) or
 * -EPROTONOSUPPORT (link type).  opts may be NULL (defaults).  p is always initialised. */
int rdiag_pkt_decode(struct rdiag_pkt *p, int linktype, const uint8_t *data, uint32_t caplen,
		     uint32_t len, const struct rdiag_decode_opts *opts);

/* Recompute the ICRC of a decoded RoCEv2/RoCEv1/IB packet from its bytes (e.g. for a
 * generator that fills in a correct ICRC).  0 and *icrc, or -EINVAL (not decoded far enough),
 * -ENODATA (bytes not captured).  The 4 ICRC bytes on the wire are *icrc little-endian. */
int rdiag_pkt_icrc(const struct rdiag_pkt *p, const uint8_t *data, uint32_t caplen,
		   uint32_t *icrc);
/* The IB VCRC (CRC-16) over n bytes */
uint16_t rdiag_vcrc16(const uint8_t *buf, size_t n);

/* ---- names and tables ---------------------------------------------------------------------- */
/* One rule for the names of values the library does not define itself (wire codes, kernel,
 * libibverbs and librdmacm values): a static string, or NULL for a value that has no name; the
 * caller prints its own fallback (the number, "?" or "UNKNOWN").  The opcode and NAK names are
 * never NULL: IBTA names every code (the reserved and manufacturer-specific ranges are
 * "RESERVED" and "MSP").  The MTU functions return 0 for an invalid code or size.  One table
 * per concept, in the lowest module that needs it: opcodes, NAK codes, REJ reasons, CM
 * messages, MAD classes, port spaces and MTU codes here; QP types and states, port states and
 * rdma_cm ID states in the counters module (rdmadiag/resources.h, rdmadiag/counters.h); WC
 * status (rdmadiag/selftest.h) and rdma_cm events (rdmadiag/cmstr.h) in lib/verbs. */
/* "RC_SEND_FIRST", "UD_SEND_ONLY", "XRC_RDMA_WRITE_ONLY", "CNP" (0x81), "IB_CNP" (0x80),
 * "MSP" for manufacturer-specific 0xC0-0xFF (IBTA opcode[7:5] 110 and 111), "RESERVED" for undefined codes.  Never NULL. */
const char *rdiag_opcode_name(uint8_t opcode);
/* transport of an opcode: "RC", "UC", "RD", "UD", "CNP", "XRC", "RESERVED", "MSP" */
const char *rdiag_opcode_transport(uint8_t opcode);
/* full name as rdiag_opcode_name() prints it (case-insensitive) or a number (decimal or 0x
 * hex, 0..255) -> the opcode; -EINVAL when unknown (and for the ambiguous "MSP"/"RESERVED") */
int rdiag_opcode_parse(const char *s);
/* Extension headers that follow the BTH for an opcode, as RDIAG_HAS() bits (IBTA
 * header-sequence table); 0 for reserved/MSP opcodes.  The bit RDIAG_HAS(RDIAG_HDR_PAYLOAD)
 * says the opcode carries a payload. */
uint32_t rdiag_opcode_headers(uint8_t opcode);
/* opcode classification for the flow analysis: what an opcode is, so that no other module
 * repeats opcode numbers */
bool rdiag_opcode_is_valid(uint8_t opcode);	/* defined by IBTA (not reserved, not MSP) */
bool rdiag_opcode_is_request(uint8_t opcode);	/* requester -> responder */
bool rdiag_opcode_is_response(uint8_t opcode);	/* ACK, ATOMIC_ACK, READ_RESP_* */

/* the transport class, opcode[7:5] (IBTA 9.2.3); a reserved code belongs to the class of its
 * range, "RESERVED" is only rdiag_opcode_transport()'s name for it */
enum rdiag_transport {
	RDIAG_TR_RC = 0,
	RDIAG_TR_UC = 1,
	RDIAG_TR_RD = 2,
	RDIAG_TR_UD = 3,
	RDIAG_TR_CNP = 4,	/* congestion notification (IB CC 0x80, RoCEv2 0x81) */
	RDIAG_TR_XRC = 5,
	RDIAG_TR_MSP = 6,	/* manufacturer-specific, 0xC0-0xFF */
};
enum rdiag_transport rdiag_opcode_transport_class(uint8_t opcode);
/* RC, RD and XRC: acknowledged, with READ and atomics */
bool rdiag_opcode_is_reliable(uint8_t opcode);

/* the operation of a defined opcode; RDIAG_OPK_NONE for reserved and MSP codes */
enum rdiag_op_kind {
	RDIAG_OPK_NONE = 0,
	RDIAG_OPK_SEND,		/* SEND_*, incl. _IMM and _INV */
	RDIAG_OPK_WRITE,	/* RDMA_WRITE_* */
	RDIAG_OPK_READ_REQ,	/* RDMA_READ_REQUEST */
	RDIAG_OPK_READ_RESP,	/* RDMA_READ_RESPONSE_* */
	RDIAG_OPK_ACK,		/* ACKNOWLEDGE */
	RDIAG_OPK_ATOMIC,	/* COMPARE_SWAP, FETCH_ADD */
	RDIAG_OPK_ATOMIC_ACK,	/* ATOMIC_ACKNOWLEDGE */
	RDIAG_OPK_RESYNC,	/* RD RESYNC */
	RDIAG_OPK_FLUSH,
	RDIAG_OPK_ATOMIC_WRITE,
	RDIAG_OPK_CNP,		/* IB_CNP, CNP */
};
enum rdiag_op_kind rdiag_opcode_kind(uint8_t opcode);

/* where a packet sits in a multi-packet message (SEND, RDMA WRITE, READ response);
 * RDIAG_OPP_NONE for the single-packet operations and for reserved and MSP codes */
enum rdiag_op_position {
	RDIAG_OPP_NONE = 0,
	RDIAG_OPP_FIRST,
	RDIAG_OPP_MIDDLE,	/* FIRST and MIDDLE packets carry exactly one path MTU */
	RDIAG_OPP_LAST,
	RDIAG_OPP_ONLY,
};
enum rdiag_op_position rdiag_opcode_position(uint8_t opcode);

/* AETH NAK code 0..31 -> "PSN_SEQ_ERR", "INVALID_REQ", "REMOTE_ACCESS_ERR",
 * "REMOTE_OP_ERR", "INVALID_RD_REQ", else "RESERVED" */
const char *rdiag_nak_name(unsigned int code);
/* AETH credit code 0..30 -> the number of credits of the IBTA table (0, 1, 2, 3, 4, 6, 8, 12,
 * ... 24576, 32768: 0..4, then 2^k and 1.5 * 2^k); -1 for 31 ("invalid": the responder does
 * no end-to-end flow control, what rdma_rxe always sends) and for codes > 31 */
int32_t rdiag_aeth_credits(unsigned int code);
/* RNR timer code 0..31 -> milliseconds (0 = 655.36); -1.0 for codes > 31 */
double rdiag_rnr_timer_ms(unsigned int code);
/* "ack", "rnr_nak", "nak", "reserved" */
const char *rdiag_aeth_kind_name(unsigned int kind);

/* "rocev2", "rocev1", "ib", "pause", "pfc", "none" */
const char *rdiag_encap_name(unsigned int encap);
const char *rdiag_pkt_status_name(unsigned int status);	/* "ok", "truncated", "invalid" */
const char *rdiag_hdr_name(unsigned int hdr);		/* "bth", "reth", ... "udp", "ipv4" */
const char *rdiag_pkt_skip_name(int skip);		/* "other ethertype", ... */

/* IB CM strings (lib/packet/cm_strings.c; shared with rdmadoctor) */
/* REJ reason 1..35 -> "NO_QP", ... "VENDOR_OPTION_NOT_SUPPORTED"; NULL when unassigned */
const char *rdiag_cm_rej_reason_name(unsigned int reason);
/* SIDR_REP status 0..5 -> "SUCCESS", "UNSUPPORTED" (no listener for the service ID),
 * "REJECT", "NO_QP", "REDIRECT", "UNSUPPORTED_VERSION"; NULL past them */
const char *rdiag_cm_sidr_status_name(unsigned int status);
/* attribute id -> "REQ", "MRA", "REJ", "REP", "RTU", "DREQ", "DREP", "SIDR_REQ", ...; NULL */
const char *rdiag_cm_msg_name(unsigned int attr_id);
/* enum rdma_ucm_port_space (RDIAG_PS_*: 0x0106 "TCP", 0x0111 "UDP", 0x013F "IB",
 * 0x0002 "IPOIB"); NULL */
const char *rdiag_port_space_name(unsigned int ps);
/* MAD management class -> "SUBN_LID_ROUTED", "SUBN_ADM", "PERF", "CM", ...; NULL */
const char *rdiag_mad_class_name(unsigned int mgmt_class);
/* MAD names (lib/packet/mad_names.c).  Method 0x01..0x95 -> "Get", "Set", "GetResp",
 * "Send", "Trap", "Report", "ReportResp", "TrapRepress", "GetTable", "GetTableResp",
 * "GetTraceTable", "GetTraceTableResp", "GetMulti", "GetMultiResp", "Delete", "DeleteResp";
 * NULL otherwise */
const char *rdiag_mad_method_name(unsigned int method);
/* attribute id of a class -> "PortInfo", "PathRecord", "PortCounters", "REQ", ...; NULL */
const char *rdiag_mad_attr_name(unsigned int mgmt_class, unsigned int attr_id);
/* the layout lib/packet decodes for (class, attribute), NULL when none.  A Notice layout
 * depends on its trap number: rdiag_mad_notice_layout() */
const struct rdiag_mad_attr *rdiag_mad_layout(unsigned int mgmt_class, unsigned int attr_id);
/* the trap details of a generic Notice (64-67, 128-131, 144, 145, 256-258), NULL for others */
const struct rdiag_mad_attr *rdiag_mad_notice_layout(unsigned int trap_number);
/* MAD status bits 4:2 "invalid field" code -> "BAD_VERSION", "METHOD_UNSUPPORTED",
 * "METHOD_ATTR_UNSUPPORTED", "INVALID_ATTR_VALUE"; NULL for 0 and the reserved codes */
const char *rdiag_mad_status_code_name(unsigned int code);
/* SA class status (bits 15:8) 1..7 -> "ERR_NO_RESOURCES", "ERR_REQ_INVALID",
 * "ERR_NO_RECORDS", "ERR_TOO_MANY_RECORDS", "ERR_REQ_INVALID_GID",
 * "ERR_REQ_INSUFFICIENT_COMPONENTS", "ERR_REQ_DENIED"; NULL otherwise */
const char *rdiag_sa_status_name(unsigned int code);
/* RMPP type 1..4 -> "DATA", "ACK", "STOP", "ABORT"; NULL */
const char *rdiag_rmpp_type_name(unsigned int type);
/* the name of SA component mask bit of a layout ("dgid", "service_data8"), NULL when the bit
 * names no field */
const char *rdiag_mad_comp_name(const struct rdiag_mad_attr *a, unsigned int bit);
/* bits bits (1..64) at bit offset off of a record, big-endian; the caller has checked that
 * (off + bits + 7) / 8 bytes are there (a decoded layout guarantees it for its fields) */
uint64_t rdiag_mad_bits(const uint8_t *rec, unsigned int off, unsigned int bits);

/* Port states: IBA 14.2.5.6 PortInfo PortState, the same values as the kernel's enum
 * ib_port_state, enum ibv_port_state and the number in sysfs ports/N/state.  The one name
 * table of port states (MAD decoding, discovery, rdmatrace, rdmatop) */
enum rdiag_port_state {
	RDIAG_PORT_NOP = 0,
	RDIAG_PORT_DOWN = 1,
	RDIAG_PORT_INIT = 2,
	RDIAG_PORT_ARMED = 3,
	RDIAG_PORT_ACTIVE = 4,
	RDIAG_PORT_ACTIVE_DEFER = 5,
};
/* 0..5 -> "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" (iproute2 rdma's
 * strings); NULL for other values */
const char *rdiag_port_state_name(uint8_t state);

/* MTU code 1..5 (IBA PathMTU, the same values as enum ibv_mtu) -> 256..4096 bytes;
 * 0 when invalid */
unsigned int rdiag_mtu_bytes(unsigned int code);
/* 256..4096 bytes -> MTU code 1..5; 0 when no code has that size */
unsigned int rdiag_mtu_from_bytes(unsigned int bytes);

#ifdef __cplusplus
}
#endif
#endif
