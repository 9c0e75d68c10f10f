/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Threshold rules: parsing with line numbers, matching by name/glob/concept/alias/dev/port,
 * evaluation of absolute, delta and rate rules. */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/threshold.h>
#include "tap.h"

/* open a rule set from a buffer; err gets rdiag_threshold_errmsg(NULL) when that fails */
static int parse_len(const char *s, size_t len, struct rdiag_thresholds **t, char *err)
{
	const struct rdiag_threshold_opts o = { .buf = s, .len = len };
	int r = rdiag_threshold_open(t, &o);

	snprintf(err, 128, "%s", r < 0 ? rdiag_threshold_errmsg(NULL) : "");
	return r;
}

static int parse(const char *s, struct rdiag_thresholds **t, char *err)
{
	return parse_len(s, strlen(s), t, err);
}

static int parse_file(const char *path, struct rdiag_thresholds **t, char *err)
{
	const struct rdiag_threshold_opts o = { .path = path };
	int r = rdiag_threshold_open(t, &o);

	snprintf(err, 128, "%s", r < 0 ? rdiag_threshold_errmsg(NULL) : "");
	return r;
}

static struct rdiag_sample mk(const char *dev, uint32_t port, const char *name, uint64_t v,
			      const char *drv, enum rdiag_origin o)
{
	struct rdiag_sample s;

	memset(&s, 0, sizeof(s));
	s.dev = dev;
	s.port = port;
	s.name = name;
	s.value = v;
	s.origin = o;
	s.cat = rdiag_catalog_lookup(name, drv, o);
	return s;
}

/* A value is a decimal number, finite after its suffix: 1e308 is, 1e308G would be infinity
 * (a limit nothing exceeds); strtod's hex floats are not thresholds. */
static void check_values(void)
{
	static const struct { const char *v; double limit; } ok[] = {
		{ "2.5", 2.5 }, { ".5", 0.5 }, { "5.", 5 }, { "1e6", 1e6 }, { "1.5E+3/s", 1500 },
		{ "+2e-1", 0.2 }, { "1e308", 1e308 }, { "1e299G", 1e308 }, { "0010", 10 },
	};
	static const char *const bad[] = {
		"1e308G", "2e305M", "1.8e306k", "0x10", "0X10/s", "0x1p4", "+0x2", "1e", "1e+",
		"1.2.3", ".", "e5", "inf", "1,5", "1_000", "5kk",
	};
	struct rdiag_thresholds *t;
	char err[128], line[64];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(line, sizeof(line), "a > %s\n", ok[i].v);
		printf("# %s", line);
		EXPECT_EQ(parse(line, &t, err), 0);
		if (t)
			EXPECT_DBL(t->rule[0].limit, ok[i].limit, ok[i].limit * 1e-12);
		rdiag_threshold_close(t);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "a > %s\n", bad[i]);
		printf("# %s", line);
		EXPECT_EQ(parse(line, &t, err), -EINVAL);
		EXPECT_TRUE(t == NULL);
		EXPECT_TRUE(strncmp(err, "line 1: bad value", 17) == 0);
	}
}

/* The limit is 1 MiB: a file of exactly 1 MiB is read, one byte more is too large. */
static void check_file_size(void)
{
	char path[] = "/tmp/rdiag-thr-size-XXXXXX", err[128];
	struct rdiag_thresholds *t = NULL;
	size_t size = 1 << 20, i;
	char *buf = malloc(size + 1);
	int fd = mkstemp(path);

	if (!buf || fd < 0) {
		printf("Bail out! no scratch file\n");
		exit(1);
	}
	/* a rule, then comment lines up to exactly 1 MiB */
	memset(buf, '#', size + 1);
	memcpy(buf, "sent_pkts > 5\n", 14);
	for (i = 14 + 99; i < size; i += 100)
		buf[i] = '\n';
	buf[size - 1] = '\n';
	EXPECT_EQ(write(fd, buf, size), (ssize_t)size);
	EXPECT_EQ(parse_file(path, &t, err), 0);
	EXPECT_EQ(t ? t->n : 0, 1);
	rdiag_threshold_close(t);
	EXPECT_EQ(write(fd, "#", 1), 1);
	EXPECT_EQ(parse_file(path, &t, err), -EFBIG);
	EXPECT_TRUE(t == NULL);
	close(fd);
	unlink(path);
	free(buf);
}

/* 60 000 rules parse, and the rule array grows by doubling, not by one realloc per rule
 * (quadratic under ASan, whose realloc always copies): it has room for 65 536 */
static void check_many_rules(void)
{
	size_t n = 60000, i, len = 0;
	char *buf = malloc(n * 16), err[128];
	struct rdiag_thresholds *t = NULL;

	if (!buf) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "c%zu > %zu\n", i, i);
	EXPECT_EQ(parse_len(buf, len, &t, err), 0);
	EXPECT_EQ(t ? t->n : 0, n);
	EXPECT_TRUE(t && malloc_usable_size(t->rule) >= 65536 * sizeof(*t->rule));
	if (t)
		EXPECT_STREQ(t->rule[n - 1].key, "c59999");
	rdiag_threshold_close(t);
	free(buf);
}

/* 60 000 breaches of one sample: the breach list grows by doubling, not by one realloc per
 * breach (quadratic), so it has room for 65 536 (glibc's usable size after 60 000
 * one-entry reallocs is ~60 000 entries); every breach is kept, in rule order, and a list
 * whose count the caller reset to 0 is grown again from there */
static void check_many_breaches(void)
{
	size_t n = 60000, i, len = 0, nb = 0;
	char *buf = malloc(n * 8), err[128];
	struct rdiag_thresholds *t = NULL;
	struct rdiag_breach *b = NULL;
	struct rdiag_sample s = mk("rxe0", 1, "x", 1, "rxe", RDIAG_ORIG_NETLINK);

	if (!buf) {
		printf("Bail out! out of memory\n");
		exit(1);
	}
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "x > 0\n");
	EXPECT_EQ(parse_len(buf, len, &t, err), 0);
	EXPECT_EQ(rdiag_threshold_eval(t, &s, NULL, &b, &nb), (int)n);
	EXPECT_EQ(nb, n);
	EXPECT_TRUE(b && malloc_usable_size(b) >= 65536 * sizeof(*b));
	EXPECT_TRUE(b && b[0].rule->line == 1 && b[n - 1].rule->line == n);
	EXPECT_TRUE(b && b[n - 1].sample == &s && b[n - 1].observed == 1);
	nb = 0;
	EXPECT_EQ(rdiag_threshold_eval(t, &s, NULL, &b, &nb), (int)n);
	EXPECT_TRUE(b && nb == n && b[n - 1].rule->line == n);
	free(b);
	rdiag_threshold_close(t);
	free(buf);
}

int main(void)
{
	struct rdiag_thresholds *t = NULL;
	struct rdiag_breach *b = NULL;
	struct rdiag_rate r;
	struct rdiag_sample s, s2, s3, s4;
	char err[128], path[] = "/tmp/rdiag-thr-XXXXXX";
	size_t n = 0;
	FILE *f;
	int fd;

	EXPECT_EQ(parse("# comment\n\n"
			"rnr_nak_received > 10\n"
			"  RNR sent@irdma0/1 > +5  \n"
			"out_of_seq*@rxe0 > 1.5k/s\n"
			"port_xmit_data > 1G\n"
			"ack_deffered > 0\n", &t, err), 0);
	EXPECT_EQ(t->n, 5);
	EXPECT_STREQ(t->rule[0].key, "rnr_nak_received");
	EXPECT_EQ(t->rule[0].kind, RDIAG_THR_ABSOLUTE);
	EXPECT_DBL(t->rule[0].limit, 10, 0);
	EXPECT_EQ(t->rule[0].line, 3);
	EXPECT_TRUE(t->rule[0].dev == NULL);
	EXPECT_STREQ(t->rule[1].key, "RNR sent");
	EXPECT_STREQ(t->rule[1].dev, "irdma0");
	EXPECT_EQ(t->rule[1].port, 1);
	EXPECT_EQ(t->rule[1].kind, RDIAG_THR_DELTA);
	EXPECT_EQ(t->rule[2].kind, RDIAG_THR_RATE);
	EXPECT_DBL(t->rule[2].limit, 1500, 1e-9);
	EXPECT_STREQ(t->rule[2].dev, "rxe0");
	EXPECT_EQ(t->rule[2].port, 0);
	EXPECT_DBL(t->rule[3].limit, 1e9, 0);

	/* matching */
	s = mk("rxe0", 1, "rcvd_rnr_err", 11, "rxe", RDIAG_ORIG_NETLINK);
	EXPECT_TRUE(rdiag_threshold_matches(&t->rule[0], &s));	/* by concept */
	s2 = mk("irdma0", 1, "RNR sent", 100, "irdma", RDIAG_ORIG_SYSFS_HW);
	EXPECT_TRUE(rdiag_threshold_matches(&t->rule[1], &s2));
	s2.port = 2;
	EXPECT_TRUE(!rdiag_threshold_matches(&t->rule[1], &s2));	/* port */
	s2.port = 1;
	s3 = mk("rxe1", 1, "out_of_seq_request", 0, "rxe", RDIAG_ORIG_NETLINK);
	EXPECT_TRUE(!rdiag_threshold_matches(&t->rule[2], &s3));	/* device */
	s3.dev = "rxe0";
	EXPECT_TRUE(rdiag_threshold_matches(&t->rule[2], &s3));	/* glob */
	s4 = mk("rxe0", 1, "ack_deferred", 3, "rxe", RDIAG_ORIG_NETLINK);
	EXPECT_TRUE(rdiag_threshold_matches(&t->rule[4], &s4));	/* alias */
	{
		/* the one selection rule (rdiag_counter_match): a glob tries concepts too, and
		 * a concept selects only the counters of its event */
		struct rdiag_thresholds *g;
		struct rdiag_sample retry = mk("rxe0", 1, "completer_retry_err", 1, "rxe",
					       RDIAG_ORIG_NETLINK);
		struct rdiag_sample tmo = mk("mlx5_0", 1, "local_ack_timeout_err", 1, "mlx5",
					     RDIAG_ORIG_NETLINK);

		EXPECT_EQ(parse("rnr_nak_*@rxe0 > 1\nack_timeout > 0\n", &g, err), 0);
		EXPECT_TRUE(rdiag_threshold_matches(&g->rule[0], &s));	/* rcvd_rnr_err */
		EXPECT_TRUE(!rdiag_threshold_matches(&g->rule[0], &s4));
		EXPECT_TRUE(rdiag_threshold_matches(&g->rule[1], &tmo));
		EXPECT_TRUE(!rdiag_threshold_matches(&g->rule[1], &retry));
		rdiag_threshold_close(g);
	}

	/* evaluation: absolute fires in snapshots; delta/rate only with a valid rate */
	EXPECT_EQ(rdiag_threshold_eval(t, &s, NULL, &b, &n), 1);
	EXPECT_DBL(b[0].observed, 11, 0);
	EXPECT_TRUE(b[0].rule == &t->rule[0]);
	EXPECT_EQ(rdiag_threshold_eval(t, &s2, NULL, &b, &n), 0);
	memset(&r, 0, sizeof(r));
	r.state = RDIAG_RATE_VALID;
	r.delta = 6;
	r.per_sec = 2000;
	EXPECT_EQ(rdiag_threshold_eval(t, &s2, &r, &b, &n), 1);
	EXPECT_DBL(b[n - 1].observed, 6, 0);
	r.delta = 5;	/* not > 5 */
	EXPECT_EQ(rdiag_threshold_eval(t, &s2, &r, &b, &n), 0);
	EXPECT_EQ(rdiag_threshold_eval(t, &s3, &r, &b, &n), 1);	/* 2000/s > 1500/s */
	r.state = RDIAG_RATE_STALE;
	EXPECT_EQ(rdiag_threshold_eval(t, &s3, &r, &b, &n), 0);
	/* PMA data compares in bytes (x4) */
	s4 = mk("mlx5_0", 1, "port_xmit_data", 300000000, "mlx5", RDIAG_ORIG_PMA);
	EXPECT_EQ(rdiag_threshold_eval(t, &s4, NULL, &b, &n), 1);
	EXPECT_DBL(b[n - 1].observed, 1.2e9, 1);
	/* an unreadable sample never breaches */
	s.err = -EACCES;
	EXPECT_EQ(rdiag_threshold_eval(t, &s, NULL, &b, &n), 0);
	EXPECT_EQ(n, 4);
	free(b);
	rdiag_threshold_close(t);

	/* errors name the line */
	EXPECT_EQ(parse("a > 1\n\nb 2\n", &t, err), -EINVAL);
	EXPECT_STREQ(err, "line 3: expected 'NAME > VALUE'");
	EXPECT_TRUE(t == NULL);
	EXPECT_EQ(parse("a > x\n", &t, err), -EINVAL);
	EXPECT_TRUE(strncmp(err, "line 1: bad value", 17) == 0);
	EXPECT_EQ(parse(" > 3\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a@ > 3\n", &t, err), -EINVAL);
	EXPECT_STREQ(err, "line 1: missing device after '@'");
	EXPECT_EQ(parse("a@rxe0/x > 3\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a@rxe0/0 > 3\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a > -3\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a >= 3\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a > +3/s\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a > 3/m\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a > nan\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("a > 1e400\n", &t, err), -EINVAL);
	EXPECT_EQ(parse("ok > 1\nbad > 1\0x\n", &t, err), 0);	/* strlen stops at the NUL */
	rdiag_threshold_close(t);
	EXPECT_EQ(parse_len("ok > 1\nbad\0 > 1\n", 17, &t, err), -EINVAL);
	EXPECT_STREQ(err, "line 2: NUL byte in line");
	/* an empty file is valid and has no rules */
	EXPECT_EQ(parse("", &t, err), 0);
	EXPECT_EQ(t->n, 0);
	rdiag_threshold_close(t);

	/* from a file */
	fd = mkstemp(path);
	f = fdopen(fd, "w");
	fputs("# rules\nsent_pkts > 5\nbroken line\n", f);
	fclose(f);
	EXPECT_EQ(parse_file(path, &t, err), -EINVAL);
	EXPECT_STREQ(err, "line 3: expected 'NAME > VALUE'");
	unlink(path);
	EXPECT_EQ(parse_file(path, &t, err), -ENOENT);
	EXPECT_STREQ(err, strerror(ENOENT));
	/* the handle convention: a set has no error of its own; exactly one source */
	EXPECT_EQ(parse("a > 1\n", &t, err), 0);
	EXPECT_STREQ(rdiag_threshold_errmsg(t), "");
	EXPECT_STREQ(rdiag_threshold_errmsg(NULL), strerror(ENOENT));	/* kept */
	rdiag_threshold_close(t);
	EXPECT_EQ(rdiag_threshold_open(&t, &(struct rdiag_threshold_opts){ .path = path,
									   .buf = "" }), -EINVAL);
	EXPECT_TRUE(t == NULL);
	EXPECT_TRUE(strstr(rdiag_threshold_errmsg(NULL), "a file or a buffer") != NULL);
	EXPECT_STREQ(rdiag_threshold_kind_name(RDIAG_THR_RATE), "rate");
	check_values();
	check_file_size();
	check_many_rules();
	check_many_breaches();
	return tap_done();
}
