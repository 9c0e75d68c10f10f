/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
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

/* What one input made, in order (paths relative to the scratch directory, each after a
 * letter saying what it is: 'd' a directory, 'f' a file or a symbolic link), so that the
 * next input removes exactly that, newest first, with rmdir or unlink as the letter says (no
 * lstat to ask), instead of walking the tree (nftw: a stat and a directory read per entry);
 * whatever that leaves (nothing, unless an entry could not be removed) is swept by
 * scratch_empty(). */
static char **made;
static size_t n_made, cap_made;

static void remember(char kind, const char *path)
{
	size_t len = strlen(path);

	if (n_made == cap_made) {
		size_t ncap = cap_made ? cap_made * 2 : 256;
		char **nm = realloc(made, ncap * sizeof(*nm));

		if (!nm)
			abort();
		made = nm;
		cap_made = ncap;
	}
	made[n_made] = malloc(len + 2);
	if (!made[n_made])
		abort();
	made[n_made][0] = kind;
	memcpy(made[n_made] + 1, path, len + 1);
	n_made++;
}

static void unmake(void)
{
	char path[512];
	bool left = false;

	while (n_made) {
		char *rel = made[--n_made];

		/* ENOENT: a file made twice by one input, removed already */
		snprintf(path, sizeof(path), "%s/%s", scratch_dir(), rel + 1);
		if ((rel[0] == 'd' ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT)
			left = true;
		free(rel);
	}
	if (left)
		scratch_empty();
}

/* the directory above the previous entry (relative): its directories exist already, and
 * entries only ever add to the tree, so a path sharing its leading components needs no
 * mkdir for them (one EEXIST per component and entry was most of the tree's cost) */
static char prev_dir[512];

/* mkdir -p of the directories above path (absolute, inside the scratch directory) */
static void make_parents(char *path, size_t base)
{
	char *rel = path + base + 1, *s, *last;
	size_t i = 0, k = 0;

	/* rel[0..k) is a directory of prev_dir's: the longest shared prefix that ends a
	 * component in both */
	while (prev_dir[i] && prev_dir[i] == rel[i]) {
		i++;
		if ((prev_dir[i] == '/' || !prev_dir[i]) && rel[i] == '/')
			k = i;
	}
	for (s = rel + k; (s = strchr(s + 1, '/')); ) {
		*s = '\0';
		if (mkdir(path, 0755) == 0)
			remember('d', rel);
		*s = '/';
	}
	last = strrchr(rel, '/');
	snprintf(prev_dir, sizeof(prev_dir), "%.*s", last ? (int)(last - rel) : 0, rel);
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
		if (symlink(target, path) == 0)
			remember('f', path + strlen(scratch_dir()) + 1);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	remember('f', path + strlen(scratch_dir()) + 1);
	/* TEXT and its newline in one write */
	if (writev(fd, (struct iovec[]){ { (void *)text, tlen }, { (char[]){ "\n" }, 1 } },
		   kind == '=' ? 2 : 1) < 0)
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
	unmake();
	prev_dir[0] = '\0';
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
	/* --source sysfs only: with a sysfs root and no netlink replay, auto is the same
	 * reader (no netlink; the library tells the two apart only against netlink), and
	 * reading the tree a second time that way doubled the cost of each input */
	exercise_counters(&(struct rdiag_counters_opts){ .source = RDIAG_SRC_SYSFS });
	return 0;
}
