/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libibverbs and librdmacm are loaded on first use (lib/verbs/verbs_dl.c), not at start-up:
 * not mapped before, mapped after; the table holds the functions a link against them binds
 * (the IBVERBS_1.1 ones, not the 1.0 compat ones); two threads loading at once get the same
 * table; a missing or wrong library is -ELIBACC/-ELIBBAD with one line naming it, from the
 * public entry points (self-test environment check, doctor attempt and listen). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "proc_maps.h"
#include "rdmadiag/doctor.h"
#include "rdmadiag/selftest.h"
#include "verbs/verbs.h"

/* mapped before anything was loaded: the unit tests link -libverbs -lrdmacm (for
 * test_verbs_cmstr and test_selftest_wc); gcc's default --as-needed drops them from this binary,
 * a sanitizer link (--no-as-needed after libasan) keeps them */
static int pre_ibv, pre_cm;


/* run fn in a child with env var=val, so that this process's once-only load is still
 * ahead; fn writes its findings into out, which comes back here */
static void in_child(const char *var, const char *val, void (*fn)(char *out, size_t len),
		     char *out, size_t len)
{
	int fds[2], status = 0;
	ssize_t n;
	pid_t pid;

	out[0] = '\0';
	if (pipe(fds) < 0) {
		EXPECT_TRUE(0);
		return;
	}
	pid = fork();
	if (pid == 0) {
		char buf[1024];

		close(fds[0]);
		setenv(var, val, 1);
		fn(buf, sizeof(buf));
		if (write(fds[1], buf, strlen(buf)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], out, len - 1);
	close(fds[0]);
	waitpid(pid, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	out[n > 0 ? n : 0] = '\0';
	printf("# %s=%s: %s\n", var, val, out);
}

/* rc|newly mapped|message of the self-test environment check */
static void selftest_env(char *out, size_t len)
{
	int rc = rdiag_selftest_env_check();

	snprintf(out, len, "%d|%d|%s", rc, proc_mapped("/libibverbs") && !pre_ibv,
		 rc ? rdiag_selftest_errmsg(NULL) : "");
}

/* rc|steps|message of a doctor attempt and of a listen (the same), and rd_ibv_load's rc */
static void doctor(char *out, size_t len)
{
	struct rdiag_doc_opts o = { .dst = "198.18.0.2", .port = 7471, .timeout_ms = 100 };
	struct rdiag_doctor *d = NULL;
	char attempt[300];
	volatile bool stop = true;
	int rc, rl;

	if (rdiag_doctor_open(&d, NULL)) {
		snprintf(out, len, "no doctor");
		return;
	}
	rc = rdiag_doctor_attempt(d, &o);
	snprintf(attempt, sizeof(attempt), "%s", rdiag_doctor_errmsg(d));
	rl = rdiag_doctor_listen(d, "127.0.0.1", 7471, 0, NULL, NULL, NULL, 1, &stop);
	snprintf(out, len, "%d|%zu|%s|%d|%s|%d|%d", rc, rdiag_doctor_nsteps(d), attempt, rl,
		 strcmp(attempt, rdiag_doctor_errmsg(d)) ? "differs" : "same",
		 rd_ibv_load(NULL, 0), proc_mapped("/librdmacm") && !pre_cm);
	rdiag_doctor_close(d);
}

static void expect_prefix(const char *got, int rc, const char *rest)
{
	char want[600];

	snprintf(want, sizeof(want), "%d|%s", rc, rest);
	EXPECT_TRUE(strncmp(got, want, strlen(want)) == 0);
	if (strncmp(got, want, strlen(want)))
		printf("#   want prefix \"%s\"\n", want);
}

static void missing_and_wrong(void)
{
	char buf[1024];

	in_child("RDMADIAG_IBVERBS_LIB", "libibverbs-not-here.so.9", selftest_env, buf, sizeof(buf));
	expect_prefix(buf, -ELIBACC, "0|cannot load libibverbs: libibverbs-not-here.so.9: "
		      "cannot open shared object file: No such file or directory");
	EXPECT_TRUE(strchr(buf, '\n') == NULL);

	/* the doctor needs librdmacm, which needs libibverbs: the first missing one is named */
	in_child("RDMADIAG_IBVERBS_LIB", "libibverbs-not-here.so.9", doctor, buf, sizeof(buf));
	expect_prefix(buf, -ELIBACC, "0|cannot load libibverbs: libibverbs-not-here.so.9: "
		      "cannot open shared object file: No such file or directory|");

	in_child("RDMADIAG_RDMACM_LIB", "librdmacm-not-here.so.9", doctor, buf, sizeof(buf));
	expect_prefix(buf, -ELIBACC, "0|cannot load librdmacm: librdmacm-not-here.so.9: "
		      "cannot open shared object file: No such file or directory|");
	{
		char tail[64];

		/* listen says the same; libibverbs itself loaded; librdmacm never mapped */
		snprintf(tail, sizeof(tail), "|%d|same|0|0", -ELIBACC);
		EXPECT_TRUE(strlen(buf) > strlen(tail) &&
			    strcmp(buf + strlen(buf) - strlen(tail), tail) == 0);
	}

	/* a library that is not the one: the first missing function, at its version */
	in_child("RDMADIAG_IBVERBS_LIB", "libz.so.1", selftest_env, buf, sizeof(buf));
	expect_prefix(buf, -ELIBBAD, "");
	EXPECT_TRUE(strstr(buf, "|cannot load libibverbs: libz.so.1: no function "
			   "ibv_alloc_pd@IBVERBS_1.1") != NULL);
	in_child("RDMADIAG_RDMACM_LIB", "libibverbs.so.1", doctor, buf, sizeof(buf));
	expect_prefix(buf, -ELIBBAD, "0|cannot load librdmacm: libibverbs.so.1: no function "
		      "rdma_accept@RDMACM_1.0|");
}

struct loader {
	pthread_t t;
	int rc;
	void *create_id, *get_device_list;
};

static void *load_thread(void *arg)
{
	struct loader *l = arg;

	l->rc = rd_rdmacm_load(NULL, 0);
	l->create_id = (void *)rd_rdmacm.create_id;
	l->get_device_list = (void *)rd_ibv.get_device_list;
	return NULL;
}

/* every slot of a table is set */
static size_t null_slots(const void *table, size_t size)
{
	const unsigned char *p = table;
	size_t i, n = 0;
	void *fn;

	for (i = 0; i + sizeof(fn) <= size; i += sizeof(fn)) {
		memcpy(&fn, p + i, sizeof(fn));
		n += fn == NULL;
	}
	return n;
}

static int count_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

int main(void)
{
	struct loader a = { 0 }, b = { 0 };
	struct ibv_device **list;
	void *h;
	int n = -1;

	unsetenv("RDMADIAG_IBVERBS_LIB");
	unsetenv("RDMADIAG_RDMACM_LIB");
	pre_ibv = proc_mapped("/libibverbs");
	pre_cm = proc_mapped("/librdmacm");
	/* the library itself maps neither before the first load (tests/bats/lazy_verbs.bats
	 * checks that on the tools); here only a failed load must not map them */
	if (pre_ibv || pre_cm)
		printf("# libibverbs/librdmacm are linked into this binary (no --as-needed)\n");
	missing_and_wrong();
	EXPECT_EQ(proc_mapped("/libibverbs"), pre_ibv);

	EXPECT_EQ(pthread_create(&a.t, NULL, load_thread, &a), 0);
	EXPECT_EQ(pthread_create(&b.t, NULL, load_thread, &b), 0);
	pthread_join(a.t, NULL);
	pthread_join(b.t, NULL);
	EXPECT_EQ(a.rc, 0);
	EXPECT_EQ(b.rc, 0);
	EXPECT_TRUE(a.create_id != NULL && a.create_id == b.create_id);
	EXPECT_TRUE(a.get_device_list != NULL && a.get_device_list == b.get_device_list);
	EXPECT_EQ(proc_mapped("/libibverbs"), 1);
	EXPECT_EQ(proc_mapped("/librdmacm"), 1);
	EXPECT_EQ(null_slots(&rd_ibv, sizeof(rd_ibv)), 0);
	EXPECT_EQ(null_slots(&rd_rdmacm, sizeof(rd_rdmacm)), 0);

	/* the functions a link binds (the default version), not the IBVERBS_1.0 compat ones
	 * whose structures have another layout */
	h = dlopen("libibverbs.so.1", RTLD_LAZY | RTLD_NOLOAD);
	EXPECT_TRUE(h != NULL);
	if (h) {
		EXPECT_TRUE((void *)rd_ibv.query_port == dlsym(h, "ibv_query_port"));
		EXPECT_TRUE((void *)rd_ibv.query_port != dlvsym(h, "ibv_query_port", "IBVERBS_1.0"));
		EXPECT_TRUE((void *)rd_ibv.get_device_list == dlsym(h, "ibv_get_device_list"));
		EXPECT_TRUE((void *)rd_ibv.create_qp != dlvsym(h, "ibv_create_qp", "IBVERBS_1.0"));
		EXPECT_TRUE((void *)rd_ibv.query_gid_table == dlsym(h, "_ibv_query_gid_table"));
		dlclose(h);
	}

	/* and a call through the table works: as many devices as the kernel shows */
	errno = 0;
	list = ibv_get_device_list(&n);
	EXPECT_TRUE(list != NULL || errno != 0);
	EXPECT_EQ(list ? n : 0, count_dir("/sys/class/infiniband_verbs"));
	if (list)
		ibv_free_device_list(list);
	return tap_done();
}
