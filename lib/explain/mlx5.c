/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* mlx5 data for rdmadoctor explain: CQE error syndromes, vendor error values, and the verbs
 * call behind a firmware command.
 *
 * Syndromes: rdma-core providers/mlx5/mlx5dv.h (enum MLX5_CQE_SYNDROME_*), each with the
 * work-completion status the provider reports for it (mlx5_handle_error_cqe() in
 * providers/mlx5/cq.c; anything else is IBV_WC_GENERAL_ERR).  test_explain checks the values
 * against the installed mlx5dv.h.
 *
 * Vendor errors (the CQE's vendor_err_synd, wc.vendor_err) are not defined in any public
 * header: each row says where its meaning comes from and how sure it is. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "rdmadiag/explain.h"

struct mlx5_synd {
	uint32_t value;
	const char *name;
	int wc_status;
};

static const struct mlx5_synd mlx5_synds[] = {
	{ 0x01, "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR", 1 },
	{ 0x02, "MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR", 2 },
	{ 0x04, "MLX5_CQE_SYNDROME_LOCAL_PROT_ERR", 4 },
	{ 0x05, "MLX5_CQE_SYNDROME_WR_FLUSH_ERR", 5 },
	{ 0x06, "MLX5_CQE_SYNDROME_MW_BIND_ERR", 6 },
	{ 0x10, "MLX5_CQE_SYNDROME_BAD_RESP_ERR", 7 },
	{ 0x11, "MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR", 8 },
	{ 0x12, "MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR", 9 },
	{ 0x13, "MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR", 10 },
	{ 0x14, "MLX5_CQE_SYNDROME_REMOTE_OP_ERR", 11 },
	{ 0x15, "MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR", 12 },
	{ 0x16, "MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR", 13 },
	{ 0x22, "MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR", 16 },
};

static const struct mlx5_synd *synd_lookup(uint32_t v)
{
	size_t i;

	for (i = 0; i < sizeof(mlx5_synds) / sizeof(mlx5_synds[0]); i++)
		if (mlx5_synds[i].value == v)
			return &mlx5_synds[i];
	return NULL;
}

const char *rdiag_mlx5_syndrome_name(uint32_t syndrome)
{
	const struct mlx5_synd *s = synd_lookup(syndrome);

	return s ? s->name : NULL;
}

int rdiag_mlx5_syndrome_wc_status(uint32_t syndrome)
{
	const struct mlx5_synd *s = synd_lookup(syndrome);

	return s ? s->wc_status : -1;
}

struct mlx5_vendor {
	uint32_t value;
	int wc_status;		/* the status it was seen with (-1: any) */
	struct rd_explain_vendor info;
};

static const struct mlx5_vendor mlx5_vendors[] = {
	{ 0x81, 12, { "timeout: the transport retry counter was exceeded (no ACK came back)",
	  "Mellanox support, quoted in NVIDIA/nccl#214 and on the OFED ewg list (2010-02); the "
	  "value comes with status 12 in every public report", "vendor statement" } },
	{ 0x51, 4, { "local protection error on a buffer the NIC could not map: seen with GPU "
	  "memory (GPUDirect RDMA) registrations", "observed with status 4 in linux-rdma/"
	  "perftest#173 and openucx/ucx#9515 (both GPU buffers); no documented meaning",
	  "observed" } },
	{ 0x88, 10, { "remote access error (rkey or range refused by the responder)",
	  "observed with syndrome 0x13 in openucx/ucx#1834 (a test that provokes a remote "
	  "access error) and in a kernel CQE dump (spdk/spdk#964); no documented meaning",
	  "observed" } },
	{ 0x89, 11, { "remote operation error reported by the responder",
	  "observed with syndrome 0x14 in openucx/ucx#5472; no documented meaning", "observed" } },
};

/* what is known of an mlx5 vendor error seen with a status (-1: no status known) */
const struct rd_explain_vendor *rd_explain_mlx5_vendor(uint32_t value, int wc_status)
{
	size_t i;

	for (i = 0; i < sizeof(mlx5_vendors) / sizeof(mlx5_vendors[0]); i++) {
		const struct mlx5_vendor *v = &mlx5_vendors[i];

		if (v->value != value)
			continue;
		if (wc_status >= 0 && v->wc_status >= 0 && v->wc_status != wc_status)
			return NULL;	/* a known value in another context: not the same */
		return &v->info;
	}
	return NULL;
}

struct cmd_verb {
	const char *cmd;	/* mlx5_command_str() name, compared without case */
	const char *verb;
};

/* the firmware commands behind the verbs calls users make; a suffix match for the QP
 * transitions (RST2INIT_QP, INIT2RTR_QP, RTR2RTS_QP, ...) */
static const struct cmd_verb cmd_verbs[] = {
	{ "CREATE_MKEY", "ibv_reg_mr" },
	{ "DESTROY_MKEY", "ibv_dereg_mr" },
	{ "CREATE_QP", "ibv_create_qp" },
	{ "DESTROY_QP", "ibv_destroy_qp" },
	{ "CREATE_CQ", "ibv_create_cq" },
	{ "CREATE_SRQ", "ibv_create_srq" },
	{ "CREATE_RMP", "ibv_create_srq" },
	{ "CREATE_DCT", "mlx5dv_create_qp (DCT)" },
	{ "ALLOC_PD", "ibv_alloc_pd" },
	{ "CREATE_PSV", "ibv_reg_mr (signature)" },
	{ "QUERY_HCA_CAP", "ibv_open_device (device capabilities)" },
	{ "MODIFY_CQ", "ibv_modify_cq" },
};

const char *rd_explain_mlx5_cmd_verb(const char *cmd)
{
	size_t i, n = strlen(cmd);

	for (i = 0; i < sizeof(cmd_verbs) / sizeof(cmd_verbs[0]); i++)
		if (!strcasecmp(cmd, cmd_verbs[i].cmd))
			return cmd_verbs[i].verb;
	if (n > 3 && !strcasecmp(cmd + n - 3, "_QP") && strchr(cmd, '2'))
		return "ibv_modify_qp";
	return NULL;
}
