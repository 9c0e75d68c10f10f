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

int rdiag_fabric_open(struct rdiag_fabric **out, char *err, size_t errlen)
{
	struct rdiag_fabric *f;
	const char *root, *replay, *eth;
	int ret;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	root = secure_getenv("RDMADIAG_SYSFS_ROOT");
	if (root && *root) {
		size_t l = strlen(root);

		if (l >= sizeof(f->root)) {
			snprintf(err, errlen, "RDMADIAG_SYSFS_ROOT: %s", strerror(ENAMETOOLONG));
			free(f);
			return -ENAMETOOLONG;
		}
		memcpy(f->root, root, l + 1);
		while (l > 1 && f->root[l - 1] == '/')
			f->root[--l] = '\0';
	}
	replay = secure_getenv("RDMADIAG_NL_REPLAY");
	if (replay && *replay) {
		ret = rd_replay_load(replay, &f->replay, err, errlen);
		if (ret < 0) {
			free(f);
			return ret;
		}
	}
	eth = secure_getenv("RDMADIAG_ETHTOOL_REPLAY");
	if (eth && *eth) {
		ret = rd_eth_replay_load(eth, &f->eth_replay, err, errlen);
		if (ret < 0) {
			rdiag_fabric_close(f);
			return ret;
		}
	}
	*out = f;
	return 0;
}

void rdiag_fabric_close(struct rdiag_fabric *f)
{
	if (!f)
		return;
	if (f->nl)
		mnl_socket_close(f->nl);
	rd_replay_free(f->replay);
	rd_eth_replay_free(f->eth_replay);
	free(f);
}

const char *rdiag_fabric_error(const struct rdiag_fabric *f)
{
	return f ? f->err : "";
}

void rdiag_fabric_record(struct rdiag_fabric *f, FILE *file)
{
	f->record = file;
}
