/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor env: the environment a job should use on this host, as shell lines or JSON. */
#ifndef RD_DOCTOR_ENV_H
#define RD_DOCTOR_ENV_H
#include <stdbool.h>

enum env_for {
	ENV_FOR_NCCL = 1,
	ENV_FOR_UCX = 2,
	ENV_FOR_LIBFABRIC = 4,
	ENV_FOR_ALL = 7,
};

/* "nccl", "ucx", "libfabric", "all" -> the mask; 0 when unknown */
unsigned int doctor_env_for(const char *name);
/* target: ADDR, NETDEV or NULL; hosts: NULL, or a file ("-": stdin) of other hosts'
 * 'rdmadoctor -j local' whose GID index of the same port is compared; returns the exit status
 * (0 ok, 1 the port has no RoCE v2 GID for it or the GID index differs across the hosts, 2
 * nothing RDMA answers to target or the hosts file cannot be read) */
int doctor_env(const char *target, unsigned int mask, bool json, const char *hosts);

#endif
