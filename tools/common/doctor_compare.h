/* rdmadoctor compare FILE... | -: many hosts' 'rdmadoctor local -j', property by property. */
#ifndef RD_DOCTOR_COMPARE_H
#define RD_DOCTOR_COMPARE_H
#include <stdbool.h>

/* args: files, or "-" for JSON lines on standard input; returns the exit status (1 when a
 * property that breaks or degrades RDMA differs, 0 when none does, 2 unreadable input) */
int doctor_compare(char **args, int nargs, bool json, bool verbose);

#endif
