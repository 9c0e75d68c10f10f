/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The Prometheus exposition of the counters and ports (prom.h): rdmastat --prom and
 * rdmadiag_exporter write the same families through it. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>

#include "esc.h"
#include "out.h"
#include "prom.h"

const char *prom_unreadable_why(const struct rdiag_sample *s, bool for_text, char *buf,
				size_t len)
{
	const char *what, *text;
	char esc[256];

	switch (s->err) {
	case -EINVAL: what = "not a number"; break;
	case -ERANGE: what = "out of range"; break;
	case -EBADFD: return "not a regular file";
	default: return strerror(-s->err);
	}
	if (!s->text)
		return what;
	text = for_text ? tool_esc(s->text, esc, sizeof(esc)) : s->text;
	snprintf(buf, len, "%s: '%s'", what, text);
	return buf;
}

void prom_help_escape(FILE *f, const char *s)
{
	prom_escape_chars(f, s, "\\\n");
}

static bool wanted(const struct prom_out *o, const struct rdiag_sample *s)
{
	if (o->dev && strcmp(o->dev, s->dev))
		return false;
	if (o->port && o->port != s->port)
		return false;
	return !o->want || o->want(s);
}

void prom_end(const struct prom_out *o)
{
	if (o->ts_ms >= 0)
		fprintf(o->f, " %" PRId64, o->ts_ms);
	putc('\n', o->f);
}

void prom_labels(FILE *f, const char *dev, uint32_t port, const char *netdev)
{
	fputs("device=\"", f);
	prom_label_escape(f, dev);
	fprintf(f, "\",port=\"%u\"", port);
	if (!netdev)
		return;
	fputs(",netdev=\"", f);
	prom_label_escape(f, netdev);
	putc('"', f);
}

/* ---- the raw counters ------------------------------------------------------------ */

struct prom_row {
	char family[160];
	const struct rdiag_sample *s;
};

/* a sample in 4-octet words (the PMA data counters, in their 32-bit and extended 64-bit
 * forms): exported in bytes, x4, as node_exporter's infiniband collector does */
static bool in_bytes(const struct rdiag_catalog_entry *cat)
{
	return cat && cat->unit == RDIAG_UNIT_WORDS4 && cat->scale > 1;
}

/* the metric family: rdma_GROUP_NAME, _bytes_total for a counter in bytes, _total for any
 * other counter; NAME drops a leading word that repeats the group or the rdma_ namespace
 * (cm_rx_msgs_req of the cm group is rdma_cm_rx_msgs_req_total, not rdma_cm_cm_...; rxe's
 * rdma_sends is rdma_port_sends_total, not rdma_port_rdma_...) */
static void raw_family(const struct rdiag_sample *s, char *buf, size_t len)
{
	char nm[128];
	const char *grp, *p;
	size_t gl;
	bool gauge = s->cat && s->cat->behaviour == RDIAG_CNT_GAUGE;

	switch (s->origin) {
	case RDIAG_ORIG_PMA: grp = "pma"; break;
	case RDIAG_ORIG_CM: grp = "cm"; break;
	case RDIAG_ORIG_SYSFS_DEV_HW: grp = "device"; break;
	default: grp = "port"; break;
	}
	if (prom_name(nm, sizeof(nm), s->name) < 0)
		nm[sizeof(nm) - 1] = '\0';
	p = nm;
	gl = strlen(grp);
	if (!strncmp(p, grp, gl) && p[gl] == '_' && p[gl + 1])
		p += gl + 1;
	if (!strncmp(p, "rdma_", 5) && p[5])
		p += 5;
	snprintf(buf, len, "rdma_%s_%s%s", grp, p,
		 gauge ? "" : in_bytes(s->cat) ? "_bytes_total" : "_total");
}

static int row_cmp(const void *a, const void *b)
{
	const struct prom_row *x = a, *y = b;
	int r = strcmp(x->family, y->family);

	/* stable: keep sample order within a family */
	return r ? r : (x->s < y->s ? -1 : x->s > y->s);
}

/* the value of a sample: raw, or x4 for a counter in words (as a float when x4 does not fit
 * 64 bits; Prometheus keeps every value as a float anyway) */
static void value(FILE *f, const struct rdiag_sample *s)
{
	uint64_t k = in_bytes(s->cat) ? s->cat->scale : 1;

	if (s->value > UINT64_MAX / k)
		fprintf(f, "%.17g", (double)s->value * (double)k);
	else
		fprintf(f, "%" PRIu64, s->value * k);
}

static void raw_help(FILE *f, const struct rdiag_sample *s)
{
	if (s->cat && in_bytes(s->cat)) {
		prom_help_escape(f, s->cat->meaning);
		fprintf(f, " (exported in bytes: the counter's %s x%u)",
			rdiag_unit_name(s->cat->unit), s->cat->scale);
	} else if (s->cat) {
		prom_help_escape(f, s->cat->meaning);
		fprintf(f, " (%s", rdiag_unit_name(s->cat->unit));
		if (s->cat->scale > 1)
			fprintf(f, ", x%u for bytes", s->cat->scale);
		putc(')', f);
	} else {
		fputs("RDMA counter ", f);
		prom_help_escape(f, s->name);
		fputs(" (not in the rdmadiag catalogue)", f);
	}
}

void prom_counters(struct prom_out *o, const struct rdiag_samples *set)
{
	size_t n = rdiag_samples_count(set), i, k = 0;
	struct prom_row *rows = calloc(n ? n : 1, sizeof(*rows));
	FILE *f = o->f;

	if (!rows)
		return;
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(set, i);

		/* Ethernet statistics are the rdma_eth_* families (prom_eth) */
		if (s->err || s->origin == RDIAG_ORIG_ETH || !wanted(o, s))
			continue;
		rows[k].s = s;
		raw_family(s, rows[k].family, sizeof(rows[k].family));
		k++;
	}
	qsort(rows, k, sizeof(*rows), row_cmp);
	for (i = 0; i < k; i++) {
		const struct rdiag_sample *s = rows[i].s;

		if (!i || strcmp(rows[i].family, rows[i - 1].family)) {
			fprintf(f, "# HELP %s ", rows[i].family);
			raw_help(f, s);
			fprintf(f, "\n# TYPE %s %s\n", rows[i].family,
				s->cat && s->cat->behaviour == RDIAG_CNT_GAUGE ? "gauge" : "counter");
		}
		fprintf(f, "%s{", rows[i].family);
		prom_labels(f, s->dev, s->port, NULL);
		fputs(",counter=\"", f);
		prom_label_escape(f, s->name);
		putc('"', f);
		if (s->cat && s->cat->concept) {
			fputs(",concept=\"", f);
			prom_label_escape(f, s->cat->concept);
			putc('"', f);
		}
		fputs("} ", f);
		value(f, s);
		prom_end(o);
	}
	free(rows);
}

/* ---- the vendor-neutral concept families ----------------------------------------- */

/* which counters make a concept's value on a port: the PMA's (the IB standard, whole
 * port), then the driver's port counters, the device's, the CM's; one origin only, so that
 * the PMA's port_rcv_data and a driver's rx_bytes are never added up */
static int origin_rank(enum rdiag_origin o)
{
	switch (o) {
	case RDIAG_ORIG_PMA: return 0;
	case RDIAG_ORIG_NETLINK:
	case RDIAG_ORIG_SYSFS_HW: return 1;
	case RDIAG_ORIG_SYSFS_DEV_HW: return 2;
	default: return 3;
	}
}

struct concept_row {
	const char *concept, *dev;
	uint32_t port;
	int rank;
	const struct rdiag_sample *s;
};

static int concept_cmp(const void *a, const void *b)
{
	const struct concept_row *x = a, *y = b;
	int r = strcmp(x->concept, y->concept);

	if (!r)
		r = strcmp(x->dev, y->dev);
	if (!r)
		r = x->port < y->port ? -1 : x->port > y->port;
	if (!r)
		r = x->rank - y->rank;
	return r;
}

static void concept_help(FILE *f, const struct concept_row *r)
{
	const struct rdiag_catalog_concept *c = rdiag_catalog_concept_find(r->concept);

	fputs("Vendor-neutral ", f);
	prom_help_escape(f, r->concept);
	fputs(": ", f);
	prom_help_escape(f, c ? c->meaning : r->s->cat->meaning);
	if (in_bytes(r->s->cat) || r->s->cat->unit == RDIAG_UNIT_BYTES)
		fputs(" (bytes)", f);
	else
		fprintf(f, " (%s)", rdiag_unit_name(r->s->cat->unit));
	fputs(", the same family on every driver", f);
}

void prom_concepts(struct prom_out *o, const struct rdiag_samples *set)
{
	size_t n = rdiag_samples_count(set), i, j, k = 0;
	struct concept_row *rows = calloc(n ? n : 1, sizeof(*rows));
	FILE *f = o->f;

	if (!rows)
		return;
	for (i = 0; i < n; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(set, i);

		if (s->err || s->origin == RDIAG_ORIG_ETH || !s->cat || !s->cat->concept ||
		    s->cat->overlaps || s->cat->behaviour == RDIAG_CNT_GAUGE || !wanted(o, s))
			continue;
		rows[k++] = (struct concept_row){ s->cat->concept, s->dev, s->port,
						  origin_rank(s->origin), s };
	}
	qsort(rows, k, sizeof(*rows), concept_cmp);
	for (i = 0; i < k; i = j) {
		char fam[160], nm[128];
		uint64_t sum = 0, v;
		bool big = false;
		double dsum = 0;

		/* the rows of one (concept, device, port): the best origin's, added up */
		for (j = i; j < k && !strcmp(rows[j].concept, rows[i].concept) &&
		     !strcmp(rows[j].dev, rows[i].dev) && rows[j].port == rows[i].port; j++)
			if (rows[j].rank == rows[i].rank) {
				const struct rdiag_sample *s = rows[j].s;
				uint64_t k2 = in_bytes(s->cat) ? s->cat->scale : 1;

				/* exact while it fits 64 bits, a float past that */
				dsum += (double)s->value * (double)k2;
				big |= __builtin_mul_overflow(s->value, k2, &v) ||
				       __builtin_add_overflow(sum, v, &sum);
			}
		if (prom_name(nm, sizeof(nm), rows[i].concept) < 0)
			continue;
		snprintf(fam, sizeof(fam), "rdma_%s_total", nm);
		if (!i || strcmp(rows[i].concept, rows[i - 1].concept)) {
			fprintf(f, "# HELP %s ", fam);
			concept_help(f, &rows[i]);
			fprintf(f, "\n# TYPE %s counter\n", fam);
		}
		fprintf(f, "%s{", fam);
		prom_labels(f, rows[i].dev, rows[i].port, NULL);
		if (big)
			fprintf(f, "} %.17g", dsum);
		else
			fprintf(f, "} %" PRIu64, sum);
		prom_end(o);
	}
	free(rows);
}

/* ---- unreadable counters --------------------------------------------------------- */

/* one family of its own, a sample per counter with the reason as a label (absent when
 * every counter could be read, so such an exposition is unchanged) */
void prom_unreadable(struct prom_out *o, const struct rdiag_samples *set)
{
	size_t n = rdiag_samples_count(set), i;
	bool any = false;
	char why[128];

	for (i = 0; i < n; i++) {
		const struct rdiag_sample *s = rdiag_samples_get(set, i);

		if (!s->err || !wanted(o, s))
			continue;
		if (!any) {
			fputs("# HELP rdma_stat_unreadable RDMA counter whose file could not be "
			      "read as a number (the reason in label error; no value is made up)\n"
			      "# TYPE rdma_stat_unreadable gauge\n", o->f);
			any = true;
		}
		fputs("rdma_stat_unreadable{", o->f);
		prom_labels(o->f, s->dev, s->port, NULL);
		fputs(",counter=\"", o->f);
		prom_label_escape(o->f, s->name);
		fputs("\",error=\"", o->f);
		prom_label_escape(o->f, prom_unreadable_why(s, false, why, sizeof(why)));
		fputs("\"} 1", o->f);
		prom_end(o);
	}
}

/* ---- ports ----------------------------------------------------------------------- */

bool prom_rate_bytes(const char *rate, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(rate, &end);
	if (end == rate || errno || !(v >= 0) || v > 1e9)
		return false;
	while (*end == ' ')
		end++;
	if (!strncmp(end, "Gb/sec", 6))
		*out = v * 1e9 / 8;
	else if (!strncmp(end, "Mb/sec", 6))
		*out = v * 1e6 / 8;
	else
		return false;
	return true;
}

static bool port_wanted(const struct prom_out *o, const char *dev, uint32_t port)
{
	return (!o->dev || !strcmp(o->dev, dev)) && (!o->port || o->port == port);
}

/* the port gauges an alert needs ("port not ACTIVE", "link slower than it should be"); a
 * port whose sysfs file is missing has no sample */
void prom_port_gauges(struct prom_out *o, const struct rdiag_devices *ds)
{
	static const struct {
		const char *family, *help;
	} fam[] = {
		{ "rdma_port_state_id", "IB port state (1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, "
		  "5 ACTIVE_DEFER): a port that carries traffic is 4" },
		{ "rdma_port_physical_state_id", "IB port physical state (1 SLEEP, 2 POLLING, "
		  "3 DISABLED, 4 PORT_CONFIGURATION_TRAINING, 5 LINK_UP, 6 LINK_ERROR_RECOVERY, "
		  "7 PHY_TEST)" },
		{ "rdma_port_rate_bytes_per_second", "Port link rate in bytes per second (sysfs "
		  "rate, Gb/sec / 8)" },
	};
	size_t f, d, p;

	for (f = 0; f < sizeof(fam) / sizeof(fam[0]); f++) {
		bool head = false;

		for (d = 0; d < ds->n; d++) {
			const struct rdiag_device *dv = &ds->dev[d];

			for (p = 0; p < dv->n_ports; p++) {
				const struct rdiag_port *pt = &dv->ports[p];
				double v;

				if (!port_wanted(o, dv->name, pt->port))
					continue;
				if (f == 0)
					v = pt->state;
				else if (f == 1)
					v = pt->phys_state;
				else if (!prom_rate_bytes(pt->rate, &v))
					continue;
				if (f < 2 && !v)
					continue;	/* unknown: no sample */
				if (!head) {
					fprintf(o->f, "# HELP %s %s\n# TYPE %s gauge\n",
						fam[f].family, fam[f].help, fam[f].family);
					head = true;
				}
				fprintf(o->f, "%s{", fam[f].family);
				prom_labels(o->f, dv->name, pt->port, NULL);
				fprintf(o->f, "} %.17g", v);
				prom_end(o);
			}
		}
	}
}

static void label(FILE *f, const char *name, const char *v)
{
	fprintf(f, ",%s=\"", name);
	prom_label_escape(f, v);
	putc('"', f);
}

void prom_port_info(struct prom_out *o, const struct rdiag_devices *ds)
{
	bool head = false;
	size_t d, p;

	for (d = 0; d < ds->n; d++) {
		const struct rdiag_device *dv = &ds->dev[d];

		for (p = 0; p < dv->n_ports; p++) {
			const struct rdiag_port *pt = &dv->ports[p];

			if (!port_wanted(o, dv->name, pt->port))
				continue;
			if (!head) {
				fputs("# HELP rdma_port_info What an RDMA port is: its netdev, link "
				      "layer, node GUID, driver and firmware (value 1; join on "
				      "device and port)\n# TYPE rdma_port_info gauge\n", o->f);
				head = true;
			}
			fputs("rdma_port_info{", o->f);
			prom_labels(o->f, dv->name, pt->port, pt->netdev);
			label(o->f, "link_layer", pt->link_layer);
			label(o->f, "node_guid", dv->node_guid);
			label(o->f, "driver", dv->driver);
			label(o->f, "fw", dv->fw_ver);
			fputs("} 1", o->f);
			prom_end(o);
		}
	}
}
