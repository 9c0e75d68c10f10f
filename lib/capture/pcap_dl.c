/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Load libpcap on first use; see internal.h for why.
 *
 * The sonames are tried in order: Debian's and Ubuntu's libpcap.so.0.8, then upstream's
 * libpcap.so.1 (Fedora, Arch...), then the development symlink.  RDMADIAG_PCAP_LIB replaces
 * the list with one name (tests use it to see the "no libpcap" path; ignored in setuid and
 * file-capability processes, like every other RDMADIAG_ variable). */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct rd_pcap_fns rd_pcap;

static const char *const sonames[] = { "libpcap.so.0.8", "libpcap.so.1", "libpcap.so" };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_rc;
static char load_err[512];

/* 0 with every pointer in *t set, or -ELIBBAD naming the first missing function */
static int resolve(void *h, struct rd_pcap_fns *t, const char *name)
{
#define RD_PCAP_SYM(n)							\
	t->n = (__typeof__(t->n))dlsym(h, "pcap_" #n);			\
	if (!t->n) {							\
		snprintf(load_err, sizeof(load_err),			\
			 "cannot load libpcap: %s: no function pcap_%s",	\
			 name, #n);					\
		return -ELIBBAD;					\
	}
	RD_PCAP_FUNCS(RD_PCAP_SYM)
#undef RD_PCAP_SYM
	return 0;
}

static void load_once(void)
{
	const char *env = secure_getenv("RDMADIAG_PCAP_LIB");
	const char *const *names = sonames;
	size_t n = sizeof(sonames) / sizeof(sonames[0]);
	struct rd_pcap_fns t;

	if (env && *env) {
		names = &env;
		n = 1;
	}
	load_rc = -ELIBACC;
	load_err[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		/* RTLD_LAZY, as when it was linked: binding all of libpcap's dependencies
		 * now would cost rdmadump ~7% more start-up for nothing.  The handle is
		 * never closed: libpcap stays until exit, as if linked. */
		void *h = dlopen(names[i], RTLD_LAZY | RTLD_LOCAL);

		if (!h) {
			/* keep the first reason: the name this platform normally has */
			if (!load_err[0])
				snprintf(load_err, sizeof(load_err), "cannot load libpcap: %s",
					 dlerror());
			continue;
		}
		memset(&t, 0, sizeof(t));
		load_rc = resolve(h, &t, names[i]);
		if (load_rc == 0) {
			rd_pcap = t;
			load_err[0] = '\0';
			return;
		}
		dlclose(h);
	}
}

int rd_pcap_load(char *err, size_t len)
{
	int r = pthread_once(&once, load_once);

	if (r != 0) {
		if (err && len)
			snprintf(err, len, "cannot load libpcap: %s", strerror(r));
		return -r;
	}
	if (load_rc < 0 && err && len)
		snprintf(err, len, "%s", load_err);
	return load_rc;
}
