/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Reading the instance's per-CPU trace_pipe_raw: whole sub-buffers, non-blocking, consumed
 * as they are read (the kernel hands a page over once read). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal.h"

#define MAX_PAGES_PER_CPU 256	/* per call: a flood cannot hold the caller for long */

int rd_trace_live_read(struct rdiag_trace *t, uint64_t *lost)
{
	unsigned char *buf;
	int cpu, err = 0, missed;

	buf = malloc(t->subbuf_size);
	if (!buf)
		return -ENOMEM;
	for (cpu = 0; cpu < t->ncpu && !err; cpu++) {
		int pages;

		if (!t->fds || t->fds[cpu] < 0)
			continue;
		for (pages = 0; pages < MAX_PAGES_PER_CPU && !err; pages++) {
			ssize_t n = read(t->fds[cpu], buf, t->subbuf_size);

			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				break;
			if (n < 0) {
				err = -errno;
				break;
			}
			if (n == 0)
				break;
			err = rd_trace_subbuf_collect(t, buf, (size_t)n, cpu, &missed);
			if (err == -EINVAL)
				err = 0;
			if (lost && missed)
				(*lost)++;
		}
	}
	free(buf);
	return err;
}

int rdiag_trace_wait(struct rdiag_trace *t, int timeout_ms)
{
	return rdiag_trace_wait_fd(t, -1, timeout_ms);
}

int rdiag_trace_wait_fd(struct rdiag_trace *t, int fd, int timeout_ms)
{
	struct pollfd pfd[65];
	int i, n = 0, r;

	if (!t)
		return -EINVAL;
	if (t->offline || !t->fds)
		return 1;
	for (i = 0; i < t->ncpu && n < 64; i++)
		if (t->fds[i] >= 0) {
			pfd[n].fd = t->fds[i];
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			n++;
		}
	/* more CPUs than that: poll those, and let the timeout catch the others */
	if (t->ncpu > 64 && (timeout_ms < 0 || timeout_ms > 200))
		timeout_ms = 200;
	if (fd >= 0) {
		pfd[n].fd = fd;
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		n++;
	}
	r = poll(pfd, (nfds_t)n, timeout_ms);
	if (r < 0)
		return -errno;
	return r > 0;
}
