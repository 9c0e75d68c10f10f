/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The flight recorder's payload format (rdmadiag/ring.h, format 1): an EVENT payload built
 * here byte by byte decodes to the fields it spells and is what the encoder writes for
 * them; a payload one byte short or long, with an unknown flag or address family, or a
 * string too long for its field is refused whole; a ring of another format is read with its
 * format said, and is never continued. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <libdeflate.h>

#include "tap.h"
#include "rdmadiag/ring.h"

/* the options of a ring of size bytes at path */
#define RING_OPTS(p, sz) (&(struct rdiag_ring_opts){ .path = (p), .size = (sz) })

static unsigned char want[1024];
static size_t wn;

/* little-endian by hand, whatever the host's order */
static void b8(unsigned int v) { want[wn++] = (unsigned char)v; }
static void b16(unsigned int v) { b8(v & 0xff); b8(v >> 8 & 0xff); }
static void b32(uint32_t v) { b16(v & 0xffff); b16(v >> 16); }
static void b64(uint64_t v) { b32((uint32_t)v); b32((uint32_t)(v >> 32)); }
static void bstr(const char *s) { size_t i, n = strlen(s); b16((unsigned int)n); for (i = 0; i < n; i++) b8((unsigned char)s[i]); }

/* offsets into want[] of the parts a test spoils */
static size_t at_flags, at_src_family, at_comm_len, at_comm;

/* a REJECTED cm_event_handler of rping, IPv4 198.18.0.1:42899 -> 198.18.0.2:7499 */
static void build(void)
{
	int i;

	wn = 0;
	b64(0x0102030405060708ull);	/* ts_ns */
	b32(1);				/* cpu */
	b32(388);			/* pid */
	at_flags = wn;
	b32(1 | 2 | 4);			/* has_cm_id, has_addrs, has_status */
	b32(7);				/* cm_id */
	b32((uint32_t)-1);		/* tos absent */
	b32(8);				/* cm_event REJECTED */
	b32(8);				/* status: REJ reason 8 */
	b32(0); b32(0);			/* local_id, remote_id */
	b32((uint32_t)-1);		/* ib_state */
	b32((uint32_t)-1);		/* rej_reason */
	b32((uint32_t)-1);		/* wc_status */
	b32(0); b32(0); b32(0);		/* mgmt_class, method, attr_id */
	b64(0xfeedface00000001ull);	/* tid */
	b32((uint32_t)-1); b32((uint32_t)-1);	/* retries_left, max_retries */
	b32(2); b32(1);			/* dev_index, port_num */
	at_src_family = wn;
	b16(4); b16(42899); b8(198); b8(18); b8(0); b8(1);
	for (i = 4; i < 16; i++)
		b8(0);
	b32(0);
	b16(6); b16(7499);
	for (i = 0; i < 15; i++)
		b8(0);
	b8(2);				/* ::2 */
	b32(3);				/* scope id */
	at_comm_len = wn;
	at_comm = wn + 2;
	bstr("rping");
	bstr("rdma_cma");
	bstr("cm_event_handler");
	bstr("rxe0");
	bstr("cm.id=7 src=198.18.0.1:42899 dst=[::2]:7499 REJECTED (8/8)");
}

static void test_decode_hand_built(void)
{
	struct rdiag_trace_event ev;
	const struct sockaddr_in *s4;
	const struct sockaddr_in6 *d6;
	unsigned char got[1024];
	int n;

	build();
	EXPECT_EQ(rdiag_ring_event_decode(want, wn, &ev), 0);
	EXPECT_U64(ev.ts_ns, 0x0102030405060708ull);
	EXPECT_EQ(ev.cpu, 1);
	EXPECT_EQ(ev.pid, 388);
	EXPECT_TRUE(ev.has_cm_id && ev.has_addrs && ev.has_status);
	EXPECT_TRUE(!ev.has_ib_ids && !ev.has_mad);
	EXPECT_EQ(ev.cm_id, 7);
	EXPECT_EQ(ev.tos, -1);
	EXPECT_EQ(ev.cm_event, 8);
	EXPECT_EQ(ev.status, 8);
	EXPECT_EQ(ev.ib_state, -1);
	EXPECT_U64(ev.tid, 0xfeedface00000001ull);
	EXPECT_EQ(ev.max_retries, -1);
	EXPECT_EQ(ev.dev_index, 2);
	EXPECT_EQ(ev.port_num, 1);
	s4 = (const struct sockaddr_in *)&ev.src;
	EXPECT_EQ(s4->sin_family, AF_INET);
	EXPECT_EQ(ntohs(s4->sin_port), 42899);
	EXPECT_EQ(ntohl(s4->sin_addr.s_addr), 0xc6120001);
	d6 = (const struct sockaddr_in6 *)&ev.dst;
	EXPECT_EQ(d6->sin6_family, AF_INET6);
	EXPECT_EQ(ntohs(d6->sin6_port), 7499);
	EXPECT_EQ(d6->sin6_addr.s6_addr[15], 2);
	EXPECT_EQ(d6->sin6_scope_id, 3);
	EXPECT_STREQ(ev.comm, "rping");
	EXPECT_STREQ(ev.system, "rdma_cma");
	EXPECT_STREQ(ev.name, "cm_event_handler");
	EXPECT_STREQ(ev.device, "rxe0");
	EXPECT_STREQ(ev.detail, "cm.id=7 src=198.18.0.1:42899 dst=[::2]:7499 REJECTED (8/8)");
	/* the encoder writes exactly these bytes for these fields */
	n = rdiag_ring_event_encode(&ev, got, sizeof(got));
	EXPECT_EQ(n, (int)wn);
	EXPECT_TRUE(n == (int)wn && !memcmp(got, want, wn));
	/* and does not write past a buffer that is too small */
	EXPECT_EQ(rdiag_ring_event_encode(&ev, got, wn - 1), -EMSGSIZE);
}

static void test_refused(void)
{
	struct rdiag_trace_event ev;
	unsigned char b[1100];
	char comm16[] = "abcdefghijklmnop";	/* 16 bytes: no room for the NUL of comm[16] */
	size_t tail;

	build();
	EXPECT_EQ(rdiag_ring_event_decode(want, wn - 1, &ev), -EBADMSG);
	EXPECT_EQ(ev.pid, 0);		/* nothing half-read is left */
	memcpy(b, want, wn);
	b[wn] = 0;
	EXPECT_EQ(rdiag_ring_event_decode(b, wn + 1, &ev), -EBADMSG);
	EXPECT_EQ(rdiag_ring_event_decode(want, 0, &ev), -EBADMSG);
	/* an unknown flag: a later format's field this build would misread */
	want[at_flags] |= 0x20;
	EXPECT_EQ(rdiag_ring_event_decode(want, wn, &ev), -EBADMSG);
	build();
	want[at_src_family] = 5;
	EXPECT_EQ(rdiag_ring_event_decode(want, wn, &ev), -EBADMSG);
	build();
	want[at_comm + 2] = 0;		/* a NUL inside "rping" */
	EXPECT_EQ(rdiag_ring_event_decode(want, wn, &ev), -EBADMSG);
	/* a comm of 16 bytes does not fit comm[16] with its NUL */
	build();
	tail = wn - (at_comm + 5);
	memcpy(b, want + at_comm + 5, tail);
	wn = at_comm_len;
	bstr(comm16);
	memcpy(want + wn, b, tail);
	wn += tail;
	EXPECT_EQ(rdiag_ring_event_decode(want, wn, &ev), -EBADMSG);
	/* a string length past the end */
	build();
	want[at_comm_len] = 0xff;
	want[at_comm_len + 1] = 0xff;
	EXPECT_EQ(rdiag_ring_event_decode(want, wn, &ev), -EBADMSG);
}

static int count_rec(const struct rdiag_ring_record *r, void *arg)
{
	(void)r;
	++*(int *)arg;
	return 0;
}

/* a ring of another payload format: read (its format said), never continued or touched */
static void test_ring_format(void)
{
	char dir[] = "/tmp/test_ring_format.XXXXXX", path[300], cmd[330];
	struct rdiag_ring_info info;
	struct rdiag_ring *r;
	unsigned char h[RDIAG_RING_HDR_LEN], after[RDIAG_RING_HDR_LEN];
	uint32_t crc;
	int fd, n = 0;

	if (!mkdtemp(dir)) {
		EXPECT_TRUE(0);
		return;
	}
	snprintf(path, sizeof(path), "%s/ring", dir);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, 8192)), 0);
	EXPECT_EQ(rdiag_ring_append(r, RDIAG_REC_MARKER, 1, "x", 1), 0);
	rdiag_ring_close(r);
	EXPECT_EQ(rdiag_ring_read(path, count_rec, &n, &info), 0);
	EXPECT_EQ(info.format, RDIAG_RING_FORMAT);
	EXPECT_EQ(n, 1);
	/* the header says format 0 (a ring from before formats), its CRC made right */
	fd = open(path, O_RDWR);
	EXPECT_EQ(pread(fd, h, sizeof(h), 0), (ssize_t)sizeof(h));
	EXPECT_TRUE(h[24] == RDIAG_RING_FORMAT && !h[25] && !h[26] && !h[27]);
	h[24] = 0;
	crc = (uint32_t)libdeflate_crc32(0, h, 60);
	h[60] = (unsigned char)crc;
	h[61] = (unsigned char)(crc >> 8);
	h[62] = (unsigned char)(crc >> 16);
	h[63] = (unsigned char)(crc >> 24);
	EXPECT_EQ(pwrite(fd, h, sizeof(h), 0), (ssize_t)sizeof(h));
	close(fd);
	n = 0;
	EXPECT_EQ(rdiag_ring_read(path, count_rec, &n, &info), 0);
	EXPECT_EQ(info.format, 0);
	EXPECT_EQ(n, 1);
	EXPECT_EQ(rdiag_ring_open(&r, RING_OPTS(path, 8192)), -EPROTO);
	fd = open(path, O_RDONLY);
	EXPECT_EQ(pread(fd, after, sizeof(after), 0), (ssize_t)sizeof(after));
	close(fd);
	EXPECT_TRUE(!memcmp(h, after, sizeof(h)));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(system(cmd), 0);
}

int main(void)
{
	test_decode_hand_built();
	test_refused();
	test_ring_format();
	return tap_done();
}
