/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Process names of the pids in the records: a small cache, /proc/PID/comm while the process
 * lives, and tracefs's saved_cmdlines (the kernel's record of recent names) once it is gone. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "internal.h"

int rd_trace_load_cmdlines(struct rdiag_trace *t, const char *path)
{
	char *buf;
	size_t len;
	int err = rd_trace_slurp(path, &buf, &len);

	if (err)
		return err;
	tep_parse_saved_cmdlines(t->tep, buf);
	free(buf);
	return 0;
}

void rd_trace_comm(struct rdiag_trace *t, int pid, char *comm, size_t len)
{
	char path[64], *buf;
	const char *c;
	size_t i, n;

	comm[0] = 0;
	if (pid <= 0)
		return;
	for (i = 0; i < t->ncomms; i++)
		if (t->comms[i].pid == pid) {
			snprintf(comm, len, "%s", t->comms[i].comm);
			return;
		}
	if (!t->offline) {
		snprintf(path, sizeof(path), "/proc/%d/comm", pid);
		if (rd_trace_slurp(path, &buf, &n) == 0) {
			buf[strcspn(buf, "\n")] = 0;
			snprintf(comm, len, "%s", buf);
			free(buf);
		}
		if (!comm[0]) {
			/* gone already: the kernel's own record of recent names */
			char p2[PATH_MAX];

			snprintf(p2, sizeof(p2), "%s/saved_cmdlines", t->tracefs);
			rd_trace_load_cmdlines(t, p2);
		}
	}
	if (!comm[0]) {
		c = tep_data_comm_from_pid(t->tep, pid);
		if (c && strcmp(c, "<...>"))
			snprintf(comm, len, "%s", c);
	}
	if (!comm[0])
		return;
	i = t->ncomms < RD_TRACE_COMM_CACHE ? t->ncomms++ : t->next_comm++ % RD_TRACE_COMM_CACHE;
	t->comms[i].pid = pid;
	snprintf(t->comms[i].comm, sizeof(t->comms[i].comm), "%s", comm);
}

