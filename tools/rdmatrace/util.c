/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace: helpers shared by rdmatrace record and dump (see cmds.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "cmds.h"

const char *trace_addr_str(const struct sockaddr_storage *s, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];

	buf[0] = 0;
	if (s->ss_family == AF_INET) {
		const struct sockaddr_in *i = (const struct sockaddr_in *)s;

		inet_ntop(AF_INET, &i->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(i->sin_port));
	} else if (s->ss_family == AF_INET6) {
		const struct sockaddr_in6 *i = (const struct sockaddr_in6 *)s;

		inet_ntop(AF_INET6, &i->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(i->sin6_port));
	}
	return buf;
}

int trace_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	uint64_t mul = 1;

	if (!*s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	if (*end == 'k' || *end == 'K')
		mul = 1024, end++;
	else if (*end == 'M' || *end == 'm')
		mul = 1024 * 1024, end++;
	if (*end)
		return -EINVAL;
	if (v > UINT64_MAX / mul)
		return -ERANGE;
	*out = v * mul;
	return 0;
}

int trace_parse_time(const char *s, uint64_t *ns)
{
	struct tm tm;
	const char *p;
	char *end;
	uint64_t frac = 0, scale = 100000000;
	time_t t;

	if (strchr(s, 'T')) {
		memset(&tm, 0, sizeof(tm));
		p = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
		if (!p)
			return -EINVAL;
		if (*p == '.') {
			for (p++; *p >= '0' && *p <= '9'; p++) {
				frac += (uint64_t)(*p - '0') * scale;
				scale /= 10;
			}
		}
		if (strcmp(p, "Z"))
			return -EINVAL;
		t = timegm(&tm);
		if (t < 0)
			return -EINVAL;
		*ns = (uint64_t)t * 1000000000ull + frac;
		return 0;
	}
	{
		double d;

		if (!*s)
			return -EINVAL;
		errno = 0;
		d = strtod(s, &end);
		if (errno || *end || d < 0 || d > 1e10)
			return -EINVAL;
		*ns = (uint64_t)(d * 1e9);
	}
	return 0;
}
