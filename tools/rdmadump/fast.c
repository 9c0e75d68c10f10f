/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump: the common packet written in one go.  Most packets of a RoCEv2 capture are the
 * same shape: IPv4, UDP, a BTH and a few of DETH/RETH/AETH (ACK)/ImmDt/IETH, a payload, the
 * ICRC, nothing for the analysis to say beyond a latency.  Their short text line and their
 * JSON line are formatted here straight into the writer's buffer, literal text and keys as
 * fixed-size copies and numbers through put_u64.h, where the field-by-field path
 * (dump_print.c) makes a call, a format and a buffer check per value.
 *
 * The bytes are those of dump_packet_fields() exactly (tests/unit/test_rdmadump_fast compares
 * the two on every fixture); any packet of another shape, a value that would need escapes or
 * a writer that is not held (live capture: the field-by-field path flushes per packet)
 * returns false and goes the long way. */
#include <string.h>
#include <sys/socket.h>

#include "dump.h"
#include "common/put_u64.h"
#include "common/timefmt.h"

#define HAS(p, h) ((p)->present & RDIAG_HAS(RDIAG_HDR_##h))

/* the headers this file writes; a packet with any other goes the long way */
#define FAST_HDRS (RDIAG_HAS(RDIAG_HDR_LINK) | RDIAG_HAS(RDIAG_HDR_IPV4) | \
		   RDIAG_HAS(RDIAG_HDR_UDP) | RDIAG_HAS(RDIAG_HDR_BTH) | \
		   RDIAG_HAS(RDIAG_HDR_DETH) | RDIAG_HAS(RDIAG_HDR_RETH) | \
		   RDIAG_HAS(RDIAG_HDR_AETH) | RDIAG_HAS(RDIAG_HDR_IMMDT) | \
		   RDIAG_HAS(RDIAG_HDR_IETH) | RDIAG_HAS(RDIAG_HDR_PAYLOAD) | \
		   RDIAG_HAS(RDIAG_HDR_ICRC))

/* the verdicts dump_print.c's analysis() shows, and the two of them that print nothing in
 * the short line and only a latency in JSON */
#define SHOWN (RDIAG_FV_GAP | RDIAG_FV_RESENT_LOST | RDIAG_FV_DUP | RDIAG_FV_OOO | RDIAG_FV_RETX | RDIAG_FV_RETRY | \
	       RDIAG_FV_CM_RETRY | RDIAG_FV_READ_DONE | RDIAG_FV_ACKED | \
	       RDIAG_FV_MAD_FINDINGS | RDIAG_FV_RMPP_DUP | RDIAG_FV_SIDR_STATUS)
#define LATENCY_ONLY (RDIAG_FV_READ_DONE | RDIAG_FV_ACKED)

/* the longest line written here: ~700 bytes of JSON with every header at its widest */
#define LINE_MAX_BYTES 1024

#define LIT(q, s) (memcpy((q), "" s "", sizeof(s) - 1), (q) + sizeof(s) - 1)

/* a name as it goes out: plain (no escapes in JSON, nothing tool_esc() changes in text), at
 * most NAME_MAX_BYTES; checked once per table entry */
#define NAME_MAX_BYTES 40
struct name {
	signed char state;		/* 0 not looked at, 1 plain, -1 the long way */
	unsigned char len;
	char s[NAME_MAX_BYTES];
};

static bool name_plain(struct name *n, const char *s)
{
	size_t len;

	if (n->state)
		return n->state > 0;
	n->state = -1;
	if (!s || (len = strlen(s)) > sizeof(n->s))
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\')
			return false;
	memcpy(n->s, s, len);
	n->len = (unsigned char)len;
	n->state = 1;
	return true;
}

/* one process, one printing thread (as json_time in dump_print.c) */
static struct name op_names[256], encap_names[16];

static char *put_name(char *q, const struct name *n)
{
	memcpy(q, n->s, sizeof(n->s));	/* fixed size: the room is there */
	return q + n->len;
}

/* "00" .. "ff" */
static const char hex2[512] = {
#define H1(n) "0123456789abcdef"[(n) >> 4], "0123456789abcdef"[(n) & 15]
#define H4(n) H1(n), H1(n + 1), H1(n + 2), H1(n + 3)
#define H16(n) H4(n), H4(n + 4), H4(n + 8), H4(n + 12)
#define H64(n) H16(n), H16(n + 16), H16(n + 32), H16(n + 48)
	H64(0), H64(64), H64(128), H64(192)
#undef H1
#undef H4
#undef H16
#undef H64
};

/* at least width lowercase hex digits, as printf's %0<width>x: two digits per step from the
 * last, then an odd count's first digit */
static char *put_hex(char *q, uint64_t v, unsigned int width)
{
	unsigned int n = v ? (unsigned int)(67 - __builtin_clzll(v)) / 4 : 1;
	unsigned int i;

	if (n < width)
		n = width;
	for (i = n; i >= 2; i -= 2, v >>= 8)
		memcpy(q + i - 2, hex2 + 2 * (v & 0xff), 2);
	if (i)
		*q = hex2[2 * (v & 0xf) + 1];
	return q + n;
}

/* nine digits of ns < 10^9 */
static char *put_ns9(char *q, uint32_t ns)
{
	uint32_t r = ns % 100000000u;

	*q++ = (char)('0' + ns / 100000000u);
	return put_4(put_4(q, r / 10000), r % 10000);
}

/* "HH:MM:SS." made once per second (dump_time's text), then the nine digits */
static char *put_time_of_day(char *q, uint64_t sec, uint32_t nsec)
{
	static uint64_t cached = UINT64_MAX;
	static char prefix[19];

	if (sec != cached) {
		dump_time(prefix, sizeof(prefix), sec, 0);
		cached = sec;
	}
	memcpy(q, prefix, 9);
	return put_ns9(q + 9, nsec);
}

/* the RFC 3339 time of a JSON line, as dump_print.c's json_time(): the calendar part once
 * per second; NULL when it cannot be had that way */
static char *put_rfc3339(char *q, uint64_t sec, uint32_t nsec)
{
	static uint64_t cached = UINT64_MAX;
	static char prefix[TOOL_TIME_LEN];
	static size_t prefix_len;

	if (sec != cached) {
		char t[TOOL_TIME_LEN];
		size_t n = strlen(tool_time_str(t, sizeof(t), sec, 0));

		if (n < 11)	/* past year 9999: the cache keeps the second it has */
			return NULL;
		memcpy(prefix, t, n - 10);
		prefix_len = n - 10;
		cached = sec;
	}
	memcpy(q, prefix, prefix_len);
	q = put_ns9(q + prefix_len, nsec);
	*q++ = 'Z';
	return q;
}

static bool fast_shape(const struct rdiag_pkt *p, const struct rdiag_frame *f,
		       const struct rdiag_flow_verdict *v)
{
	if ((p->present & ~FAST_HDRS) || !HAS(p, BTH) || !HAS(p, UDP) ||
	    p->ip_family != AF_INET || p->n_vlan || p->status != RDIAG_PKT_OK ||
	    p->encap == RDIAG_ENCAP_PAUSE || p->encap == RDIAG_ENCAP_PFC ||
	    f->ts_nsec >= 1000000000u)
		return false;
	if (HAS(p, AETH) && p->aeth.kind != RDIAG_AETH_ACK)
		return false;
	if (v && (v->flags & SHOWN & ~LATENCY_ONLY))
		return false;
	return name_plain(&op_names[p->bth.opcode], rdiag_opcode_name(p->bth.opcode));
}

static char *text_line(char *q, const struct rdiag_frame *f, const struct rdiag_pkt *p)
{
	const struct rdiag_bth *b = &p->bth;

	q = put_time_of_day(q, f->ts_sec, f->ts_nsec);
	*q++ = ' ';
	q = dump_put_ip4(q, p->ip_src);
	q = LIT(q, " > ");
	q = dump_put_ip4(q, p->ip_dst);
	*q++ = ' ';
	q = put_name(q, &op_names[b->opcode]);
	q = LIT(q, " qp 0x");
	q = put_hex(q, b->destqp, 6);
	q = LIT(q, " psn ");
	q = put_u64(q, b->psn);
	if (b->ackreq)
		q = LIT(q, " A");
	if (b->se)
		q = LIT(q, " SE");
	if (b->fecn)
		q = LIT(q, " FECN");
	if (b->becn)
		q = LIT(q, " BECN");
	if (p->ecn == 3)
		q = LIT(q, " CE");
	if (HAS(p, DETH)) {
		q = LIT(q, " qkey 0x");
		q = put_hex(q, p->deth_qkey, 8);
		q = LIT(q, " srcqp 0x");
		q = put_hex(q, p->deth_srcqp, 6);
	}
	if (HAS(p, RETH)) {
		q = LIT(q, " va 0x");
		q = put_hex(q, p->reth.va, 1);
		q = LIT(q, " rkey 0x");
		q = put_hex(q, p->reth.rkey, 8);
		q = LIT(q, " dmalen ");
		q = put_u64(q, p->reth.dmalen);
	}
	if (HAS(p, AETH)) {
		q = LIT(q, " ack");
		if (p->aeth.credits >= 0) {
			q = LIT(q, " credits ");
			q = put_u64(q, (uint64_t)p->aeth.credits);
			*q++ = '(';
		} else {
			q = LIT(q, " credits invalid(");
		}
		q = put_u64(q, p->aeth.credits_code);
		*q++ = ')';
		q = LIT(q, " msn ");
		q = put_u64(q, p->aeth.msn);
	}
	if (HAS(p, IMMDT)) {
		q = LIT(q, " imm 0x");
		q = put_hex(q, p->immdt, 8);
	}
	if (HAS(p, IETH)) {
		q = LIT(q, " inv_rkey 0x");
		q = put_hex(q, p->ieth_rkey, 8);
	}
	if (p->payload_len) {
		q = LIT(q, " len ");
		q = put_u64(q, p->payload_len);
	}
	if (HAS(p, ICRC) && p->icrc_checked && !p->icrc_ok)
		q = LIT(q, " [bad icrc]");
	*q++ = '\n';
	return q;
}

static char *json_line(char *q, const struct rdiag_frame *f, const struct rdiag_pkt *p,
		       const struct rdiag_flow_verdict *v)
{
	const struct rdiag_bth *b = &p->bth;
	struct name *encap = p->encap < 16 ? &encap_names[p->encap] : NULL;

	if (!encap || !name_plain(encap, rdiag_encap_name(p->encap)))
		return NULL;
	q = LIT(q, "{\"n\":");
	q = put_u64(q, f->n);
	q = LIT(q, ",\"ts\":\"");
	q = put_rfc3339(q, f->ts_sec, f->ts_nsec);
	if (!q)
		return NULL;
	q = LIT(q, "\",\"caplen\":");
	q = put_u64(q, p->caplen);
	q = LIT(q, ",\"len\":");
	q = put_u64(q, p->len);
	q = LIT(q, ",\"encap\":\"");
	q = put_name(q, encap);
	q = LIT(q, "\",\"src\":\"");
	q = dump_put_ip4(q, p->ip_src);
	q = LIT(q, "\",\"dst\":\"");
	q = dump_put_ip4(q, p->ip_dst);
	q = LIT(q, "\",\"sport\":");
	q = put_u64(q, p->sport);
	q = LIT(q, ",\"dport\":");
	q = put_u64(q, p->dport);
	q = LIT(q, ",\"dscp\":");
	q = put_u64(q, p->dscp);
	q = LIT(q, ",\"ecn\":");
	q = put_u64(q, p->ecn);
	q = LIT(q, ",\"bth\":{\"opcode\":");
	q = put_u64(q, b->opcode);
	q = LIT(q, ",\"op\":\"");
	q = put_name(q, &op_names[b->opcode]);
	q = LIT(q, "\",\"se\":");
	q = put_u64(q, b->se);
	q = LIT(q, ",\"m\":");
	q = put_u64(q, b->m);
	q = LIT(q, ",\"padcnt\":");
	q = put_u64(q, b->padcnt);
	q = LIT(q, ",\"tver\":");
	q = put_u64(q, b->tver);
	q = LIT(q, ",\"pkey\":");
	q = put_u64(q, b->pkey);
	q = LIT(q, ",\"fecn\":");
	q = put_u64(q, b->fecn);
	q = LIT(q, ",\"becn\":");
	q = put_u64(q, b->becn);
	q = LIT(q, ",\"destqp\":");
	q = put_u64(q, b->destqp);
	q = LIT(q, ",\"a\":");
	q = put_u64(q, b->ackreq);
	q = LIT(q, ",\"psn\":");
	q = put_u64(q, b->psn);
	*q++ = '}';
	if (HAS(p, DETH)) {
		q = LIT(q, ",\"deth\":{\"qkey\":");
		q = put_u64(q, p->deth_qkey);
		q = LIT(q, ",\"srcqp\":");
		q = put_u64(q, p->deth_srcqp);
		*q++ = '}';
	}
	if (HAS(p, RETH)) {
		q = LIT(q, ",\"reth\":{\"va\":\"0x");
		q = put_hex(q, p->reth.va, 16);
		q = LIT(q, "\",\"rkey\":");
		q = put_u64(q, p->reth.rkey);
		q = LIT(q, ",\"dmalen\":");
		q = put_u64(q, p->reth.dmalen);
		*q++ = '}';
	}
	if (HAS(p, AETH)) {
		q = LIT(q, ",\"aeth\":{\"syndrome\":");
		q = put_u64(q, p->aeth.syndrome);
		q = LIT(q, ",\"kind\":\"ack\",\"credits_code\":");
		q = put_u64(q, p->aeth.credits_code);
		if (p->aeth.credits >= 0) {
			q = LIT(q, ",\"credits\":");
			q = put_u64(q, (uint64_t)p->aeth.credits);
		}
		q = LIT(q, ",\"msn\":");
		q = put_u64(q, p->aeth.msn);
		*q++ = '}';
	}
	if (HAS(p, IMMDT)) {
		q = LIT(q, ",\"immdt\":");
		q = put_u64(q, p->immdt);
	}
	if (HAS(p, IETH)) {
		q = LIT(q, ",\"ieth\":");
		q = put_u64(q, p->ieth_rkey);
	}
	if (HAS(p, PAYLOAD) || p->payload_len) {
		q = LIT(q, ",\"payload\":");
		q = put_u64(q, p->payload_len);
	}
	if (HAS(p, ICRC)) {
		q = LIT(q, ",\"icrc\":{\"value\":");
		q = put_u64(q, p->icrc);
		if (p->icrc_checked) {
			if (p->icrc_ok)
				q = LIT(q, ",\"ok\":true");
			else
				q = LIT(q, ",\"ok\":false");
		}
		*q++ = '}';
	}
	if (v && (v->flags & LATENCY_ONLY)) {
		q = LIT(q, ",\"analysis\":{");
		if (v->flags & RDIAG_FV_READ_DONE) {
			q = LIT(q, "\"read_latency_ns\":");
			q = put_u64(q, v->latency_ns);
		}
		if (v->flags & RDIAG_FV_ACKED) {
			if (v->flags & RDIAG_FV_READ_DONE)
				*q++ = ',';
			q = LIT(q, "\"ack_latency_ns\":");
			q = put_u64(q, v->latency_ns);
		}
		*q++ = '}';
	}
	return LIT(q, "}\n");
}

bool dump_packet_fast(struct out *o, const struct rdiag_frame *f, const struct rdiag_pkt *p,
		      const struct rdiag_flow_verdict *v)
{
	char *start, *end;

	if (!fast_shape(p, f, v) || !(start = out_reserve(o, LINE_MAX_BYTES)))
		return false;
	end = out_json(o) ? json_line(start, f, p, v) : text_line(start, f, p);
	if (!end)
		return false;
	out_commit(o, end);
	return true;
}
