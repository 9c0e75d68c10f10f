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
/* target: ADDR, NETDEV or NULL; returns the exit status (0 ok, 1 the port has no RoCE v2 GID
 * for it, 2 nothing RDMA answers to target) */
int doctor_env(const char *target, unsigned int mask, bool json);

#endif
