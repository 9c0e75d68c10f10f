/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit tests of the shared text/JSON output writer and the escaping helpers. */
#include <errno.h>
#include <stdlib.h>
#include "tap.h"
#include "common/out.h"

static char *render(void (*fn)(struct out *), enum out_mode mode)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_new(f, mode);

	fn(o);
	out_free(o);
	fclose(f);
	return buf;
}

static void sample(struct out *o)
{
	out_obj_begin(o, NULL);
	out_u64(o, "n", "#%" PRIu64, 7);
	out_str(o, "op", " %s", "SEND \"x\"\n");
	out_arr_begin(o, "vlan");
	out_u64(o, NULL, NULL, 1);
	out_u64(o, NULL, NULL, 2);
	out_arr_end(o);
	out_obj_begin(o, "reth");
	out_hex64(o, "va", " va 0x%" PRIx64, 0xdeadbeefULL);
	out_obj_end(o);
	out_bool(o, "ok", NULL, true);
	out_obj_end(o);
	out_obj_begin(o, NULL);
	out_obj_end(o);
}

/* the same through key objects, plus a key that needs escapes and the longest one allowed */
static void sample_k(struct out *o)
{
	out_obj_begin(o, NULL);
	out_u64_k(o, RDIAG_KEY("n"), "#%" PRIu64, 7);
	out_str_k(o, RDIAG_KEY("op"), " %s", "SEND \"x\"\n");
	out_arr_begin(o, "vlan");
	out_u64(o, NULL, NULL, 1);
	out_u64(o, NULL, NULL, 2);
	out_arr_end(o);
	out_obj_begin_k(o, RDIAG_KEY("reth"));
	out_hex64_k(o, RDIAG_KEY("va"), " va 0x%" PRIx64, 0xdeadbeefULL);
	out_obj_end(o);
	out_bool_k(o, RDIAG_KEY("ok"), NULL, true);
	out_obj_end(o);
	out_obj_begin(o, NULL);
	out_obj_end(o);
}

static void odd_keys_k(struct out *o)
{
	for (int i = 0; i < 2; i++) {	/* the second pass uses each key's cached check */
		out_obj_begin(o, NULL);
		out_u64_k(o, RDIAG_KEY("say \"hi\"\n"), NULL, 12345678901234567890ULL);
		out_dbl_k(o, RDIAG_KEY("abcdefghijklmnopqrstuvwxyz012"), NULL, 0.5);
		out_u64_k(o, RDIAG_KEY("caf\xc3\xa9"), NULL, 99);
		out_str_k(o, RDIAG_KEY("s"), NULL, NULL);
		out_obj_end(o);
	}
}

static void odd_keys_s(struct out *o)
{
	for (int i = 0; i < 2; i++) {
		out_obj_begin(o, NULL);
		out_u64(o, "say \"hi\"\n", NULL, 12345678901234567890ULL);
		out_dbl(o, "abcdefghijklmnopqrstuvwxyz012", NULL, 0.5);
		out_u64(o, "caf\xc3\xa9", NULL, 99);
		out_str(o, "s", NULL, NULL);
		out_obj_end(o);
	}
}

static void keyed(void)
{
	static const enum out_mode modes[] = {
		OUT_TEXT, OUT_JSON, OUT_JSON_PRETTY,
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		char *a = render(sample_k, modes[i]), *b = render(sample, modes[i]);
		char *c = render(odd_keys_k, modes[i]), *d = render(odd_keys_s, modes[i]);

		EXPECT_STREQ(a, b);
		EXPECT_STREQ(c, d);
		free(a);
		free(b);
		free(c);
		free(d);
	}
	{
		char *c = render(odd_keys_k, OUT_JSON);

		EXPECT_STREQ(c, "{\"say \\\"hi\\\"\\n\":12345678901234567890,"
			     "\"abcdefghijklmnopqrstuvwxyz012\":0.5,\"caf\xc3\xa9\":99,\"s\":null}\n"
			     "{\"say \\\"hi\\\"\\n\":12345678901234567890,"
			     "\"abcdefghijklmnopqrstuvwxyz012\":0.5,\"caf\xc3\xa9\":99,\"s\":null}\n");
		free(c);
	}
}

/* every digit count, at and around each power of ten, against printf */
static void numbers(void)
{
	uint64_t p = 1;

	for (int d = 0; d < 20; d++, p *= 10) {
		uint64_t vals[3] = { p - 1, p, p + 1 };

		for (int i = 0; i < 3; i++) {
			char *buf = NULL, want[48];
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			struct out *o = out_new(f, OUT_JSON);

			out_obj_begin(o, NULL);
			out_u64_k(o, RDIAG_KEY("v"), NULL, vals[i]);
			out_obj_end(o);
			out_free(o);
			fclose(f);
			snprintf(want, sizeof(want), "{\"v\":%" PRIu64 "}\n", vals[i]);
			EXPECT_STREQ(buf, want);
			free(buf);
		}
	}
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct out *o = out_new(f, OUT_JSON);

		out_arr_begin(o, NULL);
		out_u64(o, NULL, NULL, UINT64_MAX);
		out_i64(o, NULL, NULL, INT64_MIN);
		out_arr_end(o);
		out_free(o);
		fclose(f);
		EXPECT_STREQ(buf, "[18446744073709551615,-9223372036854775808]\n");
		free(buf);
	}
}

static void escapes(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char name[64];

	csv_escape(f, "a,b");
	putc('|', f);
	csv_escape(f, "say \"hi\"");
	putc('|', f);
	csv_escape(f, "plain");
	putc('|', f);
	prom_label_escape(f, "RNR \"sent\"\\");
	putc('|', f);
	json_escape(f, "\x01\xff\xc3\xa9");
	fclose(f);
	EXPECT_STREQ(buf, "\"a,b\"|\"say \"\"hi\"\"\"|plain|RNR \\\"sent\\\"\\\\|\"\\u0001\\u00ff\xc3\xa9\"");
	free(buf);
	EXPECT_EQ(prom_name(name, sizeof(name), "RNR sent,x"), 0);
	EXPECT_STREQ(name, "rnr_sent_x");
	EXPECT_EQ(prom_name(name, sizeof(name), "4x"), 0);
	EXPECT_STREQ(name, "_4x");
	/* snake_case: camelCase words, acronyms, digits (irdma's and hfi1's counter names) */
	EXPECT_EQ(prom_name(name, sizeof(name), "InRdmaReads"), 0);
	EXPECT_STREQ(name, "in_rdma_reads");
	EXPECT_EQ(prom_name(name, sizeof(name), "RxECNMrkd"), 0);
	EXPECT_STREQ(name, "rx_ecn_mrkd");
	EXPECT_EQ(prom_name(name, sizeof(name), "ip4InOctets"), 0);
	EXPECT_STREQ(name, "ip4_in_octets");
	EXPECT_EQ(prom_name(name, sizeof(name), "cnpHandled"), 0);
	EXPECT_STREQ(name, "cnp_handled");
	EXPECT_EQ(prom_name(name, sizeof(name), "SwLinkUp_32"), 0);
	EXPECT_STREQ(name, "sw_link_up_32");
	EXPECT_EQ(prom_name(name, sizeof(name), "np_cnp_sent"), 0);
	EXPECT_STREQ(name, "np_cnp_sent");
	EXPECT_EQ(prom_name(name, 4, "abcd"), -ENOSPC);
	EXPECT_EQ(prom_name(name, 4, "aBc"), -ENOSPC);	/* no room for the "_" */
	EXPECT_STREQ(name, "a_b");
}

/* XML: the five markup characters as references; what XML 1.0 cannot hold (C0 controls but
 * tab, newline and CR, bytes outside valid UTF-8, U+FFFE/U+FFFF) as \ooo text; valid UTF-8,
 * tab and newline as they are */
static void xml(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	EXPECT_EQ(xml_escape(f, "a<b>&\"c'\td\n"), 0);
	putc('|', f);
	xml_escape(f, "\x01\x1f\x7f\xff\xc3\xa9\xc3\xe2\x82\xac\xef\xbf\xbe\xed\xa0\x80");
	putc('|', f);
	xml_escape(f, "");
	fclose(f);
	EXPECT_STREQ(buf, "a&lt;b&gt;&amp;&quot;c&#39;\td\n|\\001\\037\\177\\377\xc3\xa9\\303"
		     "\xe2\x82\xac\\357\\277\\276\\355\\240\\200|");
	free(buf);
}

int main(void)
{
	char *j = render(sample, OUT_JSON);
	char *t = render(sample, OUT_TEXT);

	EXPECT_STREQ(j, "{\"n\":7,\"op\":\"SEND \\\"x\\\"\\n\",\"vlan\":[1,2],"
		     "\"reth\":{\"va\":\"0x00000000deadbeef\"},\"ok\":true}\n{}\n");
	/* text: a value's control bytes are escaped (a newline in a name is data, not a line) */
	EXPECT_STREQ(t, "#7 SEND \"x\"\\n va 0xdeadbeef");
	free(j);
	free(t);
	escapes();
	xml();
	keyed();
	numbers();
	return tap_done();
}
