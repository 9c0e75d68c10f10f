/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --graph-out FILE, --report FILE.  The graph (the report) is written to a new temporary file beside FILE
 * (".FILE.XXXXXX", made with O_EXCL: nothing planted there, a symlink included, is followed)
 * and renamed over FILE once it is whole: a reader never sees half a graph, a run that fails
 * leaves FILE as it was and no temporary.  The temporary is made before the capture is read,
 * so a FILE that cannot be written fails at once, not after a long read. */
#ifndef RDIAG_DUMP_GRAPHOUT_H
#define RDIAG_DUMP_GRAPHOUT_H
#include <stdio.h>

/* the temporary as a stream; a usage error (an empty path: "OPT needs a file name") or a
 * one-line error and exit 2 when it cannot be made, or when FILE is rfile (the capture being
 * read).  At most two at once. */
FILE *graph_out_open(const char *path, const char *rfile, const char *opt);
/* the stream closed and renamed to path: 0, or -errno after a one-line error (the temporary
 * is gone) */
int graph_out_commit(FILE *f, const char *path);
#endif
