/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --graph-out FILE, --report FILE: where the graph and the report go; see
 * graphout.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "common/esc.h"
#include "common/tool.h"
#include "graphout.h"

/* the temporaries, while they are ours to remove: one per output */
#define OUTS 2
static struct {
	char tmp[4096];
	FILE *f;
	bool live;
} outs[OUTS];

static void discard_one(int i)
{
	if (outs[i].live)
		unlink(outs[i].tmp);
	outs[i].live = false;
}

static void discard(void)
{
	for (int i = 0; i < OUTS; i++)
		discard_one(i);
}

FILE *graph_out_open(const char *path, const char *rfile, const char *opt)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	static bool registered;
	struct stat st, in;
	char *tmp;
	FILE *f;
	int fd, i;

	if (!*path)
		tool_usage_error("%s needs a file name", opt);
	for (i = 0; i < OUTS && outs[i].f; i++)
		;
	if (i == OUTS)
		tool_die("cannot write '%s': Too many open files", tool_esc_tmp(path));
	tmp = outs[i].tmp;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..") ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
		tool_die("cannot write '%s': Is a directory", tool_esc_tmp(path));
	/* renamed over the input, the graph would end the capture it was made from */
	if (rfile && stat(path, &st) == 0 && stat(rfile, &in) == 0 && st.st_dev == in.st_dev &&
	    st.st_ino == in.st_ino)
		tool_die("refusing to write '%s': it is the capture being read",
			 tool_esc_tmp(path));
	if (snprintf(tmp, sizeof(outs[i].tmp), "%.*s.%s.XXXXXX", (int)(base - path), path, base) >=
	    (int)sizeof(outs[i].tmp))
		tool_die("cannot write '%s': File name too long", tool_esc_tmp(path));
	/* O_CREAT | O_EXCL: a name that exists, a symlink included, is never opened */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		tool_die("cannot write '%s': %s", tool_esc_tmp(path), strerror(errno));
	outs[i].live = true;
	if (!registered)
		atexit(discard);
	registered = true;
	f = fdopen(fd, "w");
	if (!f) {
		int e = errno;

		close(fd);
		discard_one(i);
		tool_die("cannot write '%s': %s", tool_esc_tmp(path), strerror(e));
	}
	outs[i].f = f;
	return f;
}

int graph_out_commit(FILE *f, const char *path)
{
	int err = 0, i;

	for (i = 0; i < OUTS && outs[i].f != f; i++)
		;
	if (i == OUTS)
		return -EINVAL;
	outs[i].f = NULL;
	if (fflush(f) == EOF || ferror(f))
		err = errno ? errno : EIO;
	/* mkostemp made it 0600: a graph is for reading (as -w writes 0644) */
	else if (fchmod(fileno(f), 0644) < 0)
		err = errno;
	if (fclose(f) == EOF && !err)
		err = errno;
	if (!err && rename(outs[i].tmp, path) < 0)
		err = errno;
	if (err) {
		discard_one(i);
		tool_err("cannot write '%s': %s", tool_esc_tmp(path), strerror(err));
		return -err;
	}
	outs[i].live = false;
	return 0;
}
