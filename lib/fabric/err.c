/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The fabric handle's error text (one file: every other file of the module sets it). */
#include <stdarg.h>
#include <stdio.h>

#include "internal.h"

void rd_fabric_seterr(struct rdiag_fabric *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
}
