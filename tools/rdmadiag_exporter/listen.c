/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The listening socket (--web.listen-address), made here rather than by libmicrohttpd so
 * that a bad address or a port in use is one clear line, and so that port 0 (a free port,
 * for tests) can be read back.  ":PORT" listens on every address, IPv6 and IPv4 on one
 * dual-stack socket (IPv4 alone where the host has no IPv6). */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "agent.h"

static int bind_one(const struct sockaddr *sa, socklen_t len, bool dual, int *err)
{
	int one = 1, zero = 0;
	int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0) {
		*err = errno;
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, dual ? &zero : &one, sizeof(int));
	if (bind(fd, sa, len) < 0 || listen(fd, 128) < 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	return fd;
}

int agent_listen(const char *addr, char *err, size_t errlen)
{
	char host[256], *end;
	const char *orig = addr, *colon = strrchr(addr, ':'), *ps;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE |
							   AI_NUMERICSERV };
	struct addrinfo *res, *ai;
	unsigned long port;
	size_t hl;
	int fd = -1, e = 0, r;

	if (!colon) {
		snprintf(err, errlen, "invalid listen address '%s': want HOST:PORT or :PORT", addr);
		return -1;
	}
	ps = colon + 1;
	errno = 0;
	port = strtoul(ps, &end, 10);
	if (!*ps || *end || errno || port > 65535 || *ps == '-' || *ps == '+') {
		snprintf(err, errlen, "invalid port in listen address '%s'", addr);
		return -1;
	}
	hl = (size_t)(colon - addr);
	if (hl && addr[0] == '[') {
		if (addr[hl - 1] != ']' || hl < 3) {
			snprintf(err, errlen, "invalid listen address '%s': unclosed '['", addr);
			return -1;
		}
		addr++;
		hl -= 2;
	}
	if (hl >= sizeof(host)) {
		snprintf(err, errlen, "invalid listen address: host name too long");
		return -1;
	}
	memcpy(host, addr, hl);
	host[hl] = '\0';
	if (!hl) {
		struct sockaddr_in6 s6 = { .sin6_family = AF_INET6, .sin6_port = htons(port),
					   .sin6_addr = IN6ADDR_ANY_INIT };
		struct sockaddr_in s4 = { .sin_family = AF_INET, .sin_port = htons(port),
					  .sin_addr.s_addr = htonl(INADDR_ANY) };

		fd = bind_one((struct sockaddr *)&s6, sizeof(s6), true, &e);
		if (fd < 0 && (e == EAFNOSUPPORT || e == EADDRNOTAVAIL))
			fd = bind_one((struct sockaddr *)&s4, sizeof(s4), false, &e);
		if (fd < 0)
			snprintf(err, errlen, "cannot listen on port %lu: %s", port, strerror(e));
		return fd;
	}
	r = getaddrinfo(host, ps, &hints, &res);
	if (r) {
		snprintf(err, errlen, "cannot resolve listen address '%s': %s", host,
			 gai_strerror(r));
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next)
		fd = bind_one(ai->ai_addr, ai->ai_addrlen, false, &e);
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(err, errlen, "cannot listen on %s: %s", orig, strerror(e));
	return fd;
}

void agent_sockname(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char h[INET6_ADDRSTRLEN] = "?";

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0) {
		snprintf(buf, len, "?");
		return;
	}
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const void *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, h, sizeof(h));
		snprintf(buf, len, "[%s]:%u", h, ntohs(s6->sin6_port));
	} else {
		const struct sockaddr_in *s4 = (const void *)&ss;

		inet_ntop(AF_INET, &s4->sin_addr, h, sizeof(h));
		snprintf(buf, len, "%s:%u", h, ntohs(s4->sin_port));
	}
}
