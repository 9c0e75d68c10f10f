/* libFuzzer target: raw ring-buffer sub-buffers as trace_pipe_raw returns them, decoded
 * with the formats of the QEMU tier's kernel (tests/fixtures/trace/rxe-6.1, read once) and
 * fed to the connection assembly: rdiag_trace_parse_subbuf() must stay inside the input
 * whatever its header's commit length and its records' lengths say.  The input is copied
 * into an exactly sized heap buffer, so ASan flags any read past it.  Run from the top of
 * the tree (make fuzz, make check). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rdmadiag/trace.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)
#ifndef FUZZ_TRACE_DIR
#define FUZZ_TRACE_DIR "tests/fixtures/trace/rxe-6.1"
#endif

static struct rdiag_trace *fuzz_trace;
static struct rdiag_trace_conns *fuzz_conns;
static size_t fuzz_events, fuzz_conns_seen;

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *b;

	if (!fuzz_trace) {
		enum rdiag_trace_fail why;

		CHECK(rdiag_trace_open_dir(&fuzz_trace, FUZZ_TRACE_DIR, &why) == 0);
		CHECK(rdiag_trace_conns_new(&fuzz_conns) == 0);
	}
	b = malloc(size ? size : 1);
	CHECK(b != NULL);
	memcpy(b, data, size);
	rdiag_trace_parse_subbuf(fuzz_trace, b, size, 0, fuzz_event_cb, NULL);
	free(b);
	rdiag_trace_conns_flush(fuzz_conns, 0, fuzz_conn_cb, NULL);
	return 0;
}
