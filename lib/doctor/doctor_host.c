/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Host checks that need no destination: RDMA devices, the modules, the device nodes, every
 * port (state, SM, netdev namespace, GIDs, MTU, RoCE mode) and the memlock limit.  Each
 * check appends findings; nothing here fails the handle. */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "internal.h"
#include "verbs/verbs.h"
#include "rdmadiag/counters.h"

/* ---- modules ----
 * A module is loaded when /sys/module/NAME/initstate says "live"; built in when
 * /sys/module/NAME exists without initstate (only built-ins with parameters get one) or
 * modules.builtin lists it.  A built-in without parameters leaves no trace in /sys/module,
 * and containers often lack /lib/modules, so a module that is not found there but whose
 * device node (or a module depending on it) is present counts as present. */
enum { M_CORE, M_UVERBS, M_CM, M_RDMA_CM, M_UCM, M_N };
static const struct {
	const char *name;
	const char *without;	/* what breaks without it */
} mods[M_N] = {
	[M_CORE] = { "ib_core", "no RDMA device can register" },
	[M_UVERBS] = { "ib_uverbs", "user space cannot open an RDMA device (no /dev/infiniband/uverbs*)" },
	[M_CM] = { "ib_cm", "rdma_cm cannot connect over InfiniBand or RoCE" },
	[M_RDMA_CM] = { "rdma_cm", "there is no RDMA connection manager" },
	[M_UCM] = { "rdma_ucm", "user space cannot use rdma_cm (no /dev/infiniband/rdma_cm)" },
};

struct mod_state {
	bool present, transient;
	char how[320];
};

/* /dev/infiniband, read once for the modules and the device-node checks */
struct dev_nodes {
	bool cm_ok, cm_acc;	/* rdma_cm exists; readable and writable */
	char cm_owner[96];	/* its mode and owner when not accessible */
	int n, acc;		/* uverbs nodes (-errno: the directory is unreadable), accessible */
	char names[256];	/* their names */
	char denied[160];	/* the first inaccessible one with its mode and owner */
};

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* modules.builtin of the running kernel ("kernel/drivers/infiniband/core/ib_core.ko"
 * lines); 1 listed, 0 not, -errno unreadable */
static int builtin_listed(const struct rdiag_doctor *d, const char *name, char *file, size_t flen)
{
	struct utsname u;
	char line[256];
	size_t n = strlen(name);
	FILE *fp;
	int hit = 0;

	if (uname(&u))
		return -errno;
	rd_doc_path(d, file, flen, "/lib/modules/%s/modules.builtin", u.release);
	fp = fopen(file, "re");
	if (!fp)
		return -errno;
	while (!hit && fgets(line, sizeof(line), fp)) {
		char *base = strrchr(line, '/'), *p;

		base = base ? base + 1 : line;
		for (p = base; *p; p++)
			if (*p == '-')
				*p = '_';
		hit = strncmp(base, name, n) == 0 && strncmp(base + n, ".ko", 3) == 0;
	}
	fclose(fp);
	return hit;
}

static void module_state(const struct rdiag_doctor *d, size_t i, struct mod_state *m)
{
	char path[512], file[512], state[32] = "";
	FILE *fp;
	int ret;

	memset(m, 0, sizeof(*m));
	if (exists(rd_doc_path(d, path, sizeof(path), "/sys/module/%s", mods[i].name))) {
		m->present = true;
		fp = fopen(rd_doc_path(d, path, sizeof(path), "/sys/module/%s/initstate",
				       mods[i].name), "re");
		if (!fp) {
			snprintf(m->how, sizeof(m->how), "built in (/sys/module/%s without initstate)",
				 mods[i].name);
			return;
		}
		if (!fgets(state, sizeof(state), fp))
			state[0] = 0;
		fclose(fp);
		state[strcspn(state, "\n")] = 0;
		m->transient = strcmp(state, "live") != 0;
		snprintf(m->how, sizeof(m->how), "%s (initstate %s)",
			 m->transient ? "not ready" : "loaded", state[0] ? state : "empty");
		return;
	}
	ret = builtin_listed(d, mods[i].name, file, sizeof(file));
	if (ret > 0) {
		m->present = true;
		snprintf(m->how, sizeof(m->how), "built in (%.250s)", file);
	} else if (ret == 0) {
		snprintf(m->how, sizeof(m->how), "not loaded, not built in (no /sys/module/%s, not in %.220s)",
			 mods[i].name, file);
	} else {
		snprintf(m->how, sizeof(m->how), "not loaded (no /sys/module/%s; %.200s: %s)",
			 mods[i].name, file, strerror(-ret));
	}
}

/* a module that was not found, but whose work is visibly done, is built in */
static void implied(struct mod_state *m, const char *by)
{
	if (m->present)
		return;
	m->present = true;
	snprintf(m->how, sizeof(m->how), "present: built in without a /sys/module entry (%s)", by);
}

static void check_modules(struct rdiag_doctor *d, const struct dev_nodes *nodes)
{
	struct rdiag_doc_finding *f;
	struct mod_state m[M_N];
	char missing[128] = "", waiting[128] = "";
	size_t i, nmiss = 0, nwait = 0, first = M_N;

	for (i = 0; i < M_N; i++)
		module_state(d, i, &m[i]);
	if (nodes->cm_ok)
		implied(&m[M_UCM], "/dev/infiniband/rdma_cm exists");
	if (m[M_UCM].present)
		implied(&m[M_RDMA_CM], "rdma_ucm, which needs it, is present");
	if (m[M_RDMA_CM].present)
		implied(&m[M_CM], "rdma_cm, which needs it, is present");
	if (nodes->n > 0)
		implied(&m[M_UVERBS], "/dev/infiniband/uverbs* exists");
	if (d->ndevices)
		implied(&m[M_CORE], "RDMA devices are registered");
	for (i = 0; i < M_N; i++) {
		char *list = m[i].present ? waiting : missing;

		if (m[i].present && !m[i].transient)
			continue;
		snprintf(list + strlen(list), sizeof(missing) - strlen(list), "%s%s",
			 list[0] ? " " : "", mods[i].name);
		if (m[i].present)
			nwait++;
		else if (nmiss++ == 0)
			first = i;
	}
	if (nmiss) {
		f = rd_doc_add(d, "modules", "host", RDIAG_DOC_PROBLEM, "module_not_loaded", missing,
			       "module%s not loaded: %s; without %s %s", nmiss > 1 ? "s" : "",
			       missing, mods[first].name, mods[first].without);
		rd_doc_hint(f, "modprobe -a %s (for every boot: list %s in /etc/modules-load.d/rdma.conf)",
			    missing, missing);
	} else if (nwait) {
		f = rd_doc_add(d, "modules", "host", RDIAG_DOC_WARN, "module_not_loaded", waiting,
			       "module%s %s being loaded or unloaded right now", nwait > 1 ? "s" : "",
			       waiting);
		rd_doc_hint(f, "wait for modprobe/rmmod to finish (or for the module's users to go), then run the doctor again");
	} else {
		f = rd_doc_add(d, "modules", "host", RDIAG_DOC_OK, NULL, "",
			       "ib_core, ib_uverbs, ib_cm, rdma_cm and rdma_ucm are loaded or built in");
	}
	for (i = 0; i < M_N; i++)
		rd_doc_evidence(f, "%s: %s", mods[i].name, m[i].how);
}

/* ---- device nodes ---- */

/* "mode 0660 owner root:rdma" of a node, for the evidence of an access problem */
static void node_owner(const char *path, char *buf, size_t len)
{
	struct stat st;
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	char pwbuf[1024], grbuf[1024], u[32], g[32];

	if (stat(path, &st)) {
		snprintf(buf, len, "%s", strerror(errno));
		return;
	}
	getpwuid_r(st.st_uid, &pw, pwbuf, sizeof(pwbuf), &pwp);
	getgrgid_r(st.st_gid, &gr, grbuf, sizeof(grbuf), &grp);
	snprintf(u, sizeof(u), "%u", (unsigned int)st.st_uid);
	snprintf(g, sizeof(g), "%u", (unsigned int)st.st_gid);
	snprintf(buf, len, "mode %04o owner %s:%s", (unsigned int)(st.st_mode & 07777),
		 pwp ? pwp->pw_name : u, grp ? grp->gr_name : g);
}

static int count_uverbs(const struct rdiag_doctor *d, char *names, size_t len, int *accessible,
			char *denied, size_t dlen)
{
	char path[512];
	DIR *dir = opendir(rd_doc_path(d, path, sizeof(path), "/dev/infiniband"));
	struct dirent *de;
	size_t off = 0;
	int n = 0;

	*accessible = 0;
	names[0] = denied[0] = 0;
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "uverbs", 6))
			continue;
		n++;
		rd_doc_path(d, path, sizeof(path), "/dev/infiniband/%s", de->d_name);
		if (access(path, R_OK | W_OK) == 0) {
			(*accessible)++;
		} else if (!denied[0]) {
			size_t l = (size_t)snprintf(denied, dlen, "/dev/infiniband/%s: ", de->d_name);

			if (l < dlen)
				node_owner(path, denied + l, dlen - l);
		}
		off += (size_t)snprintf(names + off, off < len ? len - off : 0, "%s%s",
					off ? " " : "", de->d_name);
	}
	closedir(dir);
	return n;
}

static void read_dev_nodes(const struct rdiag_doctor *d, struct dev_nodes *x)
{
	char cm[512];

	memset(x, 0, sizeof(*x));
	rd_doc_path(d, cm, sizeof(cm), "/dev/infiniband/rdma_cm");
	x->cm_ok = access(cm, F_OK) == 0;
	x->cm_acc = access(cm, R_OK | W_OK) == 0;
	if (x->cm_ok && !x->cm_acc)
		node_owner(cm, x->cm_owner, sizeof(x->cm_owner));
	x->n = count_uverbs(d, x->names, sizeof(x->names), &x->acc, x->denied, sizeof(x->denied));
}

static void check_device_nodes(struct rdiag_doctor *d, const struct dev_nodes *x)
{
	struct rdiag_doc_finding *f;

	if (!x->cm_ok) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "no_cm_device_node",
			       "/dev/infiniband/rdma_cm",
			       "/dev/infiniband/rdma_cm is missing: librdmacm cannot work");
		rd_doc_hint(f, "modprobe rdma_ucm (and check that /dev is populated by udev or devtmpfs)");
	} else if (!x->cm_acc) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "device_node_access",
			       "/dev/infiniband/rdma_cm",
			       "/dev/infiniband/rdma_cm is not readable and writable by this user");
		rd_doc_hint(f, "run as a user allowed by the udev rules (group rdma) or fix the permissions");
	} else if (x->n <= 0) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "no_uverbs_device_node",
			       "/dev/infiniband/uverbs*",
			       "no /dev/infiniband/uverbs* node: user-space verbs cannot open a device");
		rd_doc_hint(f, "modprobe ib_uverbs");
	} else if (x->acc < x->n) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "device_node_access",
			       "/dev/infiniband/uverbs*",
			       "%d of %d uverbs nodes are not readable and writable by this user",
			       x->n - x->acc, x->n);
		rd_doc_hint(f, "fix the permissions of /dev/infiniband/uverbs* (udev rules, group rdma)");
	} else {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_OK, NULL, "/dev/infiniband",
			       "rdma_cm and %d uverbs node(s) present and accessible", x->n);
	}
	rd_doc_evidence(f, "/dev/infiniband/rdma_cm: %s%s%s; uverbs nodes: %s",
			x->cm_ok ? (x->cm_acc ? "present, rw" : "present, no access") : "missing",
			x->cm_owner[0] ? ", " : "", x->cm_owner, x->n > 0 ? x->names : "none");
	if ((x->cm_ok && !x->cm_acc) || (x->n > 0 && x->acc < x->n))
		rd_doc_evidence(f, "%s%sthis process: uid %u, gid %u", x->denied,
				x->denied[0] ? "; " : "", (unsigned int)getuid(),
				(unsigned int)getgid());
}

static void check_memlock(struct rdiag_doctor *d)
{
	struct rdiag_doc_finding *f;
	struct rlimit rl;
	bool ipc_lock = rd_cap_ipc_lock();

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return;
	/* memory registration pins pages and charges them to RLIMIT_MEMLOCK unless the process
	 * has CAP_IPC_LOCK; 64 KiB (an old default) is not even enough for one queue */
	if (rl.rlim_cur == RLIM_INFINITY || ipc_lock || rl.rlim_cur >= 64ull << 20) {
		f = rd_doc_add(d, "memlock", "host", RDIAG_DOC_OK, NULL, "RLIMIT_MEMLOCK",
			       "the memlock limit does not restrict memory registration");
	} else {
		f = rd_doc_add(d, "memlock", "host", RDIAG_DOC_WARN, "memlock_low", "RLIMIT_MEMLOCK",
			       "the memlock limit is %llu KiB: large or many registrations will fail with ENOMEM",
			       (unsigned long long)rl.rlim_cur >> 10);
		rd_doc_hint(f, "raise it: 'ulimit -l unlimited', LimitMEMLOCK= in the systemd unit, or memlock in limits.conf");
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		rd_doc_evidence(f, "RLIMIT_MEMLOCK soft limit unlimited");
	else
		rd_doc_evidence(f, "RLIMIT_MEMLOCK soft limit %llu KiB",
				(unsigned long long)rl.rlim_cur >> 10);
	rd_doc_evidence(f, "CAP_IPC_LOCK %s", ipc_lock ? "effective (limit not enforced)" : "not held");
}

static void check_devices(struct rdiag_doctor *d, const struct rdiag_devices *devs,
			  int err, const char *errmsg)
{
	struct rdiag_doc_finding *f;
	char list[256] = "";
	size_t i, off = 0;

	d->ndevices = devs ? devs->n : 0;
	d->devices_checked = true;
	if (!d->ndevices) {
		f = rd_doc_add(d, "devices", "host", RDIAG_DOC_PROBLEM, "no_rdma_device",
			       "/sys/class/infiniband", "no RDMA device on this host");
		if (err)
			rd_doc_evidence(f, "device discovery failed: %s", errmsg);
		else
			rd_doc_evidence(f, "/sys/class/infiniband is empty or missing and the RDMA netlink lists no device");
		rd_doc_hint(f, "load the driver (e.g. modprobe mlx5_ib) or create a soft device: rdma link add rxe0 type rxe netdev eth0");
		return;
	}
	for (i = 0; i < devs->n; i++)
		off += (size_t)snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
					"%s%s (%s, %zu port%s)", i ? ", " : "", devs->dev[i].name,
					devs->dev[i].driver[0] ? devs->dev[i].driver : "?",
					devs->dev[i].n_ports, devs->dev[i].n_ports == 1 ? "" : "s");
	f = rd_doc_add(d, "devices", "host", RDIAG_DOC_OK, NULL, "", "%zu RDMA device(s)",
		       devs->n);
	rd_doc_evidence(f, "%s", list);
}

int rdiag_doctor_check_local(struct rdiag_doctor *d, unsigned int flags)
{
	const struct rdiag_devices *devs = NULL;
	struct dev_nodes nodes;
	size_t i, j;
	int ret;

	ret = rd_doc_devices(d, NULL, &devs);
	check_devices(d, devs, ret, d->discover_err);
	read_dev_nodes(d, &nodes);
	check_modules(d, &nodes);
	if (d->ndevices) {
		check_device_nodes(d, &nodes);
		if (flags & RDIAG_DOC_ALL_PORTS)
			for (i = 0; i < devs->n; i++)
				for (j = 0; j < devs->dev[i].n_ports; j++)
					rd_doc_check_port(d, &devs->dev[i], &devs->dev[i].ports[j], NULL);
		rd_doc_check_firewall(d);
		check_memlock(d);
	}
	return 0;
}
