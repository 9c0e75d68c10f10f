/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The fabric handle: test seams (RDMADIAG_SYSFS_ROOT, RDMADIAG_NL_REPLAY,
 * RDMADIAG_ETHTOOL_REPLAY, all read with secure_getenv so a setuid wrapper ignores them),
 * the netlink socket, the error text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/netlink.h>

#include "internal.h"
#include "open_error.h"
#include "util/util.h"

/* why the last rdiag_fabric_open() of the process failed (errmsg(NULL)) */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_fabric_open(struct rdiag_fabric **out, const struct rdiag_fabric_opts *opts)
{
	struct rdiag_fabric *f;
	const char *eth;
	char err[512];
	int ret;

	*out = NULL;
	err[0] = '\0';
	f = calloc(1, sizeof(*f));
	if (!f) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	rd_nl_init(&f->rt, NETLINK_ROUTE, "rtnetlink");
	rd_nl_init(&f->genl, NETLINK_GENERIC, "generic netlink");
	/* sequence numbers that a previous run's late replies do not match */
	f->rt.seq = f->genl.seq = (uint32_t)time(NULL);
	if (rd_sysfs_root(f->root, sizeof(f->root)) < 0) {
		rd_open_error_set(&open_err, "RDMADIAG_SYSFS_ROOT: %s", strerror(ENAMETOOLONG));
		free(f);
		return -ENAMETOOLONG;
	}
	ret = rd_nl_replay_env(&f->replay, err, sizeof(err));
	if (ret < 0)
		goto fail;
	f->rt.replay = f->genl.replay = f->replay;
	eth = secure_getenv("RDMADIAG_ETHTOOL_REPLAY");
	if (eth && *eth) {
		ret = rd_eth_replay_load(eth, &f->eth_replay, err, sizeof(err));
		if (ret < 0)
			goto fail;
	}
	if (opts && opts->nl_record) {
		f->record = fopen(opts->nl_record, "ae");
		if (!f->record) {
			ret = -errno;
			snprintf(err, sizeof(err), "cannot open '%s': %s", opts->nl_record,
				 strerror(errno));
			goto fail;
		}
		f->rt.record = f->genl.record = f->record;
	}
	*out = f;
	return 0;
fail:
	rd_open_error_set(&open_err, "%s", err[0] ? err : strerror(-ret));
	rdiag_fabric_close(f);
	return ret;
}

void rdiag_fabric_close(struct rdiag_fabric *f)
{
	if (!f)
		return;
	rd_nl_close(&f->rt);
	rd_nl_close(&f->genl);
	if (f->record)
		fclose(f->record);
	rd_replay_free(f->replay);
	rd_eth_replay_free(f->eth_replay);
	free(f);
}

const char *rdiag_fabric_errmsg(const struct rdiag_fabric *f)
{
	return f ? f->err : rd_open_error_get(&open_err);
}
