/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* counters: the RDMA devices and ports of this machine (or of a sysfs tree named by
 * RDMADIAG_SYSFS_ROOT), every counter with its catalogue concept, a rate over one second and
 * the threshold rules it breaches.
 *
 * Uses rdmadiag/counters.h (open, discover, sample), rdmadiag/catalog.h (what a counter
 * means), rdmadiag/rate.h (deltas and rates) and rdmadiag/threshold.h (a rule set is a handle
 * too: open, errmsg(NULL) on a bad rule, close).
 *
 *	RDMADIAG_SYSFS_ROOT=tests/fixtures/sysfs/rxe ./counters ['RULE > VALUE' ...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rdmadiag/catalog.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/rate.h>
#include <rdmadiag/threshold.h>

/* the rules: one per argument, or a default */
/* a name function gives NULL for a value that has no name: the caller picks the fallback */
static const char *known(const char *name)
{
	return name ? name : "UNKNOWN";
}

static int open_rules(int argc, char **argv, struct rdiag_thresholds **t)
{
	char text[4096] = "rnr_nak_received > 0\n";
	struct rdiag_threshold_opts o = { .buf = text };

	if (argc > 1) {
		size_t off = 0;

		text[0] = '\0';
		for (int i = 1; i < argc; i++)
			off += (size_t)snprintf(text + off, off < sizeof(text) ? sizeof(text) - off : 0,
						"%s\n", argv[i]);
		if (off >= sizeof(text))
			return -1;
	}
	o.len = strlen(text);
	if (rdiag_threshold_open(t, &o) < 0) {
		fprintf(stderr, "counters: rules: %s\n", rdiag_threshold_errmsg(NULL));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct rdiag_counters_opts co = { .source = RDIAG_SRC_AUTO };
	struct rdiag_samples *before = NULL, *after = NULL;
	struct rdiag_thresholds *rules;
	struct rdiag_breach *breach = NULL;
	struct rdiag_devices *devs;
	struct rdiag_counters *c;
	size_t nbreach = 0;
	int ret = 0;

	if (open_rules(argc, argv, &rules) < 0)
		return 2;
	if (rdiag_counters_open(&c, &co) < 0) {
		fprintf(stderr, "counters: %s\n", rdiag_counters_errmsg(NULL));
		rdiag_threshold_close(rules);
		return 2;
	}
	if (rdiag_counters_discover(c, &devs) < 0) {
		fprintf(stderr, "counters: %s\n", rdiag_counters_errmsg(c));
		ret = 2;
		goto out;
	}
	for (size_t d = 0; d < devs->n; d++)
		for (size_t p = 0; p < devs->dev[d].n_ports; p++) {
			const struct rdiag_port *port = &devs->dev[d].ports[p];

			printf("%s/%u %s %s netdev %s, %zu GIDs\n", devs->dev[d].name, port->port,
			       known(rdiag_port_state_name(port->state)), port->link_layer,
			       port->netdev[0] ? port->netdev : "-", port->n_gids);
		}
	if (devs->n == 0)
		printf("no RDMA device\n");
	rdiag_counters_devices_free(devs);

	if (rdiag_counters_sample(c, NULL, &before) < 0 || (sleep(1),
	    rdiag_counters_sample(c, NULL, &after) < 0)) {
		fprintf(stderr, "counters: %s\n", rdiag_counters_errmsg(c));
		ret = 2;
		goto out;
	}
	for (size_t i = 0; i < rdiag_samples_count(after); i++) {
		const struct rdiag_sample *s = rdiag_samples_get(after, i);
		const struct rdiag_sample *prev = rdiag_samples_find(before, s->dev, s->port,
								     s->name);
		struct rdiag_rate rate;

		if (s->err || rdiag_rate_samples(prev, s, &rate) < 0)
			continue;
		printf("%s/%u %-24s %12llu %-24s %s %.1f/s\n", s->dev, s->port, s->name,
		       (unsigned long long)s->value,
		       s->cat && s->cat->concept ? s->cat->concept : "-",
		       rdiag_rate_state_name(rate.state), rate.per_sec);
		if (rdiag_threshold_eval(rules, s, &rate, &breach, &nbreach) < 0)
			ret = 2;
	}
	for (size_t i = 0; i < nbreach; i++)
		printf("breach: %s/%u %s: %g (rule on line %u)\n", breach[i].sample->dev,
		       breach[i].sample->port, breach[i].sample->name, breach[i].observed,
		       breach[i].rule->line);
	if (!ret && nbreach)
		ret = 1;
	free(breach);
out:
	rdiag_samples_free(before);
	rdiag_samples_free(after);
	rdiag_counters_close(c);
	rdiag_threshold_close(rules);
	return ret;
}
