/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/fabric.h: the lossless Ethernet fabric under RoCE.
 *
 * DCB as the kernel's dcbnl answers it (RTM_GETDCB: DCB_CMD_IEEE_GET, DCB_CMD_GDCBX), the
 * driver's Ethernet statistics (ethtool -S) with a catalogue of the names that matter for
 * RoCE, the ECN/congestion-control and rdma_cm defaults found in sysfs, debugfs and configfs,
 * and the chain ToS -> DSCP -> priority -> PFC -> ECN -> CNP -> counters for one port.
 *
 * Test seams (read with secure_getenv, so ignored when setuid): RDMADIAG_SYSFS_ROOT prefixes
 * every path read; RDMADIAG_NL_REPLAY replays recorded dcbnl replies (the counters module's
 * record format: req/rep hex lines); RDMADIAG_ETHTOOL_REPLAY replays ethtool -S answers
 * (lines "IFNAME driver NAME", "IFNAME strings HEX" with 32 bytes per name, "IFNAME stats HEX"
 * with 8 native-endian bytes per value; each further stats line is the next sample). */
#ifndef RDMADIAG_FABRIC_H
#define RDMADIAG_FABRIC_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDIAG_DCB_PRIOS 8	/* IEEE 802.1Q priorities, and traffic classes */
#define RDIAG_DCB_APP_MAX 128	/* APP entries kept (64 DSCP + 8 PCP + a few others) */

/* ---- the handle (librdmadiag(3), Conventions) ---- */
struct rdiag_fabric;
struct rdiag_fabric_opts {
	const char *nl_record;	/* append every dcbnl and ethtool netlink request and
				 * reply to this file, in the RDMADIAG_NL_REPLAY format
				 * (rdmastat --nl-record); NULL none */
};
/* 0, or -errno: -ENOMEM; a replay file that cannot be loaded, a record file that cannot be
 * opened (rdiag_fabric_errmsg(NULL) says which).  opts may be NULL. */
int rdiag_fabric_open(struct rdiag_fabric **out, const struct rdiag_fabric_opts *opts);
void rdiag_fabric_close(struct rdiag_fabric *f);
/* one line about the last failed call on f ("" none); f NULL: why the last open failed */
const char *rdiag_fabric_errmsg(const struct rdiag_fabric *f);

/* ---- DCB (struct ieee_pfc, ieee_ets, dcb_app of linux/dcbnl.h, copied out) ---- */
struct rdiag_dcb_pfc {
	bool present;
	uint8_t pfc_cap;	/* how many priorities PFC can be enabled on at once */
	uint8_t pfc_en;		/* bit p: PFC on priority p */
	uint8_t mbc;		/* MACsec bypass */
	uint16_t delay;		/* allowance for the cable, bit times */
	uint64_t requests[RDIAG_DCB_PRIOS];	/* PFC frames sent, per priority */
	uint64_t indications[RDIAG_DCB_PRIOS];	/* PFC frames received, per priority */
};

/* TSA values of IEEE_8021QAZ_TSA_* */
struct rdiag_dcb_ets {
	bool present;
	uint8_t willing, ets_cap, cbs;
	uint8_t tc_tx_bw[RDIAG_DCB_PRIOS], tc_rx_bw[RDIAG_DCB_PRIOS];
	uint8_t tc_tsa[RDIAG_DCB_PRIOS];
	uint8_t prio_tc[RDIAG_DCB_PRIOS];
	uint8_t tc_reco_bw[RDIAG_DCB_PRIOS], tc_reco_tsa[RDIAG_DCB_PRIOS];
	uint8_t reco_prio_tc[RDIAG_DCB_PRIOS];
};

struct rdiag_dcb_app {
	uint8_t selector;	/* IEEE_8021QAZ_APP_SEL_*: 5 DSCP, 1 ethertype ...; 255 PCP */
	uint8_t priority;
	uint16_t protocol;	/* the DSCP, ethertype, port or PCP */
};

struct rdiag_dcb_apps {
	bool present;
	size_t n;
	size_t dropped;		/* entries past RDIAG_DCB_APP_MAX, not kept */
	struct rdiag_dcb_app app[RDIAG_DCB_APP_MAX];
	bool has_info;		/* peer only: struct dcb_peer_app_info */
	uint8_t willing, error;
};

struct rdiag_dcb {
	struct rdiag_dcb_pfc pfc, peer_pfc;
	struct rdiag_dcb_ets ets, peer_ets;
	struct rdiag_dcb_apps app, peer_app;
	bool has_maxrate;
	uint64_t tc_maxrate[RDIAG_DCB_PRIOS];	/* kbit/s (struct ieee_maxrate), 0 = unlimited */
	bool has_dcbx;
	uint8_t dcbx;		/* DCB_CAP_DCBX_*: 0x01 host, 0x02 LLD managed, 0x04 CEE,
				 * 0x08 IEEE, 0x10 static */
};

/* the DCB configuration of netdev IFNAME.  0; -EOPNOTSUPP when the device has no DCB
 * (dcbnl answers so for veth, rxe's netdev, most virtual devices); -ENODEV no such device;
 * -EBADMSG a malformed reply; -ENOENT nothing recorded for it (replay); -ENXIO
 * RDMADIAG_SYSFS_ROOT without RDMADIAG_NL_REPLAY (a fake tree is another machine: this
 * host is not asked); other -errno from the socket.  out is filled on 0 only. */
int rdiag_fabric_dcb(struct rdiag_fabric *f, const char *ifname, struct rdiag_dcb *out);
/* the priority the APP table gives DSCP, or -ENOENT (no DSCP entry for it).  The kernel
 * keeps several entries for one DSCP when they were added so (each priority is one entry):
 * *count (may be NULL) gets how many there are, and the first one is returned */
int rdiag_dcb_app_dscp_prio(const struct rdiag_dcb_apps *a, unsigned int dscp,
			    unsigned int *count);
/* "strict", "cbs", "ets", "vendor" (dcb ets's words), or NULL */
const char *rdiag_dcb_tsa_name(uint8_t tsa);

/* ---- Ethernet statistics: the driver's ethtool -S set (ETHTOOL_GSTRINGS/GSTATS) ---- */
struct rdiag_ethstats;
/* one sample of IFNAME's statistics.  0; -EOPNOTSUPP the driver has none; -ENODEV no such
 * device; -EBADMSG the names and values disagree (a set that changed between the two
 * questions, or a malformed replay); -ENXIO RDMADIAG_SYSFS_ROOT without
 * RDMADIAG_ETHTOOL_REPLAY; -errno.  *out: free with rdiag_ethstats_free */
int rdiag_fabric_ethstats(struct rdiag_fabric *f, const char *ifname,
			  struct rdiag_ethstats **out);
void rdiag_ethstats_free(struct rdiag_ethstats *s);
/* the driver (ETHTOOL_GDRVINFO: "mlx5_core", "bnxt_en", "ice", "i40e" ...), "" unknown */
const char *rdiag_ethstats_driver(const struct rdiag_ethstats *s);
size_t rdiag_ethstats_count(const struct rdiag_ethstats *s);
/* statistic i (i < count): its name (NUL-terminated, at most 31 bytes) and value */
const char *rdiag_ethstats_name(const struct rdiag_ethstats *s, size_t i);
uint64_t rdiag_ethstats_value(const struct rdiag_ethstats *s, size_t i);
/* CLOCK_MONOTONIC time the sample was taken, ns */
uint64_t rdiag_ethstats_time_ns(const struct rdiag_ethstats *s);
/* the value of statistic NAME (the first of that name): 0, or -ENOENT.  O(1): a sample
 * keeps a hash index of its names */
int rdiag_ethstats_find(const struct rdiag_ethstats *s, const char *name, uint64_t *value);
/* the catalogue entry of statistic i (below), classified once when the sample was taken:
 * what rdiag_eth_catalog_lookup(driver, name, prio) answers for it, NULL (and *prio -1)
 * when the catalogue does not know it; prio may be NULL */
struct rdiag_eth_catalog_entry;
const struct rdiag_eth_catalog_entry *rdiag_ethstats_catalog(const struct rdiag_ethstats *s,
							     size_t i, int *prio);
/* what each statistic of catalogue concept CONCEPT in sample b grew by since sample a (the
 * same name there; 0 when it went backwards, a driver's reset): fn(arg, its catalogue entry,
 * its priority (-1 not per priority), the delta).  How many statistics were compared; 0
 * when either sample has none of the concept */
typedef void (*rdiag_ethstats_delta_fn)(void *arg, const struct rdiag_eth_catalog_entry *e,
					int prio, uint64_t delta);
size_t rdiag_ethstats_deltas(const struct rdiag_ethstats *a, const struct rdiag_ethstats *b,
			     const char *concept, rdiag_ethstats_delta_fn fn, void *arg);

/* ---- link-level pause through ethtool netlink (what `ethtool -I -a IFNAME` reads) ----
 * ETHTOOL_MSG_PAUSE_GET with ETHTOOL_FLAG_STATS on the "ethtool" generic netlink family.
 * The standard 802.3x pause statistics (aPAUSEMACCtrlFrames*) exist only where the driver
 * implements get_pause_stats; PFC frames are per-priority ethtool -S statistics, not these.
 * The replay seam is RDMADIAG_NL_REPLAY (the family lookup and the request, recorded). */
struct rdiag_eth_pause {
	int autoneg, rx, tx;		/* 0 off, 1 on, -1 absent from the reply */
	bool has_tx_frames, has_rx_frames;	/* false: "not available here", never 0 */
	uint64_t tx_frames, rx_frames;	/* pause frames sent / received */
	uint64_t time_ns;		/* CLOCK_MONOTONIC when it was read */
	bool stats_refused;		/* the kernel refused ETHTOOL_FLAG_STATS (before 5.10):
					 * settings only, asked again without it */
};
/* IFNAME's pause settings and statistics.  0; -EOPNOTSUPP the kernel has no ethtool netlink
 * or the driver no get_pauseparam (veth, rxe's netdev); -ENODEV no such device; -EBADMSG a
 * malformed reply; -ENOENT nothing recorded for it (replay); -ENXIO RDMADIAG_SYSFS_ROOT
 * without RDMADIAG_NL_REPLAY; other -errno.  out is filled on 0 only. */
int rdiag_fabric_pause(struct rdiag_fabric *f, const char *ifname, struct rdiag_eth_pause *out);

/* the handle as the counters module's Ethernet reader (rdmadiag/counters.h,
 * rdiag_counters_set_eth): a set then holds each port's netdev's statistics with their
 * catalogue concept and priority.  f must stay open while the counters handle uses it. */
struct rdiag_eth_reader;
void rdiag_fabric_eth_reader(struct rdiag_fabric *f, struct rdiag_eth_reader *out);

/* ---- the catalogue of the Ethernet statistics that matter for RoCE (data, per driver) ---- */
struct rdiag_eth_catalog_entry {
	const char *driver;	/* the ethtool driver name */
	const char *name;	/* the statistic's name; "%p" stands for the priority digit */
	const char *concept;	/* "prio_packets", "prio_bytes", "prio_pause", ... (rdmastat(1)) */
	const char *dir;	/* "rx" or "tx" */
	const char *unit;	/* "packets", "bytes", "frames", "us", "events" */
	const char *meaning;
};
/* the entry for statistic NAME of DRIVER, and its priority in *prio (-1 when the statistic
 * is not per priority); NULL when the catalogue does not know it */
const struct rdiag_eth_catalog_entry *rdiag_eth_catalog_lookup(const char *driver,
							       const char *name, int *prio);
/* the whole catalogue, for listing (rdmastat explain) */
const struct rdiag_eth_catalog_entry *rdiag_eth_catalog(size_t *n);

/* ---- ECN/DCQCN and RoCE defaults (sysfs, debugfs, configfs under RDMADIAG_SYSFS_ROOT) ----
 * Every field may be absent on this kernel or driver: -1 (or "") means "not available
 * here", never "disabled". */
enum rdiag_trust {
	RDIAG_TRUST_NA = -1,	/* no OFED qos/trust file */
	RDIAG_TRUST_PCP = 0,
	RDIAG_TRUST_DSCP = 1,
};
struct rdiag_fabric_qos {
	/* OFED mlx5 /sys/class/net/IF/qos/trust and qos/dscp2prio */
	int trust;			/* enum rdiag_trust */
	bool has_dscp2prio;
	int8_t dscp2prio[64];		/* -1 where the file did not say */
	/* OFED /sys/class/net/IF/ecn/roce_np|roce_rp/enable/P: 0, 1, or -1 */
	int8_t ecn_np[RDIAG_DCB_PRIOS], ecn_rp[RDIAG_DCB_PRIOS];
	/* mlx5 debugfs /sys/kernel/debug/mlx5/PCI/cc_params/ (root, debugfs mounted) */
	char pci[64];			/* the netdev's parent device, "" none */
	int cnp_dscp, cnp_prio, cnp_prio_mode;
	/* rdma_cm configfs /sys/kernel/config/rdma_cm/DEV/ports/PORT/ (exists once made) */
	int roce_tos;			/* 0..255 or -1 */
	char roce_mode[32];		/* "RoCE v2", "IB/RoCE v1" or "" */
	bool vlan;			/* IF is a VLAN device (/proc/net/vlan/IF) */
};
/* read what exists for netdev IFNAME and RDMA device DEV port PORT (DEV NULL: no configfs).
 * 0 (absent paths are -1/"" fields, not errors); -EINVAL a malformed file (text via
 * rdiag_fabric_error) */
int rdiag_fabric_qos(struct rdiag_fabric *f, const char *ifname, const char *dev,
		     uint32_t port, struct rdiag_fabric_qos *out);

/* ---- the chain: does this port's RoCE traffic ride the lossless, ECN-enabled priority? ----
 * Links in order: tos, dscp, priority, pfc, ecn, cnp, traffic, ets (the priority's traffic
 * class: a bandwidth share, no strict-priority class above it that can starve it), pause
 * (802.3x pause not on together with PFC; pause rates, pause time and the drivers' storm
 * counters under their thresholds between two samples).  Each has its evidence; where it
 * breaks, a finding with a stable id (rdmastat(1) lists them) and the fix. */
enum rdiag_link_state {
	RDIAG_LINK_OK,
	RDIAG_LINK_BROKEN,
	RDIAG_LINK_UNKNOWN,	/* could not be decided (no samples, no traffic) */
	RDIAG_LINK_NA,		/* not available here (no DCB, no OFED sysfs, no debugfs) */
};
#define RDIAG_CHAIN_LINKS 9
struct rdiag_chain_link {
	const char *name;	/* "tos", "dscp", "priority", "pfc", "ecn", "cnp", "traffic",
				 * "ets", "pause" */
	enum rdiag_link_state state;
	char evidence[256];
	const char *finding;	/* "fabric.pfc_off" ... when broken, else NULL */
	char fix[256];		/* how to repair it, "" when there is nothing to run */
};
struct rdiag_chain_in {
	const char *ifname;
	const char *dev;	/* RDMA device and port (the configfs fix), may be NULL/0 */
	uint32_t port;
	int tos;		/* a ToS given by the user (--tos), -1 none */
	const struct rdiag_dcb *dcb;	/* NULL when dcb_err */
	int dcb_err;		/* rdiag_fabric_dcb's result */
	const struct rdiag_fabric_qos *qos;
	const struct rdiag_ethstats *before, *after;	/* two samples, or NULL */
	/* link-level pause (rdiag_fabric_pause) now, and at the first sample (its frames'
	 * rate), each NULL when not read */
	const struct rdiag_eth_pause *pause, *pause_before;
	/* the pause link's thresholds, 0 for the defaults below: pause frames per second on
	 * one priority in one direction (PFC), or of link-level pause; the fraction of the
	 * interval a priority was paused (prio_pause_duration, where the driver counts it) */
	double pause_max_per_s, pause_time_max;
};
#define RDIAG_PAUSE_MAX_PER_S 1000.0	/* frames/s: a storm, not congestion control */
#define RDIAG_PAUSE_TIME_MAX 0.10	/* 10 % of the interval paused */
struct rdiag_chain {
	int tos, dscp, prio;	/* -1 unknown */
	const char *tos_source;	/* "--tos", "configfs", "kernel default" */
	struct rdiag_chain_link link[RDIAG_CHAIN_LINKS];
	const char *verdict;	/* "ok", "broken", "unknown" (nothing could be checked) */
	/* per-priority packets between the samples (rx + tx prio_packets), -1 unmeasured */
	int64_t prio_packets[RDIAG_DCB_PRIOS];
};
void rdiag_fabric_chain(const struct rdiag_chain_in *in, struct rdiag_chain *out);
/* the chain of RDMA port dev/port on its netdev ifname as this host has it now (its own
 * fabric handle: DCB, OFED/configfs settings, ToS from configfs or the kernel default, no
 * counters): 0, or -errno when the handle or the port's settings cannot be read */
int rdiag_fabric_port_chain(const char *ifname, const char *dev, uint32_t port,
			    struct rdiag_chain *out);
const char *rdiag_link_state_name(enum rdiag_link_state s);	/* "ok", "broken", ... */

#ifdef __cplusplus
}
#endif
#endif
