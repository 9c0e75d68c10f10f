/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag_exporter: the node agent.  Serves the RDMA counters, the vendor-neutral concept
 * families, the ports, the Ethernet side, the RoCE lossless chain and the resources to
 * Prometheus over HTTP (rdmadiag_exporter(8)).  The main thread reads the options, opens
 * the listening socket, starts the HTTP server and then only waits for signals: SIGTERM and
 * SIGINT end it cleanly, SIGHUP re-reads --web.config.file (TLS and basic auth): the new
 * settings serve the new connections, or the old ones stay when the file is wrong. */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/tool.h"
#include "agent.h"

static void usage(void)
{
	printf("Usage: rdmadiag_exporter [OPTION]...\n"
	       "Serve RDMA counters, ports, the RoCE lossless chain and resources to Prometheus.\n\n"
	       "      --web.listen-address=ADDR  listen on ADDR (default :%d, every address)\n"
	       "      --web.config.file=FILE     TLS and basic auth settings (exporter-toolkit's\n"
	       "                                 format); SIGHUP reads it again\n"
	       "      --web.max-requests=N       scrapes served at once (default 4; more get 503)\n"
	       "      --web.max-connections=N    connections held at once (default 64)\n"
	       "      --web.timeout=SECONDS      drop a client idle this long (default 10)\n"
	       "      --scrape.timeout=SECONDS   per-scrape deadline (default 10)\n"
	       "      --no-collector.port, --no-collector.counters, --no-collector.concepts,\n"
	       "      --no-collector.eth, --no-collector.fabric, --no-collector.resources,\n"
	       "      --no-collector.connections\n"
	       "                                 turn one collector off (all are on by default)\n"
	       "      --collector.port, --collector.counters, --collector.concepts,\n"
	       "      --collector.eth, --collector.fabric, --collector.resources,\n"
	       "      --collector.connections\n"
	       "                                 turn it on again (the last option wins)\n"
	       "      --sysfs-root=DIR           read sysfs under DIR (a fixture tree)\n"
	       "      --log.level=LEVEL          error, warn, info (default) or debug\n"
	       "  -h, --help                     this help\n"
	       "  -V, --version                  the version\n\n"
	       "Endpoints: /metrics (text 0.0.4, OpenMetrics 1.0 on request), /healthz, /.\n"
	       "Exit status: 0 stopped by SIGTERM/SIGINT, 1 cannot listen or serve, 2 usage\n"
	       "or a wrong --web.config.file.\n",
	       AGENT_DEFAULT_PORT);
}

enum {
	OPT_LISTEN = 256,
	OPT_MAX_REQ,
	OPT_MAX_CONN,
	OPT_WEB_TIMEOUT,
	OPT_SCRAPE_TIMEOUT,
	OPT_SYSFS,
	OPT_LOG,
	OPT_WEB_CONFIG,
	OPT_COL_ON = 512,		/* + collector */
	OPT_COL_OFF = 640,		/* + collector */
};

static unsigned int parse_uint(const char *opt, const char *s, unsigned int min, unsigned int max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max || *s == '-' || *s == '+')
		tool_usage_error("invalid %s '%s': want a whole number %u..%u", opt, s, min, max);
	return (unsigned int)v;
}

static double parse_secs(const char *opt, const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !(v > 0) || v > 3600)
		tool_usage_error("invalid %s '%s': want seconds, more than 0, at most 3600", opt, s);
	return v;
}

static int load_web_config(const char *path, struct agent_webcfg **wc, char *err,
			   size_t errlen)
{
	if (agent_webcfg_load(path, wc, err, errlen) < 0)
		return -1;
	if (agent_http_supports(*wc, err, errlen) < 0) {
		agent_webcfg_free(*wc);
		*wc = NULL;
		return -1;
	}
	return 0;
}

/* SIGHUP: the file again; the old settings stay unless all of the new one is good */
static void reload(const char *path)
{
	struct agent_webcfg *wc;
	char err[512], what[160];

	if (!path) {
		agent_log(LOG_INFO, "SIGHUP: no --web.config.file to re-read");
		return;
	}
	if (load_web_config(path, &wc, err, sizeof(err)) < 0) {
		agent_log(LOG_ERROR, "SIGHUP: %s; the previous web config stays", err);
		return;
	}
	agent_webcfg_describe(wc, what, sizeof(what));
	if (agent_http_reload(wc, err, sizeof(err)) < 0) {
		agent_webcfg_free(wc);
		agent_log(LOG_ERROR, "SIGHUP: web config '%s': %s; the previous one stays", path,
			  err);
		return;
	}
	agent_log(LOG_INFO, "SIGHUP: web config '%s' reloaded: %s", path, what);
}

int main(int argc, char **argv)
{
	struct option lo[40] = {
		{ "web.listen-address", required_argument, NULL, OPT_LISTEN },
		{ "web.max-requests", required_argument, NULL, OPT_MAX_REQ },
		{ "web.max-connections", required_argument, NULL, OPT_MAX_CONN },
		{ "web.timeout", required_argument, NULL, OPT_WEB_TIMEOUT },
		{ "scrape.timeout", required_argument, NULL, OPT_SCRAPE_TIMEOUT },
		{ "sysfs-root", required_argument, NULL, OPT_SYSFS },
		{ "log.level", required_argument, NULL, OPT_LOG },
		{ "web.config.file", required_argument, NULL, OPT_WEB_CONFIG },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
	};
	static char names[COL_N][2][48];
	struct agent_cfg cfg = { .max_requests = 4, .scrape_timeout_s = 10,
				 .conn_timeout_s = 10, .max_conns = 64 };
	const char *listen_addr = NULL, *web_config = NULL;
	struct agent_webcfg *wc = NULL;
	char def_addr[16], err[512], where[128];
	size_t nlo = 10;
	struct rlimit rl;
	sigset_t set;
	int i, opt, fd, sig;

	tool_init("rdmadiag_exporter", argv);
	for (i = 0; i < COL_N; i++) {
		cfg.enabled[i] = true;
		snprintf(names[i][0], sizeof(names[i][0]), "collector.%s", agent_collector_name(i));
		snprintf(names[i][1], sizeof(names[i][1]), "no-collector.%s",
			 agent_collector_name(i));
		lo[nlo++] = (struct option){ names[i][0], no_argument, NULL, OPT_COL_ON + i };
		lo[nlo++] = (struct option){ names[i][1], no_argument, NULL, OPT_COL_OFF + i };
	}
	while ((opt = getopt_long(argc, argv, "hV", lo, NULL)) != -1) {
		if (opt >= OPT_COL_ON && opt < OPT_COL_ON + COL_N) {
			cfg.enabled[opt - OPT_COL_ON] = true;
			continue;
		}
		if (opt >= OPT_COL_OFF && opt < OPT_COL_OFF + COL_N) {
			cfg.enabled[opt - OPT_COL_OFF] = false;
			continue;
		}
		switch (opt) {
		case OPT_LISTEN: listen_addr = optarg; break;
		case OPT_WEB_CONFIG: web_config = optarg; break;
		case OPT_MAX_REQ:
			cfg.max_requests = parse_uint("--web.max-requests", optarg, 1, 1024);
			break;
		case OPT_MAX_CONN:
			cfg.max_conns = parse_uint("--web.max-connections", optarg, 1, 65536);
			break;
		case OPT_WEB_TIMEOUT:
			cfg.conn_timeout_s = parse_uint("--web.timeout", optarg, 1, 3600);
			break;
		case OPT_SCRAPE_TIMEOUT:
			cfg.scrape_timeout_s = parse_secs("--scrape.timeout", optarg);
			break;
		case OPT_SYSFS:
			if (access(optarg, R_OK | X_OK) < 0)
				tool_usage_error("cannot read --sysfs-root '%s': %s", optarg,
						 strerror(errno));
			setenv("RDMADIAG_SYSFS_ROOT", optarg, 1);
			break;
		case OPT_LOG:
			if (!strcmp(optarg, "error"))
				agent_log_level = LOG_ERROR;
			else if (!strcmp(optarg, "warn"))
				agent_log_level = LOG_WARN;
			else if (!strcmp(optarg, "info"))
				agent_log_level = LOG_INFO;
			else if (!strcmp(optarg, "debug"))
				agent_log_level = LOG_DEBUG;
			else
				tool_usage_error("invalid --log.level '%s': want error, warn, info "
						 "or debug", optarg);
			break;
		case 'h': usage(); return EXIT_OK;
		case 'V': tool_version(); return EXIT_OK;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", tool_name());
			return EXIT_USAGE;
		}
	}
	if (optind < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind]);
	if (!listen_addr) {
		snprintf(def_addr, sizeof(def_addr), ":%d", AGENT_DEFAULT_PORT);
		listen_addr = def_addr;
	}

	/* two malloc arenas, not glibc's eight a CPU: every scrape runs a connection thread and
	 * a thread per collector group, and each new thread that met a busy arena made another
	 * that stays (the soak saw the RSS step up by a MiB after a round of concurrent
	 * scrapes); an agent on every host of a fleet should stay small and flat */
	mallopt(M_ARENA_MAX, 2);
	/* the kept counter descriptors (a quarter of the limit per handle, lib/counters) and
	 * the connections: the hard limit, as a service manager allows it */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	/* the HTTP threads inherit this mask: the signals come to sigwait() below only */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &set, NULL);

	/* a wrong file is a configuration error, exit 2 (node_exporter says it and exits 1),
	 * found before the port is taken */
	if (web_config && load_web_config(web_config, &wc, err, sizeof(err)) < 0) {
		tool_err("%s", err);
		return EXIT_USAGE;
	}
	fd = agent_listen(listen_addr, err, sizeof(err));
	if (fd < 0) {
		tool_err("%s", err);
		agent_webcfg_free(wc);
		return EXIT_FOUND;
	}
	if (agent_http_start(fd, &cfg, wc, err, sizeof(err)) < 0) {
		tool_err("%s", err);
		close(fd);
		return EXIT_FOUND;
	}
	/* the trace runs from the start: a connection is counted when it happens, not when
	 * a scrape comes */
	if (cfg.enabled[COL_CONNECTIONS] && agent_conns_start(err, sizeof(err)) < 0)
		agent_collector_failed(COL_CONNECTIONS, err);
	if (wc) {
		agent_webcfg_describe(wc, err, sizeof(err));
		agent_log(LOG_INFO, "web config '%s': %s", web_config, err);
	}
	agent_sockname(fd, where, sizeof(where));
	/* tests and operators wait for this line: the socket is listening when it is written */
	agent_log(LOG_INFO, "listening on %s", where);
	for (;;) {
		/* while a replaced HTTP server drains, look at it every 100 ms */
		if (agent_http_drain()) {
			struct timespec ts = { 0, 100 * 1000 * 1000 };

			sig = sigtimedwait(&set, NULL, &ts);
			if (sig < 0)
				continue;
		} else if (sigwait(&set, &sig) != 0) {
			continue;
		}
		if (sig == SIGHUP) {
			reload(web_config);
			continue;
		}
		if (sig == SIGPIPE)
			continue;
		break;
	}
	agent_log(LOG_INFO, "%s: stopping", strsignal(sig));
	agent_http_stop();
	agent_conns_stop();
	agent_counters_pool_drain();
	close(fd);
	return EXIT_OK;
}
