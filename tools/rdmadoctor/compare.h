/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor compare FILE... | -: many hosts' 'rdmadoctor local -j', property by property. */
#ifndef RD_DOCTOR_COMPARE_H
#define RD_DOCTOR_COMPARE_H
#include <stdbool.h>
#include <stdio.h>

/* args: files, or "-" for JSON lines on standard input; returns the exit status (1 when a
 * property that breaks or degrades RDMA differs, 0 when none does, 2 unreadable input) */
int doctor_compare(char **args, int nargs, bool json, bool verbose);

struct rdiag_describe_compare;
/* add every document of f (one per non-empty line) to c, hosts named after name; a bad
 * document is fatal (exit 2 with the file and line) */
void doctor_compare_read(struct rdiag_describe_compare *c, FILE *f, const char *name);

#endif
