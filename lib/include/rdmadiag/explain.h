/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/explain.h: explain a completion-error line from a log (rdmadoctor explain).
 *
 * rdiag_explain_line() reads one line as libibverbs users, NCCL, UCX, libfabric, Open MPI,
 * SPDK, perftest and the kernel print it when a work completion fails, and fills a record:
 * the work-completion status (from its ibv_wc_status_str() text, a "status=N"-style number,
 * or the mlx5 CQE syndrome), the vendor error and what is known of it (with where that comes
 * from and how sure it is), the mlx5 CQE syndrome, the device and the peer when the line names
 * them, and the likely causes ranked with the next check for each.  An mlx5 firmware command
 * failure (dmesg's "mlx5_cmd_check ... failed, status ...(0x3), syndrome (0x...)") is read
 * too.  The explain module (lib/explain); needs no device and no handle.  No allocation: the
 * record holds everything, its strings are static or inside it. */
#ifndef RDMADIAG_EXPLAIN_H
#define RDMADIAG_EXPLAIN_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDIAG_EXPLAIN_MAX_CAUSES 6

struct rdiag_explain_cause {
	const char *id;		/* stable cause id (rdiag_wc_status_causes) */
	const char *text;	/* one sentence */
	char check[256];	/* the next check, PEER and DEV filled in when known */
};

struct rdiag_explain {
	const char *printer;	/* who printed the line: "nccl", "ucx", "libfabric",
				 * "openmpi", "spdk", "perftest", "kernel", "libmlx5"
				 * (rdma-core's mlx5 provider: its CQE dump), or "application"
				 * (a program printing its own work completions) */
	/* the work-completion status; -1 when the line gives none (a firmware command line) */
	int wc_status;
	const char *status_from; /* what gave it: "text", "number", "mlx5_syndrome"; NULL */
	bool status_conflict;	/* the line's number and text name different statuses (the
				 * text wins: printers put other numbers next to it) */
	/* the vendor error (wc.vendor_err; mlx5's vendor_err_synd) */
	bool has_vendor_err;
	uint32_t vendor_err;
	const char *vendor_meaning;	/* NULL when unknown */
	const char *vendor_source;	/* where the meaning comes from */
	const char *vendor_confidence;	/* "vendor statement", "observed", "unknown" */
	/* mlx5 CQE syndrome ("synd 0x15", "syndrome 0x5, vendor syndrome ...") */
	bool has_syndrome;
	uint32_t syndrome;
	const char *syndrome_name;	/* "MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR"; NULL */
	bool has_hw_synd;		/* UCX's "hw_synd A/B" */
	uint32_t hw_synd, hw_synd_type;
	/* an mlx5 firmware command failure (mlx5_cmd_check) */
	bool has_cmd;
	char cmd[48];			/* "RTR2RTS_QP", "create_mkey" */
	uint32_t cmd_opcode;
	uint32_t cmd_status;
	char cmd_status_str[48];	/* as printed: "bad parameter" */
	uint32_t cmd_syndrome;		/* firmware-internal: its meaning is not public */
	const char *cmd_verb;		/* the verbs call behind the command: "ibv_modify_qp" */
	/* named by the line */
	char device[32];		/* "mlx5_0" */
	uint32_t port;			/* 0 when not named */
	char peer[64];			/* the peer's address: "7.6.13.83", "29.87.88.182" */
	/* the likely causes, most likely first */
	const char *cause;		/* id of the first one ("firmware_command_failed" for a
					 * command line) */
	size_t ncauses;
	struct rdiag_explain_cause causes[RDIAG_EXPLAIN_MAX_CAUSES];
};

/* 0 and *e filled when the line (len bytes, need not be terminated) holds a completion error
 * or an mlx5 firmware command failure; -ENOENT when it holds none; -EINVAL for NULL */
int rdiag_explain_line(const char *line, size_t len, struct rdiag_explain *e);

/* the mlx5 CQE syndrome name ("MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR") and the work-completion
 * status the mlx5 provider reports for it (rdma-core providers/mlx5, mlx5_handle_error_cqe);
 * NULL and -1 for a value the provider does not define */
const char *rdiag_mlx5_syndrome_name(uint32_t syndrome);
int rdiag_mlx5_syndrome_wc_status(uint32_t syndrome);

#ifdef __cplusplus
}
#endif
#endif
