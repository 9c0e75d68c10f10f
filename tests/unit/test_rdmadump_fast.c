/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit test of rdmadump's one-go packet line (tools/rdmadump/fast.c): for every packet of
 * every fixture capture, the short text line and the JSON line it writes must be the bytes of
 * the field-by-field path (dump_packet_fields), with the flow analysis's verdict of that
 * packet.  Each packet it takes is also rendered with its fields pushed to their edges (every
 * BTH flag, CE, a bad ICRC, credits valid and invalid, widest numbers, the last nanosecond of
 * a second, a time past year 9999) and with a latency verdict.  It must take most packets of
 * the rxe captures (else the test would compare nothing), and none in pretty JSON or when the
 * writer is not held. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "tap.h"
#include "rdmadump/dump.h"

struct sink {
	char *buf;
	size_t len;
	FILE *f;
	struct out *o;
};

static void sink_open(struct sink *s, enum out_mode mode)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	s->o = out_new(s->f, mode);
	out_hold(s->o, true);
}

static void sink_close(struct sink *s)
{
	out_free(s->o);
	fclose(s->f);
}

static unsigned long taken, packets, variants;

/* one packet both ways into a (one go where it can) and b (fields); whether it went in one
 * go */
static bool both(struct sink *a, struct sink *b, const struct rdiag_frame *f,
		 const struct rdiag_pkt *p, const struct rdiag_flow_verdict *v)
{
	bool fast = dump_packet_fast(a->o, f, p, v);

	if (fast)
		taken++;
	else
		dump_packet_fields(a->o, f, p, v, false);
	dump_packet_fields(b->o, f, p, v, false);
	return fast;
}

/* the packet with its fields at their edges, n-th variant */
static void variant(struct rdiag_frame *f, struct rdiag_pkt *p, struct rdiag_flow_verdict *v,
		    int n)
{
	switch (n) {
	case 0:
		p->bth.ackreq = p->bth.se = p->bth.fecn = p->bth.becn = 1;
		p->ecn = 3;
		p->icrc_ok = !p->icrc_ok;
		p->aeth.credits = p->aeth.credits >= 0 ? -1 : 7;
		f->ts_nsec = 999999999;
		break;
	case 1:
		p->bth.destqp = 0xffffff;
		p->bth.psn = 0xffffff;
		p->bth.pkey = 0xffff;
		p->reth.va = UINT64_MAX;
		p->reth.rkey = p->deth_qkey = p->immdt = p->ieth_rkey = UINT32_MAX;
		p->reth.dmalen = UINT32_MAX;
		p->aeth.msn = 0xffffff;
		p->payload_len = 0;
		p->icrc_checked = false;
		memset(p->ip_src, 255, 4);
		memset(p->ip_dst, 0, 4);
		f->n = UINT64_MAX;
		f->ts_nsec = 0;
		break;
	case 2:
		p->bth.destqp = 0;
		p->reth.va = 0;
		p->deth_srcqp = 1;
		f->ts_sec = 253402300800ull + 86399;	/* 10000-01-01T23:59:59 */
		v->flags |= RDIAG_FV_READ_DONE | RDIAG_FV_ACKED;
		v->latency_ns = 123456789012ull;
		break;
	default:
		f->ts_nsec = 1000000000u;	/* not a time a reader gives: the long way */
		v->flags |= RDIAG_FV_ACKED;
		v->latency_ns = 5;
		break;
	}
}

static void one_file(const char *path, struct sink *ta, struct sink *tb, struct sink *ja,
		     struct sink *jb)
{
	const struct rdiag_capture_opts co = { .file = path };
	struct rdiag_capture *c;
	struct rdiag_flow_table *ft;
	struct rdiag_decode_opts dopts;
	struct rdiag_frame f;
	struct rdiag_pkt p;
	struct rdiag_flow_verdict v;

	if (rdiag_capture_open(&c, &co) < 0)
		return;		/* the bad fixtures: not packets */
	if (rdiag_flow_open(&ft, NULL) < 0) {
		rdiag_capture_close(c);
		return;
	}
	rdiag_decode_opts_init(&dopts);
	while (rdiag_capture_next(c, &f) > 0) {
		if (rdiag_pkt_decode(&p, f.linktype, f.data, f.caplen, f.len, &dopts) != 0)
			continue;
		rdiag_flow_add(ft, &p, f.ts_sec * 1000000000ull + f.ts_nsec, &v);
		packets++;
		both(ja, jb, &f, &p, &v);
		if (!both(ta, tb, &f, &p, &v))
			continue;	/* not its shape: no variants */
		for (int n = 0; n < 4; n++) {
			struct rdiag_frame f2 = f;
			struct rdiag_pkt p2 = p;
			struct rdiag_flow_verdict v2 = v;

			variant(&f2, &p2, &v2, n);
			variants++;
			both(ta, tb, &f2, &p2, &v2);
			both(ja, jb, &f2, &p2, &v2);
		}
	}
	rdiag_flow_close(ft);
	rdiag_capture_close(c);
}

static void fixtures(const char *dir, struct sink *ta, struct sink *tb, struct sink *ja,
		     struct sink *jb)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	EXPECT_TRUE(d != NULL);
	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[512];
		size_t len = strlen(e->d_name);

		if (len < 5 || (strcmp(e->d_name + len - 5, ".pcap") &&
				(len < 7 || strcmp(e->d_name + len - 7, ".pcapng"))))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		one_file(path, ta, tb, ja, jb);
	}
	closedir(d);
}

static void same(const char *what, struct sink *a, struct sink *b)
{
	size_t i = 0;

	EXPECT_EQ(a->len, b->len);
	EXPECT_TRUE(a->len > 0);
	while (i < a->len && i < b->len && a->buf[i] == b->buf[i])
		i++;
	EXPECT_TRUE(i == a->len && i == b->len);
	if (i < a->len || i < b->len) {
		size_t s = i > 80 ? i - 80 : 0;

		printf("# %s differs at byte %zu:\n#  one go: %.400s\n#  fields: %.400s\n", what, i,
		       a->buf + s, b->buf + s);
	}
	free(a->buf);
	free(b->buf);
}

/* a writer it must leave alone: not held, or pretty JSON */
static void refusals(void)
{
	static const uint8_t ip[4] = { 10, 0, 0, 1 };
	struct rdiag_frame f = { .n = 1, .ts_sec = 1, .ts_nsec = 2 };
	struct rdiag_pkt p;
	struct sink s;

	memset(&p, 0, sizeof(p));
	p.present = RDIAG_HAS(RDIAG_HDR_LINK) | RDIAG_HAS(RDIAG_HDR_IPV4) |
		    RDIAG_HAS(RDIAG_HDR_UDP) | RDIAG_HAS_BTH;
	p.ip_family = AF_INET;
	memcpy(p.ip_src, ip, 4);
	memcpy(p.ip_dst, ip, 4);
	p.encap = RDIAG_ENCAP_ROCEV2;
	p.bth.opcode = 4;	/* RC_SEND_ONLY */

	sink_open(&s, OUT_TEXT);
	EXPECT_TRUE(dump_packet_fast(s.o, &f, &p, NULL));	/* held text: taken */
	out_hold(s.o, false);
	EXPECT_TRUE(!dump_packet_fast(s.o, &f, &p, NULL));	/* live: flushed per packet */
	sink_close(&s);
	free(s.buf);
	sink_open(&s, OUT_JSON_PRETTY);
	EXPECT_TRUE(!dump_packet_fast(s.o, &f, &p, NULL));
	sink_close(&s);
	free(s.buf);
	sink_open(&s, OUT_JSON);
	out_obj_begin(s.o, NULL);				/* a container open */
	EXPECT_TRUE(!dump_packet_fast(s.o, &f, &p, NULL));
	sink_close(&s);
	free(s.buf);
	p.n_vlan = 1;						/* another shape */
	sink_open(&s, OUT_TEXT);
	EXPECT_TRUE(!dump_packet_fast(s.o, &f, &p, NULL));
	sink_close(&s);
	free(s.buf);
}

int main(void)
{
	static const char *const dirs[] = { "tests/fixtures/pcap", "tests/fixtures/pcap/bad",
					    "tests/fixtures/rxe", "tests/fixtures/vm",
					    "tests/fuzz/corpus-pcap" };
	struct sink ta, tb, ja, jb;

	sink_open(&ta, OUT_TEXT);
	sink_open(&tb, OUT_TEXT);
	sink_open(&ja, OUT_JSON);
	sink_open(&jb, OUT_JSON);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		fixtures(dirs[i], &ta, &tb, &ja, &jb);
	sink_close(&ta);
	sink_close(&tb);
	sink_close(&ja);
	sink_close(&jb);
	printf("# %lu packets, %lu variants, %lu lines written in one go\n", packets, variants,
	       taken);
	EXPECT_TRUE(packets > 1000);
	EXPECT_TRUE(variants > 1000);
	EXPECT_TRUE(taken > packets);
	same("text", &ta, &tb);
	same("JSON", &ja, &jb);
	refusals();
	return tap_done();
}
