/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: an event's format file as a saved trace directory holds it
 * (events/SYSTEM/EVENT/format: anyone's text, read by rdmatrace --input), then a NUL, one
 * byte choosing SYSTEM (rdma_cma, ib_cma, ib_mad: the byte mod 3), then a sub-buffer.  The
 * format is parsed as the library parses one (rd_trace_parse_format: its own checks, then
 * libtraceevent) into a handle of its own (the fixture's header page and saved_cmdlines,
 * that one event), and the sub-buffer is decoded with it and fed to the connection
 * assembly as fuzz_trace does, so that a hostile format meets the parser and the decoder.
 * Seeds: tests/fuzz/mk_seeds_trace.py (every format of tests/fixtures/trace/rxe-6.1 with a
 * raw page that has its records).  Run from the top of the tree (make fuzz, make check). */
#include "trace_exercise.h"

/* libtraceevent 1.7's parser leaks a few bytes on some malformed formats (its error paths,
 * not this library's code): LeakSanitizer leaves those to its maintainers and still
 * reports every other leak */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_trace_input(fuzz_format, data, size);
	return 0;
}
