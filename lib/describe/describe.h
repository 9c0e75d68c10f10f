/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal parts of the host description (lib/describe): the description of one host
 * (describe.c reads this host, format.c writes it as JSON and reads it back), the fleet
 * compare (compare.c, rdmadiag/describe.h) and the small JSON reader they share with the
 * doctor (json.c).  Not exported; the doctor includes it (lib/doctor/internal.h). */
#ifndef RD_DESCRIBE_INTERNAL_H
#define RD_DESCRIBE_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rdmadiag/counters.h"

/* ---- tiny JSON reader (json.c): the description, nft -j, the peer's counters ---- */
enum rd_json_type { RD_JNULL, RD_JBOOL, RD_JNUM, RD_JSTR, RD_JARR, RD_JOBJ };
struct rd_json {
	enum rd_json_type type;
	char *key;		/* member name inside an object */
	char *str;		/* RD_JSTR */
	double num;		/* RD_JNUM, RD_JBOOL */
	struct rd_json *child, *next;
};
struct rd_json *rd_json_parse(const char *text, size_t len);
void rd_json_free(struct rd_json *j);
const struct rd_json *rd_json_get(const struct rd_json *obj, const char *key);

/* ---- the host description (describe.c reads the host, format.c writes and reads it
 * back): the "host" object of rdmadoctor local -j, which a listener also serves on its side
 * channel, connect compares with its own end, and compare reads from many hosts ---- */
#define RD_DESC_MAX 65536	/* the side channel's bound: a description is one line below it */
#define RD_DESC_PORTS 64	/* compare reads hosts through it: room for large ones */
#define RD_DESC_ADDRS 8
#define RD_DESC_FORMAT 2	/* "rdmadoctor_description" of the served line (1: before the
				 * one shape, its ports' keys were dev, netdev_mtu, roce_tos) */
struct rd_desc_addr {
	char ip[46];
	int gid_v2, gid_v1;	/* GID table index of its RoCE v2 / v1 GID, -1 none */
};
struct rd_desc_port {
	char dev[64], driver[32], fw[64], state[16], phys_state[24], link_layer[16], rate[48];
	char netdev[64];
	uint32_t port;
	unsigned int mtu, active_mtu, max_mtu;	/* 0 unknown */
	/* the RoCE v2 GID a job would use (rdmadoctor env's: the address's, IPv4 first, never
	 * link-local): -1 / "" none */
	int gid_index;
	char gid_addr[46];
	char roce_mode[24];	/* configfs default_roce_mode ("" no configfs group: kernel default) */
	int tos;		/* the default ToS rdma_cm uses: configfs default_roce_tos, else the
				 * kernel's 0; -1 unknown (not a RoCE port) */
	bool tos_configfs;	/* tos was read from configfs */
	/* the lossless chain (lib/fabric): -1 / "" where it cannot be checked (no DCB nor OFED
	 * settings) */
	int dscp, prio;
	char pfc[4], ecn[4];	/* "on", "off" */
	size_t naddrs;
	struct rd_desc_addr addr[RD_DESC_ADDRS];
};
struct rd_desc {
	char version[32], host[72], kernel[72], memlock[32];
	size_t nports;
	struct rd_desc_port port[RD_DESC_PORTS];
	/* the served line only (not the host object): the rdma_cm port and port space the
	 * listener listens in ({"listen":{"port":7471,"port_space":"TCP"}}); 0 / "" none */
	uint16_t listen_port;
	char listen_ps[8];
};
/* where describe.c reads this host */
struct rd_desc_src {
	const char *root;		/* RDMADIAG_SYSFS_ROOT ("": /); with a root the netdevs
					 * are not this host's: addresses come from the GID table
					 * alone and no port is queried */
	struct rdiag_counters *cnt;	/* NULL: the devices cannot be listed (no ports) */
	/* the active and max MTU of a port (through verbs); NULL, or non-zero: unknown (0) */
	int (*query_port)(void *arg, const char *dev, uint32_t port, unsigned int *active_mtu,
			  unsigned int *max_mtu);
	void *arg;
};
/* this host, now (a fresh discovery of src->cnt's devices) */
int rd_desc_local(const struct rd_desc_src *src, struct rd_desc *h);
/* the host object, one line of JSON without a newline, in a malloc'd buffer; -ENOMEM,
 * -E2BIG over RD_DESC_MAX */
int rd_desc_json(const struct rd_desc *h, char **out, size_t *len);
/* the line a listener serves: {"rdmadoctor_description":2,"host":{...}} and '\n' */
int rd_desc_line(const struct rd_desc *h, char **out, size_t *len);
/* the reverse of both: a document with a "host" object (the served line, local -j's output);
 * -EBADMSG (why says what is wrong) */
int rd_desc_parse(const char *text, size_t len, struct rd_desc *h, char *why, size_t wlen);
/* the same from the document's parsed tree */
int rd_desc_parse_tree(const struct rd_json *root, struct rd_desc *h, char *why, size_t wlen);
/* the port whose netdev carries ip, NULL none */
const struct rd_desc_port *rd_desc_port_of(const struct rd_desc *h, const char *ip,
					   const struct rd_desc_addr **a);
/* keep only the port whose netdev carries ip, with that address alone, and no hostname,
 * kernel nor memlock (scope.c: a listener's --serve port); no port when none carries it */
void rd_desc_scope_port(struct rd_desc *h, const char *ip);
/* the routable RoCE v2 GID of a port a job would use: of addr when given, else the first
 * IPv4 one, else the first other routable one; NULL none (the description's gid_index, and
 * rdmadoctor env's choice) */
const struct rdiag_gid *rd_desc_v2_gid(const struct rdiag_port *p, const char *addr);

#endif
