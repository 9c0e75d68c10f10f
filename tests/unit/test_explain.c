/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor explain's line reader (rdiag_explain_line): every real line of
 * tests/fixtures/explain/lines.tsv maps to its expected status and first cause, the fields
 * each printer's format carries are read out, and the mlx5 syndrome table agrees with the
 * installed rdma-core's mlx5dv.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

#include "tap.h"
#include "rdmadiag/explain.h"
#include "rdmadiag/selftest.h"

#define LINES "tests/fixtures/explain/lines.tsv"

static struct rdiag_explain e;

static int explain(const char *line)
{
	return rdiag_explain_line(line, strlen(line), &e);
}

static void fixture_lines(void)
{
	FILE *f = fopen(LINES, "r");
	char buf[8192];
	int n = 0, pos = 0, neg = 0;

	EXPECT_TRUE(f != NULL);
	if (!f)
		return;
	while (fgets(buf, sizeof(buf), f)) {
		char *src, *line, *st, *cause, *save;
		int ret;

		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		buf[strcspn(buf, "\n")] = 0;
		src = strtok_r(buf, "\t", &save);
		line = strtok_r(NULL, "\t", &save);
		st = strtok_r(NULL, "\t", &save);
		cause = strtok_r(NULL, "\t", &save);
		EXPECT_TRUE(src && line && st && cause);
		if (!src || !line || !st || !cause)
			continue;
		n++;
		ret = explain(line);
		if (!strcmp(cause, "-")) {
			neg++;
			if (ret != -ENOENT)
				printf("# recognised, should not be: %s (%s)\n", line, src);
			EXPECT_EQ(ret, -ENOENT);
			continue;
		}
		pos++;
		if (ret)
			printf("# not recognised: %s (%s)\n", line, src);
		EXPECT_EQ(ret, 0);
		if (ret)
			continue;
		if (strcmp(st, "-") ? e.wc_status != atoi(st) : e.wc_status != -1)
			printf("# %s: status %d, expected %s\n", src, e.wc_status, st);
		EXPECT_EQ(e.wc_status, strcmp(st, "-") ? atoi(st) : -1);
		if (strcmp(e.cause, cause))
			printf("# %s: cause %s, expected %s\n", src, e.cause, cause);
		EXPECT_STREQ(e.cause, cause);
		EXPECT_TRUE(e.printer != NULL);
		EXPECT_TRUE(e.ncauses >= 1);
		EXPECT_TRUE(!e.status_conflict);
	}
	fclose(f);
	EXPECT_TRUE(n >= 30);
	EXPECT_TRUE(pos >= 25);
	EXPECT_TRUE(neg >= 5);
}

static void fields(void)
{
	/* NCCL: decimal vendor error, the peer from the v4-mapped remote GID */
	EXPECT_EQ(explain("NCCL WARN NET/IB : Got completion from peer xxx.xxx.xxx.xxx<55921> "
			  "with status=12 opcode=1 len=0 vendor err 129 (Send) localGid "
			  "::ffff:29.87.4.221 remoteGids::ffff:29.87.88.182"), 0);
	EXPECT_STREQ(e.printer, "nccl");
	EXPECT_STREQ(e.status_from, "number");
	EXPECT_TRUE(e.has_vendor_err);
	EXPECT_EQ(e.vendor_err, 0x81);
	EXPECT_STREQ(e.vendor_confidence, "vendor statement");
	EXPECT_STREQ(e.peer, "29.87.88.182");
	EXPECT_STREQ(e.causes[0].check, "rdmadoctor connect 29.87.88.182");
	EXPECT_TRUE(!e.has_syndrome);
	EXPECT_STREQ(e.device, "");
	/* without a device, rdmastat's and rdmacheck's DEV goes away */
	EXPECT_TRUE(strstr(e.causes[1].check, "rdmastat -c retry_exceeded") != NULL);
	EXPECT_EQ(explain("NET/IBP:Got completion from peer 7.6.13.83<36315> with status=12 "
			  "opcode=32698 len=32696 vendor err 129 (Send)"), 0);
	EXPECT_STREQ(e.peer, "7.6.13.83");
	/* vendor err 81 is decimal: 0x51, the GPU-buffer value, with status 4 */
	EXPECT_EQ(explain("transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error "
			  "4, opcode 1, len 21938, vendor err 81"), 0);
	EXPECT_EQ(e.vendor_err, 0x51);
	EXPECT_STREQ(e.vendor_confidence, "observed");
	/* UCX mlx5: device and port, syndrome, vendor, hw_synd */
	EXPECT_EQ(explain("[a670n1:162239:0:162239] ib_mlx5_log.c:177  Local protection on "
			  "mlx5_0:1/IB (synd 0x4 vend 0x51 hw_synd 0/2)"), 0);
	EXPECT_STREQ(e.printer, "ucx");
	EXPECT_STREQ(e.device, "mlx5_0");
	EXPECT_EQ(e.port, 1);
	EXPECT_TRUE(e.has_syndrome);
	EXPECT_EQ(e.syndrome, 0x4);
	EXPECT_STREQ(e.syndrome_name, "MLX5_CQE_SYNDROME_LOCAL_PROT_ERR");
	EXPECT_EQ(e.vendor_err, 0x51);
	EXPECT_TRUE(e.has_hw_synd);
	EXPECT_EQ(e.hw_synd, 0);
	EXPECT_EQ(e.hw_synd_type, 2);
	EXPECT_STREQ(e.causes[0].check, "rdmacheck -d mlx5_0 access");
	/* the status from the syndrome alone */
	EXPECT_EQ(explain("[sh03-01n02:14791:0:14791] ib_mlx5_log.c:139  Remote QP on "
			  "mlx5_0:1/IB (synd 0x14 vend 0x89 hw_synd 0/0)"), 0);
	EXPECT_STREQ(e.status_from, "mlx5_syndrome");
	EXPECT_EQ(e.wc_status, IBV_WC_REM_OP_ERR);
	/* kernel mlx5_poll_one: "syndrome" is the CQE's, "vendor syndrome" the vendor's */
	EXPECT_EQ(explain("[15601.662158] infiniband rocep33s0f0: mlx5_poll_one:530:(pid 0): "
			  "syndrome 0x5, vendor syndrome 0xf9"), 0);
	EXPECT_EQ(e.syndrome, 5);
	EXPECT_EQ(e.vendor_err, 0xf9);
	EXPECT_STREQ(e.device, "rocep33s0f0");
	EXPECT_STREQ(e.printer, "kernel");
	EXPECT_STREQ(e.vendor_confidence, "unknown");
	/* a bare "syndrome" with no vendor field is UCX verbs' vendor_err */
	EXPECT_EQ(explain("dc_verbs.c:633  UCX  ERROR Send completion with error on qp 0x10e55: "
			  "transport retry counter exceeded syndrome 0x81"), 0);
	EXPECT_TRUE(e.has_vendor_err && !e.has_syndrome);
	EXPECT_EQ(e.vendor_err, 0x81);
	/* the CQE dump's last row */
	EXPECT_EQ(explain("00000000 00008813 10012abe 0dd0c1d3"), 0);
	EXPECT_EQ(e.syndrome, 0x13);
	EXPECT_EQ(e.vendor_err, 0x88);
	EXPECT_EQ(e.wc_status, IBV_WC_REM_ACCESS_ERR);
	/* a vendor value mlx5 does not have is said to be unknown, with its source */
	EXPECT_EQ(explain("CQE ERROR wr_id=12887842422 status=12(transport retry counter "
			  "exceeded) opcode=4 byte_len=0 vendor_err=0xa qp_num=0x2e24"), 0);
	EXPECT_EQ(e.vendor_err, 0xa);
	EXPECT_TRUE(e.vendor_meaning == NULL);
	EXPECT_STREQ(e.vendor_confidence, "unknown");
	/* a firmware command failure */
	EXPECT_EQ(explain("[145291.904971] mlx5_core 0000:04:00.0: mlx5_cmd_check:795:(pid "
			  "9993): RTR2RTS_QP(0x504) op_mod(0x0) failed, status bad "
			  "parameter(0x3), syndrome (0x4bb88f)"), 0);
	EXPECT_TRUE(e.has_cmd);
	EXPECT_STREQ(e.cmd, "RTR2RTS_QP");
	EXPECT_EQ(e.cmd_opcode, 0x504);
	EXPECT_EQ(e.cmd_status, 3);
	EXPECT_STREQ(e.cmd_status_str, "bad parameter");
	EXPECT_EQ(e.cmd_syndrome, 0x4bb88f);
	EXPECT_STREQ(e.cmd_verb, "ibv_modify_qp");
	EXPECT_EQ(e.wc_status, -1);
	/* text and number disagree: the text wins, the conflict is said */
	EXPECT_EQ(explain("completion status=13 transport retry counter exceeded"), 0);
	EXPECT_EQ(e.wc_status, 12);
	EXPECT_TRUE(e.status_conflict);
	/* enumerators, kernel and libibverbs */
	EXPECT_EQ(explain("wc status IB_WC_RNR_RETRY_EXC_ERR on qp 5"), 0);
	EXPECT_EQ(e.wc_status, 13);
	EXPECT_STREQ(e.cause, "rnr_no_receive");
	EXPECT_EQ(explain("poll_cq: IBV_WC_REM_ACCESS_ERR"), 0);
	EXPECT_EQ(e.wc_status, 10);
	/* a number without completion context is not a status; success is no error */
	EXPECT_EQ(explain("make: *** [all] Error 2, exit status 1"), -ENOENT);
	EXPECT_EQ(explain("completion status=0 (success)"), -ENOENT);
	EXPECT_EQ(explain("completion status=99"), -ENOENT);
	EXPECT_EQ(rdiag_explain_line("", 0, &e), -ENOENT);
	/* bounds: the length is honoured, no terminator needed; NULL is EINVAL */
	EXPECT_EQ(rdiag_explain_line("status=12 completion", 9, &e), -ENOENT);
	EXPECT_EQ(explain("F20250821 rdma_io.cc:811] got bad completion with status: 0xc"), 0);
	EXPECT_STREQ(e.printer, "application");
	EXPECT_EQ(rdiag_explain_line(NULL, 3, &e), -EINVAL);
	EXPECT_EQ(rdiag_explain_line("x", 1, NULL), -EINVAL);
}

static void mlx5_table(void)
{
	/* the values are those of the installed rdma-core */
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR),
		     "MLX5_CQE_SYNDROME_LOCAL_LENGTH_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR),
		     "MLX5_CQE_SYNDROME_LOCAL_QP_OP_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_LOCAL_PROT_ERR),
		     "MLX5_CQE_SYNDROME_LOCAL_PROT_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_WR_FLUSH_ERR),
		     "MLX5_CQE_SYNDROME_WR_FLUSH_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_MW_BIND_ERR),
		     "MLX5_CQE_SYNDROME_MW_BIND_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_BAD_RESP_ERR),
		     "MLX5_CQE_SYNDROME_BAD_RESP_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR),
		     "MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR),
		     "MLX5_CQE_SYNDROME_REMOTE_INVAL_REQ_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR),
		     "MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_REMOTE_OP_ERR),
		     "MLX5_CQE_SYNDROME_REMOTE_OP_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR),
		     "MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR),
		     "MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR");
	EXPECT_STREQ(rdiag_mlx5_syndrome_name(MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR),
		     "MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR");
	/* the provider's mapping to work-completion statuses */
	EXPECT_EQ(rdiag_mlx5_syndrome_wc_status(MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR),
		  IBV_WC_RETRY_EXC_ERR);
	EXPECT_EQ(rdiag_mlx5_syndrome_wc_status(MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR),
		  IBV_WC_RNR_RETRY_EXC_ERR);
	EXPECT_EQ(rdiag_mlx5_syndrome_wc_status(MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR),
		  IBV_WC_REM_ABORT_ERR);
	EXPECT_EQ(rdiag_mlx5_syndrome_wc_status(MLX5_CQE_SYNDROME_LOCAL_ACCESS_ERR),
		  IBV_WC_LOC_ACCESS_ERR);
	EXPECT_TRUE(rdiag_mlx5_syndrome_name(0x3) == NULL);
	EXPECT_EQ(rdiag_mlx5_syndrome_wc_status(0x99), -1);
}

static void wc_data(void)
{
	const struct rdiag_wc_cause *c;
	int s;

	/* every error status has a meaning; the common ones ranked causes with checks */
	for (s = IBV_WC_LOC_LEN_ERR; s <= IBV_WC_TM_RNDV_INCOMPLETE; s++)
		EXPECT_TRUE(rdiag_wc_status_meaning(s)[0] != '\0');
	for (s = 0; s < 24; s++) {
		size_t i, n = rdiag_wc_status_causes(s, &c);

		for (i = 0; i < n; i++)
			EXPECT_TRUE(c[i].id && c[i].text && c[i].check && c[i].check[0]);
	}
	EXPECT_TRUE(rdiag_wc_status_causes(IBV_WC_RETRY_EXC_ERR, &c) >= 4);
	EXPECT_STREQ(c[0].id, "peer_unreachable");
	EXPECT_TRUE(rdiag_wc_status_causes(IBV_WC_RNR_RETRY_EXC_ERR, &c) >= 2);
	EXPECT_TRUE(rdiag_wc_status_causes(IBV_WC_REM_ACCESS_ERR, &c) >= 3);
	EXPECT_TRUE(rdiag_wc_status_causes(IBV_WC_LOC_PROT_ERR, &c) >= 3);
	EXPECT_EQ(rdiag_wc_status_causes(-1, &c), 0);
	EXPECT_TRUE(c == NULL);
	EXPECT_EQ(rdiag_wc_status_causes(1000, &c), 0);
	EXPECT_TRUE(rdiag_wc_status_meaning(-5) != NULL);
}

int main(void)
{
	fixture_lines();
	fields();
	mlx5_table();
	wc_data();
	return tap_done();
}
