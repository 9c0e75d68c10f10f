/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: rtnetlink replies as the doctor parses them: the answer to RTM_GETROUTE
 * ('ip route get': lib/netlink/route.c) and to RTM_GETNEIGH ('ip neigh get':
 * lib/doctor/rtnl.c).
 *
 * Both files are included, so that its reply callbacks (static) are called as rtnl_request()
 * calls them through lib/netlink's exchange, on datagrams from the input instead of the
 * socket or a replay: each is checked with rd_nl_datagram_check() and then run through
 * mnl_cb_run() until the callback stops, an error or the last datagram (rd_nl_walk_dgram's rule
 * in rd_nl_talk's loop).  No socket is opened.
 * Input: byte 0 picks the request (bit 0: route or neighbour) and the address family
 * (bit 1: IPv4 or IPv6); then datagrams, each a u16 length (little endian) and that many
 * bytes (cut at the end of the input), each an exactly sized heap copy so that ASan flags
 * a read past it.  The parsed route or neighbour is then printed as the doctor prints it. */
#include <stdint.h>
#include <stdlib.h>

#include "doctor/rtnl.c"
#include "netlink/route.c"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static int run(const uint8_t *data, size_t size, mnl_cb_t cb, void *ctx)
{
	const uint8_t *p = data, *end = data + size;
	int ret = MNL_CB_OK;

	while (end - p >= 2 && ret > MNL_CB_STOP) {
		size_t l = (size_t)(p[0] | p[1] << 8);
		uint8_t *b;

		p += 2;
		if (l > (size_t)(end - p))
			l = (size_t)(end - p);
		b = malloc(l ? l : 1);
		memcpy(b, p, l);
		p += l;
		if (rd_nl_datagram_check(b, l) < 0)
			ret = -1;
		else
			ret = mnl_cb_run(b, l, 0, 0, cb, ctx);
		free(b);
	}
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char a[INET6_ADDRSTRLEN + 8], s[128];
	int family;

	if (size < 1 || size > 65536)
		return 0;
	family = data[0] & 2 ? AF_INET6 : AF_INET;
	if (data[0] & 1) {
		struct rd_neigh n;
		struct neigh_ctx ctx = { &n, false };

		memset(&n, 0, sizeof(n));
		(void)run(data + 1, size - 1, neigh_cb, &ctx);
		CHECK(n.lladdr_len <= sizeof(n.lladdr));
		CHECK(rd_nud_state_name(n.state, s, sizeof(s)) == s && memchr(s, 0, sizeof(s)));
		CHECK(rd_nud_state_name(n.state, s, 8) == s && memchr(s, 0, 8));
	} else {
		struct rd_nl_route r;
		struct route_ctx ctx = { &r, family == AF_INET ? 4 : 16 };
		union rd_addr x;

		memset(&r, 0, sizeof(r));
		(void)run(data + 1, size - 1, route_cb, &ctx);
		if (r.has_prefsrc) {
			addr_set(&x, family, r.prefsrc);
			CHECK(rd_addr_str(&x, a, sizeof(a)) != NULL);
		}
		if (r.has_gateway) {
			addr_set(&x, family, r.gateway);
			CHECK(rd_addr_str(&x, a, sizeof(a)) != NULL);
		}
	}
	return 0;
}
