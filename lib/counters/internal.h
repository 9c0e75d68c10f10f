/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal to lib/counters: the handle, the netlink layer and sysfs helpers (rd_ prefix). */
#ifndef RD_COUNTERS_INTERNAL_H
#define RD_COUNTERS_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include <rdmadiag/counters.h>

struct rd_replay;
struct rd_nl;
struct rd_fdcache;
struct rd_dirent_cache;

struct rdiag_counters {
	enum rdiag_source source;
	unsigned int max_gids;		/* rdiag_counters_opts.max_gids */
	char root[4096];		/* sysfs root prefix ("" = real /) */
	bool use_netlink;		/* netlink is a source at all */
	struct rd_nl *nl;		/* the RDMA netlink exchange (lib/netlink); its
					 * socket is opened on first use */
	bool nl_failed;			/* socket could not be opened: do not retry */
	bool nl_ok;
	FILE *record;			/* --nl-record */
	struct rd_replay *replay;	/* RDMADIAG_NL_REPLAY */
	char err[256];
	struct rd_fdcache *fdcache;	/* counter files kept open (fdcache.c) */
	struct rd_dirent_cache *dircache; /* directory listings (sysfs.c) */
	const char **names;		/* rd_sysfs_list's result array */
	size_t names_cap;
	bool eth_on;			/* rdiag_counters_set_eth: a reader is set */
	struct rdiag_eth_reader eth;
	char **eth_select;		/* its selection (NULL: every statistic) */
	size_t n_eth_select;
};

/* the handle's error text (util.c) */
void rd_seterr(struct rdiag_counters *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- sysfs ---- */
/* path = root + rel; returns bytes written or -ENAMETOOLONG */
int rd_path(const struct rdiag_counters *c, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* open NAME (relative to dfd, or AT_FDCWD) to read a value: non-blocking, O_CLOEXEC and
 * flags (O_NOATIME), and only when it is a regular file.  The descriptor, or -errno:
 * -EISDIR for a directory, -EBADFD for a FIFO, socket or device (it is never read) */
int rd_open_value(int dfd, const char *name, int flags);
/* read a small file (trailing newline stripped); 0 or -errno (rd_open_value's included) */
int rd_read_str(const char *path, char *buf, size_t len);
/* a counter value: decimal digits, then at most trailing blanks (util.c says why); 0 or
 * -EINVAL/-ERANGE */
int rd_parse_u64(const char *s, uint64_t *v);
/* "0x12" (a LID file); 0 or -EINVAL/-ERANGE */
int rd_parse_hex_u32(const char *s, uint32_t *v);
/* a port directory's name, strictly ("1".."4294967295", no leading zero); 0 or
 * -EINVAL/-ERANGE */
int rd_parse_port(const char *s, uint32_t *port);
int rd_read_u64(const char *path, uint64_t *v);
bool rd_is_dir(const char *path);

/* kept-open counter files (fdcache.c): read NAME in directory DIR (open as dfd) whose
 * readdir inode is ino; returns bytes read or -errno */
#include <sys/types.h>
struct rdiag_catalog_entry;
uint64_t rd_fdcache_dirhash(const char *dir);
/* where a file's entry was last time (kept by the caller with the directory listing): a
 * valid hint skips the hash lookup; a stale one (entry closed, slot reused) is detected by
 * its serial number.  Zero-initialised = no hint. */
struct rd_fdhint {
	uint32_t slot, serial;
};
/* *cat: the file's catalogue slot (rd_cat_unset until looked up), NULL when not cached;
 * hint may be NULL */
ssize_t rd_fdcache_read(struct rdiag_counters *c, int *dfd, const char *dir, uint64_t dirhash,
			const char *name, ino_t ino, char *buf, size_t len,
			const struct rdiag_catalog_entry ***cat, struct rd_fdhint *hint);
extern const struct rdiag_catalog_entry rd_cat_unset;
void rd_fdcache_begin(struct rdiag_counters *c);
void rd_fdcache_sweep(struct rdiag_counters *c);
void rd_fdcache_free(struct rdiag_counters *c);

/* sysfs discovery and counter reading (sysfs.c).  rd_sysfs_sample_dir returns -ENOENT when
 * the directory does not exist; cache_ms is taken from a 'lifespan' file in it when there
 * is one. */
int rd_sysfs_devices(struct rdiag_counters *c, struct rdiag_devices *d);
/* Is NAME, an entry of /sys/class/infiniband, a device to read?  0 yes; -ENOENT it vanished
 * (nothing to say); any other -errno: it is left out, and *why is struct rdiag_skipped's.
 * path gets the entry's path (PATH_MAX bytes). */
int rd_sysfs_device_check(struct rdiag_counters *c, const char *name, char *path,
			  const char **why);
/* the same for a port directory's name (rd_parse_port) */
int rd_sysfs_port_check(const char *name, uint32_t *port, const char **why);
/* which counter directories ports/N/ has: one listing instead of a failed open per absent
 * directory (snapshots of many ports stay cheap).  -errno when the port directory is gone. */
#define RD_PORT_HW	1u	/* hw_counters/ */
#define RD_PORT_PMA	2u	/* counters/ */
#define RD_PORT_CM	4u	/* cm_tx_msgs/ ... (5.14+) */
/* sorted names in PATH (no dot files); the array belongs to the handle and is valid until
 * the next call on it.  fresh: list it now (/sys/class/infiniband: kernfs does not always
 * move a directory's mtime on hotplug); else the cached listing while the directory's
 * inode and mtime are unchanged (a device's ports/: fixed for the life of the device, and
 * a re-created device has a new inode) */
int rd_sysfs_list(struct rdiag_counters *c, const char *path, const char *const **names,
		  size_t *n, bool fresh);
void rd_dircache_free(struct rdiag_counters *c);
int rd_sysfs_port_dirs(struct rdiag_counters *c, const char *dev, uint32_t port,
		       unsigned int *mask);
struct rd_sampvec;
int rd_sysfs_sample_dir(struct rdiag_counters *c, struct rd_sampvec *v, const char *dir,
			const char *dev, uint32_t port, enum rdiag_origin origin,
			const char *prefix, uint32_t cache_ms, const char *driver);

/* ---- samples vector (set.c) ---- */
struct rdiag_samples {
	size_t n, cap;
	struct rdiag_sample *s;
	/* string storage (set.c): names and device names, in chunks owned here */
	struct rd_chunk *chunks;
	const char *dev_last;		/* the last device name interned (rd_samples_dev) */
	struct rdiag_skipped *skipped;	/* entries left out (rd_samples_skip) */
	size_t n_skipped, cap_skipped;
};
struct rd_sampvec { struct rdiag_samples *set; };
/* the text of the value of the sample added last (a value that is not a number) */
int rd_samples_set_text(struct rdiag_samples *set, const char *text);
int rd_samples_add(struct rdiag_samples *set, const char *dev, uint32_t port, const char *name,
		   uint64_t value, int err, enum rdiag_origin origin, uint64_t ts_ns,
		   uint32_t cache_ms, const char *driver);
/* the set's copy of a device name (pass it to the add functions: compared by address) */
const char *rd_samples_dev(struct rdiag_samples *set, const char *dev);
/* the same with the catalogue entry already known (NULL = unknown counter) */
int rd_samples_add_cat(struct rdiag_samples *set, const char *dev, uint32_t port,
		       const char *name, uint64_t value, int err, enum rdiag_origin origin,
		       uint64_t ts_ns, uint32_t cache_ms, const struct rdiag_catalog_entry *cat);

/* ---- Ethernet statistics (eth.c) ---- */
/* the Ethernet statistics of port PORT of device DEV (interned by rd_samples_dev) when a
 * reader is set and the port has a netdev; a failed read is a skipped entry.  0 or -ENOMEM */
int rd_eth_sample_port(struct rdiag_counters *c, struct rdiag_samples *set, const char *dev,
		       uint32_t port);
void rd_eth_free(struct rdiag_counters *c);
/* the sample added last is an Ethernet statistic of NETDEV (set.c) */
int rd_samples_set_eth(struct rdiag_samples *set, const char *netdev, const char *concept,
		       int prio, const struct rdiag_eth_catalog_entry *cat);
/* an entry left out with a reason that is not a static string (copied into the set) */
int rd_samples_skip_why(struct rdiag_samples *set, const char *path, int err, const char *why);

/* ---- netlink (nl.c) ---- */
#define RD_NL_MAXATTR RDMA_NLDEV_ATTR_MAX
typedef int (*rd_nl_cb)(const struct nlmsghdr *nlh, void *data);
/* open socket (or replay) lazily: 0 or -errno */
int rd_nl_ready(struct rdiag_counters *c);
/* build a request for cmd with optional dev index (RD_NL_NODEV = omitted: device indexes
 * start at 0), port and stat res (0 = omitted) */
#define RD_NL_NODEV UINT32_MAX
/* the most ports a device reports (an IB port number is 8 bits, 255 the largest) */
#define RD_NL_MAX_PORTS 255u
int rd_nl_query(struct rdiag_counters *c, int cmd, bool dump, uint32_t dev_index, uint32_t port,
		uint32_t stat_res, rd_nl_cb cb, void *data);
/* parse attributes of a message / nest against the one policy table; unknown ones ignored.
 * tb must have RD_NL_MAXATTR entries.  0 or -EBADMSG. */
int rd_nl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);
int rd_nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb);
/* iterate the hwcounter entries of a STAT_HWCOUNTERS nest */
typedef int (*rd_nl_hwc_cb)(const char *name, uint64_t value, const struct nlattr **tb,
			    void *data);
int rd_nl_hwcounters(const struct nlattr *nest, rd_nl_hwc_cb cb, void *data);
/* name of the device with this index, from a GET dump */
struct rd_nl_dev { uint32_t index; char name[64]; uint32_t nports; };
int rd_nl_devices(struct rdiag_counters *c, struct rd_nl_dev **out, size_t *n);
int rd_nl_dev_index(struct rdiag_counters *c, const char *name, uint32_t *index);
int rd_nl_discover(struct rdiag_counters *c, struct rdiag_devices *d);
int rd_nl_sample_port(struct rdiag_counters *c, struct rdiag_samples *set, uint32_t dev_index,
		      const char *dev, uint32_t port, const char *driver);

/* ---- misc ---- */
/* copy with truncation (NUL-terminated when len > 0); returns strlen(src) */
size_t rd_strlcpy(char *dst, const char *src, size_t len);
const char *rd_guess_driver(const char *devname);
void rd_gid_decode(struct rdiag_gid *g);
void rd_port_free(struct rdiag_port *p);
/* an entry left out of a device list or a sample set (struct rdiag_skipped); 0 or -ENOMEM */
int rd_devices_skip(struct rdiag_devices *d, const char *path, int err, const char *why);
int rd_samples_skip(struct rdiag_samples *set, const char *path, int err, const char *why);
/* the device list (set.c): find or append a device / a port */
struct rdiag_port *rd_device_port(struct rdiag_device *d, uint32_t port);
struct rdiag_device *rd_devices_get(struct rdiag_devices *d, const char *name);

/* The catalogue table, shared between catalog_data.c (rows), catalog.c (lookup) and the
 * build-time generator of its hash index (mk/catalog-index.c -> catalog_index.c). */
#include <stddef.h>
#include <stdint.h>
#include <rdmadiag/catalog.h>

extern const struct rdiag_catalog_entry rd_catalog[];
extern const size_t rd_catalog_n;
extern const struct rdiag_catalog_concept rd_catalog_concepts[];	/* sorted by name */
extern const size_t rd_catalog_concepts_n;

/* The index: every key (each row's name, then its aliases) in a bucket list by hash.  It is
 * computed when the library is built, so no process spends time building it. */
struct rd_catalog_key {
	uint16_t row;			/* index into rd_catalog */
	uint16_t alias;			/* 0 = the row's name, N = aliases[N - 1] */
	uint16_t next;			/* 1-based index of the bucket's next key, 0 = end */
};
extern const struct rd_catalog_key rd_catalog_keys[];
extern const uint16_t rd_catalog_heads[];	/* per bucket: 1-based first key, 0 = empty */
extern const uint32_t rd_catalog_mask;		/* number of buckets - 1 */
extern const size_t rd_catalog_nkeys;

static inline uint32_t rd_catalog_hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static inline const char *rd_catalog_key_name(const struct rd_catalog_key *k)
{
	const struct rdiag_catalog_entry *e = &rd_catalog[k->row];

	return k->alias ? e->aliases[k->alias - 1] : e->name;
}

#endif
