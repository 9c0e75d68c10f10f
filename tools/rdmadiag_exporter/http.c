/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The HTTP side, libmicrohttpd's (rdmadiag_exporter(8), HTTP): GET /metrics, GET / and
 * GET /healthz; HEAD too; anything else 404 or 405.  A thread per connection with a bound on
 * connections, an idle timeout that drops slow clients, libmicrohttpd's own header and URL
 * limits (a request that does not fit its 32 KiB per connection is refused), and a bound on
 * scrapes at once: a scrape over it gets 503 at once rather than queueing.  /healthz never
 * waits for a scrape.
 *
 * --web.config.file (webconfig.c): TLS through libmicrohttpd's GnuTLS, the client
 * certificate checked here against client_ca_file (403 without a good one), basic auth (401
 * and WWW-Authenticate).  /healthz asks for neither, so that probes need no secret.  SIGHUP
 * starts a new daemon on the same listening socket with the new settings and quiesces the
 * old one: it accepts nothing more, answers what it has with "Connection: close", and is
 * stopped once its connections are gone (agent_http_drain), so no scrape is cut. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>

#include "common/clock.h"
#include "agent.h"

#define CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define CT_OM "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* one libmicrohttpd daemon and the web configuration it serves with */
struct server {
	struct MHD_Daemon *d;
	struct agent_webcfg *wc;	/* NULL: plain HTTP, no passwords */
	int fd;				/* its own dup of the listening socket */
	atomic_bool draining;		/* replaced by SIGHUP: every answer closes */
	double deadline;		/* CLOCK_MONOTONIC s: stopped then even if busy */
	struct server *next;		/* the draining ones */
};

static struct server *cur, *old;
static int listen_fd = -1;
static const struct agent_cfg *cfg_;
static atomic_uint scrapes;

static double now_s(void)
{
	return (double)tool_mono_ns() / 1e9;
}

/* what every answer carries: its type, and "Connection: close" from a draining daemon */
static void headers(struct server *s, struct MHD_Response *r, const char *type)
{
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (atomic_load(&s->draining))
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONNECTION, "close");
}

static enum MHD_Result reply(struct server *s, struct MHD_Connection *c, unsigned int code,
			     const char *type, char *body, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	headers(s, r, type);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_static(struct server *s, struct MHD_Connection *c,
				    unsigned int code, const char *type, const char *body)
{
	return reply(s, c, code, type, (char *)body, strlen(body), MHD_RESPMEM_PERSISTENT);
}

static bool wants_openmetrics(struct MHD_Connection *c)
{
	return agent_accepts_openmetrics(MHD_lookup_connection_value(c, MHD_HEADER_KIND,
								     MHD_HTTP_HEADER_ACCEPT));
}

static enum MHD_Result metrics(struct server *s, struct MHD_Connection *c)
{
	char *text = NULL, *om;
	size_t len = 0, omlen = 0;
	unsigned int n = atomic_fetch_add(&scrapes, 1);
	int r;

	if (n >= cfg_->max_requests) {
		atomic_fetch_sub(&scrapes, 1);
		agent_log(LOG_WARN, "scrape refused: %u already running (--web.max-requests)", n);
		return reply_static(s, c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
				    "too many scrapes at once (--web.max-requests)\n");
	}
	r = agent_scrape(cfg_, &text, &len);
	atomic_fetch_sub(&scrapes, 1);
	if (r < 0)
		return reply_static(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
				    "out of memory\n");
	if (!wants_openmetrics(c))
		return reply(s, c, MHD_HTTP_OK, CT_TEXT, text, len, MHD_RESPMEM_MUST_FREE);
	om = agent_openmetrics(text, len, &omlen);
	free(text);
	if (!om)
		return reply_static(s, c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
				    "out of memory\n");
	return reply(s, c, MHD_HTTP_OK, CT_OM, om, omlen, MHD_RESPMEM_MUST_FREE);
}

static const char landing[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rdmadiag_exporter</title>"
	"</head>\n<body><h1>rdmadiag_exporter " RDIAG_VERSION "</h1>\n"
	"<p>RDMA counters, ports, the RoCE lossless chain and resources for Prometheus.</p>\n"
	"<ul><li><a href=\"/metrics\">/metrics</a></li>\n"
	"<li><a href=\"/healthz\">/healthz</a></li></ul>\n</body></html>\n";

/* RequireAndVerifyClientCert: the client's certificate chains to client_ca_file (the
 * daemon's trust list), is in its validity and may authenticate a TLS client */
static bool client_cert_ok(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(c, MHD_CONNECTION_INFO_GNUTLS_SESSION);
	gnutls_typed_vdata_st purpose = { .type = GNUTLS_DT_KEY_PURPOSE_OID,
					  .data = (unsigned char *)GNUTLS_KP_TLS_WWW_CLIENT };
	gnutls_datum_t why = { NULL, 0 };
	unsigned int status = 0;
	int r;

	if (!ci || !ci->tls_session)
		return false;
	r = gnutls_certificate_verify_peers((gnutls_session_t)ci->tls_session, &purpose, 1,
					    &status);
	if (r >= 0 && !status)
		return true;
	if (r < 0)
		agent_log(LOG_DEBUG, "client certificate refused: %s", gnutls_strerror(r));
	else if (gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &why,
							      0) >= 0) {
		agent_log(LOG_DEBUG, "client certificate refused: %s", (char *)why.data);
		gnutls_free(why.data);
	}
	return false;
}

static bool basic_auth_ok(struct server *s, struct MHD_Connection *c)
{
	char *pass = NULL, *user = MHD_basic_auth_get_username_password(c, &pass);
	bool ok = user && pass && agent_webcfg_auth(s->wc, user, pass);

	if (!ok)
		agent_log(LOG_DEBUG, "basic auth refused%s%s", user ? " for user " : "",
			  user ? user : "");
	if (pass) {
		gnutls_memset(pass, 0, strlen(pass));
		MHD_free(pass);
	}
	if (user)
		MHD_free(user);
	return ok;
}

/* 401 (basic auth) or 405 (the method): a fixed text and the header that goes with it */
static enum MHD_Result refuse(struct server *s, struct MHD_Connection *c, unsigned int code,
			      const char *msg)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(msg), (void *)msg,
								 MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	headers(s, r, "text/plain; charset=utf-8");
	if (code == MHD_HTTP_UNAUTHORIZED) {
		/* WWW-Authenticate: Basic realm="rdmadiag_exporter" */
		ret = MHD_queue_basic_auth_fail_response(c, "rdmadiag_exporter", r);
	} else {
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
		ret = MHD_queue_response(c, code, r);
	}
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	static int first;
	struct server *s = cls;
	enum agent_route route = agent_route(method, url);

	/* the credentials come before anything else is said, /healthz aside (probes) */
	if (!*state && s->wc && !agent_route_open(url)) {
		if (s->wc->verify_client && !client_cert_ok(c))
			return reply_static(s, c, MHD_HTTP_FORBIDDEN, "text/plain; charset=utf-8",
					    "a client certificate from client_ca_file is needed\n");
		if (s->wc->nusers && !basic_auth_ok(s, c))
			return refuse(s, c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n");
	}
	if (route == ROUTE_BAD_METHOD)
		return refuse(s, c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed\n");
	/* a GET with a body: read it all (nothing is done with it) before answering */
	if (!*state) {
		*state = &first;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	agent_log(LOG_DEBUG, "%s %s", method, url);
	switch (route) {
	case ROUTE_METRICS:
		return metrics(s, c);
	case ROUTE_HEALTHZ:
		return reply_static(s, c, MHD_HTTP_OK, "text/plain; charset=utf-8", "ok\n");
	case ROUTE_LANDING:
		return reply_static(s, c, MHD_HTTP_OK, "text/html; charset=utf-8", landing);
	default:
		return reply_static(s, c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
				    "not found\n");
	}
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char line[512];
	size_t n;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = '\0';
	agent_log(LOG_DEBUG, "http: %s", line);
}

static void server_free(struct server *s)
{
	if (s->d)
		MHD_stop_daemon(s->d);
	/* a quiesced daemon leaves its socket to us; a running one closes it itself */
	if (s->fd >= 0 && atomic_load(&s->draining))
		close(s->fd);
	agent_webcfg_free(s->wc);
	free(s);
}

static struct server *server_start(struct agent_webcfg *wc, char *err, size_t errlen)
{
	struct MHD_OptionItem tls[5];
	/* poll(), not select(): the kept counter descriptors put sockets past FD_SETSIZE */
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
			     MHD_USE_POLL | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	struct server *s = calloc(1, sizeof(*s));
	size_t nt = 0;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (wc && wc->tls) {
		flags |= MHD_USE_TLS;
		tls[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, wc->cert_pem };
		tls[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, wc->key_pem };
		tls[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_PRIORITIES, 0,
						     wc->priorities };
		if (wc->ca_pem)
			tls[nt++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_TRUST, 0,
							     wc->ca_pem };
	}
	tls[nt] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
	/* each daemon its own descriptor of the one socket: a quiesced daemon gives its own
	 * back, a stopped one closes its own, and the socket stays listening between them */
	s->fd = fcntl(listen_fd, F_DUPFD_CLOEXEC, 3);
	if (s->fd < 0) {
		snprintf(err, errlen, "cannot duplicate the listening socket: %s", strerror(errno));
		free(s);
		return NULL;
	}
	s->d = MHD_start_daemon(flags, 0, NULL, NULL, handle, s,
				MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				MHD_OPTION_LISTEN_SOCKET, s->fd,
				MHD_OPTION_CONNECTION_LIMIT, cfg_->max_conns,
				MHD_OPTION_CONNECTION_TIMEOUT, cfg_->conn_timeout_s,
				MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
				MHD_OPTION_THREAD_STACK_SIZE, (size_t)256 * 1024,
				MHD_OPTION_ARRAY, tls,
				MHD_OPTION_END);
	if (!s->d) {
		/* the dup is not closed here: whether libmicrohttpd closed it already on this
		 * path differs between its versions, and a second close could hit another
		 * thread's descriptor; one listening descriptor too many is harmless */
		snprintf(err, errlen, "cannot start the HTTP server (libmicrohttpd%s)",
			 wc && wc->tls ? ", TLS" : "");
		free(s);
		return NULL;
	}
	s->wc = wc;
	return s;
}

int agent_http_supports(const struct agent_webcfg *wc, char *err, size_t errlen)
{
	if (wc->tls && MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
		snprintf(err, errlen, "web config '%s': this libmicrohttpd is built without TLS "
			 "(MHD_FEATURE_TLS): cannot serve tls_server_config", wc->path);
		return -1;
	}
	if (wc->nusers && MHD_is_feature_supported(MHD_FEATURE_BASIC_AUTH) != MHD_YES) {
		snprintf(err, errlen, "web config '%s': this libmicrohttpd is built without basic "
			 "auth (MHD_FEATURE_BASIC_AUTH): cannot serve basic_auth_users", wc->path);
		return -1;
	}
	return 0;
}

int agent_http_start(int fd, const struct agent_cfg *cfg, struct agent_webcfg *wc,
		     char *err, size_t errlen)
{
	cfg_ = cfg;
	listen_fd = fd;
	cur = server_start(wc, err, errlen);
	return cur ? 0 : -1;
}

int agent_http_reload(struct agent_webcfg *wc, char *err, size_t errlen)
{
	struct server *n = server_start(wc, err, errlen);

	if (!n)
		return -1;
	/* both accept for a moment; then only the new one does */
	cur->fd = MHD_quiesce_daemon(cur->d);
	atomic_store(&cur->draining, true);
	/* a connection idle longer than --web.timeout is dropped, a scrape ends within
	 * --scrape.timeout: past both only a client that trickles bytes is left */
	cur->deadline = now_s() + cfg_->conn_timeout_s + cfg_->scrape_timeout_s + 1;
	cur->next = old;
	old = cur;
	cur = n;
	return 0;
}

bool agent_http_drain(void)
{
	struct server **pp = &old, *s;
	const union MHD_DaemonInfo *di;

	while ((s = *pp)) {
		di = MHD_get_daemon_info(s->d, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
		if ((di && di->num_connections == 0) || now_s() > s->deadline) {
			agent_log(LOG_DEBUG, "the previous HTTP server stopped (%u connections)",
				  di ? di->num_connections : 0);
			*pp = s->next;
			server_free(s);
			continue;
		}
		pp = &s->next;
	}
	return old != NULL;
}

void agent_http_stop(void)
{
	struct server *s;

	while ((s = old)) {
		old = s->next;
		server_free(s);
	}
	if (cur)
		server_free(cur);
	cur = NULL;
}
