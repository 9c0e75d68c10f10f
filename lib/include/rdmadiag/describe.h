/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/describe.h: the host description and the fleet compare (rdmadoctor compare).
 *
 * A host's description is the "host" object of 'rdmadoctor local -j' (one JSON shape,
 * described in rdmadoctor(1)): per RDMA port its state, netdev and MTUs, rate, driver and
 * firmware, GID index, RoCE mode, ToS and lossless chain; per host its kernel, rdmadiag
 * version and memlock limit.  A listener of the doctor serves the same object on its side
 * channel (rdiag_doctor_describe(), rdmadiag/doctor.h).  The describe module (lib/describe)
 * reads and writes it; it needs no doctor handle and no device.
 *
 * The compare handle reads many hosts' descriptions and finds, property by property, the
 * majority value and the hosts that differ, ranked by how likely the difference is to break
 * RDMA.  Functions return 0 or -errno and never print; rdiag_describe_compare_errmsg() says
 * why in one line (of the handle's last failed call, or with NULL of the last failed open).
 */
#ifndef RDMADIAG_DESCRIBE_H
#define RDMADIAG_DESCRIBE_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct rdiag_describe_compare;

/* how likely a difference of a property is to break RDMA, most first */
enum rdiag_cmp_impact {
	RDIAG_CMP_BREAKS = 0,	/* port state, link layer, RoCE mode, GID index */
	RDIAG_CMP_LARGE,	/* MTU, traffic class, PFC/ECN: large messages, lossless traffic */
	RDIAG_CMP_DEGRADES,	/* link rate, memlock, netdev name */
	RDIAG_CMP_INFO,		/* driver, firmware, kernel versions, anything else */
};
const char *rdiag_cmp_impact_name(enum rdiag_cmp_impact i);	/* "breaks" ... "info" */

struct rdiag_desc_cmp_host {
	const char *host;
	const char *value;	/* NULL: the host does not have the property */
};

struct rdiag_desc_cmp_prop {
	const char *name;	/* "host.kernel", "mlx5_0/1.gid_index" */
	const char *field;	/* "kernel", "gid_index" */
	enum rdiag_cmp_impact impact;
	const char *why;	/* what a difference does */
	const char *majority;	/* the most common value (NULL: most hosts do not have it) */
	size_t nmajority;	/* hosts with it */
	size_t ndiffer;		/* hosts with another value (or none), in the order added */
	const struct rdiag_desc_cmp_host *differ;
};

/* no option is defined yet: pass NULL (the struct is declared so that options can come
 * without a new open function) */
struct rdiag_describe_compare_opts;

/* a comparison of no host yet: 0, or -ENOMEM (rdiag_describe_compare_errmsg(NULL)) */
int rdiag_describe_compare_open(struct rdiag_describe_compare **out,
				const struct rdiag_describe_compare_opts *opts);
void rdiag_describe_compare_close(struct rdiag_describe_compare *c);
/* one line about the handle's last failed call ("" when none); with c == NULL why the last
 * failed rdiag_describe_compare_open() of the process failed */
const char *rdiag_describe_compare_errmsg(const struct rdiag_describe_compare *c);
/* one host's document (len bytes): its "host" object; name when it has no host.hostname.
 * -EINVAL when it is no 'rdmadoctor local -j' document with a host object */
int rdiag_describe_compare_add(struct rdiag_describe_compare *c, const char *json, size_t len,
			       const char *name);
size_t rdiag_describe_compare_nhosts(const struct rdiag_describe_compare *c);
/* the properties of all hosts, those that differ first (by impact, then name), then those
 * that agree (by name); valid until the next add or close */
int rdiag_describe_compare_run(struct rdiag_describe_compare *c);
size_t rdiag_describe_compare_nprops(const struct rdiag_describe_compare *c);
const struct rdiag_desc_cmp_prop *
rdiag_describe_compare_prop(const struct rdiag_describe_compare *c, size_t i);

#ifdef __cplusplus
}
#endif
#endif
