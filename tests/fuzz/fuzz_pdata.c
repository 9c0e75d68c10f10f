/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: CM private data as the doctor unpacks it (rd_doc_pdata_unpack: what the
 * listener reads from a client's connect request and the client from the listener's reply,
 * both from the network).
 *
 * Input: the private data, from an exactly sized heap copy.  Unpacked data must pack back to
 * the same first bytes it came from (magic, version, GID type, MTUs, device name up to its
 * NUL) and unpack again to the same record; the peer's device name is always terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doctor/internal.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rdiag_doc_peer_info p, q;
	uint8_t packed[RD_DOC_PDATA_LEN];
	uint8_t *b;

	if (size > 256)
		return 0;
	b = malloc(size ? size : 1);
	memcpy(b, data, size);
	if (rd_doc_pdata_unpack(b, size, &p) == 0) {
		CHECK(p.valid);
		CHECK(memchr(p.dev, 0, sizeof(p.dev)));
		CHECK(p.netdev_mtu <= 0xffff && p.path_mtu <= 0xffff && p.active_mtu <= 0xffff);
		(void)rdiag_roce_path_mtu(p.netdev_mtu);
		memset(packed, 0, sizeof(packed));
		rd_doc_pdata_pack(packed, &p);
		CHECK(!memcmp(packed, b, 12));
		CHECK(!strcmp((const char *)packed + 12, p.dev));
		CHECK(rd_doc_pdata_unpack(packed, sizeof(packed), &q) == 0);
		CHECK(q.valid && q.gid_type == p.gid_type && q.netdev_mtu == p.netdev_mtu &&
		      q.path_mtu == p.path_mtu && q.active_mtu == p.active_mtu &&
		      !strcmp(q.dev, p.dev));
	} else {
		CHECK(!p.valid);
	}
	free(b);
	return 0;
}
