/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* cm_reject: an rdma_cm server that rejects, for the real-kernel tier (rdmatrace's passive
 * side of an rdma_reject(): "rejected by this application", with the reason it sent).
 *   usage: cm_reject -a ADDR [-p PORT] [-u] [-n COUNT]
 * Binds ADDR:PORT (default 7186) in the TCP port space (-u: the UDP port space, where the
 * reject is a SIDR REP of status 2, REJECT), listens, prints "listening" on stdout, answers
 * COUNT connection requests (default 1) with rdma_reject() and private data "no", destroys
 * each request's id, then its listener, and exits 0.
 * Exit: 0 done, 1 an rdma_cm step failed, 2 usage.  Errors: one line, "cm_reject: what: why".
 * Built by tests/vm/progs/build.sh for the QEMU image only, never by make all. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <rdma/rdma_cma.h>

#define ME "cm_reject"

static int fail(const char *what)
{
	fprintf(stderr, ME ": %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;
	struct rdma_cm_event *ev;
	struct sockaddr_in sin;
	const char *addr = NULL;
	int port = 7186, count = 1, udp = 0, opt, done = 0;

	while ((opt = getopt(argc, argv, "a:p:un:")) != -1) {
		switch (opt) {
		case 'a': addr = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'u': udp = 1; break;
		case 'n': count = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: " ME " -a ADDR [-p PORT] [-u] [-n COUNT]\n");
			return 2;
		}
	}
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((unsigned short)port);
	if (!addr || inet_pton(AF_INET, addr, &sin.sin_addr) != 1 || port <= 0 || count <= 0) {
		fprintf(stderr, "usage: " ME " -a ADDR [-p PORT] [-u] [-n COUNT]\n");
		return 2;
	}
	ch = rdma_create_event_channel();
	if (!ch)
		return fail("rdma_create_event_channel");
	if (rdma_create_id(ch, &listen_id, NULL, udp ? RDMA_PS_UDP : RDMA_PS_TCP))
		return fail("rdma_create_id");
	if (rdma_bind_addr(listen_id, (struct sockaddr *)&sin))
		return fail("rdma_bind_addr");
	if (rdma_listen(listen_id, 4))
		return fail("rdma_listen");
	printf("listening\n");
	fflush(stdout);
	while (done < count) {
		struct rdma_cm_id *id;

		if (rdma_get_cm_event(ch, &ev))
			return fail("rdma_get_cm_event");
		if (ev->event != RDMA_CM_EVENT_CONNECT_REQUEST) {
			rdma_ack_cm_event(ev);
			continue;
		}
		id = ev->id;
		if (rdma_reject(id, "no", 3))
			return fail("rdma_reject");
		rdma_ack_cm_event(ev);
		rdma_destroy_id(id);
		printf("rejected %d\n", ++done);
		fflush(stdout);
	}
	rdma_destroy_id(listen_id);
	rdma_destroy_event_channel(ch);
	return 0;
}
