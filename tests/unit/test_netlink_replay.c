/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The library's netlink path on replies recorded from the real kernel (Debian 6.1, two rdma_rxe
 * devices, made by the QEMU tier's tests/vm/guest/20-rdmastat.sh with --nl-record; see
 * tests/fixtures/netlink/README), replayed through RDMADIAG_NL_REPLAY, against what iproute2's
 * `rdma -j` printed at the same moment:
 *   rxe-stat.rec  STAT_GET   every sample equals rdma statistic show's value, none missing
 *   rxe-qp.rec    RES_QP_GET the same QPs (device, port, lqpn, type, state, rqpn, pid) as
 *                 rdma res show qp
 * The oracle JSON is flat (one object per port or QP, numbers and strings only), so a key is
 * looked up inside the text of its object. */
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/counters.h>
#include <rdmadiag/resources.h>
#include "tap.h"

#define NL "tests/fixtures/netlink/"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* the objects of a flat JSON array: [start, end) of each "{...}" */
struct obj {
	const char *s, *e;
};

static size_t objects(const char *json, struct obj *o, size_t max)
{
	size_t n = 0;

	for (const char *p = strchr(json, '{'); p && n < max; p = strchr(p, '{')) {
		const char *e = strchr(p, '}');

		if (!e)
			break;
		o[n].s = p;
		o[n++].e = e + 1;
		p = e;
	}
	return n;
}

/* the raw text of "key": in an object (number or string with its quotes), or NULL */
static const char *field(const struct obj *o, const char *key, char *out, size_t len)
{
	char pat[128];
	const char *p, *v;
	size_t n;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	for (p = o->s; (p = strstr(p, pat)) && p < o->e; p++) {
		if (p[-1] != '{' && p[-1] != ',')
			continue;
		v = p + strlen(pat);
		n = strcspn(v, ",}");
		if (n >= len)
			return NULL;
		memcpy(out, v, n);
		out[n] = '\0';
		return out;
	}
	return NULL;
}

static const struct obj *find_obj(const struct obj *o, size_t n, const char *dev, uint32_t port,
				  const char *key2, uint32_t val2)
{
	char want[80], buf[80];

	snprintf(want, sizeof(want), "\"%s\"", dev);
	for (size_t i = 0; i < n; i++) {
		if (!field(&o[i], "ifname", buf, sizeof(buf)) || strcmp(buf, want))
			continue;
		if (!field(&o[i], "port", buf, sizeof(buf)) || strtoul(buf, NULL, 10) != port)
			continue;
		if (key2 && (!field(&o[i], key2, buf, sizeof(buf)) ||
			     strtoul(buf, NULL, 10) != val2))
			continue;
		return &o[i];
	}
	return NULL;
}

static struct rdiag_counters *open_replay(const char *rec)
{
	struct rdiag_counters_opts opts = { .source = RDIAG_SRC_NETLINK };
	struct rdiag_counters *c = NULL;

	setenv("RDMADIAG_NL_REPLAY", rec, 1);
	setenv("RDMADIAG_SYSFS_ROOT", "/nonexistent/rdmadiag-no-sysfs", 1);
	EXPECT_EQ(rdiag_counters_open(&c, &opts), 0);
	return c;
}

static void test_stat(void)
{
	struct rdiag_counters *c = open_replay(NL "rxe-stat.rec");
	struct rdiag_samples *s = NULL;
	char *json = slurp(NL "rxe-stat.rdma.json");
	struct obj o[16];
	size_t n_obj, n, matched = 0, oracle_keys = 0;
	char buf[64];
	bool devs[2] = { false, false };

	EXPECT_TRUE(json != NULL);
	if (!c || !json)
		goto out;
	n_obj = objects(json, o, 16);
	EXPECT_EQ(n_obj, 2);
	for (size_t i = 0; i < n_obj; i++)
		for (const char *p = o[i].s; (p = strstr(p, "\":")) && p < o[i].e; p++)
			oracle_keys++;
	oracle_keys -= 2 * n_obj;	/* ifname and port */
	EXPECT_EQ(rdiag_counters_sample(c, NULL, &s), 0);
	if (!s)
		goto out;
	n = rdiag_samples_count(s);
	EXPECT_TRUE(n > 0);
	for (size_t i = 0; i < n; i++) {
		const struct rdiag_sample *x = rdiag_samples_get(s, i);
		const struct obj *ob = find_obj(o, n_obj, x->dev, x->port, NULL, 0);

		if (!strcmp(x->dev, "rxe0") || !strcmp(x->dev, "rxe1"))
			devs[x->dev[3] - '0'] = true;
		if (!ob || !field(ob, x->name, buf, sizeof(buf))) {
			printf("# %s/%u %s: not in rdma statistic show\n", x->dev, x->port, x->name);
			continue;
		}
		if (strtoull(buf, NULL, 10) != x->value || x->err || x->origin != RDIAG_ORIG_NETLINK)
			printf("# %s/%u %s = %" PRIu64 " (err %d), rdma says %s\n", x->dev, x->port,
				 x->name, x->value, x->err, buf);
		else
			matched++;
	}
	EXPECT_EQ(matched, n);
	EXPECT_EQ(n, oracle_keys);	/* and nothing rdma showed is missing */
	EXPECT_TRUE(devs[0] && devs[1]);
	EXPECT_TRUE(rdiag_samples_find(s, "rxe0", 1, "sent_pkts") != NULL);
out:
	rdiag_samples_free(s);
	rdiag_counters_close(c);
	free(json);
}

static uint8_t qp_type(const char *s)
{
	return !strcmp(s, "\"RC\"") ? 2 : !strcmp(s, "\"UC\"") ? 3 : !strcmp(s, "\"UD\"") ? 4 :
	       !strcmp(s, "\"GSI\"") ? 1 : !strcmp(s, "\"SMI\"") ? 0 : 255;
}

static uint8_t qp_state(const char *s)
{
	static const char *const names[] = { "\"RESET\"", "\"INIT\"", "\"RTR\"", "\"RTS\"",
					     "\"SQD\"", "\"SQE\"", "\"ERR\"" };

	for (uint8_t i = 0; i < 7; i++)
		if (!strcmp(s, names[i]))
			return i;
	return 255;
}

static void test_qp(void)
{
	struct rdiag_counters *c = open_replay(NL "rxe-qp.rec");
	char *json = slurp(NL "rxe-qp.rdma.json");
	struct rdiag_qp *q = NULL;
	struct obj o[64];
	size_t n = 0, n_obj, rc = 0, bad = 0;
	char buf[80];

	EXPECT_TRUE(json != NULL);
	if (!c || !json)
		goto out;
	n_obj = objects(json, o, 64);
	EXPECT_EQ(rdiag_counters_qps(c, NULL, &q, &n), 0);
	EXPECT_EQ(n, n_obj);
	for (size_t i = 0; i < n; i++) {
		const struct obj *ob = find_obj(o, n_obj, q[i].dev, q[i].port, "lqpn", q[i].lqpn);
		bool ok = ob != NULL;

		ok = ok && field(ob, "type", buf, sizeof(buf)) && qp_type(buf) == q[i].type;
		ok = ok && field(ob, "state", buf, sizeof(buf)) && qp_state(buf) == q[i].state;
		if (ok && q[i].has_rqpn)
			ok = field(ob, "rqpn", buf, sizeof(buf)) &&
			     strtoul(buf, NULL, 10) == q[i].rqpn;
		if (ok && q[i].pid)
			ok = field(ob, "pid", buf, sizeof(buf)) &&
			     strtoul(buf, NULL, 10) == q[i].pid;
		if (ok && q[i].type == 2)
			rc++;
		if (!ok) {
			printf("# QP %s/%u %u (type %u state %u) differs from rdma res show qp\n",
			       q[i].dev, q[i].port, q[i].lqpn, q[i].type, q[i].state);
			bad++;
		}
	}
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(rc, 2);	/* the pingpong pair: one RC QP on each device */
out:
	free(q);
	rdiag_counters_close(c);
	free(json);
}

/* rdiag_counters_errmsg(NULL): the reason of the last failed open of the process, kept by a
 * later successful open and readable from another thread (no thread-local copy) */
static void *read_reason(void *arg)
{
	return (void *)rdiag_counters_errmsg(NULL);
}

static void test_open_reason(void)
{
	const struct rdiag_counters_opts bad = { .nl_record = "/nonexistent-dir/x.rec" };
	struct rdiag_counters *c = (struct rdiag_counters *)1;
	const char *other = NULL;
	pthread_t t;

	setenv("RDMADIAG_NL_REPLAY", NL "rxe-stat.rec", 1);
	EXPECT_EQ(rdiag_counters_open(&c, &bad), -ENOENT);
	EXPECT_TRUE(c == NULL);
	EXPECT_TRUE(strstr(rdiag_counters_errmsg(NULL), "cannot open '/nonexistent-dir/x.rec'"));
	EXPECT_EQ(rdiag_counters_open(&c, NULL), 0);
	EXPECT_TRUE(strstr(rdiag_counters_errmsg(NULL), "/nonexistent-dir/x.rec") != NULL);
	EXPECT_STREQ(rdiag_counters_errmsg(c), "");
	rdiag_counters_close(c);
	if (pthread_create(&t, NULL, read_reason, NULL) == 0 && pthread_join(t, (void **)&other) == 0)
		EXPECT_TRUE(other && strstr(other, "/nonexistent-dir/x.rec") != NULL);
	else
		EXPECT_TRUE(!"pthread_create");
	setenv("RDMADIAG_NL_REPLAY", NL "nosuch.rec", 1);
	EXPECT_TRUE(rdiag_counters_open(&c, NULL) < 0);
	EXPECT_TRUE(strstr(rdiag_counters_errmsg(NULL), "/nonexistent-dir") == NULL);
	unsetenv("RDMADIAG_NL_REPLAY");
}

int main(void)
{
	test_stat();
	test_qp();
	test_open_reason();
	return tap_done();
}
