/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What a device can hold (rdiag_device_limits, rdmadiag/resources.h): ibv_query_device's
 * maxima, for "QPs in use against max_qp".  libibverbs is loaded on first use; the device is
 * opened for the query only (its uverbs file: /dev/infiniband/uverbsN, world read-write on
 * Debian). */
#include <errno.h>
#include <string.h>

#include <rdmadiag/resources.h>
#include "verbs.h"

int rdiag_device_limits(const char *dev, struct rdiag_device_limits *out)
{
	struct ibv_device **list;
	struct ibv_device_attr da;
	int i, n, ret = -ENODEV;

	memset(out, 0, sizeof(*out));
	if (rd_ibv_load(NULL, 0))
		return -ENOSYS;
	list = ibv_get_device_list(&n);
	if (!list)
		return errno ? -errno : -ENODEV;
	for (i = 0; i < n; i++) {
		struct ibv_context *ctx;

		if (strcmp(ibv_get_device_name(list[i]), dev))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx) {
			ret = errno ? -errno : -EACCES;
			break;
		}
		ret = ibv_query_device(ctx, &da) ? -EIO : 0;
		if (!ret) {
			out->max_qp = (uint32_t)da.max_qp;
			out->max_cq = (uint32_t)da.max_cq;
			out->max_mr = (uint32_t)da.max_mr;
			out->max_pd = (uint32_t)da.max_pd;
			out->max_srq = (uint32_t)da.max_srq;
			out->max_qp_wr = (uint32_t)da.max_qp_wr;
		}
		ibv_close_device(ctx);
		break;
	}
	ibv_free_device_list(list);
	return ret;
}
