/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: a whole capture file through the library's read path.
 *
 * The input is written to a memfd (one for the process, its contents replaced per input)
 * and opened by path (/proc/self/fd/N) with rdiag_capture_open() of a file, exactly as
 * rdmadump -r opens a file (libpcap: pcap and pcapng, any link type it accepts).  Every frame is decoded and fed to the per-QP flow analysis;
 * then every flow, the total and every CM connection are read back.  The file is read a
 * second time through libpcap alone: a classic pcap's records are first read from a mapping
 * (lib/capture/pcap_map.c), and both readers must give the same frames, the same last return
 * value and the same message (pcap_readers.h); a difference traps. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "rdmadiag/packet.h"
#include "rdmadiag/capture.h"
#include "rdmadiag/flow.h"
#include "pcap_readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;

struct fuzz_pcap_flows {
	struct rdiag_flow_table *ft;
	struct rdiag_pkt p;
};

static void fuzz_pcap_frame(const struct rdiag_frame *f, void *arg)
{
	struct fuzz_pcap_flows *fl = arg;
	struct rdiag_flow_verdict v;

	if (rdiag_pkt_decode(&fl->p, f->linktype, f->data, f->caplen, f->len, NULL) == 0)
		rdiag_flow_add(fl->ft, &fl->p, f->ts_sec * 1000000000ull + f->ts_nsec, &v);
	else
		rdiag_flow_add_other(fl->ft);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_flow_opts fo = { .pending_max = 256, .max_flows = 4096 };
	struct fuzz_pcap_flows fl;
	struct pcap_read_digest mapped, plain;
	char path[64];
	size_t i;
	int fd;

	if (size > (1 << 20))
		return 0;
	/* each open of the path is a file description of its own, at offset 0 */
	if (memfd < 0 && (memfd = memfd_create("fuzz-pcap", MFD_CLOEXEC)) < 0)
		return 0;
	fd = memfd;
	if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size) != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (rdiag_flow_open(&fl.ft, &fo) < 0)
		return 0;
	pcap_read_all(path, false, &mapped, fuzz_pcap_frame, &fl);
	pcap_read_all(path, true, &plain, NULL, NULL);
	if (!pcap_digest_same(&mapped, &plain))
		__builtin_trap();
	for (i = 0; i < rdiag_flow_count(fl.ft); i++) {
		struct rdiag_flow_info info;

		rdiag_flow_get(fl.ft, i, &info);
	}
	{
		struct rdiag_flow_total t;

		rdiag_flow_total(fl.ft, &t);
	}
	for (i = 0; i < rdiag_flow_cm_count(fl.ft); i++) {
		struct rdiag_cm_conn_info ci;

		rdiag_flow_cm_get(fl.ft, i, &ci);
	}
	rdiag_flow_close(fl.ft);
	return 0;
}
