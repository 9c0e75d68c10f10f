/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Unit tests of the capture API (lib/capture/capture.c) on the real rxe capture, files made
 * here (garbage, empty, unknown link type, cut records) and the pcap writer.  Run from the
 * top of the tree (mk/run-unit.sh does). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "rdmadiag/capture.h"
#include "rdmadiag/packet.h"
#include "rdmadiag/flow.h"

#define SAMPLE "tests/fixtures/rxe/rxe_sample.pcap"

static char tmpdir[] = "/tmp/rdiag-capture-XXXXXX";

static char *tmp_path(const char *name)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static long file_bytes(const char *path, unsigned char **data)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	*data = malloc((size_t)n);
	if (fread(*data, 1, (size_t)n, f) != (size_t)n)
		n = -1;
	fclose(f);
	return n;
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	fwrite(p, 1, n, f);
	fclose(f);
}

static int open_file(struct rdiag_capture **c, const char *path)
{
	const struct rdiag_capture_opts o = { .file = path };

	return rdiag_capture_open(c, &o);
}

static int open_dump(struct rdiag_capture_dump **d, const struct rdiag_capture *c,
		     const char *path)
{
	const struct rdiag_capture_dump_opts o = { .capture = c, .path = path };

	return rdiag_capture_dump_open(d, &o);
}

static void test_read_sample(void)
{
	struct rdiag_capture *c = NULL;
	struct rdiag_capture_stats st;
	struct rdiag_frame f;
	struct rdiag_pkt p;
	uint64_t pos = 0, size = 0, rdma = 0;
	int r, n = 0;

	EXPECT_EQ(open_file(&c, SAMPLE), 0);
	if (!c)
		return;
	EXPECT_EQ(rdiag_capture_linktype(c), RDIAG_DLT_EN10MB);
	EXPECT_TRUE(!rdiag_capture_is_live(c));
	EXPECT_EQ(rdiag_capture_progress(c, &pos, &size), 0);
	EXPECT_EQ(size, 58704);
	while ((r = rdiag_capture_next(c, &f)) == 1) {
		n++;
		if (n == 1) {
			/* first frame of the rxe capture: 08:13:22.475959 UTC, a full-MTU SEND */
			EXPECT_EQ(f.n, 1);
			EXPECT_EQ(f.ts_sec, 1795940002);
			EXPECT_EQ(f.ts_nsec, 475959000);
			EXPECT_EQ(f.caplen, 1082);
			EXPECT_EQ(f.len, 1082);
		}
		if (rdiag_pkt_decode(&p, f.linktype, f.data, f.caplen, f.len, NULL) == 0)
			rdma++;
	}
	EXPECT_EQ(r, 0);
	EXPECT_EQ(n, 100);
	EXPECT_EQ(rdma, 100);
	EXPECT_EQ(rdiag_capture_progress(c, &pos, &size), 0);
	EXPECT_EQ(pos, size);
	EXPECT_EQ(rdiag_capture_stats(c, &st), 0);
	EXPECT_EQ(st.frames, 100);
	EXPECT_TRUE(!st.have_drops);
	EXPECT_STREQ(rdiag_capture_errmsg(c), "");
	rdiag_capture_close(c);
}

static void test_filter(void)
{
	struct rdiag_capture *c = NULL;
	struct rdiag_frame f;
	int n = 0;

	EXPECT_EQ(open_file(&c, SAMPLE), 0);
	if (!c)
		return;
	EXPECT_EQ(rdiag_capture_set_filter(c, "src host 198.18.0.2"), 0);
	while (rdiag_capture_next(c, &f) == 1)
		n++;
	EXPECT_EQ(n, 45);
	EXPECT_EQ(rdiag_capture_set_filter(c, "((( nonsense"), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(c), "bad filter expression") != NULL);
	rdiag_capture_close(c);
}

static void test_filter_text(void)
{
	uint16_t ports[] = { 4791, 4792 };
	struct rdiag_live_opts o = { 0 };
	char buf[256];

	EXPECT_EQ(rdiag_capture_filter_text(NULL, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, RDIAG_CAPTURE_DEFAULT_FILTER);
	o.ports = ports;
	o.n_ports = 2;
	o.filter = "host 10.0.0.1";
	EXPECT_EQ(rdiag_capture_filter_text(&o, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "(udp port 4791 or udp port 4792 or ether proto 0x8915 or ether proto 0x8808) and (host 10.0.0.1)");
	o.no_default_filter = true;
	EXPECT_EQ(rdiag_capture_filter_text(&o, buf, sizeof(buf)), 0);
	EXPECT_STREQ(buf, "host 10.0.0.1");
	o.no_default_filter = false;
	EXPECT_EQ(rdiag_capture_filter_text(&o, buf, 20), -ENOSPC);
}

static void test_bad_files(void)
{
	struct rdiag_capture *c = (struct rdiag_capture *)1;
	struct rdiag_frame f;
	unsigned char *d = NULL, junk[512];
	long n = file_bytes(SAMPLE, &d);
	int r, frames = 0;

	EXPECT_TRUE(n > 0);
	EXPECT_EQ(open_file(&c, tmp_path("missing.pcap")), -ENOENT);
	EXPECT_TRUE(c == NULL);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "No such file or directory") != NULL);
	EXPECT_EQ(open_file(&c, tmpdir), -EISDIR);

	write_file(tmp_path("empty.pcap"), "", 0);
	EXPECT_EQ(open_file(&c, tmp_path("empty.pcap")), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "empty file") != NULL);

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	write_file(tmp_path("junk.pcap"), junk, sizeof(junk));
	EXPECT_EQ(open_file(&c, tmp_path("junk.pcap")), -EINVAL);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "not a pcap or pcapng capture") != NULL);
	EXPECT_TRUE(strchr(rdiag_capture_errmsg(NULL), '\n') == NULL);

	/* link type 105 (802.11) */
	d[20] = 105;
	write_file(tmp_path("lt.pcap"), d, (size_t)n);
	EXPECT_EQ(open_file(&c, tmp_path("lt.pcap")), -EPROTONOSUPPORT);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "unsupported link type 105") != NULL);
	d[20] = 1;

	/* cut inside the third record: two frames, then -EIO with libpcap's reason */
	write_file(tmp_path("cut.pcap"), d, 24 + 2 * (16 + 1082) + 16 + 100);
	EXPECT_EQ(open_file(&c, tmp_path("cut.pcap")), 0);
	if (c) {
		while ((r = rdiag_capture_next(c, &f)) == 1)
			frames++;
		EXPECT_EQ(frames, 2);
		EXPECT_EQ(r, -EIO);
		EXPECT_TRUE(strstr(rdiag_capture_errmsg(c), "cut short inside frame 3") != NULL);
		rdiag_capture_close(c);
	}
	free(d);
}

static void test_dump_roundtrip(void)
{
	struct rdiag_capture *c = NULL, *c2 = NULL;
	struct rdiag_capture_dump *d = NULL;
	struct rdiag_frame f, g;
	int n = 0, same = 0, r;

	EXPECT_EQ(open_file(&c, SAMPLE), 0);
	if (!c)
		return;
	EXPECT_EQ(open_dump(&d, c, tmp_path("out.pcap")), 0);
	while (rdiag_capture_next(c, &f) == 1)
		if (f.n % 2 == 0)
			EXPECT_EQ(rdiag_capture_dump_write(d, &f), 0);
	EXPECT_EQ(rdiag_capture_dump_close(d), 0);
	rdiag_capture_close(c);

	/* every second frame, byte for byte and with the same nanosecond times */
	EXPECT_EQ(open_file(&c, SAMPLE), 0);
	EXPECT_EQ(open_file(&c2, tmp_path("out.pcap")), 0);
	if (!c || !c2)
		return;
	while (rdiag_capture_next(c, &f) == 1) {
		if (f.n % 2)
			continue;
		if (rdiag_capture_next(c2, &g) != 1)
			break;
		n++;
		same += g.ts_sec == f.ts_sec && g.ts_nsec == f.ts_nsec && g.caplen == f.caplen &&
			g.len == f.len && memcmp(g.data, f.data, f.caplen) == 0;
	}
	r = rdiag_capture_next(c2, &g);
	EXPECT_EQ(r, 0);
	EXPECT_EQ(n, 50);
	EXPECT_EQ(same, 50);
	rdiag_capture_close(c);
	rdiag_capture_close(c2);

	EXPECT_EQ(open_file(&c, SAMPLE), 0);
	d = (struct rdiag_capture_dump *)1;
	EXPECT_EQ(open_dump(&d, c, "/nonexistent-dir/x.pcap"), -ENOENT);
	EXPECT_TRUE(d == NULL);
	EXPECT_TRUE(strstr(rdiag_capture_dump_errmsg(NULL),
			   "cannot create '/nonexistent-dir/x.pcap'") != NULL);
	/* a writer's own errmsg is "" until one of its writes fails */
	EXPECT_EQ(open_dump(&d, c, tmp_path("out2.pcap")), 0);
	EXPECT_STREQ(rdiag_capture_dump_errmsg(d), "");
	EXPECT_EQ(rdiag_capture_dump_close(d), 0);
	rdiag_capture_close(c);
}

/* errmsg(NULL) is the reason of the last failed open of the process: a later successful open
 * leaves it; asking for both a file and an interface (or neither) is -EINVAL with a reason */
static void test_open_reason(void)
{
	struct rdiag_capture_opts both = { .file = SAMPLE, .iface = "lo" };
	struct rdiag_capture *c = (struct rdiag_capture *)1;

	EXPECT_EQ(open_file(&c, tmp_path("missing.pcap")), -ENOENT);
	EXPECT_EQ(open_file(&c, SAMPLE), 0);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "missing.pcap") != NULL);
	rdiag_capture_close(c);
	c = (struct rdiag_capture *)1;
	EXPECT_EQ(rdiag_capture_open(&c, &both), -EINVAL);
	EXPECT_TRUE(c == NULL);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "a file or an interface") != NULL);
	EXPECT_EQ(rdiag_capture_open(&c, NULL), -EINVAL);
}

static void test_live_errors(void)
{
	const struct rdiag_capture_opts o = { .iface = "nosuchif0" };
	struct rdiag_capture *c = NULL;
	int r = rdiag_capture_open(&c, &o);

	EXPECT_TRUE(r == -ENODEV || r == -EPERM || r == -EIO);
	EXPECT_TRUE(c == NULL);
	EXPECT_TRUE(strstr(rdiag_capture_errmsg(NULL), "cannot capture on 'nosuchif0'") != NULL);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_read_sample();
	test_filter();
	test_filter_text();
	test_bad_files();
	test_dump_roundtrip();
	test_live_errors();
	test_open_reason();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		if (system(cmd) != 0)
			fprintf(stderr, "# could not remove %s\n", tmpdir);
	}
	return tap_done();
}
