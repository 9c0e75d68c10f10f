/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* What a request asks for, from the fields libmicrohttpd parsed (agent.h): which page its
 * method and URL name, whether it may skip the credentials, and which exposition its Accept
 * header prefers.  No libmicrohttpd here: tests/fuzz/fuzz_httpreq.c drives these alone. */
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "agent.h"

enum agent_route agent_route(const char *method, const char *url)
{
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return ROUTE_BAD_METHOD;
	if (!strcmp(url, "/metrics"))
		return ROUTE_METRICS;
	if (!strcmp(url, "/healthz"))
		return ROUTE_HEALTHZ;
	if (!strcmp(url, "/"))
		return ROUTE_LANDING;
	return ROUTE_NOT_FOUND;
}

bool agent_route_open(const char *url)
{
	return !strcmp(url, "/healthz");
}

/* the first c in [p, end), or NULL */
static const char *find(const char *p, const char *end, char c)
{
	return p < end ? memchr(p, c, (size_t)(end - p)) : NULL;
}

static const char *ows(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* RFC 9110 12.4.2 qvalue: "0" ["." 0-3 digits] or "1" ["." 0-3 zeros], in thousandths;
 * -1 when [p, end) is not one */
static int qvalue(const char *p, const char *end)
{
	int v, k;

	if (p == end || (*p != '0' && *p != '1'))
		return -1;
	v = (*p++ - '0') * 1000;
	if (p < end && *p == '.') {
		for (p++, k = 100; p < end && k && *p >= '0' && *p <= '9'; p++, k /= 10)
			v += (*p - '0') * k;
	}
	return p == end && v <= 1000 ? v : -1;
}

/* the weight of one element [p, end) of Accept (type/subtype and parameters), in
 * thousandths (1000 without q=), -1 when its q is not a qvalue; *type, *tlen its media range */
static int element(const char *p, const char *end, const char **type, size_t *tlen)
{
	const char *semi, *e;
	int q = 1000;

	p = ows(p, end);
	semi = find(p, end, ';');
	e = semi ? semi : end;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	*type = p;
	*tlen = (size_t)(e - p);
	while (semi) {
		const char *n = semi + 1, *pe;

		semi = find(n, end, ';');
		pe = semi ? semi : end;
		n = ows(n, pe);
		while (pe > n && (pe[-1] == ' ' || pe[-1] == '\t'))
			pe--;
		if (pe - n >= 2 && (n[0] == 'q' || n[0] == 'Q') && n[1] == '=')
			q = qvalue(n + 2, pe);
		if (q < 0)
			return -1;
	}
	return q;
}

static bool is(const char *t, size_t len, const char *want)
{
	return len == strlen(want) && !strncasecmp(t, want, len);
}

bool agent_accepts_openmetrics(const char *accept)
{
	const char *p = accept, *end;
	int om = -1, text = -1;

	if (!accept)
		return false;
	end = accept + strlen(accept);
	while (p <= end) {
		const char *comma = find(p, end, ','), *e = comma ? comma : end;
		const char *t;
		size_t tl;
		int q = element(p, e, &t, &tl);

		if (q >= 0 && is(t, tl, "application/openmetrics-text") && q > om)
			om = q;
		else if (q >= 0 && (is(t, tl, "text/plain") || is(t, tl, "text/*") ||
				    is(t, tl, "*/*")) && q > text)
			text = q;
		p = e + 1;
	}
	return om > 0 && om >= text;
}
