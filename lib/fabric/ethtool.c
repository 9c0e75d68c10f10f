/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The driver's Ethernet statistics, as `ethtool -S` reads them: ETHTOOL_GDRVINFO (driver),
 * ETHTOOL_GSSET_INFO (how many), ETHTOOL_GSTRINGS (names, 32 bytes each) and ETHTOOL_GSTATS
 * (u64 values), on an AF_INET datagram socket.  The kernel answers GSTRINGS and GSTATS with
 * the count it has at that moment, not the one asked: a set that changed in between is
 * caught by comparing the two and is -EBADMSG, never read past. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "internal.h"
#include "util/util.h"

/* A sample is read the way a tool reads it: every statistic classified by the catalogue, and
 * statistics looked up by name in the other sample of a delta.  Both are done once here: the
 * catalogue entry of each name when the sample is built (against the driver's entries only),
 * and a hash index of the names, so that a sample of N statistics (mlx5 with many queues has
 * thousands) costs O(N), where a lookup per statistic by a scan of the names cost O(N^2). */
struct rdiag_ethstats {
	char driver[32];
	size_t n;
	char (*name)[RD_ETH_GSTRING_LEN + 1];	/* a 32-byte name has no NUL of its own */
	uint64_t *value;
	uint64_t ts_ns;
	const struct rdiag_eth_catalog_entry **cat;	/* per statistic, NULL unknown */
	int8_t *prio;			/* per statistic: its priority, -1 none */
	uint32_t *slot;			/* open addressing: statistic index + 1, 0 empty */
	size_t mask;			/* slots - 1, a power of two at least 2n */
};

/* FNV-1a over the name (at most 32 bytes) */
static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return h;
}

/* the hash index: the first of equal names wins, as a scan in order found it */
static int index_names(struct rdiag_ethstats *s)
{
	size_t size = 16, i, k;

	while (size < 2 * s->n)
		size *= 2;
	s->slot = calloc(size, sizeof(*s->slot));
	if (!s->slot)
		return -ENOMEM;
	s->mask = size - 1;
	for (i = 0; i < s->n; i++) {
		for (k = name_hash(s->name[i]) & s->mask; s->slot[k]; k = (k + 1) & s->mask)
			if (!strcmp(s->name[s->slot[k] - 1], s->name[i]))
				break;
		if (!s->slot[k])
			s->slot[k] = (uint32_t)i + 1;
	}
	return 0;
}

static void classify(struct rdiag_ethstats *s)
{
	const struct rdiag_eth_catalog_entry *ents[RD_ETH_CATALOG_DRV_MAX];
	size_t ne = rd_eth_catalog_driver(s->driver, ents, RD_ETH_CATALOG_DRV_MAX), i;
	int p;

	for (i = 0; i < s->n; i++) {
		s->cat[i] = ne ? rd_eth_catalog_match(ents, ne, s->name[i], &p) : NULL;
		s->prio[i] = (int8_t)(s->cat[i] ? p : -1);
	}
}

int rd_ethstats_build(const char *driver, const void *strings, size_t slen,
		      const void *values, size_t vlen, struct rdiag_ethstats **out)
{
	struct rdiag_ethstats *s;
	size_t n, i;

	*out = NULL;
	if (slen % RD_ETH_GSTRING_LEN || vlen % sizeof(uint64_t))
		return -EBADMSG;
	n = slen / RD_ETH_GSTRING_LEN;
	if (n != vlen / sizeof(uint64_t) || n > RD_ETH_MAX_STATS)
		return -EBADMSG;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	snprintf(s->driver, sizeof(s->driver), "%s", driver ? driver : "");
	s->n = n;
	s->name = calloc(n ? n : 1, RD_ETH_GSTRING_LEN + 1);
	s->value = calloc(n ? n : 1, sizeof(uint64_t));
	s->cat = calloc(n ? n : 1, sizeof(*s->cat));
	s->prio = calloc(n ? n : 1, sizeof(*s->prio));
	if (!s->name || !s->value || !s->cat || !s->prio) {
		rdiag_ethstats_free(s);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		/* a name fills its 32 bytes with no NUL when it is 32 long: kept whole, as
		 * ethtool -S prints it (%.*s with ETH_GSTRING_LEN) */
		memcpy(s->name[i], (const char *)strings + i * RD_ETH_GSTRING_LEN,
		       RD_ETH_GSTRING_LEN);
		s->name[i][RD_ETH_GSTRING_LEN] = '\0';
	}
	if (n)
		memcpy(s->value, values, n * sizeof(uint64_t));
	if (index_names(s) < 0) {
		rdiag_ethstats_free(s);
		return -ENOMEM;
	}
	classify(s);
	s->ts_ns = rd_mono_ns();
	*out = s;
	return 0;
}

void rdiag_ethstats_free(struct rdiag_ethstats *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->value);
	free(s->cat);
	free(s->prio);
	free(s->slot);
	free(s);
}

const char *rdiag_ethstats_driver(const struct rdiag_ethstats *s)
{
	return s->driver;
}

size_t rdiag_ethstats_count(const struct rdiag_ethstats *s)
{
	return s->n;
}

const char *rdiag_ethstats_name(const struct rdiag_ethstats *s, size_t i)
{
	return i < s->n ? s->name[i] : NULL;
}

uint64_t rdiag_ethstats_value(const struct rdiag_ethstats *s, size_t i)
{
	return i < s->n ? s->value[i] : 0;
}

uint64_t rdiag_ethstats_time_ns(const struct rdiag_ethstats *s)
{
	return s->ts_ns;
}

const struct rdiag_eth_catalog_entry *rdiag_ethstats_catalog(const struct rdiag_ethstats *s,
							     size_t i, int *prio)
{
	if (prio)
		*prio = i < s->n ? s->prio[i] : -1;
	return i < s->n ? s->cat[i] : NULL;
}

size_t rdiag_ethstats_deltas(const struct rdiag_ethstats *a, const struct rdiag_ethstats *b,
			     const char *concept, rdiag_ethstats_delta_fn fn, void *arg)
{
	size_t i, n = 0;
	uint64_t va;

	if (!a || !b || !concept || !fn)
		return 0;
	for (i = 0; i < b->n; i++) {
		const struct rdiag_eth_catalog_entry *e = b->cat[i];

		if (!e || strcmp(e->concept, concept) || rdiag_ethstats_find(a, b->name[i], &va) < 0)
			continue;
		fn(arg, e, b->prio[i], b->value[i] >= va ? b->value[i] - va : 0);
		n++;
	}
	return n;
}

int rdiag_ethstats_find(const struct rdiag_ethstats *s, const char *name, uint64_t *value)
{
	size_t k;

	for (k = name_hash(name) & s->mask; s->slot[k]; k = (k + 1) & s->mask)
		if (!strcmp(s->name[s->slot[k] - 1], name)) {
			*value = s->value[s->slot[k] - 1];
			return 0;
		}
	return -ENOENT;
}

/* ---- the replay seam: RDMADIAG_ETHTOOL_REPLAY ---- */
struct eth_rec {
	char ifname[IF_NAMESIZE];
	char driver[32];
	uint8_t *strings;
	size_t slen;
	uint8_t **stats;
	size_t *vlen;
	size_t nstats, next;
};

struct rd_eth_replay {
	struct eth_rec *r;
	size_t n;
};

void rd_eth_replay_free(struct rd_eth_replay *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->r[i].strings);
		for (j = 0; j < r->r[i].nstats; j++)
			free(r->r[i].stats[j]);
		free(r->r[i].stats);
		free(r->r[i].vlen);
	}
	free(r->r);
	free(r);
}

/* a line of 20 000 names is 1.3 MB of hex: one pass over it (sscanf on each byte pair
 * measured the rest of the line every time, quadratic) */
static int unhex(const char *s, uint8_t **out, size_t *len)
{
	size_t l = strlen(s), n = 0;
	uint8_t *b;

	if (l % 2)
		return -EINVAL;
	b = malloc(l / 2 + 1);
	if (!b)
		return -ENOMEM;
	for (; *s; s += 2) {
		int hi = rd_hexval(s[0]), lo = rd_hexval(s[1]);

		if (hi < 0 || lo < 0) {
			free(b);
			return -EINVAL;
		}
		b[n++] = (uint8_t)(hi << 4 | lo);
	}
	*out = b;
	*len = n;
	return 0;
}

static struct eth_rec *rec_get(struct rd_eth_replay *r, const char *ifname, bool add)
{
	struct eth_rec *nr;
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->r[i].ifname, ifname))
			return &r->r[i];
	if (!add)
		return NULL;
	nr = realloc(r->r, (r->n + 1) * sizeof(*nr));
	if (!nr)
		return NULL;
	r->r = nr;
	memset(&nr[r->n], 0, sizeof(nr[r->n]));
	snprintf(nr[r->n].ifname, sizeof(nr[r->n].ifname), "%s", ifname);
	return &nr[r->n++];
}

/* one line "IFNAME WHAT VALUE": 0, or -EINVAL / -ENOMEM */
static int replay_line(struct rd_eth_replay *r, char *line)
{
	char *save = NULL, *ifname = strtok_r(line, " \t", &save);
	char *what = strtok_r(NULL, " \t", &save), *val = strtok_r(NULL, " \t", &save);
	struct eth_rec *e;
	uint8_t *b;
	size_t bl;
	int ret;

	if (!ifname || !what || !val || strtok_r(NULL, " \t", &save) || strlen(ifname) >= IF_NAMESIZE)
		return -EINVAL;
	if (strcmp(what, "driver") && strcmp(what, "strings") && strcmp(what, "stats"))
		return -EINVAL;
	e = rec_get(r, ifname, true);
	if (!e)
		return -ENOMEM;
	if (!strcmp(what, "driver")) {
		snprintf(e->driver, sizeof(e->driver), "%s", val);
		return 0;
	}
	ret = unhex(val, &b, &bl);
	if (ret < 0)
		return ret;
	if (what[1] == 't' && what[2] == 'r') {
		free(e->strings);
		e->strings = b;
		e->slen = bl;
	} else {
		uint8_t **ns = realloc(e->stats, (e->nstats + 1) * sizeof(*ns));
		size_t *nl = ns ? realloc(e->vlen, (e->nstats + 1) * sizeof(*nl)) : NULL;

		if (ns)
			e->stats = ns;
		if (!ns || !nl) {
			free(b);
			return -ENOMEM;
		}
		e->vlen = nl;
		e->stats[e->nstats] = b;
		e->vlen[e->nstats++] = bl;
	}
	return 0;
}

int rd_eth_replay_load(const char *path, struct rd_eth_replay **out, char *err,
		       size_t errlen)
{
	struct rd_eth_replay *r;
	char *line = NULL;
	size_t cap = 0;
	unsigned int lineno = 0;
	ssize_t l;
	FILE *f;
	int ret = 0;

	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot open ethtool replay '%s': %s", path, strerror(errno));
		return ret;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		fclose(f);
		return -ENOMEM;
	}
	while ((l = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (l > 0 && (line[l - 1] == '\n' || line[l - 1] == '\r'))
			line[--l] = '\0';
		if (!l || line[0] == '#')
			continue;
		ret = replay_line(r, line);
		if (ret < 0) {
			snprintf(err, errlen,
				 "%s: line %u: expected 'IFNAME driver NAME', 'IFNAME strings HEX' or 'IFNAME stats HEX'",
				 path, lineno);
			break;
		}
	}
	free(line);
	fclose(f);
	if (ret < 0) {
		rd_eth_replay_free(r);
		return ret;
	}
	*out = r;
	return 0;
}

static int replay_sample(struct rdiag_fabric *f, const char *ifname, struct rdiag_ethstats **out)
{
	struct eth_rec *e = rec_get(f->eth_replay, ifname, false);
	size_t k;
	int ret;

	if (!e) {
		rd_fabric_seterr(f, "ethtool replay: nothing recorded for %s", ifname);
		return -ENODEV;
	}
	if (!e->nstats) {
		rd_fabric_seterr(f, "%s: the driver has no statistics (ethtool -S)", ifname);
		return -EOPNOTSUPP;
	}
	/* successive samples in order; the last one again when the recording runs out */
	k = e->next < e->nstats ? e->next++ : e->nstats - 1;
	ret = rd_ethstats_build(e->driver, e->strings, e->slen, e->stats[k], e->vlen[k], out);
	if (ret == -EBADMSG)
		rd_fabric_seterr(f, "ethtool replay for %s: %zu bytes of names and %zu of values do not describe the same statistics",
				 ifname, e->slen, e->vlen[k]);
	return ret;
}

/* ---- the ioctls ---- */
static int eth_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

static int live_sample(struct rdiag_fabric *f, const char *ifname, struct rdiag_ethstats **out)
{
	struct ethtool_drvinfo drv;
	struct {
		struct ethtool_sset_info hdr;
		uint32_t buf[1];
	} sset;
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	uint32_t n;
	int fd, ret;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		rd_fabric_seterr(f, "socket: %s", strerror(errno));
		return ret;
	}
	memset(&drv, 0, sizeof(drv));
	drv.cmd = ETHTOOL_GDRVINFO;
	ret = eth_ioctl(fd, ifname, &drv);
	if (ret < 0)
		goto fail;
	memset(&sset, 0, sizeof(sset));
	sset.hdr.cmd = ETHTOOL_GSSET_INFO;
	sset.hdr.sset_mask = 1ull << ETH_SS_STATS;
	ret = eth_ioctl(fd, ifname, &sset);
	if (ret < 0)
		goto fail;
	n = sset.hdr.sset_mask ? sset.hdr.data[0] : 0;
	if (!n) {
		ret = -EOPNOTSUPP;
		goto fail;
	}
	if (n > RD_ETH_MAX_STATS) {
		ret = -EBADMSG;
		goto fail;
	}
	gs = calloc(1, sizeof(*gs) + (size_t)n * RD_ETH_GSTRING_LEN);
	st = calloc(1, sizeof(*st) + (size_t)n * sizeof(uint64_t));
	if (!gs || !st) {
		ret = -ENOMEM;
		goto fail;
	}
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	ret = eth_ioctl(fd, ifname, gs);
	if (ret < 0)
		goto fail;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	ret = eth_ioctl(fd, ifname, st);
	if (ret < 0)
		goto fail;
	/* the kernel wrote its own count: more than asked would have run past the buffers,
	 * and a different one means the set changed between the questions */
	if (gs->len != n || st->n_stats != n) {
		ret = -EBADMSG;
		goto fail;
	}
	drv.driver[sizeof(drv.driver) - 1] = '\0';
	ret = rd_ethstats_build(drv.driver, gs->data, (size_t)n * RD_ETH_GSTRING_LEN, st->data,
				(size_t)n * sizeof(uint64_t), out);
fail:
	if (ret == -EOPNOTSUPP)
		rd_fabric_seterr(f, "%s: the driver has no statistics (ethtool -S)", ifname);
	else if (ret == -ENODEV)
		rd_fabric_seterr(f, "%s: no such network device", ifname);
	else if (ret == -EBADMSG)
		rd_fabric_seterr(f, "%s: the statistics set changed while it was read", ifname);
	else if (ret < 0)
		rd_fabric_seterr(f, "%s: ethtool statistics: %s", ifname, strerror(-ret));
	free(gs);
	free(st);
	close(fd);
	return ret;
}

int rdiag_fabric_ethstats(struct rdiag_fabric *f, const char *ifname,
			  struct rdiag_ethstats **out)
{
	*out = NULL;
	f->err[0] = '\0';
	if (strlen(ifname) >= IF_NAMESIZE) {
		rd_fabric_seterr(f, "'%s': not an interface name (too long)", ifname);
		return -EINVAL;
	}
	if (f->eth_replay)
		return replay_sample(f, ifname, out);
	if (f->root[0]) {
		/* a fake sysfs tree describes another machine: not this host's statistics */
		rd_fabric_seterr(f, "%s: a sysfs root without RDMADIAG_ETHTOOL_REPLAY: this host's statistics are not read",
				 ifname);
		return -ENXIO;
	}
	return live_sample(f, ifname, out);
}
