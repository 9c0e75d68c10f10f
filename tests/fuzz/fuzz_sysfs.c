/* libFuzzer target: sysfs as the counters module reads it (lib/counters/sysfs.c and its
 * callers): directory names (devices, ports, counter groups), counter values, port
 * attributes (state, rate, link layer, LIDs, GIDs and their types and netdevs), symlinks.
 *
 * Each input is a small tree written under a scratch directory (RDMADIAG_SYSFS_ROOT; the
 * counters handle reads sysfs only, so nothing touches a real device), then read with every
 * request the tools make (counters_exercise.h) and removed.
 * Input: lines, each one entry below ROOT/sys/class/:
 *     PATH=TEXT     a file holding TEXT and a newline      PATH~TEXT   TEXT without newline
 *     PATH>TARGET   a symbolic link (TARGET relative, no "..": it stays in the tree)
 * PATH is made of [A-Za-z0-9_.:+-] components separated by '/' ("." and ".." are refused);
 * the directories on the way are created.  Seeds: the fixture trees of tests/fixtures/sysfs/
 * (tests/fuzz/mk_seeds_parsers.py). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "counters_exercise.h"
#include "scratch.h"

#define MAX_ENTRIES 96
#define MAX_PATH 160

static bool path_ok(const char *p, size_t len)
{
	size_t i, comp = 0;

	if (!len || len > MAX_PATH || p[0] == '/' || p[len - 1] == '/')
		return false;
	for (i = 0; i <= len; i++) {
		char ch = i < len ? p[i] : '/';

		if (ch == '/') {
			if (comp == 0 || (comp == 1 && p[i - 1] == '.') ||
			    (comp == 2 && p[i - 1] == '.' && p[i - 2] == '.'))
				return false;
			comp = 0;
			continue;
		}
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == ':' ||
		      ch == '+' || ch == '-'))
			return false;
		comp++;
	}
	return true;
}

/* mkdir -p of the directories above path (absolute, inside the scratch directory) */
static void make_parents(char *path, size_t base)
{
	char *s;

	for (s = path + base + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		(void)mkdir(path, 0755);
		*s = '/';
	}
}

static void put(const char *rel, size_t rlen, char kind, const char *text, size_t tlen)
{
	char path[512];
	size_t base;
	int fd;

	base = (size_t)snprintf(path, sizeof(path), "%s/sys/class", scratch_dir());
	snprintf(path + base, sizeof(path) - base, "/%.*s", (int)rlen, rel);
	make_parents(path, strlen(scratch_dir()));
	if (kind == '>') {
		char target[MAX_PATH + 1];

		if (!path_ok(text, tlen))
			return;
		memcpy(target, text, tlen);
		target[tlen] = '\0';
		(void)symlink(target, path);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, text, tlen) != (ssize_t)tlen || (kind == '=' && write(fd, "\n", 1) != 1))
		(void)0;
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	unsigned int n = 0;

	if (size > 16384)
		return 0;
	scratch_empty();
	while (p < end && n < MAX_ENTRIES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end, *k;

		for (k = p; k < eol && *k != '=' && *k != '~' && *k != '>'; k++)
			;
		if (k < eol && path_ok(p, (size_t)(k - p))) {
			put(p, (size_t)(k - p), *k, k + 1, (size_t)(eol - k - 1));
			n++;
		}
		p = nl ? nl + 1 : end;
	}
	setenv("RDMADIAG_SYSFS_ROOT", scratch_dir(), 1);
	unsetenv("RDMADIAG_NL_REPLAY");
	exercise_counters(&(struct rdiag_counters_opts){ .source = RDIAG_SRC_SYSFS });
	exercise_counters(NULL);
	return 0;
}
