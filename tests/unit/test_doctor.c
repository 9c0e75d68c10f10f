/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The doctor's pure parts: RoCE path MTU arithmetic, the private-data record, the JSON reader,
 * the firewall scans (nft JSON as nft 1.0.6 prints it in the real-kernel guest, and
 * iptables-save text), the verdict's choice of cause (a failed disconnect included), the mtu
 * and GID findings of a port built here, and real rtnetlink round trips (a broadcast route,
 * a missing neighbour entry).  Every warning or problem finding made here must carry a fix
 * hint. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_cma.h>

#include "tap.h"
#include "rdmadiag/cause.h"
#include "rdmadiag/counters.h"
#include "rdmadiag/doctor.h"
#include "doctor/internal.h"

/* 'nft -j list ruleset' in the guest after fw_drop_roce (tests/vm/guest/lib.sh) */
static const char nft_real[] =
	"{\"nftables\": [{\"metainfo\": {\"version\": \"1.0.6\", \"release_name\": \"Lester Gooch #5\", "
	"\"json_schema_version\": 1}}, {\"table\": {\"family\": \"inet\", \"name\": \"rdiag_test\", "
	"\"handle\": 1}}, {\"chain\": {\"family\": \"inet\", \"table\": \"rdiag_test\", \"name\": "
	"\"input\", \"handle\": 1, \"type\": \"filter\", \"hook\": \"input\", \"prio\": 0, \"policy\": "
	"\"accept\"}}, {\"rule\": {\"family\": \"inet\", \"table\": \"rdiag_test\", \"chain\": \"input\", "
	"\"handle\": 2, \"expr\": [{\"match\": {\"op\": \"==\", \"left\": {\"payload\": {\"protocol\": "
	"\"udp\", \"field\": \"dport\"}}, \"right\": 4791}}, {\"counter\": {\"packets\": 0, \"bytes\": "
	"0}}, {\"drop\": null}]}}]}";

/* one rule in table t, chain c (policy POL) with the given expression list */
static int scan_rule(const char *pol, const char *expr, struct rd_fw_result *r)
{
	char buf[2048];

	snprintf(buf, sizeof(buf),
		 "{\"nftables\":[{\"chain\":{\"family\":\"inet\",\"table\":\"t\",\"name\":\"c\","
		 "\"handle\":1,\"type\":\"filter\",\"hook\":\"input\",\"prio\":0,\"policy\":\"%s\"}},"
		 "{\"rule\":{\"family\":\"inet\",\"table\":\"t\",\"chain\":\"c\",\"handle\":3,"
		 "\"expr\":[%s]}}]}", pol, expr);
	return rd_fw_scan_nft_json(buf, r);
}

static int strong(const struct rd_fw_result *r)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->n; i++)
		n += r->hit[i].strength == RD_FW_STRONG;
	return n;
}

#define M(proto, field, right) \
	"{\"match\":{\"op\":\"==\",\"left\":{\"payload\":{\"protocol\":\"" proto "\",\"field\":\"" \
	field "\"}},\"right\":" right "}}"
#define DROP "{\"drop\":null}"

static void test_nft(void)
{
	struct rd_fw_result r;

	EXPECT_EQ(rd_fw_scan_nft_json(nft_real, &r), 0);
	EXPECT_EQ(r.nrules, 1);
	EXPECT_EQ(r.n, 1);
	EXPECT_EQ(r.hit[0].strength, RD_FW_STRONG);
	EXPECT_STREQ(r.hit[0].where, "inet rdiag_test input handle 2");
	EXPECT_STREQ(r.hit[0].text, "udp dport 4791 counter drop");

	scan_rule("accept", M("tcp", "dport", "22") "," DROP, &r);
	EXPECT_EQ(r.n, 0);			/* another protocol */
	scan_rule("accept", M("udp", "dport", "53") "," DROP, &r);
	EXPECT_EQ(r.n, 0);			/* another port */
	scan_rule("accept", M("udp", "dport", "{\"set\":[53,4791]}") "," DROP, &r);
	EXPECT_EQ(strong(&r), 1);
	scan_rule("accept", M("th", "dport", "{\"range\":[4000,5000]}") ",{\"reject\":null}", &r);
	EXPECT_EQ(strong(&r), 1);
	scan_rule("accept", "{\"match\":{\"op\":\"!=\",\"left\":{\"payload\":{\"protocol\":\"udp\","
		  "\"field\":\"dport\"}},\"right\":4791}}," DROP, &r);
	EXPECT_EQ(r.n, 0);			/* everything but 4791 */
	scan_rule("accept", "{\"match\":{\"op\":\"==\",\"left\":{\"meta\":{\"key\":\"l4proto\"}},"
		  "\"right\":\"udp\"}}," DROP, &r);
	EXPECT_EQ(strong(&r), 1);		/* all of UDP */
	scan_rule("accept", M("ip", "saddr", "\"10.0.0.1\"") "," DROP, &r);
	EXPECT_EQ(r.n, 1);
	EXPECT_EQ(r.hit[0].strength, RD_FW_WEAK);	/* may, by address */
	EXPECT_STREQ(r.hit[0].text, "ip saddr 10.0.0.1 drop");
	scan_rule("accept", M("udp", "dport", "4791") ",{\"accept\":null}", &r);
	EXPECT_EQ(r.n, 0);			/* not a drop */
	scan_rule("drop", M("tcp", "dport", "22") ",{\"accept\":null}", &r);
	EXPECT_EQ(strong(&r), 1);		/* drop policy, nothing lets 4791 in */
	EXPECT_STREQ(r.hit[0].where, "inet t c (hook input)");
	scan_rule("drop", M("udp", "dport", "4791") ",{\"accept\":null}", &r);
	EXPECT_EQ(r.n, 0);			/* drop policy, 4791 accepted */
	EXPECT_EQ(rd_fw_scan_nft_json("{\"nftables\": 3}", &r), -EINVAL);
	EXPECT_EQ(rd_fw_scan_nft_json("Error: Could not process rule", &r), -EINVAL);
}

/* the hook of the chain a rule is in: an output or postrouting hook drops what this host
 * sends (on rxe: the hazard of an attempt) */
static void test_fw_egress_hooks(void)
{
	struct rd_fw_result r;
	char buf[1024];

	EXPECT_EQ(rd_fw_scan_nft_json(nft_real, &r), 0);
	EXPECT_TRUE(r.n == 1 && !r.hit[0].egress);	/* input */
	snprintf(buf, sizeof(buf), "%s", nft_real);
	memcpy(strstr(buf, "\"hook\": \"input\""), "\"hook\": \"ouput\"", 15);
	EXPECT_EQ(rd_fw_scan_nft_json(buf, &r), 0);
	EXPECT_TRUE(r.n == 1 && !r.hit[0].egress);	/* not a hook name nft knows */
	memcpy(strstr(buf, "\"hook\": \"ouput\""), "\"hook\":\"output\"", 15);
	EXPECT_EQ(rd_fw_scan_nft_json(buf, &r), 0);
	EXPECT_TRUE(r.n == 1 && r.hit[0].egress);
	rd_fw_scan_iptables("*filter\n:OUTPUT ACCEPT [0:0]\n"
			    "-A OUTPUT -p udp -m udp --dport 4791 -j DROP\n"
			    "-A INPUT -p udp -m udp --dport 4791 -j DROP\nCOMMIT\n", &r);
	EXPECT_TRUE(r.n == 2 && r.hit[0].egress && !r.hit[1].egress);
	rd_fw_scan_iptables("*filter\n:OUTPUT DROP [0:0]\nCOMMIT\n", &r);
	EXPECT_TRUE(r.n == 1 && r.hit[0].egress);
}

static void test_iptables(void)
{
	struct rd_fw_result r;

	rd_fw_scan_iptables("*filter\n:INPUT ACCEPT [0:0]\n"
			    "-A INPUT -p udp -m udp --dport 4791 -j DROP\n"
			    "-A INPUT -p tcp -m tcp --dport 22 -j DROP\n"
			    "-A INPUT -s 10.0.0.0/8 -j REJECT\n"
			    "-A INPUT -p udp -m multiport --dports 4000:5000,53 -j DROP\n"
			    "-A INPUT -p udp --dport 4791 -j ACCEPT\nCOMMIT\n", &r);
	EXPECT_EQ(r.nrules, 5);
	EXPECT_EQ(r.n, 3);
	EXPECT_EQ(strong(&r), 2);
	EXPECT_STREQ(r.hit[0].where, "filter INPUT");
	EXPECT_EQ(r.hit[1].strength, RD_FW_WEAK);
	rd_fw_scan_iptables("*filter\n:INPUT DROP [3:120]\n:OUTPUT ACCEPT [0:0]\nCOMMIT\n", &r);
	EXPECT_EQ(strong(&r), 1);
	EXPECT_STREQ(r.hit[0].where, "filter INPUT");
	rd_fw_scan_iptables("", &r);
	EXPECT_EQ(r.n, 0);
}

static void test_json(void)
{
	const char *t = "{\"a\": [1, -2.5e1, true, false, null, \"x\\ty\\u0041\\u00e9\"], \"b\": {}}";
	struct rd_json *j = rd_json_parse(t, strlen(t));
	const struct rd_json *a, *e;

	EXPECT_TRUE(j != NULL);
	a = rd_json_get(j, "a");
	EXPECT_TRUE(a && a->type == RD_JARR);
	e = a ? a->child : NULL;
	EXPECT_TRUE(e && e->type == RD_JNUM && e->num == 1);
	e = e ? e->next : NULL;
	EXPECT_DBL(e ? e->num : 0, -25.0, 1e-9);
	e = e ? e->next->next->next->next : NULL;
	EXPECT_STREQ(e ? e->str : NULL, "x\tyA?");
	EXPECT_TRUE(rd_json_get(j, "b") && rd_json_get(j, "b")->type == RD_JOBJ);
	EXPECT_TRUE(rd_json_get(j, "c") == NULL);
	rd_json_free(j);
	EXPECT_TRUE(rd_json_parse("{\"a\": }", 7) == NULL);
	EXPECT_TRUE(rd_json_parse("[1, 2", 5) == NULL);
	EXPECT_TRUE(rd_json_parse("{\"a\": 1} x", 10) == NULL);
	EXPECT_TRUE(rd_json_parse("\"open", 5) == NULL);
	{
		/* nesting deeper than the limit is refused, not a stack overflow */
		char deep[400];

		memset(deep, '[', sizeof(deep) - 1);
		deep[sizeof(deep) - 1] = 0;
		EXPECT_TRUE(rd_json_parse(deep, strlen(deep)) == NULL);
	}
}

static struct rdiag_doc_step *step(struct rdiag_doctor *d, enum rdiag_doc_step_id id, bool ok,
				   int event, int status)
{
	struct rdiag_doc_step *s = &d->steps[d->nsteps++];

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->name = rdiag_doc_step_name(id);
	s->done = true;
	s->ok = ok;
	s->event = event;
	s->status = status;
	return s;
}

static void add_delta(struct rdiag_doctor *d, const char *dev, uint32_t port, const char *name,
		      uint64_t before, uint64_t after)
{
	struct rdiag_doc_delta *x = &d->deltas[d->ndeltas++];

	snprintf(x->dev, sizeof(x->dev), "%s", dev);
	x->port = port;
	snprintf(x->name, sizeof(x->name), "%s", name);
	x->before = before;
	x->after = after;
	x->cm = true;
}

static struct rdiag_doctor *attempted(void)
{
	struct rdiag_doctor *d;

	rdiag_doctor_open(&d, NULL);
	d->devices_checked = true;
	d->ndevices = 1;
	d->attempted = true;
	snprintf(d->dst, sizeof(d->dst), "198.18.0.2");
	d->port = 7471;
	d->ps = RDMA_PS_TCP;
	d->timeout_ms = 2000;
	snprintf(d->egress_dev, sizeof(d->egress_dev), "rxe0");
	d->egress_port = 1;
	step(d, RDIAG_DOC_STEP_CREATE_ID, true, -1, 0);
	step(d, RDIAG_DOC_STEP_RESOLVE_ADDR, true, RDMA_CM_EVENT_ADDR_RESOLVED, 0);
	step(d, RDIAG_DOC_STEP_RESOLVE_ROUTE, true, RDMA_CM_EVENT_ROUTE_RESOLVED, 0);
	step(d, RDIAG_DOC_STEP_CREATE_QP, true, -1, 0);
	return d;
}

/* a doctor on a host with rxe0, rxe1 and mlx5_0 (the fixtures' trees in one), with the
 * firewall check's warning, whose egress device is dev */
static struct rdiag_doctor *fw_doctor(const char *root, const char *dev, const char *egress_rule)
{
	struct rdiag_doctor *d;

	/* the counters handle reads it when the devices are first asked for */
	setenv("RDMADIAG_SYSFS_ROOT", root, 1);
	rdiag_doctor_open(&d, NULL);
	rd_doc_evidence(rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_WARN, "firewall_drops_roce",
				   "UDP 4791", "1 firewall rule(s) can drop RoCE v2 (UDP port 4791)"),
			"nft -j list ruleset: inet t output handle 3: udp dport 4791 drop");
	snprintf(d->fw_egress, sizeof(d->fw_egress), "%s", egress_rule);
	snprintf(d->egress_dev, sizeof(d->egress_dev), "%s", dev);
	d->egress_port = 1;
	rd_doc_firewall_egress(d);
	return d;
}

/* hardware RoCE bypasses netfilter: through mlx5_0 the rule is information, never the cause;
 * through rxe0 it stays a warning, and an output rule is a hazard for the attempt */
static void test_fw_egress(void)
{
	char root[] = "/tmp/rdiag-fw.XXXXXX", cmd[512];
	const char *rule = "nft -j list ruleset: inet t output handle 3: udp dport 4791 drop";
	const struct rdiag_doc_finding *f;
	struct rdiag_doc_verdict v;
	struct rdiag_doc_step *s;
	struct rdiag_doctor *d;

	if (!mkdtemp(root)) {
		EXPECT_TRUE(0);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cp -r tests/fixtures/sysfs/rxe/sys %s/ && "
		 "cp -r tests/fixtures/sysfs/mlx5/sys/class/infiniband/mlx5_0 %s/sys/class/infiniband/",
		 root, root);
	EXPECT_EQ(system(cmd), 0);

	d = fw_doctor(root, "mlx5_0", rule);
	f = rdiag_doctor_finding(d, 0);
	EXPECT_EQ(f->level, RDIAG_DOC_INFO);
	EXPECT_TRUE(f->cause == NULL && !f->hint[0]);
	EXPECT_STREQ(f->summary, "firewall rule(s) can drop UDP port 4791, but the egress device mlx5_0 is hardware RoCE: its traffic does not pass netfilter");
	EXPECT_TRUE(strstr(f->evidence, "\nmlx5 is hardware RoCE: its traffic does not pass netfilter (mlx5_0)") != NULL);
	EXPECT_TRUE(rdiag_doctor_attempt_hazard(d) == NULL);
	/* a connect through mlx5_0 that timed out: the peer, not this host's firewall */
	d->devices_checked = true;
	d->ndevices = 3;
	d->attempted = true;
	d->timeout_ms = 2000;
	s = step(d, RDIAG_DOC_STEP_CONNECT, false, -1, 0);
	s->timed_out = true;
	s->err = -ETIMEDOUT;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "cm_no_response");
	rdiag_doctor_close(d);

	d = fw_doctor(root, "rxe0", rule);
	f = rdiag_doctor_finding(d, 0);
	EXPECT_EQ(f->level, RDIAG_DOC_WARN);
	EXPECT_STREQ(f->cause, "firewall_drops_roce");
	EXPECT_TRUE(rdiag_doctor_attempt_hazard(d) &&
		    !strncmp(rdiag_doctor_attempt_hazard(d), rule, strlen(rule)) &&
		    strstr(rdiag_doctor_attempt_hazard(d), " drops what rxe0 sends, and rdma_rxe leaves"));
	rdiag_doctor_close(d);
	d = fw_doctor(root, "rxe0", "");	/* an input rule only: no hazard */
	EXPECT_TRUE(rdiag_doctor_attempt_hazard(d) == NULL);
	EXPECT_EQ(rdiag_doctor_finding(d, 0)->level, RDIAG_DOC_WARN);
	rdiag_doctor_close(d);
	unsetenv("RDMADIAG_SYSFS_ROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	EXPECT_EQ(system(cmd), 0);
}

static void test_verdict(void)
{
	struct rdiag_doc_verdict v;
	struct rdiag_doctor *d;
	struct rdiag_doc_step *s;

	rdiag_doctor_open(&d, NULL);
	d->devices_checked = true;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "no_rdma_device");
	EXPECT_TRUE(!v.ok);
	rdiag_doctor_close(d);

	d = attempted();
	step(d, RDIAG_DOC_STEP_CONNECT, false, RDMA_CM_EVENT_REJECTED, 8);
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "no_listener");
	EXPECT_STREQ(v.layer, "cm");
	EXPECT_STREQ(v.sentence, "REJECTED with reason 8 (INVALID_SERVICE_ID): nothing listens on "
		     "198.18.0.2 port 7471 in the TCP port space");
	rdiag_doctor_close(d);

	d = attempted();
	step(d, RDIAG_DOC_STEP_CONNECT, false, RDMA_CM_EVENT_REJECTED, 28);
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "rejected_by_application");
	rdiag_doctor_close(d);

	/* the device removed while the REQ was out: rdmatrace's id for the same event */
	d = attempted();
	s = step(d, RDIAG_DOC_STEP_CONNECT, false, RDMA_CM_EVENT_DEVICE_REMOVAL, 0);
	snprintf(s->detail, sizeof(s->detail), "DEVICE_REMOVAL, status 0 (success)");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "device_removed");
	EXPECT_STREQ(v.layer, "host");
	EXPECT_TRUE(!v.ok);
	EXPECT_STREQ(v.sentence, "the RDMA device was removed during connect (DEVICE_REMOVAL, status 0 (success))");
	EXPECT_TRUE(rdiag_cause_find(v.cause) != NULL);
	rdiag_doctor_close(d);

	/* a timeout with a firewall rule as evidence, then without */
	d = attempted();
	s = step(d, RDIAG_DOC_STEP_CONNECT, false, -1, 0);
	s->timed_out = true;
	s->err = -ETIMEDOUT;
	rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_WARN, "firewall_drops_roce", "UDP 4791",
		   "1 rule");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "firewall_drops_roce");
	d->nfindings = 0;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "cm_no_response");
	rdiag_doctor_close(d);

	d = attempted();
	d->nsteps = 1;
	step(d, RDIAG_DOC_STEP_RESOLVE_ADDR, false, RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT);
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "neighbour_unresolved");
	d->steps[1].event = -1;
	d->steps[1].err = -ENETUNREACH;
	d->steps[1].status = 0;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "no_route");
	/* a check that found a problem in an earlier layer wins over the attempt */
	rd_doc_add(d, "port", "link", RDIAG_DOC_PROBLEM, "port_not_active", "rxe0/1",
		   "port rxe0/1 is DOWN");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "port_not_active");
	EXPECT_STREQ(v.sentence, "port rxe0/1 is DOWN");
	rdiag_doctor_close(d);

	/* established: ok, unless the peer's record shows another MTU */
	d = attempted();
	step(d, RDIAG_DOC_STEP_CONNECT, true, RDMA_CM_EVENT_ESTABLISHED, 0);
	step(d, RDIAG_DOC_STEP_DISCONNECT, true, RDMA_CM_EVENT_DISCONNECTED, 0);
	d->egress_mtu = 1500;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "ok");
	EXPECT_TRUE(v.ok);
	d->peer.valid = true;
	d->peer.netdev_mtu = 9000;
	d->peer.path_mtu = 4096;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "mtu_mismatch");
	d->peer.netdev_mtu = 1500;
	d->peer.path_mtu = 1024;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "ok");
	EXPECT_STREQ(v.sentence, "rdma_connect to 198.18.0.2 port 7471 works: ESTABLISHED and "
		     "disconnected cleanly");

	/* the disconnect timed out: the connection works (ok), the cause names the disconnect */
	s = &d->steps[d->nsteps - 1];
	s->ok = false;
	s->event = -1;
	s->timed_out = true;
	s->err = -ETIMEDOUT;
	s->ms = 2000.4;
	snprintf(s->detail, sizeof(s->detail), "no DISCONNECTED within 2000 ms: the doctor gave up");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "disconnect_failed");
	EXPECT_TRUE(v.ok);
	EXPECT_STREQ(v.layer, "cm");
	EXPECT_TRUE(strstr(v.sentence, "works (ESTABLISHED), but the disconnect did not complete: "
			   "no DISCONNECTED within 2000 ms") != NULL);
	EXPECT_TRUE(strstr(v.evidence, "disconnect: timed out after 2000.4 ms") != NULL);
	EXPECT_TRUE(strstr(v.next, "rdma_disconnect()") != NULL);
	/* rdma_disconnect() itself failed */
	s->timed_out = false;
	s->err = -EINVAL;
	snprintf(s->detail, sizeof(s->detail), "rdma_disconnect: -22 EINVAL (Invalid argument)");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "disconnect_failed");
	EXPECT_TRUE(v.ok);
	EXPECT_TRUE(strstr(v.sentence, "but the disconnect failed: rdma_disconnect: -22 EINVAL") != NULL);
	/* another event than DISCONNECTED */
	s->err = 0;
	s->event = RDMA_CM_EVENT_TIMEWAIT_EXIT;
	snprintf(s->detail, sizeof(s->detail), "TIMEWAIT_EXIT, status 0 (success)");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "disconnect_failed");
	EXPECT_TRUE(strstr(v.sentence, "ended with TIMEWAIT_EXIT") != NULL);
	/* the device removed under the established connection: rdmatrace's device_removed,
	 * a problem, not a disconnect that merely failed */
	s->event = RDMA_CM_EVENT_DEVICE_REMOVAL;
	snprintf(s->detail, sizeof(s->detail), "DEVICE_REMOVAL, status 0 (success)");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "device_removed");
	EXPECT_STREQ(v.layer, "host");
	EXPECT_TRUE(!v.ok);
	EXPECT_TRUE(strstr(v.sentence, "was ESTABLISHED, then the RDMA device under it was removed (DEVICE_REMOVAL, status 0 (success) while disconnecting)") != NULL);
	EXPECT_TRUE(strstr(v.next, "check 'rdma link'") != NULL);
	EXPECT_TRUE(strstr(v.evidence, "disconnect: failed after") != NULL);
	s->event = RDMA_CM_EVENT_DISCONNECTED;
	/* no disconnect step at all after ESTABLISHED */
	d->nsteps--;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "disconnect_failed");
	EXPECT_TRUE(strstr(v.sentence, "the disconnect was not made") != NULL);
	/* an MTU mismatch is the problem; the failed disconnect is in its evidence */
	s = step(d, RDIAG_DOC_STEP_DISCONNECT, false, -1, 0);
	s->timed_out = true;
	snprintf(s->detail, sizeof(s->detail), "no DISCONNECTED within 2000 ms");
	d->peer.netdev_mtu = 9000;
	d->peer.path_mtu = 4096;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "mtu_mismatch");
	EXPECT_TRUE(!v.ok);
	EXPECT_TRUE(strstr(v.evidence, "no DISCONNECTED within 2000 ms") != NULL);
	rdiag_doctor_close(d);

	/* a connect timeout is the doctor giving up, and the sentence says so */
	d = attempted();
	s = step(d, RDIAG_DOC_STEP_CONNECT, false, -1, 0);
	s->timed_out = true;
	s->err = -ETIMEDOUT;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "cm_no_response");
	EXPECT_TRUE(strstr(v.sentence, "no REP or REJ within 2000 ms of the CM REQ") != NULL);
	EXPECT_TRUE(strstr(v.sentence, "the doctor gave up waiting (no rdma_cm event: rdma_cm "
			   "would resend the REQ up to 15 times before UNREACHABLE)") != NULL);
	s->timed_out = false;
	s->event = RDMA_CM_EVENT_UNREACHABLE;
	s->status = -ETIMEDOUT;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "cm_no_response");
	EXPECT_TRUE(strstr(v.sentence, "UNREACHABLE (-110 ETIMEDOUT") != NULL);
	EXPECT_TRUE(strstr(v.sentence, "gave up") == NULL);
	rdiag_doctor_close(d);

	/* the counters quoted are the port space's: REQ/REP/REJ for RC, SIDR REQ/REP for UD
	 * (a --ps udp attempt once said "REQ sent 0" beside the SIDR REQs it sent) */
	d = attempted();
	add_delta(d, "rxe0", 1, "cm_tx_msgs/req", 0, 1);
	add_delta(d, "rxe0", 1, "cm_tx_retries/req", 0, 1);
	add_delta(d, "rxe0", 1, "cm_tx_msgs/sidr_req", 0, 2);
	add_delta(d, "rxe0", 1, "cm_tx_retries/sidr_req", 0, 1);
	add_delta(d, "rxe1", 1, "cm_tx_msgs/sidr_req", 0, 7);	/* not the egress port */
	s = step(d, RDIAG_DOC_STEP_CONNECT, false, -1, 0);
	s->timed_out = true;
	s->err = -ETIMEDOUT;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "cm_no_response");
	EXPECT_TRUE(strstr(v.sentence, "no REP or REJ within 2000 ms of the CM REQ (REQ sent 1, "
			   "retries 1, REP 0): ") != NULL);
	EXPECT_TRUE(strstr(v.evidence, "cm_tx_msgs/sidr_req") == NULL);
	d->ps = RDMA_PS_UDP;
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "cm_no_response");
	EXPECT_TRUE(strstr(v.sentence, "no SIDR REP within 2000 ms of the SIDR REQ (SIDR REQ sent 2, "
			   "retries 1, SIDR REP 0): the peer does not answer at the CM level; the "
			   "doctor gave up waiting (no rdma_cm event: rdma_cm would resend the SIDR "
			   "REQ up to 15 times") != NULL);
	EXPECT_TRUE(strstr(v.evidence, "rxe0/1 cm_tx_msgs/sidr_req +2") != NULL);
	EXPECT_TRUE(strstr(v.evidence, "cm_tx_msgs/req +") == NULL);
	rd_doc_add(d, "firewall", "firewall", RDIAG_DOC_WARN, "firewall_drops_roce", "UDP 4791",
		   "1 rule");
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "firewall_drops_roce");
	EXPECT_TRUE(strstr(v.sentence, "(SIDR REQ sent 2, retries 1, SIDR REP 0): a firewall "
			   "rule drops RoCE v2") != NULL);
	d->ps = RDMA_PS_TCP;
	rdiag_doctor_verdict(d, &v);
	EXPECT_TRUE(strstr(v.sentence, "(REQ sent 1, retries 1, REP 0, REJ 0): a firewall rule") != NULL);
	rdiag_doctor_close(d);
}

/* a finding's text that does not fit is cut visibly, ending in "...", never silently */
static void test_cut_shows(void)
{
	struct rdiag_doctor *d = attempted();
	struct rdiag_doc_finding *f;
	char big[1200];
	size_t n;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	f = rd_doc_add(d, "mtu", "transport", RDIAG_DOC_WARN, "mtu_mismatch", "rxe0/1", "%s", big);
	n = strlen(f->summary);
	EXPECT_EQ(n, sizeof(f->summary) - 1);
	EXPECT_STREQ(f->summary + n - 3, "...");
	rd_doc_evidence(f, "first line");
	rd_doc_evidence(f, "%s", big);
	n = strlen(f->evidence);
	EXPECT_TRUE(!strncmp(f->evidence, "first line\nxxx", 14));
	EXPECT_STREQ(f->evidence + n - 3, "...");
	rd_doc_hint(f, "%s", big);
	EXPECT_STREQ(f->hint + strlen(f->hint) - 3, "...");
	/* what fits is untouched */
	f = rd_doc_add(d, "mtu", "transport", RDIAG_DOC_OK, NULL, "rxe0/1", "%.*s",
		       (int)sizeof(f->summary) - 1, big);
	EXPECT_EQ(strspn(f->summary, "x"), sizeof(f->summary) - 1);
	rdiag_doctor_close(d);
}

/* every warning or problem finding of d carries a fix hint */
/* the steps are an enum with one name table; the verdict finds them by id, not by name or
 * by position */
static void test_step_ids(void)
{
	struct rdiag_doctor *d;
	struct rdiag_doc_verdict v;
	struct rdiag_doc_step *s;

	EXPECT_STREQ(rdiag_doc_step_name(RDIAG_DOC_STEP_CREATE_ID), "create_id");
	EXPECT_STREQ(rdiag_doc_step_name(RDIAG_DOC_STEP_RESOLVE_ROUTE), "resolve_route");
	EXPECT_STREQ(rdiag_doc_step_name(RDIAG_DOC_STEP_DISCONNECT), "disconnect");
	EXPECT_TRUE(rdiag_doc_step_name(RDIAG_DOC_STEP__COUNT) == NULL);

	/* a step whose printed name was changed is still the connect step */
	d = attempted();
	s = step(d, RDIAG_DOC_STEP_CONNECT, false, RDMA_CM_EVENT_REJECTED, 8);
	s->name = "renamed";
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "no_listener");
	rdiag_doctor_close(d);

	/* the connect step found wherever it sits: first here, and renamed */
	d = attempted();
	d->nsteps = 0;
	s = step(d, RDIAG_DOC_STEP_CONNECT, true, RDMA_CM_EVENT_ESTABLISHED, 0);
	s->name = "renamed";
	rdiag_doctor_verdict(d, &v);
	EXPECT_STREQ(v.cause, "disconnect_failed");	/* established, no disconnect step */
	rdiag_doctor_close(d);
}

static void expect_hints(const struct rdiag_doctor *d, const char *what)
{
	size_t i, bare = 0;

	for (i = 0; i < rdiag_doctor_nfindings(d); i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);

		if (f->level >= RDIAG_DOC_WARN && !f->hint[0]) {
			bare++;
			printf("# %s: %s finding without a hint: %s\n", what, f->check, f->summary);
		}
	}
	EXPECT_EQ(bare, 0);
}

static void test_mtu_finding(void)
{
	struct rdiag_doctor *d;
	const struct rdiag_doc_finding *f;

	rdiag_doctor_open(&d, NULL);
	rd_doc_mtu_finding(d, "rxe0/1", "veth0", 1500, 0, 1024, 4096, NULL);
	f = rdiag_doctor_finding(d, 0);
	EXPECT_STREQ(f->check, "mtu");
	EXPECT_EQ(f->level, RDIAG_DOC_OK);
	EXPECT_STREQ(f->summary, "netdev veth0 MTU 1500 -> RoCE path MTU 1024, active MTU 1024");
	EXPECT_STREQ(f->evidence, "netdev veth0 mtu 1500; 1500 - 96 = 1404 -> largest IB MTU that "
		     "fits 1024; port active_mtu 1024, max_mtu 4096");
	EXPECT_EQ(d->egress_active_mtu, 1024);
	/* jumbo netdev, port left at 1024 below its max: the ends may disagree */
	rd_doc_mtu_finding(d, "mlx5_0/1", "ens1", 9000, 0, 1024, 4096, NULL);
	f = rdiag_doctor_finding(d, 1);
	EXPECT_EQ(f->level, RDIAG_DOC_WARN);
	EXPECT_STREQ(f->cause, "mtu_mismatch");
	EXPECT_STREQ(f->summary, "active MTU 1024 of mlx5_0/1 differs from the RoCE path MTU 4096 "
		     "that netdev ens1 (MTU 9000) allows");
	EXPECT_TRUE(strstr(f->evidence, "9000 - 96 = 8904 -> largest IB MTU that fits 4096; port "
			   "active_mtu 1024, max_mtu 4096") != NULL);
	/* the port at its maximum below what the netdev allows is no mismatch */
	rd_doc_mtu_finding(d, "x/1", "ens2", 9000, 0, 2048, 2048, NULL);
	EXPECT_EQ(rdiag_doctor_finding(d, 2)->level, RDIAG_DOC_OK);
	/* active above what the netdev carries, below the max: a mismatch too */
	rd_doc_mtu_finding(d, "x/1", "ens3", 1500, 0, 2048, 4096, NULL);
	EXPECT_EQ(rdiag_doctor_finding(d, 3)->level, RDIAG_DOC_WARN);
	/* too small for the smallest IB MTU */
	rd_doc_mtu_finding(d, "rxe0/1", "veth0", 300, 0, 256, 4096, NULL);
	f = rdiag_doctor_finding(d, 4);
	EXPECT_EQ(f->level, RDIAG_DOC_PROBLEM);
	EXPECT_STREQ(f->cause, "mtu_too_small");
	EXPECT_STREQ(f->hint, "ip link set veth0 mtu 1500");
	EXPECT_TRUE(strstr(f->evidence, "300 - 96 = 204 -> largest IB MTU that fits 0") != NULL);
	/* the port could not be queried: info, with the reason */
	rd_doc_mtu_finding(d, "rxe0/1", "veth0", 1500, -ENODEV, 0, 0,
			   "ibv_query_port(rxe0, 1): No such device");
	f = rdiag_doctor_finding(d, 5);
	EXPECT_EQ(f->level, RDIAG_DOC_INFO);
	EXPECT_TRUE(f->cause == NULL);
	EXPECT_STREQ(f->summary, "netdev veth0 MTU 1500 allows a RoCE path MTU of 1024; the port's "
		     "active MTU is unknown");
	EXPECT_STREQ(f->evidence, "netdev veth0 mtu 1500; 1500 - 96 = 1404 -> largest IB MTU that "
		     "fits 1024; port active MTU unknown (ibv_query_port(rxe0, 1): No such device)");
	/* too small is a problem even when the port cannot be queried */
	rd_doc_mtu_finding(d, "rxe0/1", "veth0", 300, -ENODEV, 0, 0, NULL);
	f = rdiag_doctor_finding(d, 6);
	EXPECT_STREQ(f->cause, "mtu_too_small");
	EXPECT_TRUE(strstr(f->evidence, "port active MTU unknown (No such device)") != NULL);
	expect_hints(d, "mtu");
	rdiag_doctor_close(d);
}

static void set_gid(struct rdiag_gid *g, unsigned int index, enum rdiag_gid_type type,
		    const char *ip, bool ll)
{
	memset(g, 0, sizeof(*g));
	g->index = index;
	g->type = type;
	snprintf(g->ndev, sizeof(g->ndev), "lo");
	snprintf(g->ip, sizeof(g->ip), "%s", ip);
	if (ll) {
		g->raw[0] = 0xfe, g->raw[1] = 0x80;
		snprintf(g->gid, sizeof(g->gid), "fe80:0000:0000:0000:0000:0000:0000:0001");
	} else if (strchr(ip, '.')) {
		g->ipv4 = true;
		g->raw[10] = g->raw[11] = 0xff;
		snprintf(g->gid, sizeof(g->gid), "0000:0000:0000:0000:0000:ffff:%s", ip);
	}
	g->routable = type == RDIAG_GID_ROCE_V2 && !ll;
}

/* the GID findings of a RoCE port built here (netdev lo, so that it is in this namespace;
 * MTU 0 skips the mtu check) for the source 198.18.0.1 */
static const struct rdiag_doc_finding *gid_finding(struct rdiag_gid *gids, size_t n,
						   struct rdiag_doctor **out)
{
	struct rdiag_port p = { .port = 1, .state = 4, .phys_state = 5, .link_layer = "Ethernet",
				.netdev = "lo", .n_gids = n, .gids = gids };
	struct rdiag_device dev = { .name = "mlx5_0", .n_ports = 1, .ports = &p };
	union rd_addr src;
	static const struct rdiag_doc_finding none = { .check = "none", .summary = "no gid finding" };
	const struct rdiag_doc_finding *f;

	rdiag_doctor_open(out, NULL);
	(*out)->ports_queried = true;
	rd_addr_parse("198.18.0.1", &src);
	rd_doc_check_port(*out, &dev, &p, &src);
	expect_hints(*out, "gid");
	f = rd_doc_find(*out, "gid", RDIAG_DOC_OK);
	EXPECT_TRUE(f != NULL);
	return f ? f : &none;
}

static void test_gid_findings(void)
{
	struct rdiag_gid g[2];
	struct rdiag_doctor *d;
	const struct rdiag_doc_finding *f;

	/* only a link-local GID: no IPv4-mapped GID at all */
	set_gid(&g[0], 0, RDIAG_GID_ROCE_V2, "fe80::1", true);
	f = gid_finding(g, 1, &d);
	EXPECT_EQ(f->level, RDIAG_DOC_PROBLEM);
	EXPECT_STREQ(f->cause, "no_gid_for_source");
	EXPECT_STREQ(f->summary, "no RoCE v2 GID on mlx5_0/1 carries the source address 198.18.0.1 "
		     "(the IPv4-mapped GID ::ffff:198.18.0.1 is missing)");
	EXPECT_TRUE(strstr(f->evidence, "gid 0 fe80:0000:0000:0000:0000:0000:0000:0001 RoCE v2 lo") != NULL);
	EXPECT_TRUE(strstr(f->evidence, "no IPv4-mapped GID at all on mlx5_0/1") != NULL);
	EXPECT_TRUE(strstr(f->hint, "configure 198.18.0.1 on lo") != NULL);
	rdiag_doctor_close(d);
	/* an IPv4-mapped GID for another address: still missing for this one */
	set_gid(&g[1], 1, RDIAG_GID_ROCE_V2, "198.18.0.5", false);
	f = gid_finding(g, 2, &d);
	EXPECT_STREQ(f->cause, "no_gid_for_source");
	EXPECT_TRUE(strstr(f->summary, "(the IPv4-mapped GID ::ffff:198.18.0.1 is missing)") != NULL);
	EXPECT_TRUE(strstr(f->evidence, "ip 198.18.0.5") != NULL);
	EXPECT_TRUE(strstr(f->evidence, "no IPv4-mapped GID at all") == NULL);
	rdiag_doctor_close(d);
	/* the source's GID is RoCE v1 only */
	set_gid(&g[1], 1, RDIAG_GID_IB_ROCE_V1, "198.18.0.1", false);
	f = gid_finding(g, 2, &d);
	EXPECT_EQ(f->level, RDIAG_DOC_WARN);
	EXPECT_STREQ(f->cause, "gid_roce_v1_only");
	EXPECT_TRUE(strstr(f->summary, "has only a RoCE v1 GID (index 1)") != NULL);
	EXPECT_EQ(d->egress_gid_type, RDIAG_GID_IB_ROCE_V1);
	rdiag_doctor_close(d);
	/* and RoCE v2: ok */
	set_gid(&g[1], 1, RDIAG_GID_ROCE_V2, "198.18.0.1", false);
	f = gid_finding(g, 2, &d);
	EXPECT_EQ(f->level, RDIAG_DOC_OK);
	EXPECT_STREQ(f->summary, "RoCE v2 GID index 1 of mlx5_0/1 carries the source 198.18.0.1");
	/* the same port's netdev lo is in this namespace */
	f = rd_doc_find(d, "netns", RDIAG_DOC_OK);
	EXPECT_EQ(f->level, RDIAG_DOC_OK);
	rdiag_doctor_close(d);
}

/* findings from real rtnetlink answers: a broadcast destination, and no neighbour entry */
static void test_path_hints(void)
{
	struct rdiag_doc_opts o = { .dst = "127.255.255.255" };
	const struct rdiag_doc_finding *f;
	struct rdiag_doctor *d;
	union rd_addr hop;

	rdiag_doctor_open(&d, NULL);
	EXPECT_EQ(rdiag_doctor_check_path(d, &o), 0);
	f = rd_doc_find(d, "route", RDIAG_DOC_OK);
	EXPECT_TRUE(f != NULL);
	if (f) {
		EXPECT_EQ(f->level, RDIAG_DOC_PROBLEM);
		EXPECT_STREQ(f->cause, "no_route");
		EXPECT_STREQ(f->summary, "the route to 127.255.255.255 is of type broadcast: packets "
			     "are not forwarded");
		EXPECT_TRUE(strstr(f->evidence, "broadcast 127.255.255.255 table") != NULL);
		EXPECT_TRUE(strstr(f->hint, "127.255.255.255 is a broadcast address") != NULL);
	}
	rd_addr_parse("127.0.0.9", &hop);
	rd_doc_check_neigh(d, &hop, (int)if_nametoindex("lo"), "lo", false);
	f = &d->findings[d->nfindings - 1];
	EXPECT_EQ(f->level, RDIAG_DOC_INFO);	/* before the attempt: not resolved yet */
	rd_doc_check_neigh(d, &hop, (int)if_nametoindex("lo"), "lo", true);
	f = &d->findings[d->nfindings - 1];
	EXPECT_EQ(f->level, RDIAG_DOC_WARN);
	EXPECT_STREQ(f->cause, "neighbour_unresolved");
	EXPECT_STREQ(f->summary, "no neighbour entry for next hop 127.0.0.9 on lo after the attempt");
	EXPECT_STREQ(f->evidence, "RTM_GETNEIGH 127.0.0.9 dev lo: no entry");
	EXPECT_TRUE(strstr(f->hint, "check that 127.0.0.9 is up") != NULL);
	expect_hints(d, "path");
	rdiag_doctor_close(d);
}

static void test_findings(void)
{
	struct rdiag_doctor *d;
	struct rdiag_doc_finding *f;

	rdiag_doctor_open(&d, NULL);
	f = rd_doc_add(d, "gid", "address", RDIAG_DOC_OK, "ignored", "rxe0/1", "fine %d", 1);
	EXPECT_TRUE(f->cause == NULL);		/* ok findings carry no cause */
	rd_doc_evidence(f, "line %d", 1);
	rd_doc_evidence(f, "line %d", 2);
	EXPECT_STREQ(f->evidence, "line 1\nline 2");
	EXPECT_EQ(rdiag_doctor_nfindings(d), 1);
	EXPECT_TRUE(rd_doc_find(d, "gid", RDIAG_DOC_OK) == f);
	EXPECT_TRUE(rd_doc_find(d, "gid", RDIAG_DOC_WARN) == NULL);
	EXPECT_TRUE(rdiag_doctor_finding(d, 1) == NULL);
	while (rdiag_doctor_nfindings(d) < RD_DOC_MAX_FINDINGS)
		rd_doc_add(d, "x", "host", RDIAG_DOC_INFO, NULL, "", "filler");
	f = rd_doc_add(d, "last", "host", RDIAG_DOC_WARN, "c", "", "overflow");
	EXPECT_EQ(rdiag_doctor_nfindings(d), RD_DOC_MAX_FINDINGS);	/* last slot reused */
	EXPECT_STREQ(rdiag_doctor_finding(d, RD_DOC_MAX_FINDINGS - 1)->check, "last");
	EXPECT_STREQ(rdiag_doc_level_name(RDIAG_DOC_PROBLEM), "problem");
	rdiag_doctor_close(d);
}

static void test_rtnl(void)
{
	struct rdiag_doctor *d = NULL;
	union rd_addr a;
	struct rd_route r;
	char buf[64];
	int ret;

	EXPECT_EQ(rd_addr_parse("198.18.0.2", &a), 0);
	EXPECT_STREQ(rd_addr_str(&a, buf, sizeof(buf)), "198.18.0.2");
	EXPECT_EQ(rd_addr_parse("fe80::1", &a), 0);
	EXPECT_EQ(a.sa.sa_family, AF_INET6);
	EXPECT_EQ(rd_addr_parse("no.such.host.invalid", &a), -EINVAL);
	EXPECT_STREQ(rd_nud_state_name(NUD_INCOMPLETE, buf, sizeof(buf)), "INCOMPLETE");
	EXPECT_STREQ(rd_nud_state_name(NUD_REACHABLE | NUD_PERMANENT, buf, sizeof(buf)),
		     "REACHABLE,PERMANENT");
	EXPECT_STREQ(rd_nud_state_name(0, buf, sizeof(buf)), "NONE");
	/* a real RTM_GETROUTE: loopback is local on every Linux host */
	rd_addr_parse("127.0.0.1", &a);
	EXPECT_EQ(rdiag_doctor_open(&d, NULL), 0);
	ret = rd_rtnl_route_get(d, &a, NULL, 0, &r);
	rdiag_doctor_close(d);
	EXPECT_EQ(ret, 0);
	EXPECT_EQ(r.type, RTN_LOCAL);
	EXPECT_STREQ(r.oifname, "lo");
	EXPECT_EQ(rd_addr_owner(&a, buf, sizeof(buf)) > 0, 1);
	EXPECT_STREQ(buf, "lo");
	rd_addr_parse("192.0.2.77", &a);	/* TEST-NET-1: nobody has it */
	EXPECT_EQ(rd_addr_owner(&a, buf, sizeof(buf)), -EADDRNOTAVAIL);
}

/* the handle convention: errmsg(NULL) is why the last open failed, errmsg(d) "" on a new one */
static void test_open_errmsg(void)
{
	struct rdiag_doctor *d = NULL;

	EXPECT_EQ(rdiag_doctor_open(NULL, NULL), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_doctor_errmsg(NULL), "rdiag_doctor_open") != NULL);
	EXPECT_EQ(rdiag_doctor_open(&d, NULL), 0);
	EXPECT_TRUE(d != NULL);
	EXPECT_STREQ(rdiag_doctor_errmsg(d), "");
	rdiag_doctor_close(d);
}

int main(void)
{
	struct rdiag_doc_peer_info p = { .valid = true, .netdev_mtu = 9000, .path_mtu = 4096,
					 .active_mtu = 4096, .gid_type = 2, .dev = "mlx5_0" }, q;
	uint8_t buf[RD_DOC_PDATA_LEN];

	EXPECT_EQ(rdiag_roce_path_mtu(1500), 1024);
	EXPECT_EQ(rdiag_roce_path_mtu(9000), 4096);
	EXPECT_EQ(rdiag_roce_path_mtu(4192), 4096);
	EXPECT_EQ(rdiag_roce_path_mtu(4191), 2048);
	EXPECT_EQ(rdiag_roce_path_mtu(1000), 512);
	EXPECT_EQ(rdiag_roce_path_mtu(352), 256);
	EXPECT_EQ(rdiag_roce_path_mtu(351), 0);
	EXPECT_EQ(rdiag_roce_path_mtu(0), 0);

	rd_doc_pdata_pack(buf, &p);
	EXPECT_EQ(rd_doc_pdata_unpack(buf, sizeof(buf), &q), 0);
	EXPECT_TRUE(q.valid);
	EXPECT_EQ(q.netdev_mtu, 9000);
	EXPECT_EQ(q.path_mtu, 4096);
	EXPECT_EQ(q.active_mtu, 4096);
	EXPECT_EQ(q.gid_type, 2);
	EXPECT_STREQ(q.dev, "mlx5_0");
	/* an older doctor sends the 32-byte record alone: read, without a buffer */
	EXPECT_EQ(rd_doc_pdata_unpack(buf, 32, &q), 0);
	{
		uint64_t a;
		uint32_t k, l;

		EXPECT_TRUE(!rd_doc_pdata_buf(buf, 32, &a, &k, &l));
		EXPECT_TRUE(!rd_doc_pdata_buf(buf, sizeof(buf), &a, &k, &l));	/* none set */
		rd_doc_pdata_set_buf(buf, 0x7f0012345678ull, 0xabcd1234, 4096);
		EXPECT_TRUE(rd_doc_pdata_buf(buf, sizeof(buf), &a, &k, &l));
		EXPECT_U64(a, 0x7f0012345678ull);
		EXPECT_EQ(k, 0xabcd1234);
		EXPECT_EQ(l, 4096);
		EXPECT_EQ(rd_doc_pdata_unpack(buf, sizeof(buf), &q), 0);	/* the record stays */
		EXPECT_EQ(q.netdev_mtu, 9000);
	}
	EXPECT_EQ(rd_doc_pdata_unpack(buf, 31, &q), -EINVAL);
	EXPECT_TRUE(!q.valid);
	buf[0] = 'X';
	EXPECT_EQ(rd_doc_pdata_unpack(buf, sizeof(buf), &q), -EINVAL);
	EXPECT_EQ(rd_doc_pdata_unpack(NULL, 0, &q), -EINVAL);

	test_nft();
	test_iptables();
	test_fw_egress_hooks();
	test_json();
	test_findings();
	test_verdict();
	test_fw_egress();
	test_step_ids();
	test_cut_shows();
	test_mtu_finding();
	test_gid_findings();
	test_path_hints();
	test_rtnl();
	test_open_errmsg();
	return tap_done();
}
