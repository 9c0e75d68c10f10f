/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace: the parts of rdmatrace record.  record.c runs the recorder; record_ring.c is
 * where records go (the ring, a trigger's marker and copy as FILE.snap.N); the triggers and
 * change watchers of record_*.c write through record_ring.c and are called by record.c. */
#ifndef RDIAG_TRACE_RECORD_H
#define RDIAG_TRACE_RECORD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdmadiag/counters.h"

struct rdiag_ring;

/* record_ring.c: where the records go.  rec_out_start: the ring record.c opened, its path
 * (FILE of FILE.snap.N) and how many copies to keep (0: all); a continued ring's copies
 * stay and numbering goes on after the highest */
void rec_out_start(struct rdiag_ring *r, const char *file, unsigned int keep);
/* a record of type (RDIAG_REC_*) at t (ns since the epoch) */
void rec_put(unsigned int type, uint64_t t, const void *data, size_t len);
/* the same with printf text */
void rec_put_text(unsigned int type, uint64_t t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* a marker saying why, at when, and the ring copied (at most once a second: within a second
 * of the last copy, the copy waits until rec_out_copy_if_due finds the second over) */
void rec_trigger(const char *why, uint64_t when);
void rec_out_copy_if_due(void);
/* true, with the monotonic time it is due at, when a trigger's copy waits */
bool rec_out_copy_pending(uint64_t *due);
/* the waiting copy made now (at the end of the recording) */
void rec_out_flush(void);
/* how many records could not be written, and the first one's errno */
uint64_t rec_out_errors(int *first_err);
/* why the ring is no longer written (another process truncated, replaced or overwrote it:
 * one line naming the file), NULL while it is */
const char *rec_out_broken(void);

/* record_edge.c: the edge trigger of record_thresholds.c and record_pause.c, what is
 * breaching by (rule, port, counter).  Per snapshot: begin; for each judged sample, breach
 * (true when the breach starts: fire) or, when it could not be judged, keep (a breach stays
 * a breach); end re-arms the rest.  free empties the set. */
struct rec_edge;
struct rec_edges {
	struct rec_edge *v;
	size_t n;
};
void rec_edge_begin(struct rec_edges *e);
bool rec_edge_breach(struct rec_edges *e, size_t rule, const struct rdiag_sample *s);
void rec_edge_keep(struct rec_edges *e, size_t rule, const struct rdiag_sample *s);
void rec_edge_end(struct rec_edges *e);
void rec_edge_free(struct rec_edges *e);

/* record_thresholds.c: --thresholds FILE, evaluated on every counter snapshot as rdmastat
 * evaluates it (deltas and rates from the previous snapshot), edge-triggered per rule,
 * port and counter.  load dies with one line on a bad file. */
void rec_thresholds_load(const char *path);
void rec_thresholds_check(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
			  uint64_t t);
void rec_thresholds_free(void);

/* record_pause.c: pause storms on every counter snapshot (the Ethernet statistics of
 * rec_pause_keys, which the snapshot reads): a PFC or link-level pause rate above the
 * --pause-max frames/s, or a driver's pause-storm counter that moved, writes a marker and
 * copies the ring (fabric.pause_rate, fabric.pause_storm), edge-triggered per statistic */
#define REC_PAUSE_NKEYS 3
extern const char *const rec_pause_keys[REC_PAUSE_NKEYS];
void rec_pause_set_max(double frames_per_s);
void rec_pause_check(const struct rdiag_samples *prev, const struct rdiag_samples *cur,
		     uint64_t t);
void rec_pause_free(void);

/* record_qps.c: RES_QP at every snapshot; a record per QP that appeared, changed state or
 * went away since the previous look, and a trigger when one enters ERR */
void rec_qps_check(struct rdiag_counters *c, uint64_t t);
void rec_qps_free(void);

/* record_ports.c: the full look (a discovery: port state records and the GID diff) and the
 * quick look (the device names, each port's state and phys_state through kept-open files):
 * true when it saw anything that differs from the last full look, which is then due.  The
 * full look is true when a port went away or its device is another instance ("GONE"
 * records written): counter deltas across it mean nothing */
bool rec_ports_full(struct rdiag_counters *c);
bool rec_ports_look(struct rdiag_counters *c);
/* the device half of the quick look (names and directories, no port file): true when a
 * device came, went or was re-created since the last full look */
bool rec_ports_devices_changed(struct rdiag_counters *c);
void rec_ports_free(void);

/* record_gids.c: the GID tables of a discovery against the previous one; a record per entry
 * added, removed or changed */
void rec_gids_check(const struct rdiag_devices *d, uint64_t t);
void rec_gids_free(void);
#endif
