/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The one reader of the RDMADIAG_SYSFS_ROOT test seam (internal.h says how). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int rd_sysfs_root(char *buf, size_t len)
{
	/* secure_getenv: a setuid/setgid wrapper must not be pointed at a fake tree */
	const char *root = secure_getenv("RDMADIAG_SYSFS_ROOT");
	size_t l;
	int n;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	if (!root || !*root)
		return 0;
	n = snprintf(buf, len, "%s", root);
	l = strlen(buf);
	while (l > 1 && buf[l - 1] == '/')
		buf[--l] = '\0';
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

const char *rd_root_vpath(const char *root, char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t off = (size_t)snprintf(buf, len, "%s", root);

	if (off < len)
		vsnprintf(buf + off, len - off, fmt, ap);
	return buf;
}
