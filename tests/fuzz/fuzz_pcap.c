/* libFuzzer target: a whole capture file through the library's read path.
 *
 * The input is written to a memfd and opened by path (/proc/self/fd/N) with
 * rdiag_capture_open() of a file, exactly as rdmadump -r opens a file (libpcap: pcap and pcapng,
 * any link type it accepts).  Every frame is decoded and fed to the per-QP flow analysis;
 * then every flow, the total and every CM connection are read back. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "rdmadiag/packet.h"
#include "rdmadiag/capture.h"
#include "rdmadiag/flow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_capture *c;
	struct rdiag_flow_opts fo = { .pending_max = 256, .max_flows = 4096 };
	struct rdiag_flow_table *ft;
	struct rdiag_frame f;
	struct rdiag_pkt p;
	char path[64];
	size_t i, n = 0;
	int fd, r;

	if (size > (1 << 20))
		return 0;
	fd = memfd_create("fuzz-pcap", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) != 0) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (rdiag_capture_open(&c, &(struct rdiag_capture_opts){ .file = path }) < 0) {
		close(fd);
		return 0;
	}
	if (rdiag_flow_open(&ft, &fo) < 0) {
		rdiag_capture_close(c);
		close(fd);
		return 0;
	}
	while ((r = rdiag_capture_next(c, &f)) > 0 && n++ < 10000) {
		struct rdiag_flow_verdict v;

		r = rdiag_pkt_decode(&p, f.linktype, f.data, f.caplen, f.len, NULL);
		if (r == 0)
			rdiag_flow_add(ft, &p, f.ts_sec * 1000000000ull + f.ts_nsec, &v);
		else
			rdiag_flow_add_other(ft);
	}
	for (i = 0; i < rdiag_flow_count(ft); i++) {
		struct rdiag_flow_info info;

		rdiag_flow_get(ft, i, &info);
	}
	{
		struct rdiag_flow_total t;

		rdiag_flow_total(ft, &t);
	}
	for (i = 0; i < rdiag_flow_cm_count(ft); i++) {
		struct rdiag_cm_conn_info ci;

		rdiag_flow_cm_get(ft, i, &ci);
	}
	rdiag_flow_close(ft);
	rdiag_capture_close(c);
	close(fd);
	return 0;
}
