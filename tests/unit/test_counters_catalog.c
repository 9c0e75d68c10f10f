/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The counter catalogue: table invariants, lookups by driver/origin, aliases, iw prefix. */
#include <string.h>

#include <rdmadiag/catalog.h>
#include "counters/internal.h"
#include "tap.h"

static const char *concept(const char *name, const char *drv, enum rdiag_origin o)
{
	const struct rdiag_catalog_entry *e = rdiag_catalog_lookup(name, drv, o);

	return e ? (e->concept ? e->concept : "(none)") : "(unknown)";
}

static const char *driver(const char *name, const char *drv, enum rdiag_origin o)
{
	const struct rdiag_catalog_entry *e = rdiag_catalog_lookup(name, drv, o);

	return e ? e->driver : "(unknown)";
}

/* the one counter-selection rule: name, catalogue name, alias, concept, glob */
static void test_match(void)
{
	const struct rdiag_catalog_entry *rnr = rdiag_catalog_lookup("rcvd_rnr_err", "rxe",
								     RDIAG_ORIG_SYSFS_HW);
	const struct rdiag_catalog_entry *ack = rdiag_catalog_lookup("ack_deferred", "rxe",
								     RDIAG_ORIG_SYSFS_HW);

	EXPECT_EQ(rdiag_pattern_kind("rcvd_rnr_err"), RDIAG_PATTERN_NAME);
	EXPECT_EQ(rdiag_pattern_kind("sent_pktz"), RDIAG_PATTERN_NAME);
	EXPECT_EQ(rdiag_pattern_kind("rnr_nak_received"), RDIAG_PATTERN_CONCEPT);
	EXPECT_EQ(rdiag_pattern_kind("rnr*"), RDIAG_PATTERN_GLOB);
	EXPECT_EQ(rdiag_pattern_kind("port_[rx]"), RDIAG_PATTERN_GLOB);
	EXPECT_EQ(rdiag_pattern_kind("a?"), RDIAG_PATTERN_GLOB);
	/* a name that is also a concept (mlx5 and rxe call a counter duplicate_request) */
	EXPECT_EQ(rdiag_pattern_kind("duplicate_request"), RDIAG_PATTERN_CONCEPT);

	EXPECT_TRUE(rdiag_counter_match("rcvd_rnr_err", "rcvd_rnr_err", rnr, 0));
	EXPECT_TRUE(rdiag_counter_match("rnr_nak_received", "rcvd_rnr_err", rnr, 0));
	EXPECT_TRUE(!rdiag_counter_match("rnr_nak_sent", "rcvd_rnr_err", rnr, 0));
	/* a glob tries the name and the concept: rxe's RNR counters have no "rnr" prefix */
	EXPECT_TRUE(rdiag_counter_match("rnr*", "rcvd_rnr_err", rnr, 0));
	EXPECT_TRUE(rdiag_counter_match("*_rnr_*", "rcvd_rnr_err", rnr, 0));
	EXPECT_TRUE(!rdiag_counter_match("cnp*", "rcvd_rnr_err", rnr, 0));
	/* an alias (the older kernel's spelling) selects the counter too */
	EXPECT_TRUE(rdiag_counter_match("ack_deffered", "ack_deferred", ack, 0));
	/* a counter the catalogue does not know: only its name */
	EXPECT_TRUE(rdiag_counter_match("vendor_*", "vendor_magic", NULL, 0));
	EXPECT_TRUE(!rdiag_counter_match("rnr_nak_received", "vendor_magic", NULL, 0));
	/* case: exact unless asked (rdmatop's filter) */
	EXPECT_TRUE(!rdiag_counter_match("RCVD_RNR_ERR", "rcvd_rnr_err", rnr, 0));
	EXPECT_TRUE(rdiag_counter_match("RCVD_RNR_ERR", "rcvd_rnr_err", rnr, RDIAG_MATCH_CASEFOLD));
	EXPECT_TRUE(rdiag_counter_match("*RNR_NAK*", "rcvd_rnr_err", rnr, RDIAG_MATCH_CASEFOLD));
	/* names with spaces are names, not two words */
	EXPECT_TRUE(rdiag_counter_match("RNR sent", "RNR sent",
					rdiag_catalog_lookup("RNR sent", "irdma",
							     RDIAG_ORIG_SYSFS_HW), 0));
}

/* counters of one concept in the table */
static size_t members(const char *c)
{
	size_t i, k = 0;

	for (i = 0; i < rdiag_catalog_count(); i++)
		if (rdiag_catalog_at(i)->concept && !strcmp(rdiag_catalog_at(i)->concept, c))
			k++;
	return k;
}

static enum rdiag_unit unit_family(enum rdiag_unit u)
{
	return u == RDIAG_UNIT_WORDS4 ? RDIAG_UNIT_BYTES : u;	/* x4 gives bytes */
}

/* a concept groups only counters of the same event: one unit, a description where several
 * counters share it, and the pairs that count different events apart */
static void test_concepts(void)
{
	size_t i, j, n = rdiag_catalog_count(), undescribed = 0, mixed = 0, unused = 0;
	const struct rdiag_catalog_concept *c;

	for (i = 0; i < n; i++) {
		const struct rdiag_catalog_entry *e = rdiag_catalog_at(i);

		if (!e->concept)
			continue;
		if (members(e->concept) > 1 && !rdiag_catalog_concept_find(e->concept)) {
			printf("# concept %s (%zu counters) has no description\n", e->concept,
				 members(e->concept));
			undescribed++;
		}
		for (j = 0; j < n; j++) {
			const struct rdiag_catalog_entry *f = rdiag_catalog_at(j);

			if (f->concept && !strcmp(f->concept, e->concept) &&
			    unit_family(f->unit) != unit_family(e->unit)) {
				printf("# concept %s: %s counts %s, %s %s\n", e->concept, e->name,
					 rdiag_unit_name(e->unit), f->name, rdiag_unit_name(f->unit));
				mixed++;
			}
		}
	}
	EXPECT_EQ(undescribed, 0);
	EXPECT_EQ(mixed, 0);
	/* every description is of a concept in use, with a meaning, once, in name order */
	for (i = 0; i < rd_catalog_concepts_n; i++) {
		c = &rd_catalog_concepts[i];
		if (!members(c->name) || !c->meaning || !*c->meaning ||
		    (i && strcmp(rd_catalog_concepts[i - 1].name, c->name) >= 0)) {
			printf("# concept row %s: unused, without meaning or out of order\n", c->name);
			unused++;
		}
	}
	EXPECT_EQ(unused, 0);
	EXPECT_TRUE(rdiag_catalog_concept_find("no_such_concept") == NULL);
	EXPECT_TRUE(rdiag_catalog_concept_find(NULL) == NULL);
	c = rdiag_catalog_concept_find("ack_timeout");
	EXPECT_TRUE(c && c->differences && strstr(c->differences, "completer_retry_err"));

	/* timeout-only vs timeout-or-NAK (the rxe/mlx5 pair of the issue) */
	EXPECT_STREQ(concept("local_ack_timeout_err", "mlx5", RDIAG_ORIG_NETLINK), "ack_timeout");
	EXPECT_STREQ(concept("completer_retry_err", "rxe", RDIAG_ORIG_NETLINK), "transport_retry");
	/* packets resent are not timeouts */
	EXPECT_STREQ(concept("RcResend", "hfi1", RDIAG_ORIG_SYSFS_HW), "retransmitted_packets");
	EXPECT_STREQ(concept("tcpRetransSegs", "irdma", RDIAG_ORIG_SYSFS_HW),
		     "retransmitted_packets");
	/* one NAK per gap is not every out-of-sequence packet */
	EXPECT_STREQ(concept("out_of_sequence", "mlx5", RDIAG_ORIG_NETLINK), "out_of_sequence");
	EXPECT_STREQ(concept("out_of_seq_request", "rxe", RDIAG_ORIG_NETLINK), "nak_seq_sent");
	EXPECT_STREQ(concept("RcSeqNak", "hfi1", RDIAG_ORIG_SYSFS_HW), "nak_seq_sent");
	/* CNPs received (handled or ignored) are not CNPs handled */
	EXPECT_STREQ(concept("cc_rx_cnp_pkts", "mlx5", RDIAG_ORIG_NETLINK), "cnp_received");
	EXPECT_STREQ(concept("received_cnps", "mana", RDIAG_ORIG_SYSFS_HW), "cnp_received");
	EXPECT_STREQ(concept("rp_cnp_handled", "mlx5", RDIAG_ORIG_NETLINK), "cnp_handled");
	/* errors of any kind are not ICRC errors; upstream-marked packets not local errors */
	EXPECT_STREQ(concept("rx_roce_errors", "bnxt_re", RDIAG_ORIG_SYSFS_HW), "rx_errors");
	EXPECT_STREQ(concept("port_rcv_remote_physical_errors", NULL, RDIAG_ORIG_PMA),
		     "rx_remote_physical_errors");
	/* failed work requests of any cause, a closest-match health event, a missing response
	 * and a no-route drop are not the events they resemble */
	EXPECT_STREQ(concept("rdma_write_wr_err", "efa", RDIAG_ORIG_SYSFS_HW), "(none)");
	EXPECT_STREQ(concept("unresponsive_remote_events", "efa", RDIAG_ORIG_SYSFS_HW), "(none)");
	EXPECT_STREQ(concept("missing_resp", "bnxt_re", RDIAG_ORIG_SYSFS_HW), "(none)");
	EXPECT_STREQ(concept("ip4OutNoRoutes", "irdma", RDIAG_ORIG_SYSFS_HW), "tx_no_route");
}

int main(void)
{
	size_t i, j, n = rdiag_catalog_count(), bad = 0, dup = 0, nkeys, seen = 0;
	const struct rdiag_catalog_entry *e;
	static const char *const drivers[] = { "pma", "cm", "rxe", "mlx5", "bnxt_re", "irdma",
					       "efa", "mana", "erdma", "hfi1" };

	EXPECT_TRUE(n > 250);
	for (i = 0; i < n; i++) {
		e = rdiag_catalog_at(i);
		if (!e->name || !e->driver || !e->meaning || !*e->meaning || e->scale < 1 ||
		    !(e->width == 4 || e->width == 8 || e->width == 16 || e->width == 32 ||
		      e->width == 64))
			bad++;
		for (j = i + 1; j < n; j++)
			if (!strcmp(e->name, rdiag_catalog_at(j)->name) &&
			    !strcmp(e->driver, rdiag_catalog_at(j)->driver))
				dup++;
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(dup, 0);
	EXPECT_TRUE(rdiag_catalog_at(n) == NULL);
	/* the build-time index holds exactly the table's keys, each in its own hash's bucket, in
	 * table order (earlier rows win ties); and finds every row by its name and by each
	 * alias, for its own driver (names are unique per driver, so the row itself comes back) */
	for (bad = 0, nkeys = 0, i = 0; i < n; i++)
		for (nkeys++, j = 0; j < 3 && rdiag_catalog_at(i)->aliases[j]; j++)
			nkeys++;
	EXPECT_EQ(rd_catalog_nkeys, nkeys);
	for (i = 0; i <= rd_catalog_mask; i++) {
		uint32_t k, prev = 0;

		for (k = rd_catalog_heads[i]; k; prev = k, k = rd_catalog_keys[k - 1].next) {
			const struct rd_catalog_key *key = &rd_catalog_keys[k - 1];

			if (k > nkeys || key->row >= n || key->alias > 3 ||
			    (rd_catalog_hash(rd_catalog_key_name(key)) & rd_catalog_mask) != i ||
			    (prev && rd_catalog_keys[prev - 1].row > key->row)) {
				printf("# index key %u misplaced in bucket %zu\n", k, i);
				bad++;
			}
			seen++;
		}
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(seen, nkeys);
	for (bad = 0, i = 0; i < n; i++) {
		enum rdiag_origin o;

		e = rdiag_catalog_at(i);
		o = !strcmp(e->driver, "pma") ? RDIAG_ORIG_PMA : !strcmp(e->driver, "cm") ?
			RDIAG_ORIG_CM : RDIAG_ORIG_NETLINK;
		if (rdiag_catalog_lookup(e->name, e->driver, o) != e) {
			printf("# %s/%s not found by name\n", e->driver, e->name);
			bad++;
		}
		for (j = 0; j < 3 && e->aliases[j]; j++) {
			const struct rdiag_catalog_entry *a = rdiag_catalog_lookup(e->aliases[j],
										     e->driver, o);

			if (!a || strcmp(a->driver, e->driver)) {
				printf("# %s/%s not found by alias %s\n", e->driver, e->name,
				       e->aliases[j]);
				bad++;
			}
		}
	}
	EXPECT_EQ(bad, 0);
	/* every driver of the issue is covered */
	for (j = 0; j < sizeof(drivers) / sizeof(drivers[0]); j++) {
		size_t cnt = 0;

		for (i = 0; i < n; i++)
			cnt += !strcmp(rdiag_catalog_at(i)->driver, drivers[j]);
		printf("# %-8s %zu entries\n", drivers[j], cnt);
		EXPECT_TRUE(cnt >= 4);
	}

	/* the cross-vendor concept map (rdma-reference.md 3.11) */
	EXPECT_STREQ(concept("rnr_nak_retry_err", "mlx5", RDIAG_ORIG_NETLINK), "rnr_nak_received");
	EXPECT_STREQ(concept("rcvd_rnr_err", "rxe", RDIAG_ORIG_NETLINK), "rnr_nak_received");
	EXPECT_STREQ(concept("rnr_naks_rcvd", "bnxt_re", RDIAG_ORIG_SYSFS_DEV_HW), "rnr_nak_received");
	EXPECT_STREQ(concept("RNR received", "irdma", RDIAG_ORIG_SYSFS_HW), "rnr_nak_received");
	EXPECT_STREQ(concept("requester_rnr_nak", "mana", RDIAG_ORIG_NETLINK), "rnr_nak_received");
	EXPECT_STREQ(concept("np_cnp_sent", NULL, RDIAG_ORIG_NETLINK), "cnp_sent");
	EXPECT_STREQ(concept("cnpSent", NULL, RDIAG_ORIG_NETLINK), "cnp_sent");
	EXPECT_STREQ(concept("rx_icrc_encapsulated", NULL, RDIAG_ORIG_NETLINK), "icrc_error");
	EXPECT_STREQ(concept("CRC errors", NULL, RDIAG_ORIG_NETLINK), "icrc_error");
	EXPECT_STREQ(concept("np_ecn_marked_roce_packets", NULL, RDIAG_ORIG_NETLINK), "ecn_marked");
	EXPECT_STREQ(concept("local_ack_timeout_err", NULL, RDIAG_ORIG_NETLINK), "ack_timeout");
	EXPECT_STREQ(concept("retrans_timeout_events", "efa", RDIAG_ORIG_NETLINK), "ack_timeout");

	/* aliases across kernel versions */
	EXPECT_STREQ(rdiag_catalog_lookup("ack_deffered", "rxe", RDIAG_ORIG_NETLINK)->name,
		     "ack_deferred");
	EXPECT_STREQ(driver("out_of_sequence", "bnxt_re", RDIAG_ORIG_SYSFS_DEV_HW), "bnxt_re");
	EXPECT_STREQ(rdiag_catalog_lookup("out_of_sequence", "bnxt_re", RDIAG_ORIG_SYSFS_DEV_HW)->name,
		     "oos_drop_count");
	EXPECT_STREQ(rdiag_catalog_lookup("out_of_sequence", "rxe", RDIAG_ORIG_NETLINK)->name,
		     "out_of_seq_request");
	EXPECT_STREQ(driver("out_of_sequence", "mlx5", RDIAG_ORIG_NETLINK), "mlx5");
	EXPECT_STREQ(driver("out_of_sequence", NULL, RDIAG_ORIG_NETLINK), "mlx5");
	EXPECT_STREQ(concept("out_of_sequence", "bnxt_re", RDIAG_ORIG_NETLINK), "out_of_sequence");
	/* iw prefix of i40iw / older irdma */
	EXPECT_STREQ(rdiag_catalog_lookup("iwInRdmaReads", "irdma", RDIAG_ORIG_SYSFS_HW)->name,
		     "InRdmaReads");
	EXPECT_STREQ(rdiag_catalog_lookup("iwRdmaBnd", NULL, RDIAG_ORIG_SYSFS_HW)->name, "RdmaBnd");
	EXPECT_TRUE(rdiag_catalog_lookup("iwNoSuchCounter", NULL, RDIAG_ORIG_SYSFS_HW) == NULL);
	/* erdma hw_ prefix alias */
	EXPECT_STREQ(rdiag_catalog_lookup("hw_tx_bytes_cnt", "erdma", RDIAG_ORIG_NETLINK)->name,
		     "tx_bytes_cnt");

	/* origin and driver decide between same-named counters */
	e = rdiag_catalog_lookup("link_downed", "mlx5", RDIAG_ORIG_PMA);
	EXPECT_STREQ(e->driver, "pma");
	EXPECT_EQ(e->width, 8);
	EXPECT_EQ(e->behaviour, RDIAG_CNT_SATURATE);
	e = rdiag_catalog_lookup("link_downed", "rxe", RDIAG_ORIG_NETLINK);
	EXPECT_STREQ(e->driver, "rxe");
	EXPECT_EQ(e->width, 64);
	EXPECT_EQ(e->behaviour, RDIAG_CNT_WRAP);
	e = rdiag_catalog_lookup("port_xmit_data", NULL, RDIAG_ORIG_PMA);
	EXPECT_EQ(e->scale, 4);
	EXPECT_EQ(e->unit, RDIAG_UNIT_WORDS4);
	EXPECT_TRUE(rdiag_catalog_lookup("port_xmit_data", NULL, RDIAG_ORIG_NETLINK) == NULL);
	e = rdiag_catalog_lookup("duplicate_request", "mlx5", RDIAG_ORIG_NETLINK);
	EXPECT_EQ(e->width, 32);
	e = rdiag_catalog_lookup("duplicate_request", "rxe", RDIAG_ORIG_NETLINK);
	EXPECT_EQ(e->width, 64);
	EXPECT_EQ(rdiag_catalog_lookup("tx_pkts", "efa", RDIAG_ORIG_SYSFS_HW)->unit,
		  RDIAG_UNIT_PACKETS);
	EXPECT_STREQ(driver("tx_pkts", "efa", RDIAG_ORIG_SYSFS_HW), "efa");
	EXPECT_STREQ(driver("tx_pkts", "bnxt_re", RDIAG_ORIG_SYSFS_HW), "bnxt_re");

	/* CM counters */
	e = rdiag_catalog_lookup("cm_tx_retries/req", NULL, RDIAG_ORIG_CM);
	EXPECT_STREQ(e->concept, "cm_req_retry");
	EXPECT_TRUE(e->hint != NULL);
	EXPECT_TRUE(rdiag_catalog_lookup("cm_tx_retries/req", NULL, RDIAG_ORIG_NETLINK) == NULL);
	EXPECT_STREQ(concept("cm_rx_msgs/rej", NULL, RDIAG_ORIG_CM), "cm_rej_received");

	/* opaque names with spaces and commas */
	EXPECT_STREQ(concept("Rcvd Out of order packets", "irdma", RDIAG_ORIG_SYSFS_HW),
		     "out_of_sequence");
	EXPECT_STREQ(driver("SwLinkUp,32", NULL, RDIAG_ORIG_SYSFS_HW), "hfi1");
	/* unknown names pass through */
	EXPECT_TRUE(rdiag_catalog_lookup("vendor_magic", "mlx5", RDIAG_ORIG_NETLINK) == NULL);
	EXPECT_TRUE(rdiag_catalog_lookup("", NULL, RDIAG_ORIG_NETLINK) == NULL);
	EXPECT_TRUE(rdiag_catalog_lookup(NULL, NULL, RDIAG_ORIG_NETLINK) == NULL);

	EXPECT_TRUE(rdiag_catalog_is_concept("rnr_nak_sent"));
	EXPECT_TRUE(!rdiag_catalog_is_concept("sent_pkts"));
	EXPECT_STREQ(rdiag_unit_name(RDIAG_UNIT_WORDS4), "4-octet words");
	EXPECT_STREQ(rdiag_severity_name(RDIAG_SEV_ERROR), "error");
	EXPECT_STREQ(rdiag_behaviour_name(RDIAG_CNT_SATURATE), "saturating");
	test_match();
	test_concepts();
	return tap_done();
}
