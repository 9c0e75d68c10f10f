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

/* ---- the handle ---- */
struct rdiag_fabric;
/* 0 or -errno (-ENOMEM; the replay file cannot be loaded: -errno, text via err) */
int rdiag_fabric_open(struct rdiag_fabric **out, char *err, size_t errlen);
void rdiag_fabric_close(struct rdiag_fabric *f);
/* the text of the last failure on this handle ("" when none) */
const char *rdiag_fabric_error(const struct rdiag_fabric *f);
/* write every dcbnl request and reply to FILE in the RDMADIAG_NL_REPLAY format (NULL: off) */
void rdiag_fabric_record(struct rdiag_fabric *f, FILE *file);

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
	uint64_t tc_maxrate[RDIAG_DCB_PRIOS];	/* bits per second, 0 = unlimited */
	bool has_dcbx;
	uint8_t dcbx;		/* DCB_CAP_DCBX_*: 0x01 host, 0x02 LLD managed, 0x04 CEE,
				 * 0x08 IEEE, 0x10 static */
};

/* the DCB configuration of netdev IFNAME.  0; -EOPNOTSUPP when the device has no DCB
 * (dcbnl answers so for veth, rxe's netdev, most virtual devices); -ENODEV no such device;
 * -EBADMSG a malformed reply; other -errno from the socket.  out is filled on 0 only. */
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
 * questions, or a malformed replay); -errno.  *out: free with rdiag_ethstats_free */
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
/* the value of statistic NAME: 0, or -ENOENT */
int rdiag_ethstats_find(const struct rdiag_ethstats *s, const char *name, uint64_t *value);

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

#ifdef __cplusplus
}
#endif
#endif
