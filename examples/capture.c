/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* capture: read a pcap or pcapng file, count its RDMA packets by opcode, and optionally write
 * the RDMA frames to a new pcap file (the rest of the frames are left out).
 *
 * Uses rdmadiag/capture.h (open, next, the dump writer, errmsg) with rdmadiag/packet.h.
 *
 *	./capture FILE.pcap [OUT.pcap]
 */
#include <stdio.h>
#include <rdmadiag/capture.h>
#include <rdmadiag/packet.h>

int main(int argc, char **argv)
{
	const struct rdiag_capture_opts co = { .file = argc > 1 ? argv[1] : "-" };
	struct rdiag_capture_dump *dump = NULL;
	struct rdiag_capture *c;
	static unsigned long per_opcode[256];
	unsigned long frames = 0, rdma = 0;
	struct rdiag_frame f;
	struct rdiag_pkt p;
	int r, ret = 0;

	if (rdiag_capture_open(&c, &co) < 0) {
		/* the handle does not exist: errmsg(NULL) has the reason of the failed open */
		fprintf(stderr, "capture: %s\n", rdiag_capture_errmsg(NULL));
		return 2;
	}
	if (argc > 2) {
		const struct rdiag_capture_dump_opts wo = { .capture = c, .path = argv[2] };

		if (rdiag_capture_dump_open(&dump, &wo) < 0) {
			fprintf(stderr, "capture: %s\n", rdiag_capture_dump_errmsg(NULL));
			rdiag_capture_close(c);
			return 2;
		}
	}
	while ((r = rdiag_capture_next(c, &f)) > 0) {
		frames++;
		if (rdiag_pkt_decode(&p, f.linktype, f.data, f.caplen, f.len, NULL) != 0)
			continue;
		rdma++;
		if (p.present & RDIAG_HAS_BTH)
			per_opcode[p.bth.opcode]++;
		if (dump && rdiag_capture_dump_write(dump, &f) < 0) {
			fprintf(stderr, "capture: %s\n", rdiag_capture_dump_errmsg(dump));
			ret = 1;
			break;
		}
	}
	if (r < 0) {
		/* the handle exists: its own errmsg says what went wrong (a cut record ...) */
		fprintf(stderr, "capture: %s\n", rdiag_capture_errmsg(c));
		ret = 1;
	}
	printf("%lu frames, %lu RDMA\n", frames, rdma);
	for (int op = 0; op < 256; op++)
		if (per_opcode[op])
			printf("%-28s %lu\n", rdiag_opcode_name((uint8_t)op), per_opcode[op]);
	if (dump && rdiag_capture_dump_close(dump) < 0) {
		fprintf(stderr, "capture: could not write %s\n", argv[2]);
		ret = 1;
	}
	rdiag_capture_close(c);
	return ret;
}
