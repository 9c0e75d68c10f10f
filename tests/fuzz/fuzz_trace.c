/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: raw ring-buffer sub-buffers as trace_pipe_raw returns them, decoded
 * with the formats of the QEMU tier's kernel (tests/fixtures/trace/rxe-6.1, read once) and
 * fed to the connection assembly (a new one per input): rdiag_trace_parse_subbuf() must
 * stay inside the input whatever its header's commit length and its records' lengths say.
 * The input is copied into an exactly sized heap buffer, so ASan flags any read past it.
 * Run from the top of the tree (make fuzz, make check).  The format files: fuzz_traceformat. */
#include "trace_exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_trace_input(fuzz_subbuf, data, size);
	return 0;
}
