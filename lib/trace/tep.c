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

#define FORMAT_MAX_FIELDS 256

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* the name a "field:" declaration declares: its last identifier, after any [N] suffixes
 * ("u32 cm_id", "unsigned char srcaddr[28]", "__data_loc char[] name") */
static void field_name(const char *decl, size_t len, const char **name, size_t *nlen)
{
	size_t e = len, b;

	while (e && (decl[e - 1] == ' ' || decl[e - 1] == ']')) {
		if (decl[e - 1] == ']')
			while (e && decl[e - 1] != '[')
				e--;
		if (e)
			e--;
	}
	for (b = e; b && ident_char(decl[b - 1]); b--)
		;
	*name = decl + b;
	*nlen = e - b;
}

/* Every REC->NAME of the print format names a declared field.  libtraceevent 1.7 follows a
 * NULL field when __print_symbolic() or __print_flags() is given an undeclared one (a
 * format file of a saved directory is anyone's text; the kernel never writes that). */
static bool format_refs_declared(const char *buf)
{
	const char *names[FORMAT_MAX_FIELDS], *p, *fmt = strstr(buf, "\nprint fmt:");
	size_t lens[FORMAT_MAX_FIELDS], n = 0, i;

	if (!fmt)
		return true;	/* libtraceevent refuses it */
	for (p = buf; (p = strstr(p, "field:")) && p < fmt; ) {
		const char *decl = p + 6, *semi = memchr(decl, ';', (size_t)(fmt - decl));

		if (!semi)
			break;
		if (n == FORMAT_MAX_FIELDS)
			return false;
		field_name(decl, (size_t)(semi - decl), &names[n], &lens[n]);
		n++;
		p = semi;
	}
	for (p = fmt; (p = strstr(p, "REC->")); ) {
		const char *id = p + 5;
		size_t l = 0;

		while (ident_char(id[l]))
			l++;
		for (i = 0; i < n && (lens[i] != l || memcmp(names[i], id, l)); i++)
			;
		if (i == n)
			return false;
		p = id + l;
	}
	return true;
}

/* The kernel writes its formats in printable ASCII, tabs and newlines; libtraceevent 1.7
 * follows a NULL pointer on some other bytes (e.g. one inside a field's "[28]") */
static bool format_plain_text(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((buf[i] < 0x20 || buf[i] > 0x7e) && buf[i] != '\t' && buf[i] != '\n')
			return false;
	return true;
}

/* "N;" of a field line's offset:, size: or signed: (signed may be negative) */
static const char *number_semi(const char *p, bool sign)
{
	const char *d;

	if (sign && *p == '-')
		p++;
	for (d = p; *p >= '0' && *p <= '9'; p++)
		;
	return p > d && *p == ';' ? p + 1 : NULL;
}

/* one line of the format section as the kernel writes it:
 *	field:DECL;<tab>offset:N;<tab>size:N;[<tab>signed:N;]
 * DECL of identifiers, blanks and '*', and bracketed array sizes ("[28]", "[]", "[4 * 2]");
 * libtraceevent 1.7 follows a NULL pointer on a bracket it cannot close */
static bool field_line_plain(const char *p, const char *eol)
{
	if (strncmp(p, "\tfield:", 7))
		return false;
	for (p += 7; p < eol && *p != ';'; p++) {
		if (*p == '[') {
			for (p++; p < eol && *p != ']'; p++)
				if (!ident_char(*p) && !strchr(" +-*/()", *p))
					return false;
			if (p == eol)
				return false;
		} else if (!ident_char(*p) && *p != ' ' && *p != '*') {
			return false;
		}
	}
	if (p == eol || strncmp(p, ";\toffset:", 9) || !(p = number_semi(p + 9, false)) ||
	    strncmp(p, "\tsize:", 6) || !(p = number_semi(p + 6, false)))
		return false;
	if (p < eol && (strncmp(p, "\tsigned:", 8) || !(p = number_semi(p + 8, true))))
		return false;
	return p == eol;
}

/* the kernel's layout: "name: ", "ID: ", "format:", then field lines or empty ones up to
 * "print fmt: " (libtraceevent 1.7 follows a NULL pointer on a file cut in a field line) */
static bool format_fields_plain(const char *buf)
{
	const char *p = strstr(buf, "\nformat:\n"), *end = strstr(buf, "\nprint fmt: ");

	if (strncmp(buf, "name: ", 6) || !strstr(buf, "\nID: ") || !p || !end || end < p)
		return false;
	for (p += 9; p < end + 1; ) {
		const char *eol = strchr(p, '\n');

		if (eol > p && !field_line_plain(p, eol))
			return false;
		p = eol + 1;
	}
	return true;
}

int rd_trace_parse_format(struct tep_handle *tep, const char *buf, size_t len, const char *sys)
{
	if (!format_plain_text(buf, len) || !format_fields_plain(buf) ||
	    !format_refs_declared(buf))
		return -EINVAL;
	return tep_parse_event(tep, buf, len, sys) == TEP_ERRNO__SUCCESS ? 0 : -EINVAL;
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
