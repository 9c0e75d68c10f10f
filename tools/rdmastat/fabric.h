/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat fabric: DCB, Ethernet statistics, ECN/CC defaults and the lossless chain of every
 * RDMA port with a netdev (lib/fabric), printed through out (text and JSON from one path). */
#ifndef RDIAG_STAT_FABRIC_H
#define RDIAG_STAT_FABRIC_H
#include <stdbool.h>
#include <stdint.h>

struct out;
struct rdiag_counters;

struct stat_fabric_opts {
	const char *dev;	/* NULL: every device */
	uint32_t port;		/* 0: every port */
	int tos;		/* --tos, -1 none */
	double interval;	/* -i: seconds between the two samples, 0 none */
	const char *nl_record;	/* --nl-record: the dcbnl exchanges too (appended) */
	double pause_max;	/* --pause-max: frames/s, 0 the library's default */
	double pause_time_max;	/* --pause-time-max: a fraction, 0 the library's default */
};

/* EXIT_OK, EXIT_FOUND (a chain is broken) or EXIT_USAGE (no port to look at) */
int stat_fabric_run(struct out *o, struct rdiag_counters *c, const struct stat_fabric_opts *opts);

#endif
