/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* mr-cost: how long ibv_reg_mr and ibv_dereg_mr take by size (4 KiB up to max_mem), on
 * ordinary pages, on huge pages when the system has them (hugetlbfs, else transparent huge
 * pages by madvise), and with on-demand paging when the device supports it.  Registration
 * pins memory, so the memlock limit is reported and judged. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "verbs/verbs.h"
#include "internal.h"
#include "util/util.h"

#define HUGE_2M (2UL << 20)

enum backing { PAGES_4K, HUGETLB, THP, ODP };
static const char *const backing_name[] = { "4k", "hugetlb", "thp", "odp" };

static void size_str(uint64_t n, char *buf, size_t len)
{
	if (n >= (1ULL << 30) && !(n % (1ULL << 30)))
		snprintf(buf, len, "%llu GiB", (unsigned long long)(n >> 30));
	else if (n >= (1ULL << 20) && !(n % (1ULL << 20)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(n >> 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(n >> 10));
}

static void *map(struct rdiag_selftest *st, size_t len, enum backing b)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	void *p;

	if (b == HUGETLB)
		flags |= MAP_HUGETLB;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (b == THP)
		madvise(p, len, MADV_HUGEPAGE);
	if (b != ODP)
		memset(p, 0x11, len);	/* fault in first: time the pinning, not page faults */
	return rd_st_track(st, RD_OBJ_MMAP, p, len);
}

static void unmap_last(struct rdiag_selftest *st, void *p)
{
	/* the mapping is the newest object: release it now, big ones do not pile up */
	if (st->nobj && st->objs[st->nobj - 1].p == p)
		rd_st_release_to(st, st->nobj - 1);
}

/* 1 = measured, 0 = refused (recorded), <0 = error */
static int measure(struct rdiag_selftest *st, struct rdiag_st_result *r, struct ibv_pd *pd,
		   uint64_t size, enum backing b, bool limited, uint64_t lim)
{
	unsigned int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			      IBV_ACCESS_REMOTE_READ;
	int reps = size <= (1 << 20) ? 20 : size <= (16 << 20) ? 5 : 2, i, e;
	double t, reg = 0, dereg = 0;
	struct rdiag_st_check *ck;
	char what[64], sz[32];
	struct ibv_mr *mr;
	void *p;

	size_str(size, sz, sizeof(sz));
	snprintf(what, sizeof(what), "%s %s", backing_name[b], sz);
	rd_st_step(st, "ibv_reg_mr/ibv_dereg_mr %s x%d", what, reps);
	p = map(st, (size_t)size, b);
	if (!p) {
		rd_st_check(r, RDIAG_SKIP, what, "mmap failed: %s", strerror(errno));
		return 0;
	}
	if (b == ODP)
		access |= IBV_ACCESS_ON_DEMAND;
	for (i = 0; i < reps && !st->interrupted; i++) {
		t = rd_mono_ms();
		mr = ibv_reg_mr(pd, p, (size_t)size, (int)access);
		if (!mr) {
			e = errno;
			unmap_last(st, p);
			if ((e == ENOMEM || e == EPERM) && limited && size > lim) {
				rd_st_check(r, RDIAG_SKIP, what, "refused (%s): above the memlock "
					    "limit (ulimit -l)", strerror(e));
				return 0;
			}
			rd_st_attr(r, "size", "%s", sz);
			rd_st_attr(r, "backing", "%s", backing_name[b]);
			if (e == ENOMEM || e == EPERM)
				rd_st_hint(st, "registration pins memory: raise 'ulimit -l' "
					   "(RLIMIT_MEMLOCK) or check free memory and "
					   "/proc/sys/vm/max_map_count");
			return rd_st_fail(st, e, "ibv_reg_mr %s", what);
		}
		reg += rd_mono_ms() - t;
		t = rd_mono_ms();
		e = ibv_dereg_mr(mr);	/* untracked (timed): a failure is counted as held */
		dereg += rd_mono_ms() - t;
		if (e) {
			rd_st_held(st, RD_OBJ_MR, e, "ibv_dereg_mr");
			unmap_last(st, p);
			return rd_st_fail(st, e, "ibv_dereg_mr %s", what);
		}
	}
	unmap_last(st, p);
	reg /= i ? i : 1;
	dereg /= i ? i : 1;
	ck = rd_st_check(r, RDIAG_PASS, what, "reg %.1f us (%.2f GB/s), dereg %.1f us", reg * 1e3,
			 (double)size / (reg * 1e6), dereg * 1e3);
	rd_st_check_num(ck, "bytes", (double)size);
	rd_st_check_num(ck, "reg_us", reg * 1e3);
	rd_st_check_num(ck, "dereg_us", dereg * 1e3);
	rd_st_check_num(ck, "reg_gbps", (double)size / (reg * 1e6));
	rd_st_check_num(ck, "reps", i);
	return 1;
}

static bool have_hugetlb(void)
{
	void *p = mmap(NULL, HUGE_2M, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);

	if (p == MAP_FAILED)
		return false;
	munmap(p, HUGE_2M);
	return true;
}

static bool have_thp(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return !strstr(buf, "[never]") && buf[0];
}

int rd_test_mr_cost(struct rdiag_selftest *st, struct rdiag_st_result *r)
{
	uint64_t max = st->opts.max_mem, size, lim = 0, big = 0;
	struct ibv_pd *pd;
	struct rlimit rl;
	bool limited = false;
	double gbps = 0;
	char lims[96], sz[32], huge[96], odp[96];
	struct ibv_device_attr_ex *da = &st->a.dattr;
	size_t i;
	int rc;
	enum backing hb;

	pd = rd_st_track(st, RD_OBJ_PD, ibv_alloc_pd(st->a.ctx), 0);
	if (!pd)
		return rd_st_fail(st, errno, "ibv_alloc_pd");
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		lim = rl.rlim_cur;
		/* the limit does not apply with CAP_IPC_LOCK (not with root as such: root in
		 * a container without that capability is limited) */
		limited = !rd_cap_ipc_lock();
		size_str(lim, sz, sizeof(sz));
		snprintf(lims, sizeof(lims), "ulimit -l %s%s", sz,
			 limited ? " (limits registration: no CAP_IPC_LOCK)" :
			 " (not limiting: CAP_IPC_LOCK)");
	} else {
		snprintf(lims, sizeof(lims), "ulimit -l unlimited");
	}
	rd_st_attr(r, "memlock", "%s", lims);
	for (size = 4096; size <= max; size = size * 16 > max && size < max ? max : size * 16) {
		rc = measure(st, r, pd, size, PAGES_4K, limited, lim);
		if (rc < 0)
			return rc;
		if (rc > 0) {
			big = size;
			gbps = r->checks[r->nchecks - 1].num[3].v;
		}
		if (size == max)
			break;
	}
	hb = have_hugetlb() ? HUGETLB : have_thp() ? THP : PAGES_4K;
	if (hb == PAGES_4K) {
		snprintf(huge, sizeof(huge), "no huge pages");
		rd_st_check(r, RDIAG_SKIP, "huge pages", "no hugetlbfs pages reserved and "
			    "transparent huge pages disabled");
	} else {
		size_t n0 = r->nchecks;

		for (size = HUGE_2M; size <= max; size = size * 8 > max && size < max ? max : size * 8) {
			size = (size + HUGE_2M - 1) & ~(uint64_t)(HUGE_2M - 1);
			rc = measure(st, r, pd, size, hb, limited, lim);
			if (rc < 0)
				return rc;
			if (size >= max)
				break;
		}
		snprintf(huge, sizeof(huge), "%s: %zu sizes", hb == HUGETLB ? "hugetlb" : "THP",
			 r->nchecks - n0);
	}
	if (da->odp_caps.general_caps & IBV_ODP_SUPPORT) {
		size = max < (64ULL << 20) ? max : 64ULL << 20;
		rc = measure(st, r, pd, size, ODP, limited, lim);
		if (rc < 0)
			return rc;
		snprintf(odp, sizeof(odp), "ODP measured");
	} else {
		rd_st_check(r, RDIAG_SKIP, "odp", "device does not support on-demand paging "
			    "(odp_caps.general_caps lacks IBV_ODP_SUPPORT)");
		snprintf(odp, sizeof(odp), "no ODP");
	}
	for (i = 0; i < r->nchecks; i++)
		if (r->checks[i].verdict == RDIAG_FAIL)
			return -EIO;
	size_str(big, sz, sizeof(sz));
	snprintf(r->summary, sizeof(r->summary), "up to %s registered (%.2f GB/s at the largest); "
		 "%.40s; %.24s; %.64s", sz, gbps, huge, odp, lims);
	r->verdict = RDIAG_PASS;
	return 0;
}
