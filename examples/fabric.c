/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* fabric: does RoCE on this netdev ride the lossless, ECN-enabled priority?  The DCB
 * configuration (dcbnl), the ECN/CNP/rdma_cm defaults where they exist, and the chain
 * ToS -> DSCP -> priority -> PFC -> ECN -> CNP, each link with its evidence and fix.
 *
 * Uses rdmadiag/fabric.h: one handle; rdiag_fabric_chain() decides from what was read.
 *
 *	./fabric IFNAME [TOS [RDMADEV PORT]]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <rdmadiag/fabric.h>

int main(int argc, char **argv)
{
	struct rdiag_chain_in in = { 0 };
	struct rdiag_fabric_qos qos;
	struct rdiag_chain c;
	struct rdiag_dcb dcb;
	struct rdiag_fabric *f;
	int i, p;

	if (argc < 2) {
		fprintf(stderr, "usage: fabric IFNAME [TOS [RDMADEV PORT]]\n");
		return 2;
	}
	if (rdiag_fabric_open(&f, NULL) < 0) {
		fprintf(stderr, "fabric: %s\n", rdiag_fabric_errmsg(NULL));
		return 2;
	}
	in.ifname = argv[1];
	in.tos = argc > 2 ? atoi(argv[2]) : -1;
	in.dev = argc > 4 ? argv[3] : NULL;
	in.port = argc > 4 ? (uint32_t)atoi(argv[4]) : 0;
	in.dcb_err = rdiag_fabric_dcb(f, in.ifname, &dcb);
	if (in.dcb_err == 0) {
		in.dcb = &dcb;
		printf("pfc enabled on:");
		for (p = 0; p < RDIAG_DCB_PRIOS; p++)
			if (dcb.pfc.pfc_en & (1u << p))
				printf(" %d", p);
		printf("\n");
	} else {
		printf("dcb: %s\n", rdiag_fabric_errmsg(f));
	}
	if (rdiag_fabric_qos(f, in.ifname, in.dev, in.port, &qos) < 0) {
		fprintf(stderr, "fabric: %s\n", rdiag_fabric_errmsg(f));
		rdiag_fabric_close(f);
		return 2;
	}
	in.qos = &qos;
	rdiag_fabric_chain(&in, &c);
	printf("chain: %s\n", c.verdict);
	for (i = 0; i < RDIAG_CHAIN_LINKS; i++) {
		printf("  %-8s %-13s %s\n", c.link[i].name, rdiag_link_state_name(c.link[i].state),
		       c.link[i].evidence);
		if (c.link[i].finding)
			printf("           %s: %s\n", c.link[i].finding, c.link[i].fix);
	}
	rdiag_fabric_close(f);
	return 0;
}
