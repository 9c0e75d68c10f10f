/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Why the last rdiag_<module>_open() failed: the text rdiag_<module>_errmsg(NULL) returns.
 *
 * One process-wide record per module (not per thread, not in a caller's buffer): each failed
 * open of the module replaces it under the record's mutex, a successful open leaves it alone.
 * The text returned stays valid for the life of the process; it changes when another open of
 * the same module fails, so a program that opens handles of one module from several threads
 * at once reads it right after its own failure or serialises those opens (librdmadiag(3)).
 *
 * Header-only and private to lib/: each module keeps its own static record, e.g.
 *	static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;
 */
#ifndef RDIAG_OPEN_ERROR_H
#define RDIAG_OPEN_ERROR_H
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

struct rd_open_error {
	pthread_mutex_t lock;
	char text[512];
};

#define RD_OPEN_ERROR_INIT { PTHREAD_MUTEX_INITIALIZER, "" }

/* replace the reason (one line; longer text is cut) */
__attribute__((format(printf, 2, 3), unused))
static void rd_open_error_set(struct rd_open_error *e, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&e->lock);
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&e->lock);
}

/* the reason of the last failed open, "" when none failed yet; never NULL */
__attribute__((unused))
static const char *rd_open_error_get(struct rd_open_error *e)
{
	return e->text;
}

#endif
