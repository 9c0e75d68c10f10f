/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Firewall rules that can drop RoCE v2 (UDP destination port 4791), as evidence.
 *
 * nftables is read as JSON ('nft -j list ruleset') when nft exists, else 'iptables-save'.
 * A rule is reported when its verdict is drop or reject and its matches can select RoCE:
 *   strong: a UDP/transport destination-port match that includes 4791, a UDP protocol
 *           match without a port, or a base chain whose policy drops and that has no rule
 *           accepting UDP 4791;
 *   weak:   a drop without any protocol or port match (by address, interface...).
 * Rules that select another protocol (tcp, icmp...) or other ports are not RoCE's concern.
 * The scan does not evaluate the ruleset (jumps, sets by name, marks): it lists candidates,
 * and the verdict uses them only when the attempt actually timed out.
 *
 * Only software RDMA passes netfilter: rxe sends through ip_local_out and receives through
 * the UDP stack (siw through TCP sockets); hardware RoCE (mlx5, bnxt_re, irdma, efa ...)
 * puts its packets on the wire itself.  So the rules are a warning only on a host with a
 * software device, and only for an egress device that is one.  A rule in an output hook on
 * an rxe device is worse than a timeout: rdma_rxe (Linux 6.1) then leaves the connecting
 * process unkillable (dmesg: cm_destroy_id_wait_timeout ... state 2 -> 0, every 10 s) and
 * later rdma_cm users of the host hang too, so the doctor names it as a hazard before any
 * attempt (rdiag_doctor_attempt_hazard).
 *
 * The programs are looked for under the sysfs root (RDMADIAG_SYSFS_ROOT): a fixture host
 * is not described with this host's firewall. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define ROCE_PORT 4791

static void copy(char *dst, size_t len, const char *src)
{
	size_t l = strnlen(src, len - 1);

	memcpy(dst, src, l);
	dst[l] = 0;
}

static void add_hit(struct rd_fw_result *res, int strength, const char *where, const char *text,
		    bool egress)
{
	struct rd_fw_hit *h;

	if (res->n >= sizeof(res->hit) / sizeof(res->hit[0]))
		return;
	h = &res->hit[res->n++];
	h->strength = strength;
	h->egress = egress;
	copy(h->where, sizeof(h->where), where);
	copy(h->text, sizeof(h->text), text);
}

/* ---- nftables JSON ---- */

static const char *jstr(const struct rd_json *o, const char *key)
{
	const struct rd_json *v = rd_json_get(o, key);

	return v && v->type == RD_JSTR ? v->str : NULL;
}

/* does the match's right-hand side (number, range, anonymous set) contain v? -1 unknown */
static int rhs_contains(const struct rd_json *r, double v)
{
	const struct rd_json *x, *e;

	if (!r)
		return -1;
	if (r->type == RD_JNUM)
		return r->num == v;
	if (r->type == RD_JSTR)
		return -1;		/* a named service or set reference */
	if (r->type == RD_JOBJ) {
		if ((x = rd_json_get(r, "range")) && x->type == RD_JARR && x->child &&
		    x->child->next && x->child->type == RD_JNUM && x->child->next->type == RD_JNUM)
			return x->child->num <= v && v <= x->child->next->num;
		if ((x = rd_json_get(r, "set")))
			return rhs_contains(x, v);
		return -1;
	}
	if (r->type == RD_JARR) {
		int unknown = 0, c;

		for (e = r->child; e; e = e->next) {
			c = rhs_contains(e, v);
			if (c == 1)
				return 1;
			if (c < 0)
				unknown = 1;
		}
		return unknown ? -1 : 0;
	}
	return -1;
}

static bool rhs_has_str(const struct rd_json *r, const char *s)
{
	const struct rd_json *e;

	if (!r)
		return false;
	if (r->type == RD_JSTR)
		return strcmp(r->str, s) == 0;
	if (r->type == RD_JOBJ)
		return rhs_has_str(rd_json_get(r, "set"), s);
	if (r->type == RD_JARR)
		for (e = r->child; e; e = e->next)
			if (rhs_has_str(e, s))
				return true;
	return false;
}

/* append a short text form of one expression to buf */
static void expr_text(const struct rd_json *st, char *buf, size_t len)
{
	const struct rd_json *m = rd_json_get(st, "match"), *l, *r, *x;
	size_t off = strlen(buf);
	char left[64] = "?", right[64] = "?";
	const char *op;

	if (off >= len - 1)
		return;
	if (!m) {
		/* a statement: the first key is its name (drop, reject, counter, log ...) */
		if (st->child && st->child->key)
			snprintf(buf + off, len - off, "%s%s", off ? " " : "", st->child->key);
		return;
	}
	l = rd_json_get(m, "left");
	r = rd_json_get(m, "right");
	op = jstr(m, "op");
	if ((x = rd_json_get(l, "payload")))
		snprintf(left, sizeof(left), "%s %s", jstr(x, "protocol") ? jstr(x, "protocol") : "?",
			 jstr(x, "field") ? jstr(x, "field") : "?");
	else if ((x = rd_json_get(l, "meta")))
		snprintf(left, sizeof(left), "meta %s", jstr(x, "key") ? jstr(x, "key") : "?");
	else if ((x = rd_json_get(l, "ct")))
		snprintf(left, sizeof(left), "ct %s", jstr(x, "key") ? jstr(x, "key") : "?");
	if (r && r->type == RD_JNUM)
		snprintf(right, sizeof(right), "%.0f", r->num);
	else if (r && r->type == RD_JSTR)
		snprintf(right, sizeof(right), "%s", r->str);
	else if (r && (x = rd_json_get(r, "range")) && x->child && x->child->next)
		snprintf(right, sizeof(right), "%.0f-%.0f", x->child->num, x->child->next->num);
	else if (r && (r->type == RD_JARR || rd_json_get(r, "set")))
		snprintf(right, sizeof(right), "{ set }");
	snprintf(buf + off, len - off, "%s%s%s%s %s", off ? " " : "", left,
		 op && strcmp(op, "==") && strcmp(op, "in") ? " " : "",
		 op && strcmp(op, "==") && strcmp(op, "in") ? op : "", right);
}

enum rule_class { RC_IGNORE, RC_WEAK, RC_STRONG };

/* classify the matches of a rule for UDP dport 4791; *accepts tells whether the verdict is
 * accept (for drop-policy chains) */
static enum rule_class classify(const struct rd_json *expr, bool *verdict_drop, bool *accepts)
{
	const struct rd_json *st;
	bool udp = false, other_proto = false, port_match = false, port_hit = false;
	bool other_match = false;

	*verdict_drop = *accepts = false;
	for (st = expr ? expr->child : NULL; st; st = st->next) {
		const struct rd_json *m = rd_json_get(st, "match"), *l, *r, *x;
		const char *op, *proto, *field;
		int c;

		if (rd_json_get(st, "drop") || rd_json_get(st, "reject"))
			*verdict_drop = true;
		if (rd_json_get(st, "accept"))
			*accepts = true;
		if (!m)
			continue;
		l = rd_json_get(m, "left");
		r = rd_json_get(m, "right");
		op = jstr(m, "op");
		if ((x = rd_json_get(l, "payload"))) {
			proto = jstr(x, "protocol");
			field = jstr(x, "field");
			if (!proto || !field) {
				other_match = true;
				continue;
			}
			if ((!strcmp(proto, "udp") || !strcmp(proto, "th")) && !strcmp(field, "dport")) {
				port_match = true;
				if (!strcmp(proto, "udp"))
					udp = true;
				c = rhs_contains(r, ROCE_PORT);
				if (op && !strcmp(op, "!="))
					c = c < 0 ? -1 : !c;
				if (c != 0)
					port_hit = true;
			} else if (!strcmp(proto, "udp")) {
				udp = true;
			} else if ((!strcmp(proto, "ip") && !strcmp(field, "protocol")) ||
				   (!strcmp(proto, "ip6") && !strcmp(field, "nexthdr"))) {
				if (rhs_has_str(r, "udp") != !(op && !strcmp(op, "!=")))
					other_proto = true;
				else
					udp = true;
			} else if (!strcmp(proto, "tcp") || !strcmp(proto, "icmp") ||
				   !strcmp(proto, "icmpv6") || !strcmp(proto, "sctp") ||
				   !strcmp(proto, "arp")) {
				other_proto = true;
			} else {
				other_match = true;	/* addresses, th sport ... */
			}
		} else if ((x = rd_json_get(l, "meta")) && jstr(x, "key") &&
			   !strcmp(jstr(x, "key"), "l4proto")) {
			if (rhs_has_str(r, "udp") != !(op && !strcmp(op, "!=")))
				other_proto = true;
			else
				udp = true;
		} else {
			other_match = true;	/* iifname, ct state, marks ... */
		}
	}
	if (other_proto || (port_match && !port_hit))
		return RC_IGNORE;
	if (port_hit || (udp && !port_match))
		return RC_STRONG;
	(void)other_match;
	return RC_WEAK;
}

struct nft_chain {
	const struct rd_json *c;
	bool accepts_roce;
};

static bool egress_hook(const char *hook)
{
	return hook && (!strcmp(hook, "output") || !strcmp(hook, "postrouting"));
}

static bool same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* the hook of the base chain a rule is in; NULL for a regular chain (a jump target) */
static const char *rule_hook(const struct rd_json *arr, const struct rd_json *r)
{
	const struct rd_json *it, *c;

	for (it = arr->child; it; it = it->next)
		if ((c = rd_json_get(it, "chain")) && same(jstr(c, "family"), jstr(r, "family")) &&
		    same(jstr(c, "table"), jstr(r, "table")) &&
		    same(jstr(c, "name"), jstr(r, "chain")))
			return jstr(c, "hook");
	return NULL;
}

int rd_fw_scan_nft_json(const char *json, struct rd_fw_result *res)
{
	struct rd_json *root = rd_json_parse(json, strlen(json));
	const struct rd_json *arr, *it, *ch;
	char where[128], text[256];

	memset(res, 0, sizeof(*res));
	arr = rd_json_get(root, "nftables");
	if (!arr || arr->type != RD_JARR) {
		rd_json_free(root);
		return -EINVAL;
	}
	for (it = arr->child; it; it = it->next) {
		const struct rd_json *r = rd_json_get(it, "rule");
		bool drop, acc;
		enum rule_class cls;

		if (!r)
			continue;
		res->nrules++;
		cls = classify(rd_json_get(r, "expr"), &drop, &acc);
		if (!drop || cls == RC_IGNORE)
			continue;
		snprintf(where, sizeof(where), "%s %s %s handle %.0f",
			 jstr(r, "family") ? jstr(r, "family") : "?",
			 jstr(r, "table") ? jstr(r, "table") : "?",
			 jstr(r, "chain") ? jstr(r, "chain") : "?",
			 rd_json_get(r, "handle") ? rd_json_get(r, "handle")->num : -1);
		text[0] = 0;
		for (ch = rd_json_get(r, "expr") ? rd_json_get(r, "expr")->child : NULL; ch; ch = ch->next)
			expr_text(ch, text, sizeof(text));
		add_hit(res, cls == RC_STRONG ? RD_FW_STRONG : RD_FW_WEAK, where, text,
			egress_hook(rule_hook(arr, r)));
	}
	/* base chains that drop by policy, unless one of their rules accepts UDP 4791 */
	for (it = arr->child; it; it = it->next) {
		const struct rd_json *c = rd_json_get(it, "chain"), *r2;
		const char *pol = c ? jstr(c, "policy") : NULL, *hook = c ? jstr(c, "hook") : NULL;
		bool accepted = false;

		if (!c || !pol || !hook || strcmp(pol, "drop"))
			continue;
		for (r2 = arr->child; r2; r2 = r2->next) {
			const struct rd_json *r = rd_json_get(r2, "rule");
			bool drop, acc;

			if (!r || strcmp(jstr(r, "table") ? jstr(r, "table") : "",
					 jstr(c, "table") ? jstr(c, "table") : "") ||
			    strcmp(jstr(r, "chain") ? jstr(r, "chain") : "", jstr(c, "name") ? jstr(c, "name") : ""))
				continue;
			if (classify(rd_json_get(r, "expr"), &drop, &acc) != RC_IGNORE && acc)
				accepted = true;
		}
		if (accepted)
			continue;
		snprintf(where, sizeof(where), "%s %s %s (hook %s)",
			 jstr(c, "family") ? jstr(c, "family") : "?",
			 jstr(c, "table") ? jstr(c, "table") : "?",
			 jstr(c, "name") ? jstr(c, "name") : "?", hook);
		add_hit(res, RD_FW_STRONG, where, "policy drop and no rule accepting udp dport 4791",
			egress_hook(hook));
	}
	rd_json_free(root);
	return 0;
}

/* ---- iptables-save ---- */

static bool has_word(const char *line, const char *w)
{
	const char *p = strstr(line, w);

	while (p) {
		char after = p[strlen(w)];

		if ((p == line || p[-1] == ' ') && (after == ' ' || after == 0 || after == '\n'))
			return true;
		p = strstr(p + 1, w);
	}
	return false;
}

static bool ports_include(const char *line, int port)
{
	const char *p = strstr(line, "--dport ");
	const char *q = strstr(line, "--dports ");
	char buf[128], *tok, *save;

	if (p)
		p += 8;
	else if (q)
		p = q + 9;
	else
		return false;
	snprintf(buf, sizeof(buf), "%s", p);
	buf[strcspn(buf, " \n")] = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int a = atoi(tok), b = a;
		char *colon = strchr(tok, ':');

		if (colon)
			b = atoi(colon + 1);
		if (a <= port && port <= b)
			return true;
	}
	return false;
}

int rd_fw_scan_iptables(const char *text, struct rd_fw_result *res)
{
	char table[32] = "?", line[512], where[128];
	const char *p = text, *nl;

	memset(res, 0, sizeof(*res));
	while (p && *p) {
		size_t l;

		nl = strchr(p, '\n');
		l = nl ? (size_t)(nl - p) : strlen(p);
		if (l >= sizeof(line))
			l = sizeof(line) - 1;
		memcpy(line, p, l);
		line[l] = 0;
		p = nl ? nl + 1 : NULL;
		if (line[0] == '*') {
			copy(table, sizeof(table), line + 1);
		} else if (line[0] == ':') {
			char chain[64], pol[16];

			if (sscanf(line, ":%63s %15s", chain, pol) == 2 && !strcmp(pol, "DROP")) {
				snprintf(where, sizeof(where), "%s %s", table, chain);
				add_hit(res, RD_FW_STRONG, where, "policy DROP (check for an ACCEPT of udp dport 4791)",
					!strcmp(chain, "OUTPUT") || !strcmp(chain, "POSTROUTING"));
			}
		} else if (!strncmp(line, "-A ", 3)) {
			char chain[64];
			bool udp = strstr(line, "-p udp") != NULL;
			bool proto = strstr(line, "-p ") != NULL;
			bool port = strstr(line, "--dport") != NULL;
			int strength = 0;

			res->nrules++;
			if (!has_word(line, "DROP") && !has_word(line, "REJECT"))
				continue;
			if (port && ports_include(line, ROCE_PORT) && (udp || !proto))
				strength = RD_FW_STRONG;
			else if (udp && !port)
				strength = RD_FW_STRONG;
			else if (!proto && !port)
				strength = RD_FW_WEAK;
			if (!strength)
				continue;
			sscanf(line + 3, "%63s", chain);
			snprintf(where, sizeof(where), "%s %s", table, chain);
			add_hit(res, strength, where, line,
				!strcmp(chain, "OUTPUT") || !strcmp(chain, "POSTROUTING"));
		}
	}
	return 0;
}

/* ---- the check ---- */

static char *run(const char *cmd, int *status)
{
	FILE *fp = popen(cmd, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	*status = -1;
	if (!fp)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb)
				break;
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, fp);
		if (!n)
			break;
		len += n;
	}
	if (buf)
		buf[len] = 0;
	*status = pclose(fp);
	return buf;
}

static const char *find_tool(const struct rdiag_doctor *d, const char *name, char *buf,
			     size_t len)
{
	static const char *const dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin",
					    "/usr/local/sbin" };
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		rd_doc_path(d, buf, len, "%s/%s", dirs[i], name);
		if (access(buf, X_OK) == 0)
			return buf;
	}
	return NULL;
}

bool rd_doc_driver_software(const char *driver)
{
	return !strcmp(driver, "rxe") || !strcmp(driver, "siw");
}

static bool software_devices(struct rdiag_doctor *d)
{
	const struct rdiag_devices *devs = NULL;
	size_t i;

	if (rd_doc_devices(d, NULL, &devs) || !devs)
		return true;	/* unknown: the rules may matter */
	for (i = 0; i < devs->n; i++)
		if (rd_doc_driver_software(devs->dev[i].driver))
			return true;
	return false;
}

static const char *driver_kind(const struct rdiag_device *dev)
{
	if (rd_doc_driver_software(dev->driver))
		return !strcmp(dev->driver, "siw") ? "software iWARP: its packets pass netfilter" :
		       "software RoCE: its packets pass netfilter";
	return !strcmp(dev->protocol, "ib") ? "hardware RDMA: its traffic does not pass netfilter" :
	       "hardware RoCE: its traffic does not pass netfilter";
}

/* one evidence line per driver: "mlx5 is hardware RoCE: its traffic does not pass netfilter
 * (mlx5_0, mlx5_1)"; only the device named when only is given */
static void drivers_evidence(struct rdiag_doctor *d, struct rdiag_doc_finding *f,
			     const char *only)
{
	const struct rdiag_devices *devs = NULL;
	char names[256];
	size_t i, j, off;

	if (rd_doc_devices(d, NULL, &devs) || !devs)
		return;
	for (i = 0; i < devs->n; i++) {
		const struct rdiag_device *a = &devs->dev[i];
		bool seen = false;

		for (j = 0; j < i && !only; j++)
			seen |= !strcmp(devs->dev[j].driver, a->driver);
		if (seen || (only && strcmp(a->name, only)))
			continue;
		off = 0;
		names[0] = 0;
		for (j = i; j < devs->n; j++)
			if ((only ? !strcmp(devs->dev[j].name, only) :
			     !strcmp(devs->dev[j].driver, a->driver)) && off < sizeof(names))
				off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
							off ? ", " : "", devs->dev[j].name);
		rd_doc_evidence(f, "%s is %s (%s)", a->driver[0] ? a->driver : a->name,
				driver_kind(a), names);
	}
}

static const struct rdiag_device *egress_device(struct rdiag_doctor *d)
{
	const struct rdiag_devices *devs = NULL;

	if (!d->egress_dev[0] || rd_doc_devices(d, NULL, &devs) || !devs)
		return NULL;
	return rdiag_counters_device_find(devs, d->egress_dev);
}

void rd_doc_firewall_egress(struct rdiag_doctor *d)
{
	const struct rdiag_device *dev = egress_device(d);
	struct rdiag_doc_finding *f = NULL;
	size_t i;

	d->hazard[0] = 0;
	if (!dev)
		return;
	for (i = 0; i < d->nfindings; i++)
		if (!strcmp(d->findings[i].check, "firewall") && d->findings[i].cause &&
		    !strcmp(d->findings[i].cause, "firewall_drops_roce"))
			f = &d->findings[i];
	if (!f)
		return;
	if (!rd_doc_driver_software(dev->driver)) {
		/* a host with rxe and mlx5 connecting through mlx5: the rules do not apply */
		f->level = RDIAG_DOC_INFO;
		f->cause = NULL;
		f->hint[0] = 0;
		snprintf(f->summary, sizeof(f->summary),
			 "firewall rule(s) can drop UDP port 4791, but the egress device %s is hardware RoCE: its traffic does not pass netfilter",
			 dev->name);
		drivers_evidence(d, f, dev->name);
		return;
	}
	if (d->fw_egress[0] && !strcmp(dev->driver, "rxe"))
		snprintf(d->hazard, sizeof(d->hazard),
			 "%.300s drops what %s sends, and rdma_rxe leaves an rdma_cm connect through such a rule unkillable (cm_destroy_id_wait_timeout) and later rdma_cm users hanging",
			 d->fw_egress, dev->name);
}

const char *rdiag_doctor_attempt_hazard(const struct rdiag_doctor *d)
{
	return d && d->hazard[0] ? d->hazard : NULL;
}

void rd_doc_check_firewall(struct rdiag_doctor *d)
{
	struct rdiag_doc_finding *f;
	struct rd_fw_result res;
	char tool[128], cmd[192];
	const char *src;
	char *out;
	int status, ret, strong = 0;
	size_t i;
	bool soft = software_devices(d);

	if (find_tool(d, "nft", tool, sizeof(tool))) {
		src = "nft -j list ruleset";
		snprintf(cmd, sizeof(cmd), "%s -j list ruleset 2>&1", tool);
		out = run(cmd, &status);
		ret = out && status == 0 ? rd_fw_scan_nft_json(out, &res) : -EACCES;
	} else if (find_tool(d, "iptables-save", tool, sizeof(tool))) {
		src = "iptables-save";
		snprintf(cmd, sizeof(cmd), "%s 2>&1", tool);
		out = run(cmd, &status);
		ret = out && status == 0 ? rd_fw_scan_iptables(out, &res) : -EACCES;
	} else {
		f = rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_INFO, NULL, "UDP 4791",
			       "neither nft nor iptables-save is installed: firewall not inspected");
		rd_doc_evidence(f, "no nft or iptables-save in /usr/sbin, /sbin, /usr/bin, /bin");
		return;
	}
	if (ret) {
		f = rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_INFO, NULL, "UDP 4791",
			       "the firewall ruleset could not be read (%s)", src);
		if (out && *out) {
			out[strcspn(out, "\n")] = 0;
			rd_doc_evidence(f, "%s: %.200s", src, out);
		} else {
			rd_doc_evidence(f, "%s failed", src);
		}
		rd_doc_hint(f, "run as root to inspect the firewall, or check it by hand for UDP port 4791");
		free(out);
		return;
	}
	free(out);
	for (i = 0; i < res.n; i++)
		if (res.hit[i].strength == RD_FW_STRONG) {
			strong++;
			if (res.hit[i].egress && !d->fw_egress[0])
				snprintf(d->fw_egress, sizeof(d->fw_egress), "%s: %s: %s", src,
					 res.hit[i].where, res.hit[i].text);
		}
	if (strong && !soft)
		f = rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_INFO, NULL, "UDP 4791",
			       "%d firewall rule(s) can drop UDP port 4791, but no RDMA device here is software RoCE: hardware RoCE does not pass netfilter",
			       strong);
	else if (strong)
		f = rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_WARN, "firewall_drops_roce",
			       "UDP 4791", "%d firewall rule(s) can drop RoCE v2 (UDP port 4791)", strong);
	else if (res.n)
		f = rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_INFO, NULL, "UDP 4791",
			       "no rule targets UDP 4791; %zu drop rule(s) without a protocol match might", res.n);
	else
		f = rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_OK, NULL, "UDP 4791",
			       "no firewall rule drops UDP 4791 (%u rule(s) read with %s)", res.nrules, src);
	for (i = 0; i < res.n; i++)
		rd_doc_evidence(f, "%s: %s: %s", src, res.hit[i].where, res.hit[i].text);
	if (strong)
		drivers_evidence(d, f, NULL);
	if (strong && soft)
		rd_doc_hint(f, "allow UDP destination port 4791 on both ends (e.g. nft insert rule ... udp dport 4791 accept), or delete the rule");
}
