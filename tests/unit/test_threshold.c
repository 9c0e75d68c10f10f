/* Threshold rules: parsing with line numbers, matching by name/glob/concept/alias/dev/port,
 * evaluation of absolute, delta and rate rules. */
#include <errno.h>
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
	return tap_done();
}
