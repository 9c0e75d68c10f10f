/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* For the unit tests of the libraries loaded on demand (libpcap, libibverbs, librdmacm). */
#ifndef RDIAG_TEST_PROC_MAPS_H
#define RDIAG_TEST_PROC_MAPS_H
#include <stdio.h>
#include <string.h>

/* is a file whose path contains what (e.g. "/libpcap") mapped into this process?
 * 1 yes, 0 no, -1 when /proc/self/maps cannot be read */
static inline int proc_mapped(const char *what)
{
	char line[1024];
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, what))
			found = 1;
	fclose(f);
	return found;
}
#endif
