/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* packet: build one RoCEv2 frame, let the library fill in its ICRC, decode it.
 *
 * Uses rdmadiag/packet.h only: rdiag_pkt_decode() on bytes the program owns (no capture, no
 * device), rdiag_pkt_icrc() to compute the ICRC a generator must put on the wire, and the
 * opcode table.  Prints one line per decode; exit 0 when the second decode sees a good ICRC.
 *
 *	cc packet.c $(pkg-config --cflags --libs rdmadiag) -o packet && ./packet
 */
#include <stdio.h>
#include <string.h>
#include <rdmadiag/packet.h>

/* Ethernet, IPv4, UDP to 4791, BTH (RC_SEND_ONLY, QP 0x12, PSN 256, A bit), 8 bytes of payload
 * and 4 bytes of ICRC, still zero */
static unsigned char frame[] = {
	0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x08, 0x00,
	0x45, 0x00, 0x00, 0x34, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0xb6, 0xb5,
	0xc0, 0x00, 0x02, 0x01, 0xc0, 0x00, 0x02, 0x02,
	0xc0, 0x00, 0x12, 0xb7, 0x00, 0x20, 0x00, 0x00,
	0x04, 0x40, 0xff, 0xff, 0x00, 0x00, 0x00, 0x12, 0x80, 0x00, 0x01, 0x00,
	'r', 'd', 'm', 'a', 'd', 'i', 'a', 'g',
	0x00, 0x00, 0x00, 0x00,
};

static void show(const struct rdiag_pkt *p)
{
	printf("%s qp 0x%06x psn %u%s payload %u icrc %s\n", rdiag_opcode_name(p->bth.opcode),
	       p->bth.destqp, p->bth.psn, p->bth.ackreq ? " A" : "", p->payload_len,
	       !p->icrc_checked ? "unchecked" : p->icrc_ok ? "ok" : "bad");
}

int main(void)
{
	const uint32_t len = sizeof(frame);
	struct rdiag_pkt p;
	uint32_t icrc;
	int r;

	/* NULL options: RoCEv2 on UDP 4791, ICRC checked, MADs decoded */
	r = rdiag_pkt_decode(&p, RDIAG_DLT_EN10MB, frame, len, len, NULL);
	if (r != 0) {
		fprintf(stderr, "packet: not an RDMA packet (%d)\n", r);
		return 1;
	}
	show(&p);
	if (rdiag_pkt_icrc(&p, frame, len, &icrc) < 0)
		return 1;
	for (int i = 0; i < 4; i++)	/* on the wire least significant byte first */
		frame[len - 4 + i] = (unsigned char)(icrc >> (8 * i));
	if (rdiag_pkt_decode(&p, RDIAG_DLT_EN10MB, frame, len, len, NULL) != 0)
		return 1;
	show(&p);
	printf("opcode \"rc_send_only\" is 0x%02x\n", rdiag_opcode_parse("rc_send_only"));
	return p.icrc_ok ? 0 : 1;
}
