/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: what the agent decides from a request's fields itself
 * (tools/rdmadiag_exporter/route.c).  libmicrohttpd parses the HTTP (request line, headers,
 * the Authorization header's base64); the agent's own code then routes the method and URL,
 * lets /healthz through without credentials, and negotiates the exposition from Accept.
 *
 * Input: "METHOD\nURL\nACCEPT" (the rest of the input is the Accept value, newlines and all:
 * libmicrohttpd folds nothing into it, but nothing here may assume so).  Invariants: a route
 * in range, GET and HEAD alone served and the pages exactly /metrics, /healthz and /; only
 * /healthz open; OpenMetrics never chosen unless Accept names it (case aside), always chosen
 * for it alone, and the same answer for the header with an element "text/plain;q=0" added
 * (a weight of 0 is "not acceptable": it changes nothing). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rdmadiag_exporter/agent.h"

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the next field of [*p, end) up to '\n' (last: the rest), as a NUL-terminated copy */
static char *field(const uint8_t **p, const uint8_t *end, bool last)
{
	const uint8_t *nl = last ? NULL : memchr(*p, '\n', (size_t)(end - *p));
	size_t len = (size_t)((nl ? nl : end) - *p);
	char *s = malloc(len + 1);

	memcpy(s, *p, len);
	s[len] = '\0';
	*p = nl ? nl + 1 : end;
	return s;
}

static bool names_om(const char *a)
{
	static const char om[] = "application/openmetrics-text";
	size_t n = strlen(om);

	for (; *a; a++)
		if (!strncasecmp(a, om, n))
			return true;
	return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	char *method, *url, *accept, *more;
	enum agent_route r;
	bool om;
	size_t al;

	if (size > 8192)
		return 0;
	method = field(&p, end, false);
	url = field(&p, end, false);
	accept = field(&p, end, true);

	r = agent_route(method, url);
	CHECK(r >= ROUTE_METRICS && r <= ROUTE_BAD_METHOD);
	CHECK((r == ROUTE_BAD_METHOD) == (strcmp(method, "GET") && strcmp(method, "HEAD")));
	if (r != ROUTE_BAD_METHOD) {
		CHECK((r == ROUTE_METRICS) == !strcmp(url, "/metrics"));
		CHECK((r == ROUTE_HEALTHZ) == !strcmp(url, "/healthz"));
		CHECK((r == ROUTE_LANDING) == !strcmp(url, "/"));
	}
	CHECK(agent_route_open(url) == !strcmp(url, "/healthz"));
	CHECK(agent_route(method, url) == r);

	om = agent_accepts_openmetrics(accept);
	CHECK(!om || names_om(accept));
	CHECK(agent_accepts_openmetrics(accept) == om);
	CHECK(!agent_accepts_openmetrics(NULL));
	CHECK(agent_accepts_openmetrics("application/openmetrics-text"));
	/* ", text/plain;q=0" added: an element that is not acceptable weighs nothing */
	al = strlen(accept);
	more = malloc(al + 32);
	memcpy(more, accept, al);
	memcpy(more + al, ",text/plain;q=0", sizeof(",text/plain;q=0"));
	CHECK(agent_accepts_openmetrics(more) == om);
	free(more);
	free(method);
	free(url);
	free(accept);
	return 0;
}
