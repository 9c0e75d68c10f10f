/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdiag_doctor_env_vars() and rdiag_doctor_env_for() (lib/doctor/doctor_env.c): the variable
 * names of NCCL, UCX and libfabric's verbs provider live in the library, in their documented
 * order, the GID and traffic-class ones on RoCE only, the netdev ones where there is one. */
#include <string.h>

#include "rdmadiag/doctor.h"
#include "tap.h"

static const char *names(const struct rdiag_doc_env_var *v, size_t n, char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "", v[i].name,
					v[i].value);
	return buf;
}

int main(void)
{
	struct rdiag_doc_env roce = { .dev = "rxe0", .port = 1, .netdev = "veth0", .roce = true,
				      .gid_index = 3, .tos = 106 };
	struct rdiag_doc_env ib = { .dev = "mlx5_0", .port = 2 };
	struct rdiag_doc_env_var v[RDIAG_DOC_ENV_VARS_MAX];
	char buf[1024];
	size_t n;

	EXPECT_EQ(rdiag_doctor_env_for("nccl"), RDIAG_ENV_NCCL);
	EXPECT_EQ(rdiag_doctor_env_for("UCX"), RDIAG_ENV_UCX);
	EXPECT_EQ(rdiag_doctor_env_for("libfabric"), RDIAG_ENV_LIBFABRIC);
	EXPECT_EQ(rdiag_doctor_env_for("all"), RDIAG_ENV_ALL);
	EXPECT_EQ(rdiag_doctor_env_for("mpi"), 0);
	EXPECT_EQ(rdiag_doctor_env_for(""), 0);

	n = rdiag_doctor_env_vars(&roce, RDIAG_ENV_ALL, v, RDIAG_DOC_ENV_VARS_MAX);
	EXPECT_EQ(n, 11);
	EXPECT_STREQ(names(v, n, buf, sizeof(buf)),
		     "NCCL_IB_HCA=rxe0:1 NCCL_IB_GID_INDEX=3 NCCL_IB_TC=106 NCCL_SOCKET_IFNAME=veth0 "
		     "UCX_NET_DEVICES=rxe0:1 UCX_IB_GID_INDEX=3 UCX_IB_TRAFFIC_CLASS=106 "
		     "FI_PROVIDER=verbs FI_VERBS_DEVICE_NAME=rxe0 FI_VERBS_IFACE=veth0 "
		     "FI_VERBS_GID_IDX=3");
	/* InfiniBand without IPoIB: no GID index, no traffic class, no netdev */
	n = rdiag_doctor_env_vars(&ib, RDIAG_ENV_ALL, v, RDIAG_DOC_ENV_VARS_MAX);
	EXPECT_STREQ(names(v, n, buf, sizeof(buf)),
		     "NCCL_IB_HCA=mlx5_0:2 UCX_NET_DEVICES=mlx5_0:2 FI_PROVIDER=verbs "
		     "FI_VERBS_DEVICE_NAME=mlx5_0");
	/* one library */
	n = rdiag_doctor_env_vars(&roce, RDIAG_ENV_UCX, v, RDIAG_DOC_ENV_VARS_MAX);
	EXPECT_STREQ(names(v, n, buf, sizeof(buf)),
		     "UCX_NET_DEVICES=rxe0:1 UCX_IB_GID_INDEX=3 UCX_IB_TRAFFIC_CLASS=106");
	EXPECT_EQ(rdiag_doctor_env_vars(&roce, 0, v, RDIAG_DOC_ENV_VARS_MAX), 0);
	/* never more than max */
	n = rdiag_doctor_env_vars(&roce, RDIAG_ENV_ALL, v, 2);
	EXPECT_EQ(n, 2);
	EXPECT_STREQ(names(v, n, buf, sizeof(buf)), "NCCL_IB_HCA=rxe0:1 NCCL_IB_GID_INDEX=3");
	return tap_done();
}
