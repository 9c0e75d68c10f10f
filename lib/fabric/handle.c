/* The fabric handle: test seams (RDMADIAG_SYSFS_ROOT, RDMADIAG_NL_REPLAY,
 * RDMADIAG_ETHTOOL_REPLAY, all read with secure_getenv so a setuid wrapper ignores them),
 * the netlink socket, the error text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "counters/internal.h"
#include "open_error.h"
#include "util/internal.h"

/* why the last rdiag_fabric_open() of the process failed (errmsg(NULL)) */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

int rdiag_fabric_open(struct rdiag_fabric **out, const struct rdiag_fabric_opts *opts)
{
	struct rdiag_fabric *f;
	const char *replay, *eth;
	char err[512];
	int ret;

	*out = NULL;
	err[0] = '\0';
	f = calloc(1, sizeof(*f));
	if (!f) {
		rd_open_error_set(&open_err, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	if (rd_sysfs_root(f->root, sizeof(f->root)) < 0) {
		rd_open_error_set(&open_err, "RDMADIAG_SYSFS_ROOT: %s", strerror(ENAMETOOLONG));
		free(f);
		return -ENAMETOOLONG;
	}
	replay = secure_getenv("RDMADIAG_NL_REPLAY");
	if (replay && *replay) {
		ret = rd_replay_load(replay, &f->replay, err, sizeof(err));
		if (ret < 0)
			goto fail;
	}
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
	if (f->nl)
		mnl_socket_close(f->nl);
	if (f->genl)
		mnl_socket_close(f->genl);
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
