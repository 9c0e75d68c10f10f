/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libpcap is loaded on the first capture (lib/capture/pcap_dl.c), not at start-up: it is not
 * mapped before, it is after; two threads loading at once get the same table; a missing
 * libpcap is -ELIBACC with a message naming the library, and no crash. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "proc_maps.h"
#include "rdmadiag/capture.h"
#include "capture/internal.h"

#define SAMPLE "tests/fixtures/rxe/rxe_sample.pcap"

struct loader {
	pthread_t t;
	int rc;
	void *next_ex;
	char err[256];
};

static void *load_thread(void *arg)
{
	struct loader *l = arg;

	l->rc = rd_pcap_load(l->err, sizeof(l->err));
	l->next_ex = (void *)rd_pcap.next_ex;
	return NULL;
}

/* in a child, so that this process's once-only load is still ahead */
static void test_missing_library(void)
{
	int fds[2], status = 0;
	char buf[512] = "";
	ssize_t n;
	pid_t pid;

	if (pipe(fds) < 0) {
		EXPECT_TRUE(0);
		return;
	}
	pid = fork();
	if (pid == 0) {
		struct rdiag_capture *c = (struct rdiag_capture *)1;
		int r;

		close(fds[0]);
		setenv("RDMADIAG_PCAP_LIB", "libpcap-not-here.so.9", 1);
		r = rdiag_capture_open(&c, &(struct rdiag_capture_opts){ .file = SAMPLE });
		dprintf(fds[1], "%d|%d|%d|%s", r, c == NULL, proc_mapped("/libpcap"),
			rdiag_capture_errmsg(NULL));
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	buf[n > 0 ? n : 0] = '\0';
	printf("# child: %s\n", buf);
	{
		char want[64];

		snprintf(want, sizeof(want), "%d|1|0|", -ELIBACC);
		EXPECT_TRUE(strncmp(buf, want, strlen(want)) == 0);
	}
	EXPECT_TRUE(strstr(buf, "|cannot load libpcap: libpcap-not-here.so.9: cannot open shared "
			   "object file") != NULL);
	EXPECT_TRUE(strchr(buf, '\n') == NULL);
}

int main(void)
{
	struct loader a = { 0 }, b = { 0 };
	struct rdiag_capture *c = NULL;
	struct rdiag_frame f;

	unsetenv("RDMADIAG_PCAP_LIB");
	/* this binary links no libpcap: nothing has loaded it yet */
	EXPECT_EQ(proc_mapped("/libpcap"), 0);
	test_missing_library();
	EXPECT_EQ(proc_mapped("/libpcap"), 0);

	EXPECT_EQ(pthread_create(&a.t, NULL, load_thread, &a), 0);
	EXPECT_EQ(pthread_create(&b.t, NULL, load_thread, &b), 0);
	pthread_join(a.t, NULL);
	pthread_join(b.t, NULL);
	EXPECT_EQ(a.rc, 0);
	EXPECT_EQ(b.rc, 0);
	EXPECT_TRUE(a.next_ex != NULL);
	EXPECT_TRUE(a.next_ex == b.next_ex);
	EXPECT_EQ(proc_mapped("/libpcap"), 1);

	/* and the loaded functions do the work */
	EXPECT_EQ(rdiag_capture_open(&c, &(struct rdiag_capture_opts){ .file = SAMPLE }), 0);
	EXPECT_EQ(rdiag_capture_next(c, &f), 1);
	EXPECT_U64(f.n, 1);
	EXPECT_TRUE(f.caplen > 0);
	rdiag_capture_close(c);
	return tap_done();
}
