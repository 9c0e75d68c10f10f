/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The Prometheus text exposition (format 0.0.4) of the counters, shared by rdmastat --prom
 * (a textfile for node_exporter) and the node agent rdmadiag_exporter (GET /metrics).  One
 * writer, so that the two name every family alike; the metric families are listed in
 * rdmadiag_exporter(8), METRICS.
 *
 * Every function writes whole families (# HELP, # TYPE, samples) to o->f and writes nothing
 * for a family without a sample.  o->dev / o->port narrow to one device / port, o->want to
 * the samples a caller selected (NULL: all), o->ts_ms >= 0 stamps each sample. */
#ifndef RDIAG_TOOLS_PROM_H
#define RDIAG_TOOLS_PROM_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct rdiag_sample;
struct rdiag_samples;
struct rdiag_devices;
struct rdiag_fabric;

struct prom_out {
	FILE *f;
	int64_t ts_ms;			/* -1: no time stamps */
	const char *dev;		/* NULL: every device */
	uint32_t port;			/* 0: every port */
	bool (*want)(const struct rdiag_sample *s);	/* NULL: every sample */
	/* what went wrong reading the Ethernet statistics (the first error only; the caller
	 * says it once): "" none */
	char eth_err[256];
};

/* the raw counters, one family per (origin group, counter name): rdma_pma_*, rdma_port_*,
 * rdma_device_*, rdma_cm_* with labels device, port, counter and concept */
void prom_counters(struct prom_out *o, const struct rdiag_samples *set);
/* the vendor-neutral families: one per catalogue concept, rdma_<concept>_total{device,port},
 * the sum of the port's counters of that concept from one origin (the PMA before the
 * driver's hw_counters), leaving out a counter the catalogue marks as overlapping another
 * of its concept; a concept a port has no counter of has no sample */
void prom_concepts(struct prom_out *o, const struct rdiag_samples *set);
/* counters whose file could not be read: rdma_stat_unreadable{device,port,counter,error} */
void prom_unreadable(struct prom_out *o, const struct rdiag_samples *set);
/* rdma_port_state_id, rdma_port_physical_state_id, rdma_port_rate_bytes_per_second */
void prom_port_gauges(struct prom_out *o, const struct rdiag_devices *ds);
/* rdma_port_info{device,port,netdev,link_layer,node_guid,driver,fw} 1 */
void prom_port_info(struct prom_out *o, const struct rdiag_devices *ds);
/* the rdma_eth_* families of every port with a netdev, read through fb */
void prom_eth(struct prom_out *o, struct rdiag_fabric *fb, const struct rdiag_devices *ds);

/* "not a number: 'N/A'", "out of range: '...'", "not a regular file", strerror: why a
 * counter has no value (for_text: the file's bytes escaped for a terminal) */
const char *prom_unreadable_why(const struct rdiag_sample *s, bool for_text, char *buf,
				size_t len);

/* "100 Gb/sec (4X EDR)" -> 12.5e9 bytes per second (bytes, Prometheus's base unit:
 * promtool check metrics lints a _bits_ name); false when sysfs said nothing usable */
bool prom_rate_bytes(const char *rate, double *out);

/* a sample's first labels: device="DEV",port="PORT" and, when netdev is not NULL,
 * ,netdev="NETDEV" (values escaped) */
void prom_labels(FILE *f, const char *dev, uint32_t port, const char *netdev);
/* the end of a sample's line: o->ts_ms when it is >= 0, and the newline */
void prom_end(const struct prom_out *o);

/* the HELP text of a family: backslash and newline escaped */
void prom_help_escape(FILE *f, const char *s);

#endif
