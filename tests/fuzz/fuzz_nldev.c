/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: RDMA netlink (nldev) replies as the counters module parses them: device
 * and port GET, STAT_GET (hwcounters), STAT_GET_STATUS, the counter-mode query and the
 * resource dumps (QPs, cm_ids, bound counters), through every request the tools make
 * (counters_exercise.h).
 *
 * The replies come in through the replay seam of lib/netlink's exchange: this file defines
 * the four functions of lib/netlink/record.c (so the linker takes these and not the
 * library's),
 * and rd_replay_lookup() answers a request from the input instead of a recorded file.
 * Input: a sequence of exchanges, each
 *     u8 command (RDMA_NLDEV_CMD_*), u8 number of datagrams, then per datagram
 *     u16 length (little endian) and that many bytes (cut at the end of the input)
 * A request is answered by the next unused exchange of its command, the last one again when
 * they are used up (as a recording is replayed), or "no reply" when there is none.  Each
 * datagram is an exactly sized heap copy, so ASan flags any read past it.  The sysfs root is
 * an empty scratch directory.  Seeds: tests/fuzz/mk_seeds.py from tests/fixtures/netlink/. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include "counters/internal.h"
#include "netlink/netlink.h"
#include "counters_exercise.h"
#include "scratch.h"

#define MAX_EXCHANGES 64
#define MAX_DGRAMS 8

struct exchange {
	uint8_t cmd;
	bool used;
	size_t n;
	uint8_t *buf[MAX_DGRAMS];
	size_t len[MAX_DGRAMS];
};

struct rd_replay {
	size_t n;
	struct exchange x[MAX_EXCHANGES];
};

static const uint8_t *fuzz_data;
static size_t fuzz_size;

void rd_record_write(FILE *f, const char *tag, const void *buf, size_t len)
{
	(void)f, (void)tag, (void)buf, (void)len;
}

void rd_replay_free(struct rd_replay *r)
{
	size_t i, j;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->x[i].n; j++)
			free(r->x[i].buf[j]);
	free(r);
}

int rd_replay_load(const char *path, struct rd_replay **out, char *err, size_t errlen)
{
	const uint8_t *p = fuzz_data, *end = fuzz_data + fuzz_size;
	struct rd_replay *r = calloc(1, sizeof(*r));

	(void)path, (void)err, (void)errlen;
	if (!r)
		return -ENOMEM;
	while (end - p >= 2 && r->n < MAX_EXCHANGES) {
		struct exchange *x = &r->x[r->n++];
		unsigned int k = p[1] % (MAX_DGRAMS + 1);

		x->cmd = p[0];
		p += 2;
		while (k-- && end - p >= 2) {
			size_t l = (size_t)(p[0] | p[1] << 8);

			p += 2;
			if (l > (size_t)(end - p))
				l = (size_t)(end - p);
			x->buf[x->n] = malloc(l ? l : 1);
			memcpy(x->buf[x->n], p, l);
			x->len[x->n++] = l;
			p += l;
		}
	}
	*out = r;
	return 0;
}

int rd_replay_lookup(struct rd_replay *r, const void *req, size_t reqlen,
		     const uint8_t *const **bufs, const size_t **lens, size_t *n)
{
	const struct nlmsghdr *h = req;
	struct exchange *last = NULL;
	size_t i;

	CHECK(reqlen >= sizeof(*h) && h->nlmsg_len == reqlen);
	for (i = 0; i < r->n; i++) {
		if (r->x[i].cmd != (h->nlmsg_type & 0xff))
			continue;
		last = &r->x[i];
		if (!last->used)
			break;
	}
	if (!last)
		return -ENOENT;
	last->used = true;
	*bufs = (const uint8_t *const *)last->buf;
	*lens = last->len;
	*n = last->n;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1 << 18))
		return 0;
	fuzz_data = data;
	fuzz_size = size;
	setenv("RDMADIAG_SYSFS_ROOT", scratch_dir(), 1);
	setenv("RDMADIAG_NL_REPLAY", "fuzz_nldev", 1);
	exercise_counters(NULL);
	unsetenv("RDMADIAG_NL_REPLAY");
	return 0;
}
