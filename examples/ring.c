/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ring: the flight recorder's ring (rdmadiag/ring.h) and the rtnetlink changes it records
 * (rdmadiag/rtmon.h).  Writes COUNT records into a ring of SIZE bytes at FILE, reads back
 * what survived, oldest first, then prints the rtnetlink changes of the next SECONDS.
 *
 *	ring FILE SIZE COUNT [SECONDS]
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rdmadiag/ring.h>
#include <rdmadiag/rtmon.h>

struct span {
	unsigned long long n, first, last;
};

static int on_record(const struct rdiag_ring_record *r, void *arg)
{
	struct span *s = arg;

	if (!s->n++)
		s->first = r->seq;
	s->last = r->seq;
	return 0;
}

static void on_change(const struct rdiag_rtmon_change *c, void *arg)
{
	(void)arg;
	printf("%s %s %s\n", c->kind, c->deleted ? "del" : "new", c->text);
}

int main(int argc, char **argv)
{
	struct rdiag_ring_opts ro = { 0 };
	struct rdiag_ring *ring;
	struct rdiag_ring_info info;
	struct rdiag_rtmon *mon;
	struct span s = { 0 };
	unsigned long long i, count;
	char payload[64];
	int rc;

	if (argc < 4) {
		fprintf(stderr, "usage: ring FILE SIZE COUNT [SECONDS]\n");
		return 2;
	}
	count = strtoull(argv[3], NULL, 10);
	ro.path = argv[1];
	ro.size = strtoull(argv[2], NULL, 10);
	rc = rdiag_ring_open(&ring, &ro);
	if (rc < 0) {
		fprintf(stderr, "ring: cannot open: %s\n", rdiag_ring_errmsg(NULL));
		return 2;
	}
	for (i = 0; i < count && rc == 0; i++) {
		int n = snprintf(payload, sizeof(payload), "record %llu", i);

		rc = rdiag_ring_append(ring, RDIAG_REC_MARKER, i * 1000000ull, payload, (size_t)n);
	}
	printf("wrote %llu records, %llu laps\n", (unsigned long long)rdiag_ring_written(ring),
	       (unsigned long long)rdiag_ring_wraps(ring));
	rdiag_ring_close(ring);
	rc = rdiag_ring_read(argv[1], on_record, &s, &info);
	if (rc < 0) {
		fprintf(stderr, "ring: cannot read '%s': %s\n", argv[1], strerror(-rc));
		return 2;
	}
	printf("read %llu records, seq %llu to %llu, file %llu bytes\n", s.n, s.first, s.last,
	       (unsigned long long)info.size);
	if (argc > 4 && rdiag_rtmon_open(&mon, NULL) == 0) {
		struct pollfd p = { .fd = rdiag_rtmon_fd(mon), .events = POLLIN };

		if (poll(&p, 1, atoi(argv[4]) * 1000) > 0)
			rdiag_rtmon_read(mon, on_change, NULL);
		rdiag_rtmon_close(mon);
	}
	return 0;
}
