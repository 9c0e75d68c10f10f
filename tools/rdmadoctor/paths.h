/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor paths DST[:PORT]: which UDP source ports (ECMP paths) to a listener work
 * (rdiag_doctor_paths), printed through the one output path. */
#ifndef RD_DOCTOR_PATHS_H
#define RD_DOCTOR_PATHS_H
#include <stdbool.h>
#include <stdint.h>

#include "rdmadiag/doctor.h"

struct doctor_paths_cfg {
	const char *host;	/* as given */
	const char *addr;	/* numeric, what it resolved to */
	uint16_t port;
	const char *src;
	int timeout_ms;
	int ps;
	bool json, verbose, force;
	struct rdiag_doc_paths_opts po;
};

/* the exit status: 0 all paths good, 1 some or all fail, 2 cannot run */
int doctor_paths(const struct doctor_paths_cfg *c);

#endif
