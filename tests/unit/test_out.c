/* Unit tests of the shared text/JSON output writer and the escaping helpers. */
#include <stdlib.h>
#include "tap.h"
#include "rdmadiag/out.h"

static char *render(void (*fn)(struct rdiag_out *), enum rdiag_out_mode mode)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rdiag_out *o = rdiag_out_new(f, mode);

	fn(o);
	rdiag_out_free(o);
	fclose(f);
	return buf;
}

static void sample(struct rdiag_out *o)
{
	rdiag_out_obj_begin(o, NULL);
	rdiag_out_u64(o, "n", "#%" PRIu64, 7);
	rdiag_out_str(o, "op", " %s", "SEND \"x\"\n");
	rdiag_out_arr_begin(o, "vlan");
	rdiag_out_u64(o, NULL, NULL, 1);
	rdiag_out_u64(o, NULL, NULL, 2);
	rdiag_out_arr_end(o);
	rdiag_out_obj_begin(o, "reth");
	rdiag_out_hex64(o, "va", " va 0x%" PRIx64, 0xdeadbeefULL);
	rdiag_out_obj_end(o);
	rdiag_out_bool(o, "ok", NULL, true);
	rdiag_out_obj_end(o);
	rdiag_out_obj_begin(o, NULL);
	rdiag_out_obj_end(o);
}

static void escapes(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char name[64];

	rdiag_csv_escape(f, "a,b");
	putc('|', f);
	rdiag_csv_escape(f, "say \"hi\"");
	putc('|', f);
	rdiag_csv_escape(f, "plain");
	putc('|', f);
	rdiag_prom_label_escape(f, "RNR \"sent\"\\");
	putc('|', f);
	rdiag_json_escape(f, "\x01\xff\xc3\xa9");
	fclose(f);
	EXPECT_STREQ(buf, "\"a,b\"|\"say \"\"hi\"\"\"|plain|RNR \\\"sent\\\"\\\\|\"\\u0001\\u00ff\xc3\xa9\"");
	free(buf);
	EXPECT_EQ(rdiag_prom_name(name, sizeof(name), "RNR sent,x"), 0);
	EXPECT_STREQ(name, "RNR_sent_x");
	EXPECT_EQ(rdiag_prom_name(name, sizeof(name), "4x"), 0);
	EXPECT_STREQ(name, "_4x");
}

int main(void)
{
	char *j = render(sample, RDIAG_OUT_JSON);
	char *t = render(sample, RDIAG_OUT_TEXT);

	EXPECT_STREQ(j, "{\"n\":7,\"op\":\"SEND \\\"x\\\"\\n\",\"vlan\":[1,2],"
		     "\"reth\":{\"va\":\"0x00000000deadbeef\"},\"ok\":true}\n{}\n");
	EXPECT_STREQ(t, "#7 SEND \"x\"\n va 0xdeadbeef");
	free(j);
	free(t);
	escapes();
	return tap_done();
}
