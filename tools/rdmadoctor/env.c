/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor env [--for nccl|ucx|libfabric|all] [ADDR|NETDEV]: the settings a job should use
 * on this host, from rdiag_doctor_env().  Text is shell: a comment saying where each value
 * comes from, then export lines (eval "$(rdmadoctor env)"); a value that is not made of
 * shell-safe characters is single-quoted. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "env.h"
#include "common/esc.h"
#include "common/out.h"
#include "common/tool.h"
#include "rdmadiag/describe.h"
#include "rdmadiag/doctor.h"

/* value quoted for a POSIX shell when it needs it */
static const char *shq(const char *v, char *buf, size_t len)
{
	size_t o = 0;

	if (*v && strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:,/-") ==
		  strlen(v))
		return v;
	buf[o++] = '\'';
	for (; *v && o + 5 < len; v++) {
		if (*v == '\'') {
			memcpy(buf + o, "'\\''", 4);
			o += 4;
		} else {
			buf[o++] = *v;
		}
	}
	buf[o++] = '\'';
	buf[o] = 0;
	return buf;
}

/* one variable: a shell line in text, a member of "vars" in JSON */
static void var(struct out *o, const char *name, const char *val)
{
	char q[340];

	out_text(o, "export %s=%s\n", name, shq(val, q, sizeof(q)));
	out_str(o, name, NULL, val);
}

/* the GID index of this port on the hosts of the file, against ours: true when it differs
 * (written as a comment line and a "gid_index_hosts" object) */
static bool hosts_check(struct out *o, const struct rdiag_doc_env *e, const char *hosts)
{
	struct rdiag_describe_compare *c;
	const struct rdiag_desc_cmp_prop *p = NULL;
	char name[96], ours[16];
	size_t i, nother = 0;
	bool differ;
	FILE *f;

	if (rdiag_describe_compare_open(&c, NULL))
		tool_die("out of memory");
	f = strcmp(hosts, "-") ? fopen(hosts, "re") : stdin;
	if (!f)
		tool_die("cannot open '%s': %s", hosts, strerror(errno));
	doctor_compare_read(c, f, strcmp(hosts, "-") ? hosts : "stdin");
	if (f != stdin)
		fclose(f);
	if (rdiag_describe_compare_run(c))
		tool_die("out of memory");
	snprintf(name, sizeof(name), "%s/%u.gid_index", e->dev, e->port);
	snprintf(ours, sizeof(ours), "%d", e->gid_index);
	for (i = 0; i < rdiag_describe_compare_nprops(c); i++)
		if (!strcmp(rdiag_describe_compare_prop(c, i)->name, name))
			p = rdiag_describe_compare_prop(c, i);
	out_obj_begin(o, "gid_index_hosts");
	out_u64(o, "hosts", NULL, rdiag_describe_compare_nhosts(c));
	if (p && p->majority)
		out_str(o, "majority", NULL, p->majority);
	out_u64(o, "majority_hosts", NULL, p ? p->nmajority : 0);
	out_arr_begin(o, "differ");
	for (i = 0; p && i < p->ndiffer; i++) {
		out_obj_begin(o, NULL);
		out_str(o, "host", NULL, p->differ[i].host);
		if (p->differ[i].value)
			out_str(o, "value", NULL, p->differ[i].value);
		out_obj_end(o);
		nother++;
	}
	out_arr_end(o);
	differ = !p || !p->majority || strcmp(p->majority, ours) || nother;
	out_bool(o, "differ_from_here", NULL, differ);
	if (differ) {
		out_text(o, "# WARNING: the GID index of %s/%u is not the same on every host (here %d; "
			 "on the %zu hosts of %s: %s on %zu", tool_esc_tmp(e->dev), e->port,
			 e->gid_index, rdiag_describe_compare_nhosts(c), tool_esc_tmp(hosts),
			 p && p->majority ? tool_esc_tmp(p->majority) : "none", p ? p->nmajority : 0);
		for (i = 0; p && i < p->ndiffer && i < 8; i++)
			out_text(o, ", %s=%s", tool_esc_tmp(p->differ[i].host),
				 p->differ[i].value ? tool_esc_tmp(p->differ[i].value) : "(absent)");
		if (p && p->ndiffer > 8)
			out_text(o, " (+%zu more)", p->ndiffer - 8);
		out_text(o, "): a job-wide GID index is wrong on some of them; set it per host, "
			 "eval \"$(rdmadoctor env)\" in the job's prologue\n");
	}
	out_obj_end(o);
	rdiag_describe_compare_close(c);
	return differ;
}

int doctor_env(const char *target, unsigned int mask, bool json, const char *hosts)
{
	struct rdiag_doc_env_var vars[RDIAG_DOC_ENV_VARS_MAX];
	size_t i, nvars;
	bool differ = false;
	struct rdiag_doctor *d;
	struct rdiag_doc_env e;
	struct out *o;
	int ret;

	if (rdiag_doctor_open(&d, NULL))
		tool_die("%s", rdiag_doctor_errmsg(NULL));
	ret = rdiag_doctor_env(d, target, &e);
	if (ret == -ENODEV) {
		tool_err("env: %s", rdiag_doctor_errmsg(d));
		rdiag_doctor_close(d);
		return EXIT_USAGE;
	}
	if (ret && ret != -ENOENT) {
		tool_err("env: %s", rdiag_doctor_errmsg(d));
		rdiag_doctor_close(d);
		return EXIT_USAGE;
	}
	o = out_new(stdout, json ? OUT_JSON : OUT_TEXT);
	if (!o)
		tool_die("out of memory");
	out_obj_begin(o, NULL);
	out_str(o, "command", NULL, "env");
	out_text(o, "# %s", tool_esc_tmp(e.dev));
	out_str(o, "dev", NULL, e.dev);
	out_u64(o, "port", " port %" PRIu64, e.port);
	if (e.netdev[0]) {
		out_text(o, ", netdev %s", tool_esc_tmp(e.netdev));
		out_str(o, "netdev", NULL, e.netdev);
	}
	out_str(o, "link_layer", NULL, e.roce ? "Ethernet" : "InfiniBand");
	if (ret == -ENOENT) {
		out_str(o, "problem", ": %s\n", rdiag_doctor_errmsg(d));
		out_obj_end(o);
		out_free(o);
		tool_err("env: %s", rdiag_doctor_errmsg(d));
		rdiag_doctor_close(d);
		return EXIT_FOUND;
	}
	if (e.roce) {
		out_str(o, "addr", ", %s", e.addr);
		out_i64(o, "gid_index", ": GID index %" PRId64, e.gid_index);
		out_str(o, "gid", " (RoCE v2, %s)", e.gid);
		out_i64(o, "tos", ", traffic class %" PRId64, e.tos);
		out_bool(o, "tos_from_configfs", NULL, e.tos_from_configfs);
		out_text(o, " (%s)", e.tos_from_configfs ? "configfs default_roce_tos" :
			 "no configfs group: rdma_cm's default");
		if (e.roce_mode[0])
			out_str(o, "roce_mode", ", rdma_cm mode %s", e.roce_mode);
		out_text(o, "\n");
	} else {
		out_text(o, ": InfiniBand, GID index 0 (the port GID)\n");
		out_i64(o, "gid_index", NULL, 0);
	}
	if (hosts && e.roce)
		differ = hosts_check(o, &e, hosts);
	out_obj_begin(o, "vars");
	nvars = rdiag_doctor_env_vars(&e, mask, vars, RDIAG_DOC_ENV_VARS_MAX);
	for (i = 0; i < nvars; i++)
		var(o, vars[i].name, vars[i].value);
	out_obj_end(o);
	out_obj_end(o);
	out_free(o);
	rdiag_doctor_close(d);
	if (differ)
		tool_warn("env: the GID index of %s/%u differs across the hosts of %s (see the output)",
			  e.dev, e.port, hosts);
	return differ ? EXIT_FOUND : EXIT_OK;
}
