/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Internal parts of the completion-error explainer (lib/explain: explain.c, mlx5.c); not
 * exported. */
#ifndef RD_EXPLAIN_INTERNAL_H
#define RD_EXPLAIN_INTERNAL_H
#include <stdint.h>

/* what is known of an mlx5 vendor error (mlx5.c) */
struct rd_explain_vendor {
	const char *meaning, *source, *confidence;
};
/* what is known of an mlx5 vendor error seen with work-completion status wc_status (-1: no
 * status), or NULL */
const struct rd_explain_vendor *rd_explain_mlx5_vendor(uint32_t value, int wc_status);
/* the verbs call behind an mlx5 firmware command name ("RTR2RTS_QP" -> "ibv_modify_qp"), or
 * NULL */
const char *rd_explain_mlx5_cmd_verb(const char *cmd);

#endif
