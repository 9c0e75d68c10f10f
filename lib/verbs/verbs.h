/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/verbs/verbs.h: libibverbs and librdmacm loaded with dlopen() on first use (internal).
 *
 * Why: only the self-tests (rdmacheck) and the doctor's attempt/listen (rdmadoctor) use verbs
 * or rdma_cm, but as link dependencies every tool mapped and relocated libibverbs, librdmacm,
 * libnl-route-3 and libnl-3 at start-up: measured in the QEMU guest, `rdmastat --version`
 * took 109 ms with them and 87 ms without (rdma -V: 86 ms).
 *
 * How (the pattern of lib/capture/internal.h): include this header instead of
 * <infiniband/verbs.h> and <rdma/rdma_cma.h>; types, constants and the inline data-path calls
 * (ibv_post_send, ibv_poll_cq, ibv_wr_*: provider ops, no symbols) still come from there.
 * Every exported function the library calls is then a macro for a pointer in rd_ibv or
 * rd_rdmacm, typed from rdma-core's own prototype with __typeof__, so calls are checked as
 * before.  Call rd_ibv_load() (or rd_rdmacm_load(), which loads both) before the first call.
 * A function missing from the lists below is an undefined reference when the .so links
 * (--no-undefined, no -libverbs/-lrdmacm); `nm -D --undefined-only` must show no ibv_/rdma_.
 *
 * Header inlines and macros that call exported symbols (ibv_query_port, ibv_reg_mr,
 * ibv_query_gid_ex, ibv_query_gid_table, ibv_create_qp_ex, ibv_query_device_ex) are replaced
 * below by equivalents that call through the table; the header's own are left unused.
 *
 * Each symbol is looked up at the version the header binds a call to (objdump -T: most
 * functions also have a pre-1.1 IBVERBS_1.0 version with other structure layouts). */
#ifndef RD_VERBS_INTERNAL_H
#define RD_VERBS_INTERNAL_H
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

/* X(prefix, name, version): the function prefix##name at that version */
#define RD_IBV_FUNCS(X)							\
	X(ibv_, alloc_pd, "IBVERBS_1.1")				\
	X(ibv_, close_device, "IBVERBS_1.1")				\
	X(ibv_, create_ah, "IBVERBS_1.1")				\
	X(ibv_, create_cq, "IBVERBS_1.1")				\
	X(ibv_, create_qp, "IBVERBS_1.1")				\
	X(ibv_, dealloc_pd, "IBVERBS_1.1")				\
	X(ibv_, dereg_mr, "IBVERBS_1.1")				\
	X(ibv_, destroy_ah, "IBVERBS_1.1")				\
	X(ibv_, destroy_cq, "IBVERBS_1.1")				\
	X(ibv_, destroy_qp, "IBVERBS_1.1")				\
	X(ibv_, free_device_list, "IBVERBS_1.1")			\
	X(ibv_, get_device_list, "IBVERBS_1.1")				\
	X(ibv_, get_device_name, "IBVERBS_1.1")				\
	X(ibv_, modify_qp, "IBVERBS_1.1")				\
	X(ibv_, open_device, "IBVERBS_1.1")				\
	X(ibv_, qp_to_qp_ex, "IBVERBS_1.6")				\
	X(ibv_, query_device, "IBVERBS_1.1")				\
	X(ibv_, query_gid, "IBVERBS_1.1")				\
	X(ibv_, query_port, "IBVERBS_1.1")				\
	X(ibv_, query_qp, "IBVERBS_1.1")				\
	X(ibv_, reg_mr, "IBVERBS_1.1")					\
	X(ibv_, reg_mr_iova2, "IBVERBS_1.8")				\
	X(_ibv_, query_gid_ex, "IBVERBS_1.11")				\
	X(_ibv_, query_gid_table, "IBVERBS_1.11")

#define RD_RDMACM_FUNCS(X)						\
	X(rdma_, accept, "RDMACM_1.0")					\
	X(rdma_, ack_cm_event, "RDMACM_1.0")				\
	X(rdma_, bind_addr, "RDMACM_1.0")				\
	X(rdma_, connect, "RDMACM_1.0")					\
	X(rdma_, create_event_channel, "RDMACM_1.0")			\
	X(rdma_, create_id, "RDMACM_1.0")				\
	X(rdma_, create_qp, "RDMACM_1.0")				\
	X(rdma_, destroy_event_channel, "RDMACM_1.0")			\
	X(rdma_, destroy_id, "RDMACM_1.0")				\
	X(rdma_, destroy_qp, "RDMACM_1.0")				\
	X(rdma_, disconnect, "RDMACM_1.0")				\
	X(rdma_, get_cm_event, "RDMACM_1.0")				\
	X(rdma_, listen, "RDMACM_1.0")					\
	X(rdma_, reject, "RDMACM_1.0")					\
	X(rdma_, resolve_addr, "RDMACM_1.0")				\
	X(rdma_, resolve_route, "RDMACM_1.0")				\
	X(rdma_, set_option, "RDMACM_1.0")

#define RD_VERBS_DL_FIELD(p, n, v) __typeof__(p##n) *n;
struct rd_ibv_fns {
	RD_IBV_FUNCS(RD_VERBS_DL_FIELD)
};
struct rd_rdmacm_fns {
	RD_RDMACM_FUNCS(RD_VERBS_DL_FIELD)
};
#undef RD_VERBS_DL_FIELD

/* filled once by the loaders; read-only afterwards */
extern struct rd_ibv_fns rd_ibv;
extern struct rd_rdmacm_fns rd_rdmacm;

/* Load libibverbs (once per process, thread-safe).  0, or -ELIBACC (cannot be opened) /
 * -ELIBBAD (a function is missing) with a one-line reason in err: "cannot load libibverbs:
 * libibverbs.so.1: cannot open shared object file: No such file or directory". */
int rd_ibv_load(char *err, size_t len);
/* Load libibverbs, then librdmacm (its objects hold libibverbs contexts); same results. */
int rd_rdmacm_load(char *err, size_t len);

#define ibv_alloc_pd		(*rd_ibv.alloc_pd)
#define ibv_close_device	(*rd_ibv.close_device)
#define ibv_create_ah		(*rd_ibv.create_ah)
#define ibv_create_cq		(*rd_ibv.create_cq)
#define ibv_create_qp		(*rd_ibv.create_qp)
#define ibv_dealloc_pd		(*rd_ibv.dealloc_pd)
#define ibv_dereg_mr		(*rd_ibv.dereg_mr)
#define ibv_destroy_ah		(*rd_ibv.destroy_ah)
#define ibv_destroy_cq		(*rd_ibv.destroy_cq)
#define ibv_destroy_qp		(*rd_ibv.destroy_qp)
#define ibv_free_device_list	(*rd_ibv.free_device_list)
#define ibv_get_device_list	(*rd_ibv.get_device_list)
#define ibv_get_device_name	(*rd_ibv.get_device_name)
#define ibv_modify_qp		(*rd_ibv.modify_qp)
#define ibv_open_device		(*rd_ibv.open_device)
#define ibv_qp_to_qp_ex		(*rd_ibv.qp_to_qp_ex)
#define ibv_query_device	(*rd_ibv.query_device)
#define ibv_query_gid		(*rd_ibv.query_gid)
#define ibv_query_qp		(*rd_ibv.query_qp)

#define rdma_accept		(*rd_rdmacm.accept)
#define rdma_ack_cm_event	(*rd_rdmacm.ack_cm_event)
#define rdma_bind_addr		(*rd_rdmacm.bind_addr)
#define rdma_connect		(*rd_rdmacm.connect)
#define rdma_create_event_channel (*rd_rdmacm.create_event_channel)
#define rdma_create_id		(*rd_rdmacm.create_id)
#define rdma_create_qp		(*rd_rdmacm.create_qp)
#define rdma_destroy_event_channel (*rd_rdmacm.destroy_event_channel)
#define rdma_destroy_id		(*rd_rdmacm.destroy_id)
#define rdma_destroy_qp		(*rd_rdmacm.destroy_qp)
#define rdma_disconnect		(*rd_rdmacm.disconnect)
#define rdma_get_cm_event	(*rd_rdmacm.get_cm_event)
#define rdma_listen		(*rd_rdmacm.listen)
#define rdma_reject		(*rd_rdmacm.reject)
#define rdma_resolve_addr	(*rd_rdmacm.resolve_addr)
#define rdma_resolve_route	(*rd_rdmacm.resolve_route)
#define rdma_set_option		(*rd_rdmacm.set_option)

/* A provider with the extended entry point fills the whole ibv_port_attr; through the
 * exported one only the older (compat) prefix is written, so the rest is zeroed first. */
static inline int rd_ibv_query_port(struct ibv_context *ctx, uint8_t port,
				    struct ibv_port_attr *attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(ctx, query_port);

	if (vctx)
		return vctx->query_port(ctx, port, attr, sizeof(*attr));
	memset(attr, 0, sizeof(*attr));
	return rd_ibv.query_port(ctx, port, (struct _compat_ibv_port_attr *)attr);
}
#undef ibv_query_port
#define ibv_query_port rd_ibv_query_port

/* ibv_reg_mr() picks the IBVERBS_1.1 call when the access flags are a constant without
 * optional bits, else ibv_reg_mr_iova2() (which masks optional bits the kernel lacks) */
static inline __attribute__((__always_inline__)) struct ibv_mr *
rd_ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t len, unsigned int access, int constant)
{
	if (constant && !(access & IBV_ACCESS_OPTIONAL_RANGE))
		return rd_ibv.reg_mr(pd, addr, len, (int)access);
	return rd_ibv.reg_mr_iova2(pd, addr, len, (uintptr_t)addr, access);
}
#undef ibv_reg_mr
#define ibv_reg_mr(pd, addr, len, access)					\
	rd_ibv_reg_mr(pd, addr, len, (unsigned int)(access),			\
		      __builtin_constant_p(((access) & IBV_ACCESS_OPTIONAL_RANGE) == 0))

/* the GID calls pass the entry size, so that a newer library knows our layout */
#define ibv_query_gid_ex(ctx, port, index, entry, flags)			\
	rd_ibv.query_gid_ex(ctx, port, index, entry, flags, sizeof(*(entry)))
#define ibv_query_gid_table(ctx, entries, max, flags)				\
	rd_ibv.query_gid_table(ctx, entries, max, flags, sizeof(*(entries)))

/* only a PD-only comp_mask goes through the exported ibv_create_qp(); the rest needs the
 * provider's create_qp_ex */
static inline struct ibv_qp *rd_ibv_create_qp_ex(struct ibv_context *ctx,
						 struct ibv_qp_init_attr_ex *attr)
{
	struct verbs_context *vctx;

	if (attr->comp_mask == IBV_QP_INIT_ATTR_PD)
		return rd_ibv.create_qp(attr->pd, (struct ibv_qp_init_attr *)attr);
	vctx = verbs_get_ctx_op(ctx, create_qp_ex);
	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return vctx->create_qp_ex(ctx, attr);
}
#define ibv_create_qp_ex rd_ibv_create_qp_ex

/* the provider's query_device_ex, else the exported ibv_query_device() into orig_attr */
static inline int rd_ibv_query_device_ex(struct ibv_context *ctx,
					 const struct ibv_query_device_ex_input *in,
					 struct ibv_device_attr_ex *attr)
{
	struct verbs_context *vctx;
	int ret;

	if (in && in->comp_mask)
		return EINVAL;
	vctx = verbs_get_ctx_op(ctx, query_device_ex);
	if (vctx) {
		ret = vctx->query_device_ex(ctx, in, attr, sizeof(*attr));
		if (ret != EOPNOTSUPP && ret != ENOSYS)
			return ret;
	}
	memset(attr, 0, sizeof(*attr));
	return rd_ibv.query_device(ctx, &attr->orig_attr);
}
#define ibv_query_device_ex rd_ibv_query_device_ex

/* Capabilities of this process.  One reader of
 * /proc/self/status for the doctor's memlock check and rdmacheck's mr-cost: memory
 * registration pins pages and charges them to RLIMIT_MEMLOCK unless the process has
 * CAP_IPC_LOCK in its effective set - root in a container without it is limited too. */
#include <stdbool.h>

/* CAP_IPC_LOCK (bit 14) in the CapEff line of status_path (NULL: /proc/self/status);
 * false when the file or the line cannot be read */
bool rd_cap_ipc_lock_in(const char *status_path);
bool rd_cap_ipc_lock(void);

#endif
