/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Load libibverbs and librdmacm on first use; see internal.h for why.
 *
 * One soname each: both have been ABI 1 since they exist.  RDMADIAG_IBVERBS_LIB and
 * RDMADIAG_RDMACM_LIB replace it (tests use them to see the "no libibverbs" path; read with
 * secure_getenv(), so ignored in setuid and file-capability processes).  The handles are
 * never closed: the libraries stay until exit, as when they were linked. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs.h"

struct rd_ibv_fns rd_ibv;
struct rd_rdmacm_fns rd_rdmacm;

struct dl_sym {
	const char *name;
	const char *version;
	size_t off;		/* of its pointer in the table */
};

struct dl_lib {
	const char *what;	/* in messages: "libibverbs" */
	const char *env;
	const char *soname;
	const struct dl_sym *syms;
	size_t nsyms;
	void *table;		/* rd_ibv or rd_rdmacm */
	size_t table_size;
	int rc;
	char err[512];
};

#define RD_DL_ENTRY_IBV(p, n, v) { #p #n, v, offsetof(struct rd_ibv_fns, n) },
#define RD_DL_ENTRY_CM(p, n, v) { #p #n, v, offsetof(struct rd_rdmacm_fns, n) },
static const struct dl_sym ibv_syms[] = { RD_IBV_FUNCS(RD_DL_ENTRY_IBV) };
static const struct dl_sym cm_syms[] = { RD_RDMACM_FUNCS(RD_DL_ENTRY_CM) };

static struct dl_lib ibv_lib = {
	"libibverbs", "RDMADIAG_IBVERBS_LIB", "libibverbs.so.1",
	ibv_syms, sizeof(ibv_syms) / sizeof(ibv_syms[0]), &rd_ibv, sizeof(rd_ibv), 0, ""
};
static struct dl_lib cm_lib = {
	"librdmacm", "RDMADIAG_RDMACM_LIB", "librdmacm.so.1",
	cm_syms, sizeof(cm_syms) / sizeof(cm_syms[0]), &rd_rdmacm, sizeof(rd_rdmacm), 0, ""
};

static void load(struct dl_lib *l)
{
	const char *env = secure_getenv(l->env);
	const char *name = env && *env ? env : l->soname;
	unsigned char t[sizeof(struct rd_ibv_fns) > sizeof(struct rd_rdmacm_fns) ?
			sizeof(struct rd_ibv_fns) : sizeof(struct rd_rdmacm_fns)];
	void *h, *fn;
	size_t i;

	/* RTLD_LAZY as when linked: binding every symbol of the library and of libnl now would
	 * only add start-up time.  RTLD_LOCAL: nothing else in the process resolves against it
	 * (the providers libibverbs dlopen()s find it as their own DT_NEEDED). */
	h = dlopen(name, RTLD_LAZY | RTLD_LOCAL);
	if (!h) {
		snprintf(l->err, sizeof(l->err), "cannot load %s: %s", l->what, dlerror());
		l->rc = -ELIBACC;
		return;
	}
	memset(t, 0, sizeof(t));
	for (i = 0; i < l->nsyms; i++) {
		/* the version the header binds to, not whatever is the default in this build */
		fn = dlvsym(h, l->syms[i].name, l->syms[i].version);
		if (!fn) {
			snprintf(l->err, sizeof(l->err), "cannot load %s: %s: no function %s@%s",
				 l->what, name, l->syms[i].name, l->syms[i].version);
			l->rc = -ELIBBAD;
			dlclose(h);
			return;
		}
		/* POSIX: a function pointer has the representation of the void * dlsym gave */
		memcpy(t + l->syms[i].off, &fn, sizeof(fn));
	}
	memcpy(l->table, t, l->table_size);
	l->rc = 0;
}

static pthread_once_t ibv_once = PTHREAD_ONCE_INIT;
static pthread_once_t cm_once = PTHREAD_ONCE_INIT;

static void ibv_load_once(void)
{
	load(&ibv_lib);
}

static void cm_load_once(void)
{
	load(&cm_lib);
}

static int result(pthread_once_t *once, void (*fn)(void), const struct dl_lib *l,
		  char *err, size_t len)
{
	int r = pthread_once(once, fn);

	if (r != 0) {
		if (err && len)
			snprintf(err, len, "cannot load %s: %s", l->what, strerror(r));
		return -r;
	}
	if (l->rc < 0 && err && len)
		snprintf(err, len, "%s", l->err);
	return l->rc;
}

int rd_ibv_load(char *err, size_t len)
{
	return result(&ibv_once, ibv_load_once, &ibv_lib, err, len);
}

int rd_rdmacm_load(char *err, size_t len)
{
	int rc = rd_ibv_load(err, len);

	return rc ? rc : result(&cm_once, cm_load_once, &cm_lib, err, len);
}
