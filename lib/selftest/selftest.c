/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Self-test context: environment check, device/port/GID choice, the test table, run. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "util/util.h"
#include "open_error.h"

static const struct {
	const char *name;
	const char *desc;
	int (*fn)(struct rdiag_selftest *st, struct rdiag_st_result *r);
} tests[] = {
	{ "qp-states", "RC/UC/UD state walk with minimal masks, illegal transitions, ERR->RESET",
	  rd_test_qp_states },
	{ "gid-sweep", "RC loopback on every populated GID index: which ones work",
	  rd_test_gid_sweep },
	{ "rnr", "RNR NAK: WC 13 with rnr_retry 1, delayed receive with rnr_retry 7, counters",
	  rd_test_rnr },
	{ "alignment", "MRs at odd offsets/lengths, SEND/WRITE/READ byte for byte, atomics",
	  rd_test_alignment },
	{ "access", "WRITE without REMOTE_WRITE, wrong rkey, past the MR end: WC 10",
	  rd_test_access },
	{ "mr-cost", "ibv_reg_mr/ibv_dereg_mr cost by size, huge pages, ODP, memlock",
	  rd_test_mr_cost },
};
#define NTESTS (sizeof(tests) / sizeof(tests[0]))

size_t rdiag_selftest_count(void)
{
	return NTESTS;
}

const char *rdiag_selftest_name(size_t i)
{
	return i < NTESTS ? tests[i].name : NULL;
}

const char *rdiag_selftest_description(size_t i)
{
	return i < NTESTS ? tests[i].desc : NULL;
}

int rdiag_selftest_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < NTESTS; i++)
		if (!strcmp(name, tests[i].name))
			return (int)i;
	return -ENOENT;
}

static __attribute__((format(printf, 3, 4)))
int say(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -ENODEV;
}

static bool dir_has_entry(const char *path, const char *prefix, char *first, size_t flen)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (prefix && strncmp(e->d_name, prefix, strlen(prefix)))
			continue;
		if (first)
			snprintf(first, flen, "%s", e->d_name);
		found = true;
		break;
	}
	closedir(d);
	return found;
}

/* RLIMIT_MEMLOCK as the message shows it: "unlimited" or "8192 KiB" */
void rd_st_memlock_str(unsigned long long cur, char *buf, size_t len)
{
	if (cur == (unsigned long long)RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu KiB", cur / 1024);
}

/* The checks go from the kernel outwards: driver, uverbs char device, permissions, provider
 * library.  The memlock limit is always named (also when unlimited, so that it is seen to
 * have been looked at): it is the next thing that stops a user.  libibverbs itself comes
 * first: before it was dlopen()ed, a missing one stopped the tool before anything else, and
 * nothing below the sysfs look works without it. */
static int env_check(char *why, size_t whylen)
{
	char ent[256], path[300];
	struct ibv_device **list;
	struct rlimit rl;
	char mem[64] = "unknown";
	int n = 0, rc;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0)
		rd_st_memlock_str(rl.rlim_cur, mem, sizeof(mem));
	if (why && whylen)
		why[0] = '\0';
	rc = rd_ibv_load(why, whylen);
	if (rc)
		return rc;
	if (!dir_has_entry("/sys/class/infiniband", NULL, NULL, 0))
		return say(why, whylen, "no RDMA device: /sys/class/infiniband is %s; check the "
			   "modules (mlx5_ib, or rdma_rxe + 'rdma link add rxe0 type rxe netdev "
			   "IFACE'; ib_uverbs), /dev/infiniband/uverbs* and its permissions, a "
			   "container started without the device (--device /dev/infiniband), "
			   "the memlock limit (ulimit -l: %s)",
			   access("/sys/class/infiniband", F_OK) ? "missing" : "empty", mem);
	if (!dir_has_entry("/dev/infiniband", "uverbs", ent, sizeof(ent)))
		return say(why, whylen, "no /dev/infiniband/uverbs*: load ib_uverbs ('modprobe "
			   "ib_uverbs'), or pass /dev/infiniband into the container; memlock "
			   "limit (ulimit -l): %s", mem);
	snprintf(path, sizeof(path), "/dev/infiniband/%s", ent);
	if (access(path, R_OK | W_OK))
		return say(why, whylen, "cannot open %s: %s; run as root or grant access "
			   "(udev rule, the 'rdma' group); memlock limit (ulimit -l): %s", path,
			   strerror(errno), mem);
	list = ibv_get_device_list(&n);
	if (list)
		ibv_free_device_list(list);
	if (!list || n == 0)
		return say(why, whylen, "libibverbs lists no device although the kernel has "
			   "one: is the provider installed (ibverbs-providers, "
			   "/etc/libibverbs.d/)?; memlock limit (ulimit -l): %s", mem);
	return 0;
}

static bool gid_is_v4(const union ibv_gid *g)
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return !memcmp(g->raw, pfx, sizeof(pfx));
}

/* score a GID for the default choice: RoCE v2 IPv4 first, then RoCE v2, then anything */
static int gid_score(const struct ibv_gid_entry *e)
{
	int s = 1;

	if (e->gid_type == IBV_GID_TYPE_ROCE_V2)
		s += 2;
	if (gid_is_v4(&e->gid))
		s += 1;
	return s;
}

/* fill p->gid and friends for gid_index (-1: choose); want_v4 >= 0 asks for that family */
static int pick_gid(struct rd_port *p, int gid_index, int want_type, int want_v4)
{
	struct ibv_gid_entry *tab, e;
	ssize_t n, i;
	int best = -1, bs = 0, s;

	if (gid_index >= 0) {
		p->gid_index = gid_index;
		/* a bad index is kept on purpose: the RTR step then shows what it does */
		if (ibv_query_gid_ex(p->ctx, (uint32_t)p->port, (uint32_t)gid_index, &e, 0) == 0) {
			p->gid = e.gid;
			p->gid_type = (int)e.gid_type;
			if (!e.ndev_ifindex || !if_indextoname(e.ndev_ifindex, p->ndev))
				p->ndev[0] = '\0';
		} else {
			memset(&p->gid, 0, sizeof(p->gid));
			p->gid_type = -1;
		}
		return 0;
	}
	if (!p->eth) {
		p->gid_index = 0;
		ibv_query_gid(p->ctx, (uint8_t)p->port, 0, &p->gid);
		p->gid_type = IBV_GID_TYPE_IB;
		return 0;
	}
	tab = calloc((size_t)p->pattr.gid_tbl_len + 1, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	n = ibv_query_gid_table(p->ctx, tab, (size_t)p->pattr.gid_tbl_len + 1, 0);
	for (i = 0; i < n; i++) {
		if (tab[i].port_num != (uint32_t)p->port)
			continue;
		s = gid_score(&tab[i]);
		if (want_type >= 0 && (int)tab[i].gid_type == want_type)
			s += 8;
		if (want_v4 >= 0 && gid_is_v4(&tab[i].gid) == want_v4)
			s += 4;
		if (s > bs) {
			bs = s;
			best = (int)i;
		}
	}
	if (best < 0) {
		free(tab);
		return -ENOENT;
	}
	p->gid_index = (int)tab[best].gid_index;
	p->gid = tab[best].gid;
	p->gid_type = (int)tab[best].gid_type;
	if (!tab[best].ndev_ifindex || !if_indextoname(tab[best].ndev_ifindex, p->ndev))
		p->ndev[0] = '\0';
	free(tab);
	return 0;
}

static int open_port(struct rd_port *p, const char *dev, int port, char *why, size_t wl)
{
	struct ibv_device **list;
	int n = 0, i, pn, rc = -ENODEV;
	char have[200] = "";
	size_t hl = 0;

	list = ibv_get_device_list(&n);
	if (!list)
		return say(why, wl, "cannot list RDMA devices: %s", strerror(errno));
	for (i = 0; i < n && !p->ctx; i++) {
		const char *name = ibv_get_device_name(list[i]);
		struct ibv_context *ctx;
		struct ibv_device_attr_ex da;

		if (hl < sizeof(have))
			hl += (size_t)snprintf(have + hl, sizeof(have) - hl, "%s%s", hl ? ", " : "",
					       name);
		if (dev && strcmp(dev, name))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx) {
			rc = -errno;
			say(why, wl, "cannot open %s: %s", name, strerror(errno));
			continue;
		}
		if (ibv_query_device_ex(ctx, NULL, &da)) {
			rc = -errno;
			say(why, wl, "cannot query %s: %s", name, strerror(errno));
			ibv_close_device(ctx);
			continue;
		}
		for (pn = 1; pn <= da.orig_attr.phys_port_cnt; pn++) {
			struct ibv_port_attr pa;

			if (port && pn != port)
				continue;
			if (ibv_query_port(ctx, (uint8_t)pn, &pa))
				continue;
			/* an explicit device and port are used even when not ACTIVE: the tests
			 * then show what fails; the default choice wants ACTIVE */
			if (pa.state != IBV_PORT_ACTIVE && !(dev && port))
				continue;
			p->ctx = ctx;
			p->own_ctx = true;
			p->port = pn;
			p->pattr = pa;
			p->dattr = da;
			p->eth = pa.link_layer == IBV_LINK_LAYER_ETHERNET;
			snprintf(p->dev, sizeof(p->dev), "%s", name);
			break;
		}
		if (!p->ctx) {
			ibv_close_device(ctx);
			if (dev)
				rc = say(why, wl, port ? "%s has no port %d" :
					 "%s has no ACTIVE port (check 'rdma link' and the netdev)",
					 name, port);
		}
	}
	ibv_free_device_list(list);
	if (p->ctx)
		return 0;
	if (rc == -ENODEV && dev && !strstr(why, dev))
		say(why, wl, "no RDMA device named '%s' (have: %s)", dev, have[0] ? have : "none");
	else if (rc == -ENODEV && !dev && port)
		say(why, wl, "no RDMA device has an ACTIVE port %d (have: %s); a port that is not "
		    "ACTIVE is used only with -d naming its device", port, have);
	else if (rc == -ENODEV && !dev)
		say(why, wl, "no RDMA device has an ACTIVE port (have: %s); check 'rdma link' and "
		    "the netdev's link", have);
	return rc;
}

static void close_port(struct rd_port *p)
{
	if (p->ctx && p->own_ctx)
		ibv_close_device(p->ctx);
	p->ctx = NULL;
}

void rd_st_opts_defaults(struct rdiag_selftest_opts *o)
{
	if (!o->max_mem)
		o->max_mem = RD_ST_MAX_MEM_DEFAULT;
	if (!o->timeout_ms)
		o->timeout_ms = RD_ST_TIMEOUT_DEFAULT;
}

/* why the last failed rdiag_selftest_open() (or environment check) of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

/* the reason of a failure: what the check said, else the errno's text */
static int failed(const char *why, int rc)
{
	rd_open_error_set(&open_err, "%s", *why ? why : strerror(-rc));
	return rc;
}

int rdiag_selftest_env_check(void)
{
	char why[512] = "";
	int rc = env_check(why, sizeof(why));

	return rc ? failed(why, rc) : 0;
}

static int selftest_open(struct rdiag_selftest **out, const struct rdiag_selftest_opts *opts,
			 char *why, size_t whylen)
{
	struct rdiag_selftest *st;
	int rc;

	rc = env_check(why, whylen);
	if (rc)
		return rc;
	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	st->opts = *opts;
	rd_st_opts_defaults(&st->opts);
	rc = open_port(&st->a, opts->dev, opts->port, why, whylen);
	if (rc)
		goto fail;
	rc = pick_gid(&st->a, opts->gid_index, -1, -1);
	if (rc) {
		say(why, whylen, "%s port %d has no GID: is its netdev up with an address?",
		    st->a.dev, st->a.port);
		goto fail;
	}
	if (opts->peer_dev) {
		rc = open_port(&st->b, opts->peer_dev, opts->peer_port, why, whylen);
		if (rc)
			goto fail;
		rc = pick_gid(&st->b, opts->peer_gid_index, st->a.gid_type,
			      st->a.gid_type >= 0 ? gid_is_v4(&st->a.gid) : -1);
		if (rc) {
			say(why, whylen, "%s port %d has no GID", st->b.dev, st->b.port);
			goto fail;
		}
	} else {
		st->loopback = true;
		st->b = st->a;
		st->b.own_ctx = false;
	}
	*out = st;
	return 0;
fail:
	rdiag_selftest_close(st);
	return rc;
}

int rdiag_selftest_open(struct rdiag_selftest **out, const struct rdiag_selftest_opts *opts)
{
	const struct rdiag_selftest_opts defaults = { .gid_index = -1, .peer_gid_index = -1 };
	char why[512] = "";
	int rc;

	if (!out)
		return failed("rdiag_selftest_open: no place for the handle", -EINVAL);
	*out = NULL;
	rc = selftest_open(out, opts ? opts : &defaults, why, sizeof(why));
	return rc ? failed(why, rc) : 0;
}

const char *rdiag_selftest_errmsg(const struct rdiag_selftest *st)
{
	return st ? st->err : rd_open_error_get(&open_err);
}

void rdiag_selftest_close(struct rdiag_selftest *st)
{
	if (!st)
		return;
	rd_st_release_to(st, 0);
	free(st->objs);
	rd_ctr_close(st);
	close_port(&st->b);
	close_port(&st->a);
	free(st);
}

void rdiag_selftest_interrupt(struct rdiag_selftest *st)
{
	if (st)
		st->interrupted = 1;
}

const char *rdiag_selftest_dev(const struct rdiag_selftest *st)
{
	return st->a.dev;
}

int rdiag_selftest_port(const struct rdiag_selftest *st)
{
	return st->a.port;
}

int rdiag_selftest_gid_index(const struct rdiag_selftest *st)
{
	return st->a.gid_index;
}

const char *rdiag_selftest_peer_dev(const struct rdiag_selftest *st)
{
	return st->loopback ? NULL : st->b.dev;
}

int rdiag_selftest_peer_port(const struct rdiag_selftest *st)
{
	return st->b.port;
}

int rdiag_selftest_peer_gid_index(const struct rdiag_selftest *st)
{
	return st->b.gid_index;
}

size_t rdiag_selftest_live_objects(const struct rdiag_selftest *st)
{
	return st->nobj + rd_st_held_count(st);
}

/* The counters of both ends around every test: a failure that recorded no counter of its
 * own (a completion that never came, a QP that would not connect) gets every counter that
 * moved as its evidence, read once the counters have settled. */
static void evidence_before(struct rdiag_selftest *st, struct rd_ctr_snap *before[2])
{
	before[0] = before[1] = NULL;
	if (!st->a.dev[0])
		return;
	before[0] = rd_ctr_snap(st, &st->a);
	if (!st->loopback && (strcmp(st->a.dev, st->b.dev) || st->a.port != st->b.port))
		before[1] = rd_ctr_snap(st, &st->b);
}

static void evidence_after(struct rdiag_selftest *st, struct rdiag_st_result *res,
			   struct rd_ctr_snap *before[2])
{
	const struct rd_port *p[2] = { &st->a, &st->b };
	int k;

	if (res->verdict == RDIAG_FAIL && !res->ncounters && before[0]) {
		rd_ctr_settle(st, &st->a);
		for (k = 0; k < 2; k++) {
			struct rd_ctr_snap *after = before[k] ? rd_ctr_snap(st, p[k]) : NULL;

			rd_ctr_moved(res, before[k], after);
			rd_ctr_snap_free(after);
		}
	}
	rd_ctr_snap_free(before[0]);
	rd_ctr_snap_free(before[1]);
}

int rdiag_selftest_run(struct rdiag_selftest *st, size_t i, struct rdiag_st_result *res)
{
	struct rd_ctr_snap *before[2];
	size_t mark;
	double t0;

	memset(res, 0, sizeof(*res));
	res->wc_status = -1;
	if (i >= NTESTS) {
		if (st)
			snprintf(st->err, sizeof(st->err), "no self-test number %zu (there are %zu)",
				 i, (size_t)NTESTS);
		snprintf(res->name, sizeof(res->name), "?");
		res->verdict = RDIAG_FAIL;
		res->err = EINVAL;
		return -EINVAL;
	}
	snprintf(res->name, sizeof(res->name), "%s", tests[i].name);
	if (st->interrupted) {
		res->verdict = RDIAG_SKIP;
		snprintf(res->summary, sizeof(res->summary), "interrupted before it started");
		snprintf(st->err, sizeof(st->err), "%s: %s", res->name, res->summary);
		return -EINTR;
	}
	st->test = tests[i].name;
	st->res = res;
	mark = rd_st_mark(st);
	t0 = rd_mono_ms();
	evidence_before(st, before);
	tests[i].fn(st, res);
	rd_st_release_to(st, mark);
	res->elapsed_ms = rd_mono_ms() - t0;
	evidence_after(st, res, before);
	st->res = NULL;
	st->test = NULL;
	if (st->interrupted) {
		if (res->verdict == RDIAG_PASS || !res->err) {
			res->verdict = RDIAG_FAIL;
			res->err = EINTR;
		}
		snprintf(res->summary, sizeof(res->summary), "interrupted");
		snprintf(st->err, sizeof(st->err), "%s: %s", res->name, res->summary);
		return -EINTR;
	}
	return 0;
}
