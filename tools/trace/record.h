/* tools/trace: what rdmatrace record's triggers and change watchers (record_*.c) use of the
 * recorder in record.c: writing a text record, and a trigger (a marker record and a copy of
 * the ring as FILE.snap.N). */
#ifndef RDIAG_TRACE_RECORD_H
#define RDIAG_TRACE_RECORD_H
#include <stdbool.h>
#include <stdint.h>

#include "rdmadiag/counters.h"

/* a record of type (RDIAG_REC_*) at t (ns since the epoch) with printf text */
void rec_put_text(unsigned int type, uint64_t t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* now, in ns since the epoch */
uint64_t rec_now_ns(void);
/* a marker saying why, at when, and the ring copied (at most once a second) */
void rec_trigger(const char *why, uint64_t when);

/* record_thresholds.c: --thresholds FILE, evaluated on every counter snapshot as rdmastat
 * evaluates it (deltas and rates from the previous snapshot), edge-triggered per rule,
 * port and counter.  load dies with one line on a bad file. */
void rec_thresholds_load(const char *path);
void rec_thresholds_check(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
			  uint64_t t);
void rec_thresholds_free(void);

/* record_qps.c: RES_QP at every snapshot; a record per QP that appeared, changed state or
 * went away since the previous look, and a trigger when one enters ERR */
void rec_qps_check(struct rdiag_counters *c, uint64_t t);
void rec_qps_free(void);

/* record_ports.c: the full look (a discovery: port state records and the GID diff) and the
 * quick look (the device names, each port's state and phys_state through kept-open files):
 * true when it saw anything that differs from the last full look, which is then due */
void rec_ports_full(struct rdiag_counters *c);
bool rec_ports_look(struct rdiag_counters *c);
void rec_ports_free(void);

/* record_gids.c: the GID tables of a discovery against the previous one; a record per entry
 * added, removed or changed */
void rec_gids_check(const struct rdiag_devices *d, uint64_t t);
void rec_gids_free(void);
#endif
