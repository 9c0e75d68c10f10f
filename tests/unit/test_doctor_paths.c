/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor paths' pure parts (lib/doctor/doctor_paths.c): the classifier that turns a
 * good/bad mark per probe into all good / all bad / a subset with its ranges (empty, all
 * good, all bad, one bad, contiguous and split ranges, ports probed more than once with
 * mixed outcomes, probes that failed before any data), and the kernel's source-port rules
 * (values worked out by hand from include/rdma/ib_verbs.h and rxe_qp.c's formulas). */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "rdmadiag/doctor.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_empty(void)
{
	struct rdiag_doc_paths_verdict v;

	EXPECT_EQ(rdiag_doc_paths_classify(NULL, 0, &v), 0);
	EXPECT_EQ(v.cls, RDIAG_PATHS_NONE);
	EXPECT_STREQ(v.name, "none");
	EXPECT_EQ(v.nports, 0);
	EXPECT_EQ(v.nranges, 0);
	EXPECT_STREQ(v.bad_list, "");
}

static void test_all_good(void)
{
	const struct rdiag_doc_path_mark m[] = { { 50000, true }, { 49152, true }, { 60000, true } };
	struct rdiag_doc_paths_verdict v;

	rdiag_doc_paths_classify(m, N(m), &v);
	EXPECT_EQ(v.cls, RDIAG_PATHS_ALL_GOOD);
	EXPECT_STREQ(v.name, "all_good");
	EXPECT_EQ(v.nports, 3);
	EXPECT_EQ(v.ngood, 3);
	EXPECT_EQ(v.nbad, 0);
	EXPECT_EQ(v.nranges, 0);
	EXPECT_DBL(v.bad_fraction, 0.0, 1e-9);
}

static void test_all_bad(void)
{
	const struct rdiag_doc_path_mark m[] = { { 50000, false }, { 0, false }, { 49152, false } };
	struct rdiag_doc_paths_verdict v;

	rdiag_doc_paths_classify(m, N(m), &v);
	EXPECT_EQ(v.cls, RDIAG_PATHS_ALL_BAD);
	EXPECT_STREQ(v.name, "all_bad");
	EXPECT_EQ(v.nports, 2);
	EXPECT_EQ(v.nbad, 2);
	EXPECT_EQ(v.nunplaced, 1);
	/* every probed port bad: one range from the lowest to the highest */
	EXPECT_EQ(v.nranges, 1);
	EXPECT_STREQ(v.bad_list, "49152-50000 (2 ports)");
	EXPECT_TRUE(strstr(v.sentence, "not a path problem") != NULL);

	/* nothing got as far as data: all bad, no port to name */
	{
		const struct rdiag_doc_path_mark u[] = { { 0, false }, { 0, false } };

		rdiag_doc_paths_classify(u, N(u), &v);
		EXPECT_EQ(v.cls, RDIAG_PATHS_ALL_BAD);
		EXPECT_EQ(v.nports, 0);
		EXPECT_EQ(v.nunplaced, 2);
		EXPECT_EQ(v.nranges, 0);
	}
}

static void test_one_bad(void)
{
	const struct rdiag_doc_path_mark m[] = {
		{ 49200, true }, { 51000, false }, { 55000, true }, { 62000, true },
	};
	struct rdiag_doc_paths_verdict v;

	rdiag_doc_paths_classify(m, N(m), &v);
	EXPECT_EQ(v.cls, RDIAG_PATHS_SUBSET);
	EXPECT_STREQ(v.name, "subset");
	EXPECT_EQ(v.nports, 4);
	EXPECT_EQ(v.nbad, 1);
	EXPECT_EQ(v.ngood, 3);
	EXPECT_EQ(v.nranges, 1);
	EXPECT_EQ(v.ranges[0].lo, 51000);
	EXPECT_EQ(v.ranges[0].hi, 51000);
	EXPECT_EQ(v.ranges[0].nbad, 1);
	EXPECT_STREQ(v.bad_list, "51000");
	EXPECT_DBL(v.bad_fraction, 0.25, 1e-9);
	EXPECT_TRUE(strstr(v.sentence, "1 of 4 source ports fail (25%): 51000;") != NULL);
}

/* bad ports with no good probed port between them are one range, whatever the gap; a good
 * port splits them; input order does not matter */
static void test_ranges(void)
{
	const struct rdiag_doc_path_mark m[] = {
		{ 53000, false }, { 49160, false }, { 60001, true }, { 50300, false },
		{ 49152, true }, { 61000, false }, { 61001, false }, { 54000, true },
		{ 65000, false },
	};
	struct rdiag_doc_paths_verdict v;

	rdiag_doc_paths_classify(m, N(m), &v);
	EXPECT_EQ(v.cls, RDIAG_PATHS_SUBSET);
	EXPECT_EQ(v.nports, 9);
	EXPECT_EQ(v.nbad, 6);
	EXPECT_EQ(v.nranges, 2);
	EXPECT_EQ(v.ranges[0].lo, 49160);
	EXPECT_EQ(v.ranges[0].hi, 53000);
	EXPECT_EQ(v.ranges[0].nbad, 3);
	EXPECT_EQ(v.ranges[1].lo, 61000);
	EXPECT_EQ(v.ranges[1].hi, 65000);
	EXPECT_EQ(v.ranges[1].nbad, 3);
	EXPECT_STREQ(v.bad_list, "49160-53000 (3 ports), 61000-65000 (3 ports)");
}

/* a port probed more than once: bad when any of its probes failed, flaky when another
 * worked; a tie (one of each) is bad and flaky, whatever the order */
static void test_ties(void)
{
	const struct rdiag_doc_path_mark a[] = {
		{ 50000, true }, { 50000, false }, { 51000, true }, { 51000, true },
	};
	const struct rdiag_doc_path_mark b[] = {
		{ 51000, true }, { 50000, false }, { 51000, true }, { 50000, true },
	};
	struct rdiag_doc_paths_verdict v, w;

	rdiag_doc_paths_classify(a, N(a), &v);
	rdiag_doc_paths_classify(b, N(b), &w);
	EXPECT_EQ(v.cls, RDIAG_PATHS_SUBSET);
	EXPECT_EQ(v.nports, 2);
	EXPECT_EQ(v.nbad, 1);
	EXPECT_EQ(v.nflaky, 1);
	EXPECT_STREQ(v.bad_list, "50000");
	EXPECT_TRUE(strstr(v.sentence, "only sometimes") != NULL);
	EXPECT_EQ(w.cls, v.cls);
	EXPECT_EQ(w.nbad, v.nbad);
	EXPECT_EQ(w.nflaky, v.nflaky);
	EXPECT_STREQ(w.bad_list, v.bad_list);
	EXPECT_STREQ(w.sentence, v.sentence);
}

/* more runs than the verdict holds: the last one grows, no port is lost from the count */
static void test_many_ranges(void)
{
	struct rdiag_doc_path_mark m[2 * RDIAG_DOC_PATHS_RANGES + 10];
	struct rdiag_doc_paths_verdict v;
	size_t i;

	for (i = 0; i < N(m); i++) {
		m[i].sport = (uint16_t)(49152 + i);
		m[i].ok = i % 2;
	}
	rdiag_doc_paths_classify(m, N(m), &v);
	EXPECT_EQ(v.cls, RDIAG_PATHS_SUBSET);
	EXPECT_EQ(v.nbad, N(m) / 2);
	EXPECT_EQ(v.nranges, RDIAG_DOC_PATHS_RANGES);
	EXPECT_EQ(v.ranges[RDIAG_DOC_PATHS_RANGES - 1].hi, 49152 + N(m) - 2);
	EXPECT_TRUE(strstr(v.bad_list, "...") != NULL);
}

static void test_sport_rules(void)
{
	/* rxe_qp_init_req: 0xc000 + hash_32(qpn, 14); QP1 (the CM's MADs) always 55410 */
	EXPECT_EQ(rdiag_roce_sport_rxe_qpn(1), 55410);
	EXPECT_EQ(rdiag_roce_sport_rxe_qpn(0x11), 57236);
	/* rdma_calc_flow_label and rdma_flow_label_to_udp_sport */
	EXPECT_EQ(rdiag_roce_calc_flow_label(0x11, 0x12), 306);
	EXPECT_EQ(rdiag_roce_calc_flow_label(0x12, 0x11), 306);	/* symmetric: both ends agree */
	EXPECT_EQ(rdiag_roce_sport_flow_label(306), 49458);
	EXPECT_EQ(rdiag_roce_calc_flow_label(0x123456, 0xabcdef), 705507);
	EXPECT_EQ(rdiag_roce_sport_flow_label(705507), 50120);
	EXPECT_EQ(rdiag_roce_sport_flow_label(0xfffff), 65472);
	EXPECT_EQ(rdiag_roce_sport_flow_label(0), 49152);
	EXPECT_TRUE(strstr(rdiag_doc_sport_how_str(RDIAG_SPORT_RXE_FLOW), "rxe") != NULL);
	EXPECT_TRUE(strstr(rdiag_doc_sport_how_str(RDIAG_SPORT_COMPUTED), "not confirmed") != NULL);
}

int main(void)
{
	test_empty();
	test_all_good();
	test_all_bad();
	test_one_bad();
	test_ranges();
	test_ties();
	test_many_ranges();
	test_sport_rules();
	return tap_done();
}
