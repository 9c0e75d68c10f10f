/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The counters handle: source selection, test seams, error text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "netlink/netlink.h"
#include "open_error.h"
#include "util/util.h"

/* why the last failed rdiag_counters_open() of the process failed (errmsg(NULL)) */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_counters_open(struct rdiag_counters **out, const struct rdiag_counters_opts *opts)
{
	struct rdiag_counters *c;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	c->nl = malloc(sizeof(*c->nl));
	if (!c->nl) {
		free(c);
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	rd_nl_init(c->nl, NETLINK_RDMA, "netlink");
	c->source = opts ? opts->source : RDIAG_SRC_AUTO;
	c->max_gids = opts ? opts->max_gids : 0;
	if (rd_sysfs_root(c->root, sizeof(c->root)) < 0) {
		rd_open_error_set(&open_err, "RDMADIAG_SYSFS_ROOT: %s", strerror(ENAMETOOLONG));
		free(c->nl);
		free(c);
		return -ENAMETOOLONG;
	}
	ret = rd_nl_replay_env(&c->replay, c->err, sizeof(c->err));
	if (ret < 0) {
		rd_open_error_set(&open_err, "%s", c->err);
		free(c->nl);
		free(c);
		return ret;
	}
	c->nl->replay = c->replay;
	/* A fake sysfs tree describes another machine: mixing it with this machine's netlink
	 * would merge two systems.  Netlink is used with it only when replayed too. */
	c->use_netlink = c->source != RDIAG_SRC_SYSFS && (!c->root[0] || c->replay ||
							   c->source == RDIAG_SRC_NETLINK);
	if (opts && opts->nl_record) {
		c->record = fopen(opts->nl_record, "we");
		if (!c->record) {
			ret = -errno;
			rd_open_error_set(&open_err, "cannot open '%s': %s", opts->nl_record,
					  strerror(errno));
			rdiag_counters_close(c);
			return ret;
		}
		fputs("# rdmadiag netlink recording v1: 'req HEX' then its 'rep HEX' datagrams\n",
		      c->record);
		c->nl->record = c->record;
	}
	*out = c;
	return 0;
}

void rdiag_counters_close(struct rdiag_counters *c)
{
	if (!c)
		return;
	rd_fdcache_free(c);
	rd_dircache_free(c);
	rd_eth_free(c);
	rd_nl_close(c->nl);
	free(c->nl);
	if (c->record)
		fclose(c->record);
	rd_replay_free(c->replay);
	free(c->names);
	free(c);
}

const char *rdiag_counters_errmsg(const struct rdiag_counters *c)
{
	return c ? c->err : rd_open_error_get(&open_err);
}

const char *rdiag_counters_sysfs_root(const struct rdiag_counters *c)
{
	return c->root;
}

bool rdiag_counters_netlink_ok(const struct rdiag_counters *c)
{
	return c->nl_ok;
}
