/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The kernel's event formats, parsed by libtraceevent from the files tracefs publishes (or a
 * saved copy of them): events/header_page and events/SYSTEM/EVENT/format. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>

#include "internal.h"

/* the events the decoder and the connection assembly use: listed when missing */
static const char *const wanted[] = {
	"rdma_cma:cm_event_handler", "rdma_cma:cm_event_done", "rdma_cma:cm_id_attach",
	"rdma_cma:cm_id_destroy", "rdma_cma:cm_send_req", "rdma_cma:cm_send_rep",
	"rdma_cma:cm_send_rtu", "rdma_cma:cm_send_rej", "rdma_cma:cm_req_handler",
	"rdma_cma:cm_disconnect", "ib_cma:icm_send_req", "ib_cma:icm_send_rej",
	"ib_cma:icm_no_listener_err", "ib_cma:icm_mad_send_err",
};

int rd_trace_slurp(const char *path, char **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *b;
	ssize_t r;

	if (fd < 0)
		return -errno;
	b = malloc(cap + 1);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		if (n == cap) {
			char *nb = cap < (1u << 22) ? realloc(b, cap * 2 + 1) : NULL;

			if (!nb) {
				free(b);
				close(fd);
				return -EFBIG;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			free(b);
			close(fd);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	b[n] = 0;
	*buf = b;
	*len = n;
	return 0;
}

/* "field: char data;\toffset:16;\tsize:4080;" -> the sub-buffer's data offset and size */
static int header_sizes(struct rdiag_trace *t, const char *hp)
{
	const char *p = strstr(hp, " data;");
	unsigned long off, size;

	if (!p || sscanf(p, " data;\toffset:%lu;\tsize:%lu;", &off, &size) != 2 ||
	    off < 16 || off > 64 || size < 64 || size > (1ul << 20))
		return -EINVAL;
	t->data_offset = off;
	t->subbuf_size = off + size;
	return 0;
}

static int add_name(struct rdiag_trace *t, const char *sys, const char *ev)
{
	char *s;

	if (t->nevents >= RD_TRACE_MAX_EVENTS)
		return 0;
	if (asprintf(&s, "%s:%s", sys, ev) < 0)
		return -ENOMEM;
	t->events[t->nevents++] = s;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_system(struct rdiag_trace *t, const char *dir, const char *sys)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int n = 0, err = 0;

	snprintf(path, sizeof(path), "%s/events/%s", dir, sys);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *buf;
		size_t len;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, "enable") ||
		    !strcmp(de->d_name, "filter"))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, sys,
				     de->d_name) >= sizeof(path))
			continue;
		if (rd_trace_slurp(path, &buf, &len))
			continue;
		if (rd_trace_parse_format(t->tep, buf, len, sys) == 0) {
			err = add_name(t, sys, de->d_name);
			n++;
		}
		free(buf);
		if (err)
			break;
	}
	closedir(d);
	return err ? err : n;
}

int rd_trace_load_formats(struct rdiag_trace *t, const char *dir, int with_ib_mad)
{
	char path[PATH_MAX], *hp;
	size_t len, i, j;
	int n, err;

	t->tep = tep_alloc();
	if (!t->tep)
		return -ENOMEM;
	tep_set_long_size(t->tep, sizeof(long));
	tep_set_file_bigendian(t->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, TEP_LITTLE_ENDIAN);
	snprintf(path, sizeof(path), "%s/events/header_page", dir);
	err = rd_trace_slurp(path, &hp, &len);
	if (err)
		return err;
	err = header_sizes(t, hp);
	if (!err && tep_parse_header_page(t->tep, hp, len, sizeof(long)))
		err = -EINVAL;
	free(hp);
	if (err)
		return err;
	tep_set_page_size(t->tep, (int)t->subbuf_size);
	t->kbuf = kbuffer_alloc(sizeof(long) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
				KBUFFER_ENDIAN_LITTLE);
	t->page = calloc(1, t->subbuf_size + 64);
	if (!t->kbuf || !t->page)
		return -ENOMEM;
	n = load_system(t, dir, "rdma_cma");
	if (n == -ENOMEM)
		return n;
	if (n <= 0)
		return -ENODEV;
	if (load_system(t, dir, "ib_cma") == -ENOMEM)
		return -ENOMEM;
	if (with_ib_mad && load_system(t, dir, "ib_mad") == -ENOMEM)
		return -ENOMEM;
	qsort(t->events, t->nevents, sizeof(t->events[0]), cmp_str);
	for (i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		for (j = 0; j < t->nevents && strcmp(t->events[j], wanted[i]); j++)
			;
		if (j == t->nevents && t->nmissing < sizeof(t->missing) / sizeof(t->missing[0]))
			t->missing[t->nmissing++] = wanted[i];
	}
	return 0;
}
