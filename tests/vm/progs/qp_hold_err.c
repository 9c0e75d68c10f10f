/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* qp_hold_err: a QP that stays in ERR, for the real-kernel tier (rdmatrace record's
 * QP-in-ERR trigger needs one that lives longer than a snapshot interval; the pingpongs and
 * perftest ask for retry_cnt 7, which rxe takes as infinite).
 *   usage: qp_hold_err [-d DEV] [-i PORT] [-g GIDINDEX] [-r MS] [-s SECONDS] [-u]
 * Opens DEV (default: the first device), creates an RC QP and takes it RESET -> INIT -> RTR
 * -> RTS connected to itself (its own QPN and GID), prints "RTS qpn N" on stdout, stays in
 * RTS for MS milliseconds (default 0), then modifies it to ERR (IBV_QPS_ERR), prints
 * "ERR qpn N", holds it there SECONDS (default 3) and cleans up.  With -u each of the two
 * holds also ends early at a SIGUSR1 (a test moves it on once it has seen the state).
 * Exit: 0 done, 1 a verbs step failed, 2 usage.  Errors: one line, "qp_hold_err: what: why".
 * Built by tests/vm/progs/build.sh for the QEMU image only, never by make all. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define ME "qp_hold_err"

static int fail(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, ME ": ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}

static int usage(const char *why)
{
	fail(2, "%s", why);
	fprintf(stderr, "usage: " ME " [-d DEV] [-i PORT] [-g GIDINDEX] [-r MS] [-s SECONDS] [-u]\n");
	return 2;
}

/* a whole non-negative decimal number up to max, or -1 */
static long number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > max)
		return -1;
	return v;
}

static struct ibv_device *find_dev(struct ibv_device **list, const char *name)
{
	for (; *list; list++)
		if (!name || !strcmp(ibv_get_device_name(*list), name))
			return *list;
	return NULL;
}

/* INIT -> RTR -> RTS against itself: dest QPN its own, GRH to its own GID (RoCE needs one) */
static int connect_self(struct ibv_qp *qp, int port, int gidx, const union ibv_gid *gid)
{
	struct ibv_qp_attr a;

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.port_num = port;
	a.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE;
	if ((errno = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
				   IBV_QP_ACCESS_FLAGS)))
		return fail(1, "modify QP %u to INIT: %s", qp->qp_num, strerror(errno));

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.sgid_index = gidx;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = port;
	if ((errno = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
				   IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				   IBV_QP_MIN_RNR_TIMER)))
		return fail(1, "modify QP %u to RTR: %s", qp->qp_num, strerror(errno));

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 1;
	a.rnr_retry = 1;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	if ((errno = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
				   IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC)))
		return fail(1, "modify QP %u to RTS: %s", qp->qp_num, strerror(errno));
	return 0;
}

static sigset_t usr1;
static int on_usr1;	/* -u: a SIGUSR1 (blocked, so that none is lost) ends a hold */

/* MS milliseconds, or until a SIGUSR1 with -u */
static void hold(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000 };

	if (on_usr1) {
		while (sigtimedwait(&usr1, NULL, &ts) < 0 && errno == EINTR)
			;
		return;
	}
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int hold_err(struct ibv_context *ctx, int port, int gidx, long rts_ms, long secs)
{
	struct ibv_pd *pd = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_qp *qp = NULL;
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr a;
	union ibv_gid gid;
	int rc = 1;

	errno = 0;
	if (ibv_query_gid(ctx, port, gidx, &gid))
		return fail(1, "GID %d of port %d: %s", gidx, port,
			    errno ? strerror(errno) : "cannot be read");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		return fail(1, "allocate a PD: %s", strerror(errno));
	cq = ibv_create_cq(ctx, 4, NULL, NULL, 0);
	if (!cq) {
		fail(1, "create a CQ: %s", strerror(errno));
		goto out;
	}
	memset(&ia, 0, sizeof(ia));
	ia.send_cq = cq;
	ia.recv_cq = cq;
	ia.qp_type = IBV_QPT_RC;
	ia.cap.max_send_wr = 1;
	ia.cap.max_recv_wr = 1;
	ia.cap.max_send_sge = 1;
	ia.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &ia);
	if (!qp) {
		fail(1, "create an RC QP: %s", strerror(errno));
		goto out;
	}
	if (connect_self(qp, port, gidx, &gid))
		goto out;
	printf("RTS qpn %u\n", qp->qp_num);
	fflush(stdout);
	hold(rts_ms);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_ERR;
	if ((errno = ibv_modify_qp(qp, &a, IBV_QP_STATE))) {
		fail(1, "modify QP %u to ERR: %s", qp->qp_num, strerror(errno));
		goto out;
	}
	printf("ERR qpn %u\n", qp->qp_num);
	fflush(stdout);
	hold(secs * 1000);
	rc = 0;
out:
	if (qp && ibv_destroy_qp(qp))
		rc = fail(1, "destroy QP %u: %s", qp->qp_num, strerror(errno));
	if (cq && ibv_destroy_cq(cq))
		rc = fail(1, "destroy the CQ: %s", strerror(errno));
	if (ibv_dealloc_pd(pd))
		rc = fail(1, "free the PD: %s", strerror(errno));
	return rc;
}

int main(int argc, char **argv)
{
	const char *name = NULL;
	long port = 1, gidx = 0, rts_ms = 0, secs = 3;
	struct ibv_device **list, *dev;
	struct ibv_context *ctx;
	int opt, rc;

	opterr = 0;	/* one error line, ours */
	while ((opt = getopt(argc, argv, "d:i:g:r:s:u")) != -1) {
		switch (opt) {
		case 'd': name = optarg; break;
		case 'i':
			if ((port = number(optarg, 255)) < 1)
				return usage("-i: a port number 1..255");
			break;
		case 'g':
			if ((gidx = number(optarg, 65535)) < 0)
				return usage("-g: a GID index 0..65535");
			break;
		case 'r':
			if ((rts_ms = number(optarg, 86400000)) < 0)
				return usage("-r: whole milliseconds 0..86400000");
			break;
		case 's':
			if ((secs = number(optarg, 86400)) < 0)
				return usage("-s: whole seconds 0..86400");
			break;
		case 'u': on_usr1 = 1; break;
		default: return usage(optopt == 'd' ? "-d needs a device name" :
				      "an unknown option or one without its value");
		}
	}
	if (optind != argc)
		return usage("no arguments besides the options");
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (on_usr1 && sigprocmask(SIG_BLOCK, &usr1, NULL))
		return fail(1, "block SIGUSR1: %s", strerror(errno));
	list = ibv_get_device_list(NULL);
	if (!list)
		return fail(1, "list the RDMA devices: %s", strerror(errno));
	dev = find_dev(list, name);
	if (!dev) {
		ibv_free_device_list(list);
		return fail(1, "%s: no such RDMA device", name ? name : "(any)");
	}
	ctx = ibv_open_device(dev);
	if (!ctx) {
		rc = fail(1, "open %s: %s", ibv_get_device_name(dev), strerror(errno));
		ibv_free_device_list(list);
		return rc;
	}
	rc = hold_err(ctx, (int)port, (int)gidx, rts_ms, secs);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return rc;
}
