/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Open counter files kept across snapshots.
 *
 * A snapshot of 1000 counters costs 3000 syscalls with open/read/close per file; a sysfs
 * attribute re-generates its value on every read at offset 0, so one pread() on a kept
 * descriptor does the same job (the 16 x 64 bench: 2.4 ms -> 0.5 ms of CPU on the CI VM).
 * Entries are keyed by path and checked against the inode number readdir reports, so a file
 * that was replaced (a device re-created, a fixture rewritten by rename) is reopened, and a
 * file that disappeared is never read: the directory listing decides what exists.  The
 * cache holds at most a quarter of RLIMIT_NOFILE; beyond that files are opened per read. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rdmadiag/catalog.h>
#include "internal.h"

struct rd_fdent {
	char *path;
	uint64_t dirhash;		/* of the directory part of path */
	size_t dlen;			/* its length: the name starts at path + dlen + 1 */
	int fd;
	ino_t ino;
	unsigned int gen;
	uint32_t slot, serial;		/* its place in slots[] and its serial (rd_fdhint) */
	const struct rdiag_catalog_entry *cat;	/* the lookup for this file, done once */
	struct rd_fdent *next;
};

/* "not looked up yet" marker for the catalogue slot */
const struct rdiag_catalog_entry rd_cat_unset;

struct rd_fdcache {
	struct rd_fdent **tab;
	size_t nbuckets, n, cap;
	unsigned int gen;
	size_t nread;			/* entries read in this generation */
	/* every live entry by slot number, for the hints; freed slots are reused */
	struct rd_fdent **slots;
	uint32_t nslots, slotcap, serial;
	uint32_t *freeslots, nfree;
};

/* give e a slot (0 when none could be had: it then never matches a hint) */
static void slot_take(struct rd_fdcache *fc, struct rd_fdent *e)
{
	e->serial = ++fc->serial ? fc->serial : ++fc->serial;	/* never 0 */
	if (fc->nfree) {
		e->slot = fc->freeslots[--fc->nfree];
	} else {
		if (fc->nslots == fc->slotcap) {
			uint32_t cap = fc->slotcap ? fc->slotcap * 2 : 256;
			struct rd_fdent **ns = realloc(fc->slots, cap * sizeof(*ns));
			uint32_t *nf = ns ? realloc(fc->freeslots, cap * sizeof(*nf)) : NULL;

			if (ns)
				fc->slots = ns;
			if (!nf) {
				e->serial = 0;
				return;
			}
			fc->freeslots = nf;
			fc->slotcap = cap;
		}
		e->slot = fc->nslots++;
	}
	fc->slots[e->slot] = e;
}

static void ent_free(struct rd_fdcache *fc, struct rd_fdent *e)
{
	if (e->gen == fc->gen && fc->nread)
		fc->nread--;
	if (e->serial) {
		fc->slots[e->slot] = NULL;
		fc->freeslots[fc->nfree++] = e->slot;
	}
	close(e->fd);
	free(e->path);
	free(e);
	fc->n--;
}

uint64_t rd_fdcache_dirhash(const char *dir)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */

	for (; *dir; dir++)
		h = (h ^ (unsigned char)*dir) * 1099511628211ull;
	return (h ^ '/') * 1099511628211ull;
}

static uint64_t hash(uint64_t h, const char *name)
{
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ull;
	return h;
}

/* the directory by its hash (the paths share a long prefix; comparing them cost more than
 * the read), the name by its text */
static bool same(const struct rd_fdent *e, uint64_t dirhash, const char *name)
{
	return e->dirhash == dirhash && !strcmp(e->path + e->dlen + 1, name);
}

static struct rd_fdcache *cache_get(struct rdiag_counters *c)
{
	struct rd_fdcache *fc = c->fdcache;
	struct rlimit rl;

	if (fc)
		return fc;
	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return NULL;
	fc->nbuckets = 1024;
	fc->tab = calloc(fc->nbuckets, sizeof(*fc->tab));
	if (!fc->tab) {
		free(fc);
		return NULL;
	}
	fc->cap = 256;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		fc->cap = rl.rlim_cur / 4;
	else if (getrlimit(RLIMIT_NOFILE, &rl) == 0)
		fc->cap = 16384;
	c->fdcache = fc;
	return fc;
}

/* A kept counter file is opened with O_NOATIME where the kernel allows it (the caller owns
 * the file, or has CAP_FOWNER): reading a counter should not touch its access time, and on a
 * regular file system (fixture trees) every read otherwise goes through the atime check.
 * kernfs has no atime to update; EPERM just means "not yours", and it opens without.  Only a
 * regular file is kept or read, opened non-blocking (rd_open_value): a FIFO or a device in
 * the tree is an unreadable counter (-EBADFD), not a read that never returns. */
static int open_counter(int dfd, const char *name)
{
	int fd = rd_open_value(dfd, name, O_NOATIME);

	if (fd == -EPERM)
		fd = rd_open_value(dfd, name, 0);
	return fd;
}

/* a read through a kept entry; on success it counts as read in this snapshot */
static ssize_t read_kept(struct rd_fdcache *fc, struct rd_fdent *e, char *buf, size_t len,
			 const struct rdiag_catalog_entry ***cat)
{
	ssize_t r = pread(e->fd, buf, len, 0);

	if (r < 0)
		return -errno;
	fc->nread += e->gen != fc->gen;
	e->gen = fc->gen;
	*cat = &e->cat;
	return r;
}

static ssize_t read_once(int dfd, const char *name, char *buf, size_t len)
{
	ssize_t r;
	int fd = rd_open_value(dfd, name, 0), err;

	if (fd < 0)
		return fd;
	r = read(fd, buf, len);
	err = errno;
	close(fd);
	return r < 0 ? -err : r;
}

/* the directory's descriptor, opened on first need */
static int dirfd_of(int *dfd, const char *dir)
{
	if (*dfd < 0)
		*dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *dfd;
}

ssize_t rd_fdcache_read(struct rdiag_counters *c, int *dfdp, const char *dir, uint64_t dirhash,
			const char *name, ino_t ino, char *buf, size_t len,
			const struct rdiag_catalog_entry ***cat, struct rd_fdhint *hint)
{
	struct rd_fdcache *fc = cache_get(c);
	struct rd_fdent *e, **pp;
	uint64_t h;
	ssize_t r;
	int fd;

	*cat = NULL;
	if (!fc)
		return dirfd_of(dfdp, dir) < 0 ? -errno : read_once(*dfdp, name, buf, len);
	/* the listing remembers where this file's entry is: no hashing, no chain walk */
	if (hint && hint->serial && hint->slot < fc->nslots && (e = fc->slots[hint->slot]) &&
	    e->serial == hint->serial && e->ino == ino) {
		r = read_kept(fc, e, buf, len, cat);
		if (r >= 0 || r == -EINTR)
			return r;
		/* gone under us: the slow path below drops the entry and reopens */
	}
	h = hash(dirhash, name) % fc->nbuckets;
	/* inode first: the cheap test rejects almost every other entry of the bucket */
	for (pp = &fc->tab[h]; (e = *pp); pp = &e->next)
		if (e->ino == ino && same(e, dirhash, name))
			break;
	if (!e)		/* a miss: maybe the same path with another inode (file replaced) */
		for (pp = &fc->tab[h]; (e = *pp); pp = &e->next)
			if (same(e, dirhash, name))
				break;
	if (e && e->ino == ino) {
		r = read_kept(fc, e, buf, len, cat);
		if (r >= 0) {
			if (hint) {
				hint->slot = e->slot;
				hint->serial = e->serial;
			}
			return r;
		}
		/* a signal: the caller stops (reopening would wait again) */
		if (r == -EINTR)
			return r;
		/* the attribute went away under us (ENODEV from kernfs): drop and retry */
	}
	if (e) {
		*pp = e->next;
		ent_free(fc, e);
	}
	if (dirfd_of(dfdp, dir) < 0)
		return -errno;
	if (fc->n >= fc->cap)
		return read_once(*dfdp, name, buf, len);
	fd = open_counter(*dfdp, name);
	if (fd < 0)
		return fd;
	r = read(fd, buf, len);
	if (r < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	e = calloc(1, sizeof(*e));
	if (e && (e->path = malloc(strlen(dir) + strlen(name) + 2))) {
		e->dlen = strlen(dir);
		e->dirhash = dirhash;
		memcpy(e->path, dir, e->dlen);
		e->path[e->dlen] = '/';
		memcpy(e->path + e->dlen + 1, name, strlen(name) + 1);
		e->fd = fd;
		e->ino = ino;
		e->gen = fc->gen;
		fc->nread++;
		e->cat = &rd_cat_unset;
		*cat = &e->cat;
		e->next = fc->tab[h];
		fc->tab[h] = e;
		fc->n++;
		slot_take(fc, e);
		if (hint) {
			hint->slot = e->slot;
			hint->serial = e->serial;
		}
	} else {
		free(e);
		close(fd);
	}
	return r;
}

void rd_fdcache_begin(struct rdiag_counters *c)
{
	if (c->fdcache) {
		c->fdcache->gen++;
		c->fdcache->nread = 0;
	}
}

/* close what the last full snapshot did not read (vanished devices, removed counters) */
void rd_fdcache_sweep(struct rdiag_counters *c)
{
	struct rd_fdcache *fc = c->fdcache;
	struct rd_fdent *e, **pp;
	size_t i;

	/* every kept file was read in this snapshot: nothing to close, no table walk */
	if (!fc || fc->nread == fc->n)
		return;
	for (i = 0; i < fc->nbuckets; i++) {
		pp = &fc->tab[i];
		while ((e = *pp)) {
			if (e->gen != fc->gen) {
				*pp = e->next;
				ent_free(fc, e);
			} else {
				pp = &e->next;
			}
		}
	}
}

void rd_fdcache_free(struct rdiag_counters *c)
{
	struct rd_fdcache *fc = c->fdcache;

	if (!fc)
		return;
	fc->gen++;
	fc->nread = 0;			/* so that the sweep closes everything */
	rd_fdcache_sweep(c);
	free(fc->tab);
	free(fc->slots);
	free(fc->freeslots);
	free(fc);
	c->fdcache = NULL;
}
