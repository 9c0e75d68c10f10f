/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The HTTP side, libmicrohttpd's (rdmadiag_exporter(8), HTTP): GET /metrics, GET / and
 * GET /healthz; HEAD too; anything else 404 or 405.  A thread per connection with a bound on
 * connections, an idle timeout that drops slow clients, libmicrohttpd's own header and URL
 * limits (a request that does not fit its 32 KiB per connection is refused), and a bound on
 * scrapes at once: a scrape over it gets 503 at once rather than queueing.  /healthz never
 * waits for a scrape. */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>

#include "agent.h"

#define CT_TEXT "text/plain; version=0.0.4; charset=utf-8"
#define CT_OM "application/openmetrics-text; version=1.0.0; charset=utf-8"

static struct MHD_Daemon *daemon_;
static const struct agent_cfg *cfg_;
static atomic_uint scrapes;

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int code, const char *type,
			     char *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body, mode);
	enum MHD_Result ret;

	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_static(struct MHD_Connection *c, unsigned int code,
				    const char *type, const char *body)
{
	return reply(c, code, type, (char *)body, strlen(body), MHD_RESPMEM_PERSISTENT);
}

static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *acc = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
						      MHD_HTTP_HEADER_ACCEPT);

	return acc && strstr(acc, "application/openmetrics-text");
}

static enum MHD_Result metrics(struct MHD_Connection *c)
{
	char *text = NULL, *om;
	size_t len = 0, omlen = 0;
	unsigned int n = atomic_fetch_add(&scrapes, 1);
	int r;

	if (n >= cfg_->max_requests) {
		atomic_fetch_sub(&scrapes, 1);
		agent_log(LOG_WARN, "scrape refused: %u already running (--web.max-requests)", n);
		return reply_static(c, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain; charset=utf-8",
				    "too many scrapes at once (--web.max-requests)\n");
	}
	r = agent_scrape(cfg_, &text, &len);
	atomic_fetch_sub(&scrapes, 1);
	if (r < 0)
		return reply_static(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
				    "out of memory\n");
	if (!wants_openmetrics(c))
		return reply(c, MHD_HTTP_OK, CT_TEXT, text, len, MHD_RESPMEM_MUST_FREE);
	om = agent_openmetrics(text, len, &omlen);
	free(text);
	if (!om)
		return reply_static(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8",
				    "out of memory\n");
	return reply(c, MHD_HTTP_OK, CT_OM, om, omlen, MHD_RESPMEM_MUST_FREE);
}

static const char landing[] =
	"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>rdmadiag_exporter</title>"
	"</head>\n<body><h1>rdmadiag_exporter " RDIAG_VERSION "</h1>\n"
	"<p>RDMA counters, ports, the RoCE lossless chain and resources for Prometheus.</p>\n"
	"<ul><li><a href=\"/metrics\">/metrics</a></li>\n"
	"<li><a href=\"/healthz\">/healthz</a></li></ul>\n</body></html>\n";

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	static int first;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD)) {
		static const char msg[] = "method not allowed\n";
		struct MHD_Response *r = MHD_create_response_from_buffer(
			sizeof(msg) - 1, (void *)msg, MHD_RESPMEM_PERSISTENT);
		enum MHD_Result ret;

		if (!r)
			return MHD_NO;
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
		ret = MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, r);
		MHD_destroy_response(r);
		return ret;
	}
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
	if (!strcmp(url, "/metrics"))
		return metrics(c);
	if (!strcmp(url, "/healthz"))
		return reply_static(c, MHD_HTTP_OK, "text/plain; charset=utf-8", "ok\n");
	if (!strcmp(url, "/"))
		return reply_static(c, MHD_HTTP_OK, "text/html; charset=utf-8", landing);
	return reply_static(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8", "not found\n");
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

int agent_http_start(int fd, const struct agent_cfg *cfg, char *err, size_t errlen)
{
	cfg_ = cfg;
	/* poll(), not select(): the kept counter descriptors put sockets past FD_SETSIZE */
	daemon_ = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION |
				   MHD_USE_POLL |
				   MHD_USE_ERROR_LOG | MHD_USE_ITC, 0, NULL, NULL, handle, NULL,
				   MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				   MHD_OPTION_LISTEN_SOCKET, fd,
				   MHD_OPTION_CONNECTION_LIMIT, cfg->max_conns,
				   MHD_OPTION_CONNECTION_TIMEOUT, cfg->conn_timeout_s,
				   MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
				   MHD_OPTION_THREAD_STACK_SIZE, (size_t)256 * 1024,
				   MHD_OPTION_END);
	if (!daemon_) {
		snprintf(err, errlen, "cannot start the HTTP server (libmicrohttpd)");
		return -1;
	}
	return 0;
}

void agent_http_stop(void)
{
	if (daemon_)
		MHD_stop_daemon(daemon_);
	daemon_ = NULL;
}
