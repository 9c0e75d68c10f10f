/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/cause.h: the one table of connection-failure cause ids.
 *
 * rdmadoctor's verdicts (rdmadiag/doctor.h) and rdmatrace's connection verdicts
 * (rdmadiag/trace.h) name the cause of a failure with a stable id such as "no_listener" or
 * "cm_no_response".  Both take the ids, the layer each belongs to and its one-line meaning
 * from this table, so that the same id means the same thing in both tools' output.
 */
#ifndef RDMADIAG_CAUSE_H
#define RDMADIAG_CAUSE_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_cause {
	const char *id;		/* "no_listener" */
	const char *layer;	/* "host", "link", "address", "network", "firewall", "cm",
				 * "transport", "application"; "none" for ok */
	const char *meaning;	/* one line, no trailing period */
};

/* the entry of id; NULL when the table has none (ids are compared exactly) */
const struct rdiag_cause *rdiag_cause_find(const char *id);
/* the whole table, *n entries (for listings and tests) */
const struct rdiag_cause *rdiag_cause_table(size_t *n);

#ifdef __cplusplus
}
#endif
#endif
