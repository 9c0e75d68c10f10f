/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* One scrape: the enabled collectors in threads, one per group of collectors that read
 * the same things (counters and concepts share one sample; port, eth, fabric, resources and
 * connections each read their own), and an answer by the scrape's deadline whatever they
 * do.  A read that hangs (a driver's firmware command that times out after a minute, a
 * netlink request nobody answers) holds only its own group: the others report, and the
 * stuck group's collectors report rdma_scrape_collector_success 0 ("still running at the
 * deadline").  The stuck thread finishes on its own and frees what it made; while a group
 * has --web.max-requests threads stuck, the next scrape does not start another for it.
 *
 * A collector's failure is logged when its reason changes, not at every scrape (a host
 * without tracefs rights would log the same line every 15 s), and once when it works
 * again. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rdmadiag/counters.h>

#include "common/clock.h"
#include "agent.h"

#define NGROUP 6
static const int group_of[COL_N] = {
	[COL_PORT] = 1, [COL_COUNTERS] = 0, [COL_CONCEPTS] = 0, [COL_ETH] = 2,
	[COL_FABRIC] = 3, [COL_RESOURCES] = 4, [COL_CONNECTIONS] = 5,
};
static atomic_uint running[NGROUP];	/* threads of each group not finished yet */

struct part {
	char *buf;
	size_t len;
	int r;
	bool done;
	double took;
	char why[256];
};

struct job {
	pthread_mutex_t m;
	pthread_cond_t cv;
	int refs;			/* the scrape and each group thread */
	bool enabled[COL_N];
	struct part part[COL_N];
	struct timespec deadline;	/* CLOCK_MONOTONIC */
	/* the one discovery of the scrape, made by the port group (it reads the port files
	 * anyway) and waited for by the eth, fabric and resources groups, which read the same
	 * device directories: one would hang where the other does */
	bool ds_done;
	int ds_err;
	struct rdiag_devices *ds;
	char ds_why[256];
};

#define DISCOVERY_GROUP 1	/* port */
static bool uses_devices(int g)
{
	return g >= 1 && g <= 4;	/* port, eth, fabric, resources */
}

struct group_arg {
	struct job *job;
	int g;
};

static double now_s(void)
{
	return (double)tool_mono_ns() / 1e9;
}

static void job_put(struct job *j)
{
	int i, left;

	pthread_mutex_lock(&j->m);
	left = --j->refs;
	pthread_mutex_unlock(&j->m);
	if (left)
		return;
	for (i = 0; i < COL_N; i++)
		free(j->part[i].buf);
	rdiag_counters_devices_free(j->ds);
	pthread_cond_destroy(&j->cv);
	pthread_mutex_destroy(&j->m);
	free(j);
}

/* agent_devices_fn of the groups that wait for the port group's discovery */
static int wait_devices(void *arg, const struct rdiag_devices **ds, char *why, size_t len)
{
	struct job *j = arg;
	int r = 0;

	pthread_mutex_lock(&j->m);
	while (!j->ds_done && r != ETIMEDOUT)
		r = pthread_cond_timedwait(&j->cv, &j->m, &j->deadline);
	if (!j->ds_done) {
		pthread_mutex_unlock(&j->m);
		snprintf(why, len, "the device discovery did not end by the scrape's deadline");
		return -ETIMEDOUT;
	}
	*ds = j->ds;
	r = j->ds_err;
	snprintf(why, len, "%s", j->ds_why);
	pthread_mutex_unlock(&j->m);
	return r;
}

static void *run_group(void *arg)
{
	struct group_arg *ga = arg;
	struct job *j = ga->job;
	struct scrape *s = agent_scrape_state_new();
	int i, g = ga->g;

	free(ga);
	if (s && g == DISCOVERY_GROUP) {
		struct rdiag_devices *ds = NULL;
		char why[256];
		int r = agent_discover(s, &ds, why, sizeof(why));

		pthread_mutex_lock(&j->m);
		j->ds = ds;
		j->ds_err = r;
		snprintf(j->ds_why, sizeof(j->ds_why), "%s", why);
		j->ds_done = true;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->m);
		agent_scrape_state_share(s, wait_devices, j);
	} else if (s && uses_devices(g)) {
		agent_scrape_state_share(s, wait_devices, j);
	}
	for (i = 0; i < COL_N; i++) {
		struct part p = { 0 };
		double t0 = now_s();
		FILE *f;

		if (!j->enabled[i] || group_of[i] != g)
			continue;
		f = open_memstream(&p.buf, &p.len);
		if (!s || !f) {
			p.r = -ENOMEM;
			snprintf(p.why, sizeof(p.why), "out of memory");
		} else {
			p.r = agent_collect(i, s, f, p.why, sizeof(p.why));
		}
		if (f && fclose(f) != 0 && p.r >= 0) {
			p.r = -ENOMEM;
			snprintf(p.why, sizeof(p.why), "out of memory");
		}
		p.took = now_s() - t0;
		p.done = true;
		pthread_mutex_lock(&j->m);
		j->part[i] = p;
		pthread_cond_broadcast(&j->cv);
		pthread_mutex_unlock(&j->m);
	}
	agent_scrape_state_free(s);
	if (g == DISCOVERY_GROUP) {
		/* a discovery that could not start (no memory) still ends the others' wait */
		pthread_mutex_lock(&j->m);
		if (!j->ds_done) {
			j->ds_done = true;
			j->ds_err = -ENOMEM;
			snprintf(j->ds_why, sizeof(j->ds_why), "out of memory");
			pthread_cond_broadcast(&j->cv);
		}
		pthread_mutex_unlock(&j->m);
	}
	atomic_fetch_sub(&running[g], 1);
	job_put(j);
	return NULL;
}

/* a collector's failure is logged when its reason changes, its recovery once */
static pthread_mutex_t said_lock = PTHREAD_MUTEX_INITIALIZER;
static char said[COL_N][256];

static void judge(int i, int r, const char *why)
{
	char now[256];

	snprintf(now, sizeof(now), "%s", r < 0 ? (why[0] ? why : strerror(-r)) : "");
	pthread_mutex_lock(&said_lock);
	if (strcmp(now, said[i])) {
		if (r < 0)
			agent_log(LOG_WARN, "collector %s failed: %s (it reports "
				  "rdma_scrape_collector_success 0 until this changes)",
				  agent_collector_name(i), now);
		else
			agent_log(LOG_INFO, "collector %s works again", agent_collector_name(i));
		snprintf(said[i], sizeof(said[i]), "%s", now);
	}
	pthread_mutex_unlock(&said_lock);
}

void agent_collector_failed(enum agent_collector c, const char *why)
{
	judge(c, -EIO, why);
}

/* start a thread per group with an enabled collector; a group with max threads still
 * stuck gets none, its collectors' parts say so */
static void start_groups(struct job *j, const struct agent_cfg *cfg)
{
	pthread_attr_t at;
	int g, i;

	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&at, 512 * 1024);
	for (g = 0; g < NGROUP; g++) {
		struct group_arg *ga;
		const char *why = NULL;
		pthread_t t;
		bool any = false;

		for (i = 0; i < COL_N; i++)
			any |= j->enabled[i] && (group_of[i] == g ||
				(g == DISCOVERY_GROUP && uses_devices(group_of[i])));
		if (!any)
			continue;
		if (atomic_fetch_add(&running[g], 1) >= cfg->max_requests) {
			atomic_fetch_sub(&running[g], 1);
			why = "not started: its earlier runs are still stuck";
		} else if (!(ga = malloc(sizeof(*ga)))) {
			atomic_fetch_sub(&running[g], 1);
			why = "out of memory";
		} else {
			ga->job = j;
			ga->g = g;
			pthread_mutex_lock(&j->m);
			j->refs++;
			pthread_mutex_unlock(&j->m);
			if (pthread_create(&t, &at, run_group, ga) == 0)
				continue;
			free(ga);
			atomic_fetch_sub(&running[g], 1);
			pthread_mutex_lock(&j->m);
			j->refs--;
			pthread_mutex_unlock(&j->m);
			why = "cannot start a thread";
		}
		pthread_mutex_lock(&j->m);
		for (i = 0; i < COL_N; i++)
			if (j->enabled[i] && group_of[i] == g) {
				j->part[i].done = true;
				j->part[i].r = -EAGAIN;
				snprintf(j->part[i].why, sizeof(j->part[i].why), "%s", why);
			}
		if (g == DISCOVERY_GROUP) {
			j->ds_done = true;
			j->ds_err = -EAGAIN;
			snprintf(j->ds_why, sizeof(j->ds_why), "device discovery %s", why);
			pthread_cond_broadcast(&j->cv);
		}
		pthread_mutex_unlock(&j->m);
	}
	pthread_attr_destroy(&at);
}

static bool all_done(const struct job *j)
{
	int i;

	for (i = 0; i < COL_N; i++)
		if (j->enabled[i] && !j->part[i].done)
			return false;
	return true;
}

int agent_scrape(const struct agent_cfg *cfg, char **out, size_t *len)
{
	struct job *j = calloc(1, sizeof(*j));
	double start = now_s(), took[COL_N] = { 0 };
	int ok[COL_N] = { 0 }, i;
	pthread_condattr_t ca;
	struct timespec dl;
	uint64_t dl_ns;
	FILE *f;

	*out = NULL;
	*len = 0;
	if (!j)
		return -ENOMEM;
	pthread_mutex_init(&j->m, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&j->cv, &ca);
	pthread_condattr_destroy(&ca);
	j->refs = 1;
	memcpy(j->enabled, cfg->enabled, sizeof(j->enabled));
	f = open_memstream(out, len);
	if (!f) {
		job_put(j);
		return -ENOMEM;
	}
	dl_ns = tool_mono_ns() + (uint64_t)(cfg->scrape_timeout_s * 1e9);
	dl.tv_sec = (time_t)(dl_ns / 1000000000u);
	dl.tv_nsec = (long)(dl_ns % 1000000000u);
	j->deadline = dl;
	start_groups(j, cfg);

	pthread_mutex_lock(&j->m);
	while (!all_done(j) && pthread_cond_timedwait(&j->cv, &j->m, &dl) != ETIMEDOUT)
		;
	/* in collector order, what is done; the rest reported failed */
	for (i = 0; i < COL_N; i++) {
		struct part *p = &j->part[i];

		if (!j->enabled[i])
			continue;
		if (!p->done) {
			took[i] = now_s() - start;
			snprintf(p->why, sizeof(p->why), "still running at the scrape's %.3g s "
				 "deadline (--scrape.timeout): a read is slow or stuck",
				 cfg->scrape_timeout_s);
			p->r = -ETIMEDOUT;
		} else {
			took[i] = p->took;
			if (p->buf)
				fwrite(p->buf, 1, p->len, f);
		}
		ok[i] = p->r >= 0;
		judge(i, p->r, p->why);
		if (!p->done)
			p->why[0] = '\0';	/* the group thread writes the part when it ends */
	}
	pthread_mutex_unlock(&j->m);
	job_put(j);

	fputs("# HELP rdma_scrape_collector_success 1 when the collector read what it exports "
	      "in this scrape\n# TYPE rdma_scrape_collector_success gauge\n", f);
	for (i = 0; i < COL_N; i++)
		if (cfg->enabled[i])
			fprintf(f, "rdma_scrape_collector_success{collector=\"%s\"} %d\n",
				agent_collector_name(i), ok[i]);
	fputs("# HELP rdma_scrape_collector_duration_seconds How long the collector took in "
	      "this scrape (to the deadline for one still running)\n"
	      "# TYPE rdma_scrape_collector_duration_seconds gauge\n", f);
	for (i = 0; i < COL_N; i++)
		if (cfg->enabled[i])
			fprintf(f, "rdma_scrape_collector_duration_seconds{collector=\"%s\"} %.9f\n",
				agent_collector_name(i), took[i]);
	fprintf(f, "# HELP rdma_build_info The rdmadiag version of this agent (value 1)\n"
		"# TYPE rdma_build_info gauge\nrdma_build_info{version=\"%s\"} 1\n", RDIAG_VERSION);
	if (fclose(f) != 0) {
		free(*out);
		*out = NULL;
		return -ENOMEM;
	}
	return 0;
}
