/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat -o FILE: every report (every interval with -i) replaces FILE atomically, as
 * node_exporter's textfile collector wants (rdmastat(1), -o).  While a report is written,
 * standard output is a new temporary file next to FILE; the end of the report renames it
 * onto FILE, so a reader sees the previous report or the new one, never part of one. */
#ifndef RDIAG_STAT_OUTFILE_H
#define RDIAG_STAT_OUTFILE_H
#include <stdbool.h>

/* take FILE: its directory must exist (else one line and exit 2); nothing is created yet */
void outfile_init(const char *path);
/* true after outfile_init */
bool outfile_on(void);
/* a report starts: stdout goes to a new temporary file in FILE's directory (created with
 * O_EXCL: never a file or symlink that was there) */
void outfile_begin(void);
/* the report is complete: flush, fsync, mode 0644, rename onto FILE, stdout back to what it
 * was.  On any error the temporary file is removed, FILE is left as it was, and the tool
 * exits 2 with one line ("rdmastat: cannot write 'FILE': No space left on device"). */
void outfile_commit(void);

#endif
