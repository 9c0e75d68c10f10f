/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What the trace fuzz targets share (fuzz_trace: sub-buffers; fuzz_traceformat: event
 * format files): the fixture's handle (tests/fixtures/trace/rxe-6.1, read once, run from
 * the top of the tree), the callbacks with their invariants, a sub-buffer decoded into a
 * connection table of the input's own, and a format file parsed as the library parses one
 * (rd_trace_parse_format) into a handle of its own.  Each piece is copied into an exactly
 * sized heap buffer, so ASan flags any read past it. */
#ifndef FUZZ_TRACE_EXERCISE_H
#define FUZZ_TRACE_EXERCISE_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "rdmadiag/trace.h"
#include "trace/internal.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#ifndef FUZZ_TRACE_DIR
#define FUZZ_TRACE_DIR "tests/fixtures/trace/rxe-6.1"
#endif

static struct rdiag_trace *fuzz_trace;
static struct rdiag_trace_conns *fuzz_conns;
static size_t fuzz_events, fuzz_conns_seen, fuzz_formats_parsed;
/* the fixture's header page and saved_cmdlines, for the handles of fuzz_traceformat */
static char *fuzz_header_page, *fuzz_cmdlines;
static size_t fuzz_header_page_len;

static void fuzz_conn_cb(const struct rdiag_trace_conn *c, void *arg)
{
	(void)arg;
	CHECK(c->nsteps <= RDIAG_TRACE_MAX_STEPS);
	CHECK(c->cause != NULL);
	CHECK(memchr(c->verdict, 0, sizeof(c->verdict)) != NULL);
	fuzz_conns_seen++;
}

static int fuzz_event_cb(const struct rdiag_trace_event *ev, void *arg)
{
	(void)arg;
	CHECK(memchr(ev->detail, 0, sizeof(ev->detail)) != NULL);
	CHECK(memchr(ev->comm, 0, sizeof(ev->comm)) != NULL);
	CHECK(memchr(ev->device, 0, sizeof(ev->device)) != NULL);
	fuzz_events++;
	return rdiag_trace_conns_add(fuzz_conns, ev, fuzz_conn_cb, NULL);
}

static inline void fuzz_subbuf(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);

	CHECK(b != NULL);
	memcpy(b, data, size);
	rdiag_trace_parse_subbuf(fuzz_trace, b, size, 0, fuzz_event_cb, NULL);
	free(b);
}

/* format file, NUL, system byte, sub-buffer: the sub-buffer decoded with a handle
 * that knows that one event (the fixture's handle lends its sub-buffer reader) */
static inline void fuzz_format(const uint8_t *data, size_t size)
{
	static const char *const systems[] = { "rdma_cma", "ib_cma", "ib_mad" };
	const uint8_t *nul = memchr(data, 0, size);
	size_t flen = nul ? (size_t)(nul - data) : size;
	struct tep_handle *tep, *keep;
	const char *sys = systems[nul && nul + 1 < data + size ? nul[1] % 3 : 0];
	char *fmt;
	int ok;

	tep = tep_alloc();
	CHECK(tep != NULL);
	tep_set_long_size(tep, sizeof(long));
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	CHECK(tep_parse_header_page(tep, fuzz_header_page, fuzz_header_page_len,
				    sizeof(long)) == 0);
	tep_set_page_size(tep, (int)fuzz_trace->subbuf_size);
	if (fuzz_cmdlines)
		tep_parse_saved_cmdlines(tep, fuzz_cmdlines);
	/* NUL-terminated, as the library reads a format file (rd_trace_slurp) */
	fmt = malloc(flen + 1);
	CHECK(fmt != NULL);
	memcpy(fmt, data, flen);
	fmt[flen] = '\0';
	ok = rd_trace_parse_format(tep, fmt, flen, sys) == 0;
	free(fmt);
	if (ok && nul && nul + 2 <= data + size) {
		fuzz_formats_parsed++;
		keep = fuzz_trace->tep;
		fuzz_trace->tep = tep;
		fuzz_subbuf(nul + 2, (size_t)(data + size - (nul + 2)));
		fuzz_trace->tep = keep;
	}
	tep_free(tep);
}

static inline void fuzz_trace_init(void)
{
	enum rdiag_trace_fail why;
	size_t len;

	if (fuzz_trace)
		return;
	CHECK(rdiag_trace_open_dir(&fuzz_trace, FUZZ_TRACE_DIR, &why) == 0);
	CHECK(rd_trace_slurp(FUZZ_TRACE_DIR "/events/header_page", &fuzz_header_page,
			     &fuzz_header_page_len) == 0);
	if (rd_trace_slurp(FUZZ_TRACE_DIR "/saved_cmdlines", &fuzz_cmdlines, &len) != 0)
		fuzz_cmdlines = NULL;
}

/* a connection table of the input's own (the flush empties the slots but not the
 * cm_id_attach records, which would attribute a later input's connections) around one
 * input's decoding */
static inline void fuzz_trace_input(void (*fn)(const uint8_t *, size_t), const uint8_t *data,
			     size_t size)
{
	fuzz_trace_init();
	CHECK(rdiag_trace_conns_open(&fuzz_conns, NULL) == 0);
	fn(data, size);
	rdiag_trace_conns_flush(fuzz_conns, 0, fuzz_conn_cb, NULL);
	rdiag_trace_conns_close(fuzz_conns);
	fuzz_conns = NULL;
}

#endif
