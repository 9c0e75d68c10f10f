/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Raw ring-buffer sub-buffers (what trace_pipe_raw returns) -> records, with libtraceevent's
 * kbuffer.  The header's commit length and each record's extent are checked against the
 * sub-buffer before kbuffer or the decoder reads them: a saved or corrupt page cannot make
 * either read past it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/kbuffer.h>

#include "internal.h"

#define RB_MISSED_FLAGS (3ul << 30)	/* commit's top bits: events were lost before this page */

static int batch_push(struct rdiag_trace *t, const struct rdiag_trace_event *ev)
{
	if (t->nbatch == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct rdiag_trace_event *b;

		if (cap > (1u << 20))
			return -E2BIG;
		b = realloc(t->batch, cap * sizeof(*b));
		if (!b)
			return -ENOMEM;
		t->batch = b;
		t->cap = cap;
	}
	t->batch[t->nbatch++] = *ev;
	return 0;
}

int rd_trace_subbuf_collect(struct rdiag_trace *t, const void *buf, size_t len, int cpu,
			    int *missed)
{
	unsigned long long ts, commit = 0;
	unsigned char *page = t->page;
	size_t last = 0;		/* the last record's offset in the page */
	struct rdiag_trace_event ev;
	void *rec;
	int err;

	*missed = 0;
	if (len < t->data_offset || len > t->subbuf_size)
		return -EINVAL;
	/* a private zero-padded copy: kbuffer reads a header word past the last record */
	memset(page, 0, t->subbuf_size + 64);
	memcpy(page, buf, len);
	memcpy(&commit, page + 8, t->data_offset - 8 >= 8 ? 8 : t->data_offset - 8);
	if (commit & RB_MISSED_FLAGS)
		*missed = 1;
	commit &= (1ull << 30) - 1;
	if (commit > len - t->data_offset)
		return -EINVAL;
	if (commit == 0)
		return 0;
	if (kbuffer_load_subbuffer(t->kbuf, page) < 0)
		return -EINVAL;
	for (rec = kbuffer_read_event(t->kbuf, &ts); rec; rec = kbuffer_next_event(t->kbuf, &ts)) {
		int size = kbuffer_event_size(t->kbuf);
		size_t off = (size_t)((unsigned char *)rec - page);

		/* each record lies past the last one: a record header that does not move kbuffer
		 * on (a hostile page) would otherwise hand the same record out for ever */
		if (size <= 0 || off < t->data_offset || off > t->data_offset + commit ||
		    (size_t)size > t->data_offset + commit - off || (last && off <= last))
			break;
		last = off;
		if (rd_trace_decode(t, rec, (size_t)size, ts, cpu, &ev))
			continue;
		err = batch_push(t, &ev);
		if (err)
			return err;
	}
	return 0;
}

static int before(const struct rdiag_trace_event *x, const struct rdiag_trace_event *y)
{
	return x->ts_ns < y->ts_ns || (x->ts_ns == y->ts_ns && x->cpu < y->cpu);
}

/* a stable merge sort: records of one CPU with equal times keep their ring order */
static void merge_sort(struct rdiag_trace_event *a, struct rdiag_trace_event *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	merge_sort(a, tmp, h);
	merge_sort(a + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = before(&a[j], &a[i]) ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

int rd_trace_batch_deliver(struct rdiag_trace *t, rdiag_trace_cb cb, void *arg)
{
	size_t i;
	int rc = 0;

	if (t->nbatch > 1) {
		struct rdiag_trace_event *tmp = malloc(t->nbatch * sizeof(*tmp));

		if (!tmp) {
			t->nbatch = 0;
			return -ENOMEM;
		}
		merge_sort(t->batch, tmp, t->nbatch);
		free(tmp);
	}
	for (i = 0; i < t->nbatch && !rc; i++)
		rc = cb(&t->batch[i], arg);
	t->nbatch = 0;
	return rc;
}

int rdiag_trace_parse_subbuf(struct rdiag_trace *t, const void *buf, size_t len, int cpu,
			     rdiag_trace_cb cb, void *arg)
{
	int missed, err;

	if (!t || !buf || !cb)
		return -EINVAL;
	t->nbatch = 0;
	err = rd_trace_subbuf_collect(t, buf, len, cpu, &missed);
	if (err) {
		t->nbatch = 0;
		return err;
	}
	return rd_trace_batch_deliver(t, cb, arg);
}
