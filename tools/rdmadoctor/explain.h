/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor explain: the output of one explained line, and the reading of a log (stdin). */
#ifndef RD_DOCTOR_EXPLAIN_H
#define RD_DOCTOR_EXPLAIN_H
#include <stdbool.h>

/* explain LINE, or with "-" every line of standard input; returns the exit status:
 * 1 when a completion error was recognised, 0 when none was, 2 when the input cannot be read */
int doctor_explain(const char *arg, bool json);

#endif
