/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: lib/fabric's parsers of what the kernel answers.
 *   byte 0 even: a dcbnl reply datagram (RTM_GETDCB: what rd_dcb_parse_datagram reads), then
 *                the chain run on what was parsed;
 *   byte 0 odd:  an ethtool -S answer: u16 (little endian) length of the ETHTOOL_GSTRINGS
 *                names, the names, then the ETHTOOL_GSTATS values (rd_ethstats_build), each
 *                name then looked up in the RoCE catalogue of every driver it has;
 *   byte 0 2 mod 4: a generic netlink reply datagram, read both as the "ethtool" family
 *                lookup's answer (rd_genl_family_parse) and as ETHTOOL_MSG_PAUSE_GET's of
 *                family 21 (rd_pause_parse_datagram, the id mk_pause.py records).
 * Each piece is an exactly sized heap copy so that ASan flags a read past it.  Invariants:
 * a parsed table never holds more than it has room for, every name is terminated, every
 * chain link has a name, a state and terminated texts.  Seeds: tests/fuzz/mk_seeds_fabric.py
 * (the replies of tests/fixtures/fabric). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>

#include <rdmadiag/fabric.h>
#include "fabric/internal.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static const char *const drivers[] = { "mlx5_core", "bnxt_en", "ice", "i40e", "rdmadiag_dcbdev" };

static void check_chain(const struct rdiag_chain *c)
{
	int i;

	CHECK(c->verdict != NULL);
	CHECK(c->prio >= -1 && c->prio < RDIAG_DCB_PRIOS);
	for (i = 0; i < RDIAG_CHAIN_LINKS; i++) {
		CHECK(c->link[i].name != NULL);
		CHECK(c->link[i].state <= RDIAG_LINK_NA);
		CHECK(memchr(c->link[i].evidence, 0, sizeof(c->link[i].evidence)) != NULL);
		CHECK(memchr(c->link[i].fix, 0, sizeof(c->link[i].fix)) != NULL);
		CHECK((c->link[i].state == RDIAG_LINK_BROKEN) == (c->link[i].finding != NULL));
	}
}

/* does the datagram hold an NLMSG_ERROR of err (the kernel's own error) */
static bool kernel_error_in(const uint8_t *b, size_t size, int err)
{
	const struct nlmsghdr *h = (const void *)b;
	int rem = size > INT32_MAX ? INT32_MAX : (int)size;

	for (; mnl_nlmsg_ok(h, rem); h = mnl_nlmsg_next(h, &rem))
		if (h->nlmsg_type == NLMSG_ERROR &&
		    h->nlmsg_len >= mnl_nlmsg_size(sizeof(struct nlmsgerr)) &&
		    ((const struct nlmsgerr *)mnl_nlmsg_get_payload(h))->error == err)
			return true;
	return false;
}

static void dcb(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);
	struct rdiag_dcb d;
	struct rdiag_fabric_qos q;
	struct rdiag_chain c;
	struct rdiag_chain_in in;
	const char *why = NULL;
	int ret, tos;

	memcpy(b, data, size);
	memset(&d, 0, sizeof(d));
	ret = rd_dcb_parse_datagram(b, size, &d, &why);
	CHECK(ret <= 0 && ret >= -4095);
	/* a reason for a malformed reply and only then; none for the kernel's own EBADMSG */
	CHECK(why == NULL || ret == -EBADMSG);
	CHECK(ret != -EBADMSG || why != NULL || kernel_error_in(b, size, -EBADMSG));
	free(b);
	CHECK(d.app.n <= RDIAG_DCB_APP_MAX && d.peer_app.n <= RDIAG_DCB_APP_MAX);
	memset(&q, 0, sizeof(q));
	q.trust = RDIAG_TRUST_NA;
	memset(q.dscp2prio, -1, sizeof(q.dscp2prio));
	memset(q.ecn_np, -1, sizeof(q.ecn_np));
	memset(q.ecn_rp, -1, sizeof(q.ecn_rp));
	q.cnp_dscp = q.roce_tos = -1;
	q.cnp_prio = size ? data[size - 1] & 7 : 0;	/* the CNP link too */
	q.cnp_prio_mode = 0;
	for (tos = 0; tos < 256; tos += 53) {
		memset(&in, 0, sizeof(in));
		in.ifname = "eth0";
		in.dev = "mlx5_0";
		in.port = 1;
		in.tos = tos;
		in.dcb = ret ? NULL : &d;
		in.dcb_err = ret;
		in.qos = &q;
		rdiag_fabric_chain(&in, &c);
		check_chain(&c);
	}
}

static void eth(const uint8_t *data, size_t size)
{
	struct rdiag_ethstats *s = NULL;
	size_t slen, i, k;
	uint8_t *names, *values;

	if (size < 2)
		return;
	slen = (size_t)(data[0] | data[1] << 8);
	data += 2;
	size -= 2;
	if (slen > size)
		slen = size;
	names = malloc(slen ? slen : 1);
	values = malloc(size - slen ? size - slen : 1);
	memcpy(names, data, slen);
	memcpy(values, data + slen, size - slen);
	if (rd_ethstats_build(drivers[slen % 5], names, slen, values, size - slen, &s) == 0) {
		CHECK(rdiag_ethstats_count(s) * 32 == slen);
		for (i = 0; i < rdiag_ethstats_count(s); i++) {
			const char *n = rdiag_ethstats_name(s, i);
			uint64_t v;

			CHECK(n && strlen(n) <= 32);	/* a 32-byte name has no NUL in the reply */
			CHECK(rdiag_ethstats_find(s, n, &v) == 0);
			for (k = 0; k < sizeof(drivers) / sizeof(drivers[0]); k++) {
				int p = 9;
				const struct rdiag_eth_catalog_entry *e =
					rdiag_eth_catalog_lookup(drivers[k], n, &p);

				CHECK(p >= -1 && p < RDIAG_DCB_PRIOS);
				CHECK(!e || !strcmp(e->driver, drivers[k]));
			}
		}
		{
			struct rdiag_chain c;
			struct rdiag_chain_in in = { .ifname = "eth0", .tos = 106, .dcb_err = -EOPNOTSUPP,
						     .before = s, .after = s };

			rdiag_fabric_chain(&in, &c);
			check_chain(&c);
		}
		rdiag_ethstats_free(s);
	} else {
		CHECK(s == NULL);
	}
	free(names);
	free(values);
}

static void pause_reply(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);
	struct rdiag_eth_pause p;
	const char *why = NULL;
	uint16_t id = 0;
	int ret;

	memcpy(b, data, size);
	ret = rd_genl_family_parse(b, size, &id, &why);
	CHECK(ret <= 0 && ret >= -4095);
	CHECK(why == NULL || ret == -EBADMSG);
	CHECK(ret != -EBADMSG || why != NULL || kernel_error_in(b, size, -EBADMSG));
	CHECK(ret != 0 || id != 0);
	memset(&p, 0xa5, sizeof(p));
	why = NULL;
	ret = rd_pause_parse_datagram(b, size, 21, &p, &why);
	CHECK(ret <= 0 && ret >= -4095);
	CHECK(why == NULL || ret == -EBADMSG);
	CHECK(ret != -EBADMSG || why != NULL || kernel_error_in(b, size, -EBADMSG));
	free(b);
	if (ret == 0) {
		CHECK(p.autoneg >= -1 && p.autoneg <= 1);
		CHECK(p.rx >= -1 && p.rx <= 1 && p.tx >= -1 && p.tx <= 1);
		CHECK(p.has_tx_frames || p.tx_frames == 0);
		CHECK(p.has_rx_frames || p.rx_frames == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 65536)
		return 0;
	if (data[0] & 1)
		eth(data + 1, size - 1);
	else if (data[0] & 2)
		pause_reply(data + 1, size - 1);
	else
		dcb(data + 1, size - 1);
	return 0;
}
