/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/counters.h: RDMA devices, ports, GIDs and counter samples.
 *
 * One handle (struct rdiag_counters) hides where data comes from:
 *   - netlink RDMA_NLDEV (libmnl): device/port enumeration, STAT_GET hw counters (unprivileged,
 *     uncached, skips disabled optional counters), STAT_GET_STATUS, counter mode, resources;
 *   - sysfs /sys/class/infiniband: ports/N/counters/ (IB PMA, which netlink does not carry),
 *     ports/N/hw_counters/ (cached for hw_counters/lifespan ms), device-level hw_counters/,
 *     and the IB CM MAD counters: ports/N/<group>/<msg> on current kernels (6.1 has them
 *     there), /sys/class/infiniband_cm/<dev>/<port>/<group>/<msg> on older ones.
 * RDIAG_SRC_AUTO merges per port: hw counters from netlink when it answers (sysfs otherwise),
 * plus the PMA, device-level and CM files that netlink never carries, so nothing is counted
 * twice.
 *
 * Test seams: RDMADIAG_SYSFS_ROOT (read with secure_getenv, so ignored when setuid/setgid)
 * replaces "/" as the sysfs root; RDMADIAG_NL_REPLAY=FILE answers netlink requests from a
 * recording; opts.nl_record writes every request and its replies to a file (format in
 * lib/netlink/record.c; text, one hex line per message).
 *
 * Counter names are opaque strings exactly as the kernel spells them: they may contain spaces
 * (irdma), commas (hfi1), mixed case.  CM counters are named "<group>/<msg>", for example
 * "cm_tx_retries/req".
 *
 * All functions return 0 or -errno; rdiag_counters_errmsg() has a one-line explanation of the
 * last failure.  Nothing prints, nothing exits.
 */
#ifndef RDMADIAG_COUNTERS_H
#define RDMADIAG_COUNTERS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rdmadiag/packet.h>	/* enum rdiag_port_state, rdiag_port_state_name() */

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_counters;
struct rdiag_catalog_entry;
struct rdiag_eth_catalog_entry;

enum rdiag_source {
	RDIAG_SRC_AUTO = 0,	/* netlink for hw counters, sysfs for the rest (default) */
	RDIAG_SRC_NETLINK,	/* netlink only */
	RDIAG_SRC_SYSFS,	/* sysfs only */
};

/* where one sample came from */
enum rdiag_origin {
	RDIAG_ORIG_NETLINK = 0,	/* RDMA_NLDEV_CMD_STAT_GET hwcounter */
	RDIAG_ORIG_SYSFS_HW,	/* ports/N/hw_counters/<name> */
	RDIAG_ORIG_SYSFS_DEV_HW,/* <dev>/hw_counters/<name> (port 0) */
	RDIAG_ORIG_PMA,		/* ports/N/counters/<name> */
	RDIAG_ORIG_CM,		/* infiniband_cm/<dev>/<port>/<group>/<msg> */
	RDIAG_ORIG_ETH,		/* ethtool -S of the port's netdev (rdiag_counters_set_eth) */
};

struct rdiag_counters_opts {
	enum rdiag_source source;
	const char *nl_record;	/* write netlink exchanges to this file (NULL = no) */
	unsigned int max_gids;	/* discovery reads at most this many populated GIDs of a port
				 * from sysfs (0: every one); 1 is enough for the port's
				 * netdev, and spares reading up to 1024 slots a port */
};

int rdiag_counters_open(struct rdiag_counters **out, const struct rdiag_counters_opts *opts);
void rdiag_counters_close(struct rdiag_counters *c);
/* one line about the handle's last failure ("" when none); with c == NULL, why the last failed
 * rdiag_counters_open() of the process failed (a bad replay file, an unwritable record file;
 * librdmadiag(3), Conventions) */
const char *rdiag_counters_errmsg(const struct rdiag_counters *c);
/* the sysfs root in use ("" for the real one) */
const char *rdiag_counters_sysfs_root(const struct rdiag_counters *c);
/* true when netlink answered the last request (false: unavailable or refused) */
bool rdiag_counters_netlink_ok(const struct rdiag_counters *c);

/* ---- discovery -------------------------------------------------------------------- */

enum rdiag_gid_type {
	RDIAG_GID_UNKNOWN = 0,
	RDIAG_GID_IB_ROCE_V1,	/* "IB/RoCE v1" */
	RDIAG_GID_ROCE_V2,	/* "RoCE v2" */
};

struct rdiag_gid {
	unsigned int index;
	uint8_t raw[16];
	char gid[46];		/* fe80:0000:...  as sysfs prints it */
	enum rdiag_gid_type type;
	char ndev[64];		/* gid_attrs/ndevs/<i> ("" when none) */
	char ip[46];		/* the IP address the GID encodes (IPv4 for ::ffff:a.b.c.d) */
	bool ipv4;		/* IPv4-mapped */
	bool routable;		/* RoCE v2 and not link-local: usable across an IP router */
};

struct rdiag_port {
	uint32_t port;			/* 1-based */
	uint8_t state;			/* enum rdiag_port_state: 1 DOWN .. 4 ACTIVE (0 unknown) */
	uint8_t phys_state;		/* 5 LINK_UP, 3 DISABLED ... (0 unknown) */
	char rate[48];			/* "100 Gb/sec (4X EDR)" ("" unknown) */
	char link_layer[16];		/* "InfiniBand" / "Ethernet" */
	uint32_t lid, sm_lid;		/* IB only; 0 on RoCE */
	char netdev[64];		/* bound netdev ("" none) */
	int ifindex;			/* its ifindex (0 none) */
	unsigned int mtu;		/* netdev MTU (0 unknown) */
	uint32_t hw_lifespan_ms;	/* hw_counters/lifespan (0: none / unknown) */
	bool has_pma, has_hw, has_cm;	/* counters/, hw_counters/, infiniband_cm/ present */
	size_t n_gids;
	struct rdiag_gid *gids;		/* populated slots only */
};

struct rdiag_device {
	char name[64];
	uint32_t index;			/* netlink device index (valid when has_index; rxe0 may be 0) */
	char node_type[16];		/* "ca", "rnic", "switch", "router" ... */
	char protocol[8];		/* "ib", "roce", "iw", "usnic" ("" unknown) */
	char driver[32];		/* guessed: "mlx5", "rxe", "bnxt_re", "irdma", "efa" ... */
	char node_guid[24];
	char fw_ver[64];
	bool has_dev_hw;		/* device-level hw_counters/ */
	size_t n_ports;
	struct rdiag_port *ports;
	bool has_index;			/* known to netlink */
};

/* An entry under /sys/class/infiniband that discovery and sampling leave out because no
 * kernel makes it: a symlink that loops (-ELOOP), an entry that is not a directory
 * (-ENOTDIR), a device name of 64 bytes or more (-ENAMETOOLONG: the kernel's limit is 63; it
 * would be cut and miss its counters), a port directory whose name is not a port number
 * (-EINVAL: "01", "x"; -ERANGE: "4294967297", which would wrap onto port 1), a device or port
 * directory that cannot be looked at (-EACCES ...).  Everything else is read as usual; the
 * caller may say what was left out.  An entry that vanished (hot-unplug) is not listed. */
struct rdiag_skipped {
	const char *path;	/* the entry, sysfs root included (owned by the list or set) */
	int err;		/* -errno, as above */
	const char *why;	/* when strerror(-err) says it badly: "not a port number",
				 * "port number out of range", "device name of 64 bytes or
				 * more"; else NULL */
};

struct rdiag_devices {
	size_t n;
	struct rdiag_device *dev;
	size_t n_skipped;		/* entries left out (struct rdiag_skipped) */
	struct rdiag_skipped *skipped;
};

/* every RDMA device and port; *out is an empty list (n == 0) when there is none */
int rdiag_counters_discover(struct rdiag_counters *c, struct rdiag_devices **out);
void rdiag_counters_devices_free(struct rdiag_devices *d);
const struct rdiag_device *rdiag_counters_device_find(const struct rdiag_devices *d,
						      const char *name);

/* port state names: rdiag_port_state_name() and enum rdiag_port_state in rdmadiag/packet.h */

/* ---- device/port change detector ------------------------------------------------------ */

/* What a discovery told against what can be read cheaply now: the device names under
 * <root>/sys/class/infiniband (one directory read) and, with opts.ports, each port's state and
 * phys_state through files kept open since the last rdiag_watch_reset().  A change asks the
 * caller for a new discovery (and a reset with it); nothing is rediscovered here. */
struct rdiag_watch;
struct rdiag_watch_opts {
	struct rdiag_counters *counters;	/* its sysfs root (RDMADIAG_SYSFS_ROOT) */
	bool ports;				/* keep the port state files open */
};
enum {
	RDIAG_WATCH_DEVICES = 1 << 0,	/* a device appeared or went away, or was re-created
					 * under its name (its directory is a new one) */
	RDIAG_WATCH_PORTS = 1 << 1,	/* a port's state or phys_state changed or is unreadable */
};
/* -EINVAL without a counters handle, -ENOMEM */
int rdiag_watch_open(struct rdiag_watch **w, const struct rdiag_watch_opts *opts);
/* take d (a discovery) as what is known; 0 or -ENOMEM (the devices of the last reset stay
 * known, or d's are known but its ports are not watched) */
int rdiag_watch_reset(struct rdiag_watch *w, const struct rdiag_devices *d);
/* what of `what' (RDIAG_WATCH_* bits) differs now from the last reset: the first change
 * found, 0 for none.  A port file the reset could not open is not looked at */
unsigned int rdiag_watch_check(struct rdiag_watch *w, unsigned int what);
const char *rdiag_watch_errmsg(const struct rdiag_watch *w);	/* "" */
void rdiag_watch_close(struct rdiag_watch *w);
const char *rdiag_port_phys_state_name(uint8_t phys);	/* "LINK_UP"; NULL when unnamed */
const char *rdiag_gid_type_name(enum rdiag_gid_type t);	/* "RoCE v2" */
const char *rdiag_origin_name(enum rdiag_origin o);	/* "netlink", "sysfs", "pma", "cm" */

/* ---- samples ---------------------------------------------------------------------- */

struct rdiag_sample {
	const char *dev;		/* storage owned by the set */
	uint32_t port;			/* 0 = device-level counter */
	const char *name;		/* raw kernel name */
	uint64_t value;			/* raw value (PMA data counters: 4-octet words) */
	enum rdiag_origin origin;
	uint64_t ts_ns;			/* CLOCK_MONOTONIC when read */
	uint32_t cache_ms;		/* value may be up to this old (sysfs hw_counters lifespan) */
	int err;			/* 0, or -errno: unreadable (-EACCES...), non-numeric
					 * (-EINVAL), past 2^64-1 (-ERANGE), a directory
					 * (-EISDIR), not a regular file (-EBADFD: a FIFO,
					 * socket or device is never read, so it cannot block) */
	const struct rdiag_catalog_entry *cat;	/* catalogue entry or NULL (unknown counter) */
	const char *text;		/* err == -EINVAL or -ERANGE: what the file held, trailing
					 * newline and blanks cut (owned by the set); else NULL */
	/* origin RDIAG_ORIG_ETH only (NULL, NULL, 0, NULL otherwise): */
	const char *netdev;		/* the port's netdev the statistic belongs to */
	const char *eth_concept;	/* the Ethernet catalogue's concept ("prio_pause"), or NULL */
	int eth_prio;			/* its 802.1Q priority 0..7, -1 not per priority */
	const struct rdiag_eth_catalog_entry *eth_cat;	/* rdmadiag/fabric.h, or NULL */
};

struct rdiag_filter {
	const char *dev;	/* NULL = every device */
	uint32_t port;		/* 0 = every port (and device-level counters) */
};

struct rdiag_samples;

/* read every counter of the matching ports.  -ENODEV when f->dev does not exist; -EINTR
 * when a signal interrupted a read that blocked (a hung file system: the caller is asked to
 * stop, and the next file could block as long), with no set. */
int rdiag_counters_sample(struct rdiag_counters *c, const struct rdiag_filter *f,
			  struct rdiag_samples **out);
size_t rdiag_samples_count(const struct rdiag_samples *s);
const struct rdiag_sample *rdiag_samples_get(const struct rdiag_samples *s, size_t i);
/* the entries this snapshot left out (struct rdiag_skipped; NULL past the end) */
size_t rdiag_samples_skipped_count(const struct rdiag_samples *s);
const struct rdiag_skipped *rdiag_samples_skipped_get(const struct rdiag_samples *s, size_t i);
/* the sample with the same (dev, port, name, origin class) or NULL */
const struct rdiag_sample *rdiag_samples_find(const struct rdiag_samples *s, const char *dev,
					      uint32_t port, const char *name);
void rdiag_samples_free(struct rdiag_samples *s);

/* ---- Ethernet statistics next to the RDMA counters (origin RDIAG_ORIG_ETH) ----------
 * A set can hold the driver's Ethernet statistics (ethtool -S) of each port's netdev (the
 * first GID's netdev, else the device's parent), after the port's RDMA counters.  This
 * module does not read them itself (lib/fabric does, and lib/fabric uses this module): the
 * caller hands it a reader; rdiag_fabric_eth_reader() (rdmadiag/fabric.h) makes one.  No
 * reader (the default): no Ethernet sample, and nothing about netdevs is looked at. */
struct rdiag_eth_stat {
	const char *name;	/* the driver's name ("rx_prio3_pause") */
	uint64_t value;
	uint64_t ts_ns;		/* CLOCK_MONOTONIC when read */
	const char *concept;	/* catalogue concept ("prio_pause"), NULL when not catalogued */
	int prio;		/* 0..7 for a per-priority statistic, else -1 */
	const struct rdiag_eth_catalog_entry *cat;	/* its catalogue entry, or NULL */
};
/* called once per statistic; a non-zero return stops the read and is its result */
typedef int (*rdiag_eth_stat_cb)(const struct rdiag_eth_stat *st, void *arg);
struct rdiag_eth_reader {
	/* the statistics of netdev IFNAME, one cb call each: 0, or -errno (the netdev has
	 * none, is gone, cannot be asked ...) */
	int (*read)(void *ctx, const char *ifname, rdiag_eth_stat_cb cb, void *arg);
	/* one line on why the last read failed (may be NULL) */
	const char *(*errmsg)(void *ctx);
	void *ctx;
};
/* From now on, every sample of a port with a netdev also reads its Ethernet statistics
 * through r (copied; r->ctx must outlive the handle's use of it), keeping those that one
 * of select[0..n) selects (rdiag_sample_match), or all of them when select is NULL.  A
 * netdev whose read fails is in the set's skipped entries (path /sys/class/net/IFNAME under
 * the sysfs root, why the reader's errmsg).  r NULL: stop.  0 or -ENOMEM. */
int rdiag_counters_set_eth(struct rdiag_counters *c, const struct rdiag_eth_reader *r,
			   const char *const *select, size_t n);

/* Does PATTERN select sample S?  RDMA counters by rdiag_counter_match (rdmadiag/catalog.h);
 * an Ethernet statistic by its name, its concept ("prio_pause"), or for a per-priority
 * statistic the concept with its priority ("prio3_pause"); a glob against the same
 * strings.  flags: RDIAG_MATCH_CASEFOLD. */
bool rdiag_sample_match(const char *pattern, const struct rdiag_sample *s, unsigned int flags);

/* counter mode of a port over netlink (RDMA_COUNTER_MODE_*: 0 none, 1 auto, 2 manual) and the
 * optional counters (STAT_GET_STATUS): names[i], enabled[i].  Netlink STAT_GET skips disabled
 * optional counters; sysfs shows them.  Free with rdiag_counters_status_free. */
struct rdiag_counter_status {
	uint32_t mode;
	uint32_t auto_mask;	/* RDMA_COUNTER_MASK_* when mode is auto */
	size_t n;
	char **names;
	bool *enabled;
};
int rdiag_counters_status(struct rdiag_counters *c, const char *dev, uint32_t port,
			  struct rdiag_counter_status *st);
void rdiag_counters_status_free(struct rdiag_counter_status *st);

#ifdef __cplusplus
}
#endif
#endif
