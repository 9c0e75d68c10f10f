/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadump --graph-out FILE: where the graph goes; see graphout.h. */
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

static char tmp[4096];			/* the temporary, while it is ours to remove */
static bool tmp_live;

static void discard(void)
{
	if (tmp_live)
		unlink(tmp);
	tmp_live = false;
}

FILE *graph_out_open(const char *path, const char *rfile)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct stat st, in;
	FILE *f;
	int fd;

	if (!*path)
		tool_usage_error("--graph-out needs a file name");
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..") ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
		tool_die("cannot write '%s': Is a directory", tool_esc_tmp(path));
	/* renamed over the input, the graph would end the capture it was made from */
	if (rfile && stat(path, &st) == 0 && stat(rfile, &in) == 0 && st.st_dev == in.st_dev &&
	    st.st_ino == in.st_ino)
		tool_die("refusing to write '%s': it is the capture being read",
			 tool_esc_tmp(path));
	if (snprintf(tmp, sizeof(tmp), "%.*s.%s.XXXXXX", (int)(base - path), path, base) >=
	    (int)sizeof(tmp))
		tool_die("cannot write '%s': File name too long", tool_esc_tmp(path));
	/* O_CREAT | O_EXCL: a name that exists, a symlink included, is never opened */
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		tool_die("cannot write '%s': %s", tool_esc_tmp(path), strerror(errno));
	tmp_live = true;
	atexit(discard);
	f = fdopen(fd, "w");
	if (!f) {
		int e = errno;

		close(fd);
		discard();
		tool_die("cannot write '%s': %s", tool_esc_tmp(path), strerror(e));
	}
	return f;
}

int graph_out_commit(FILE *f, const char *path)
{
	int err = 0;

	if (fflush(f) == EOF || ferror(f))
		err = errno ? errno : EIO;
	/* mkostemp made it 0600: a graph is for reading (as -w writes 0644) */
	else if (fchmod(fileno(f), 0644) < 0)
		err = errno;
	if (fclose(f) == EOF && !err)
		err = errno;
	if (!err && rename(tmp, path) < 0)
		err = errno;
	if (err) {
		discard();
		tool_err("cannot write '%s': %s", tool_esc_tmp(path), strerror(err));
		return -err;
	}
	tmp_live = false;
	return 0;
}
