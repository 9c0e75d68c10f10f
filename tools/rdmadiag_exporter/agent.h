/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag_exporter: the node agent's shared state (rdmadiag_exporter(8)).  main.c reads the
 * options and runs the signal loop, listen.c opens the listening socket, http.c answers
 * requests through libmicrohttpd, scrape.c runs a scrape's collectors in threads by its
 * deadline, collect.c has the collectors, openmetrics.c turns the text exposition into
 * OpenMetrics, conns.c traces the connections, webconfig.c reads --web.config.file (TLS,
 * basic auth), log.c writes the log lines. */
#ifndef RDIAG_AGENT_H
#define RDIAG_AGENT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AGENT_DEFAULT_PORT 14791

enum agent_collector {
	COL_PORT,
	COL_COUNTERS,
	COL_CONCEPTS,
	COL_ETH,
	COL_FABRIC,
	COL_RESOURCES,
	COL_CONNECTIONS,
	COL_N,
};

struct agent_cfg {
	bool enabled[COL_N];
	unsigned int max_requests;	/* scrapes served at once */
	double scrape_timeout_s;	/* per-scrape deadline */
	unsigned int conn_timeout_s;	/* an idle or slow client is dropped after this */
	unsigned int max_conns;		/* connections held at once */
};

/* the collectors' names, in exposition order */
const char *agent_collector_name(enum agent_collector c);
/* a name -> the collector, or -1 */
int agent_collector_find(const char *name);

/* log that collector c fails for why (once: the scrapes log it again only when the reason
 * changes) */
void agent_collector_failed(enum agent_collector c, const char *why);

/* the collectors (collect.c): a group's shared reads in one scrape (_new, _free), and one
 * collector run into f: 0, or -errno with why */
struct scrape;
struct rdiag_devices;
struct scrape *agent_scrape_state_new(void);
/* the scrape's one device discovery, for the collectors that need it: fn gives the devices
 * (0) or why not (-errno); agent_discover runs it on s and hands it over (the caller frees
 * it with rdiag_counters_devices_free) */
typedef int (*agent_devices_fn)(void *arg, const struct rdiag_devices **ds, char *why,
				size_t len);
void agent_scrape_state_share(struct scrape *s, agent_devices_fn fn, void *arg);
int agent_discover(struct scrape *s, struct rdiag_devices **ds, char *why, size_t len);
/* close the counters handles kept between scrapes (at exit) */
void agent_counters_pool_drain(void);
void agent_scrape_state_free(struct scrape *s);
int agent_collect(enum agent_collector c, struct scrape *s, FILE *f, char *why, size_t len);

/* one scrape (scrape.c): the text exposition 0.0.4 of every enabled collector into a
 * malloc'ed buffer (*out, *len; the caller frees); 0 or -ENOMEM */
int agent_scrape(const struct agent_cfg *cfg, char **out, size_t *len);

/* text exposition 0.0.4 -> OpenMetrics 1.0 (TYPE/HELP on the family names, counters without
 * _total there, info metrics, # UNIT, # EOF): a malloc'ed buffer, or NULL */
char *agent_openmetrics(const char *text, size_t len, size_t *out_len);

/* the connections collector (conns.c): start its trace thread (0, or -errno with the
 * reason kept for the scrapes), write its families (0, or -errno and why), stop it */
int agent_conns_start(char *why, size_t len);
int agent_conns_write(FILE *f, char *why, size_t len);
void agent_conns_stop(void);

/* the listening socket for ADDR ("[::]:14791", ":14791", "127.0.0.1:9000", "host:port"):
 * a bound, listening fd, or -1 with why in err */
int agent_listen(const char *addr, char *err, size_t errlen);
/* "ADDR:PORT" the fd listens on */
void agent_sockname(int fd, char *buf, size_t len);

/* --web.config.file, read (webconfig.c): what the HTTP server serves with */
struct agent_user;
struct agent_webcfg {
	char *path;			/* the file, as given */
	bool tls;
	char *cert_path, *key_path, *ca_path;	/* resolved from the file's directory */
	char *cert_pem, *key_pem, *ca_pem;	/* their contents, NUL-terminated */
	bool verify_client;		/* RequireAndVerifyClientCert */
	int min_version, max_version;	/* 12, 13, or 0 for the default (1.2 .. 1.3) */
	char priorities[64];		/* the GnuTLS priority string they make */
	struct agent_user *users;	/* basic_auth_users */
	size_t nusers;
};

/* read and check the file (the TLS files too): 0 and *out, or -1 with one line in err
 * ("web config 'FILE': line N: ...").  A key file readable by others is a warning logged. */
int agent_webcfg_load(const char *path, struct agent_webcfg **out, char *err, size_t errlen);
void agent_webcfg_free(struct agent_webcfg *wc);
/* "TLS 1.2 and 1.3 with client certificates, basic auth (2 users)" */
void agent_webcfg_describe(const struct agent_webcfg *wc, char *buf, size_t len);
/* whether user's password pass matches its bcrypt hash (thread-safe; cached) */
bool agent_webcfg_auth(struct agent_webcfg *wc, const char *user, const char *pass);

/* a request (route.c), from what libmicrohttpd parsed: the page its method and URL ask for
 * (GET and HEAD only); whether the URL is served without credentials (/healthz, for probes);
 * whether Accept prefers OpenMetrics: application/openmetrics-text with a weight (q) above
 * 0 and not below that of text/plain or of the wildcards text/ANY and ANY/ANY (RFC 9110
 * 12.5.1; an element whose q is not a qvalue counts for nothing; NULL: no header, the text
 * format) */
enum agent_route {
	ROUTE_METRICS,
	ROUTE_HEALTHZ,
	ROUTE_LANDING,
	ROUTE_NOT_FOUND,
	ROUTE_BAD_METHOD,
};
enum agent_route agent_route(const char *method, const char *url);
bool agent_route_open(const char *url);
bool agent_accepts_openmetrics(const char *accept);

/* the HTTP server on the listening fd, with wc (NULL: plain HTTP, no passwords; the server
 * owns it from here): 0, or -1 with why in err */
int agent_http_start(int fd, const struct agent_cfg *cfg, struct agent_webcfg *wc,
		     char *err, size_t errlen);
/* whether this libmicrohttpd can serve wc (TLS, basic auth): 0, or -1 with why in err */
int agent_http_supports(const struct agent_webcfg *wc, char *err, size_t errlen);
/* SIGHUP: a new server with wc takes the new connections (it owns wc on success); the old
 * one stops accepting and drains (0), or the old one serves on (-1, why in err) */
int agent_http_reload(struct agent_webcfg *wc, char *err, size_t errlen);
/* stop the old servers whose connections have ended (or that are past their deadline);
 * whether one is still draining */
bool agent_http_drain(void);
void agent_http_stop(void);

enum agent_log_level { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };
extern enum agent_log_level agent_log_level;
void agent_log(enum agent_log_level lv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
