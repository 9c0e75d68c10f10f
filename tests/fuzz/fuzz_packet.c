/* libFuzzer target: the packet decoder on one frame.
 *
 * Input: byte 0 picks the link type (index into lt[] below), the rest is the frame.  The
 * frame is decoded three ways from exactly sized heap copies (so ASan flags any read past
 * caplen): whole, cut in half by the snap length, and with ICRC/MAD decoding off.  The
 * record's invariants are checked after each decode; a violation aborts like a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/packet.h"

static const int lt[] = { 1, 12, 14, 101, 113, 228, 229, 247, 276 };

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void check(const struct rdiag_pkt *p, int r, uint32_t caplen, uint32_t len)
{
	CHECK(r >= 0 && r <= RDIAG_SKIP_SHORT);
	CHECK(p->status <= RDIAG_PKT_INVALID);
	CHECK((p->status == RDIAG_PKT_OK) == (p->stopped_in == RDIAG_HDR_NONE));
	CHECK(p->stopped_in < RDIAG_HDR__COUNT);
	CHECK(p->n_vlan <= RDIAG_VLAN_MAX && p->n_vlan <= p->vlan_depth);
	CHECK(!(p->present & ~((1u << RDIAG_HDR__COUNT) - 1)));
	if (r == 0)
		CHECK(p->encap != RDIAG_ENCAP_NONE);
	if (p->present & RDIAG_HAS(RDIAG_HDR_PAYLOAD)) {
		CHECK(p->payload_caplen <= p->payload_len);
		CHECK(p->payload_off + p->payload_caplen <= caplen);
		CHECK((uint64_t)p->payload_off + p->payload_len + p->pad + 4 <= len);
	}
	if (p->present & RDIAG_HAS_CM)
		CHECK(p->cm.priv_off + p->cm.priv_len <= caplen);
	if (p->icrc_checked)
		CHECK(p->icrc_ok == (p->icrc == p->icrc_computed));
	/* every name function answers for every value the record can hold */
	CHECK(rdiag_opcode_name(p->bth.opcode) && rdiag_opcode_transport(p->bth.opcode));
	CHECK(rdiag_nak_name(p->aeth.nak) && rdiag_aeth_kind_name(p->aeth.kind));
	CHECK(rdiag_hdr_name(p->stopped_in) && rdiag_encap_name(p->encap));
	if (p->present & RDIAG_HAS_CM)
		(void)rdiag_cm_rej_reason_name(p->cm.reason);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_decode_opts o;
	struct rdiag_pkt p;
	uint32_t len, cut;
	uint8_t *b;
	int linktype, r;

	if (size < 1 || size > 65536)
		return 0;
	linktype = lt[data[0] % (sizeof(lt) / sizeof(lt[0]))];
	len = (uint32_t)size - 1;
	b = malloc(len ? len : 1);
	memcpy(b, data + 1, len);

	r = rdiag_pkt_decode(&p, linktype, b, len, len, NULL);
	check(&p, r, len, len);
	if (r == 0 && (p.present & RDIAG_HAS(RDIAG_HDR_PAYLOAD))) {
		uint32_t icrc;

		(void)rdiag_pkt_icrc(&p, b, len, &icrc);
	}
	free(b);

	/* the same frame cut by the snap length */
	cut = len / 2;
	b = malloc(cut ? cut : 1);
	memcpy(b, data + 1, cut);
	r = rdiag_pkt_decode(&p, linktype, b, cut, len, NULL);
	check(&p, r, cut, len);
	free(b);

	/* options off, another port list */
	rdiag_decode_opts_init(&o);
	o.check_icrc = false;
	o.decode_mad = false;
	rdiag_decode_opts_add_port(&o, (uint16_t)(data[0] * 257u));
	b = malloc(len ? len : 1);
	memcpy(b, data + 1, len);
	r = rdiag_pkt_decode(&p, linktype, b, len, len, &o);
	check(&p, r, len, len);
	CHECK(!p.icrc_checked && !(p.present & RDIAG_HAS_MAD));
	free(b);
	return 0;
}
