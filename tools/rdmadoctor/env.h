/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor env: the environment a job should use on this host, as shell lines or JSON. */
#ifndef RD_DOCTOR_ENV_H
#define RD_DOCTOR_ENV_H
#include <stdbool.h>

/* target: ADDR, NETDEV or NULL; mask: the libraries (enum rdiag_env_for, whose variable
 * names the library owns: rdiag_doctor_env_vars); hosts: NULL, or a file ("-": stdin) of other hosts'
 * 'rdmadoctor -j local' whose GID index of the same port is compared; returns the exit status
 * (0 ok, 1 the port has no RoCE v2 GID for it or the GID index differs across the hosts, 2
 * nothing RDMA answers to target or the hosts file cannot be read) */
int doctor_env(const char *target, unsigned int mask, bool json, const char *hosts);

#endif
