/* Host checks that need no destination: RDMA devices and modules, the device nodes, every
 * port (state, SM, netdev namespace, GIDs, MTU, RoCE mode) and the memlock limit.  Each
 * check appends findings; nothing here fails the handle. */
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "rd_doctor.h"
#include "rd_doctor_port.h"
#include "rdmadiag/counters.h"
#include "verbs_dl.h"

static void check_modules(struct rdiag_doctor *d, struct rdiag_doc_finding *f)
{
	static const char *const mods[] = { "ib_core", "ib_uverbs", "ib_cm", "rdma_cm", "rdma_ucm" };
	char line[256] = "", path[64];
	size_t i, off = 0;
	struct stat st;

	for (i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		snprintf(path, sizeof(path), "/sys/module/%s", mods[i]);
		off += (size_t)snprintf(line + off, off < sizeof(line) ? sizeof(line) - off : 0,
					"%s%s %s", i ? ", " : "", mods[i],
					stat(path, &st) == 0 ? "loaded" : "not loaded");
	}
	rd_doc_evidence(f, "modules: %s", line);
}

static int count_uverbs(char *names, size_t len, int *accessible)
{
	DIR *dir = opendir("/dev/infiniband");
	struct dirent *de;
	char path[300];
	size_t off = 0;
	int n = 0;

	*accessible = 0;
	names[0] = 0;
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (strncmp(de->d_name, "uverbs", 6))
			continue;
		n++;
		snprintf(path, sizeof(path), "/dev/infiniband/%s", de->d_name);
		if (access(path, R_OK | W_OK) == 0)
			(*accessible)++;
		off += (size_t)snprintf(names + off, off < len ? len - off : 0, "%s%s",
					off ? " " : "", de->d_name);
	}
	closedir(dir);
	return n;
}

static void check_device_nodes(struct rdiag_doctor *d)
{
	struct rdiag_doc_finding *f;
	char names[256];
	int n, acc, cm_ok, cm_acc;

	cm_ok = access("/dev/infiniband/rdma_cm", F_OK) == 0;
	cm_acc = access("/dev/infiniband/rdma_cm", R_OK | W_OK) == 0;
	n = count_uverbs(names, sizeof(names), &acc);
	if (!cm_ok) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "no_cm_device_node",
			       "/dev/infiniband/rdma_cm",
			       "/dev/infiniband/rdma_cm is missing: librdmacm cannot work");
		rd_doc_hint(f, "modprobe rdma_ucm (and check that /dev is populated by udev or devtmpfs)");
	} else if (!cm_acc) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "device_node_access",
			       "/dev/infiniband/rdma_cm",
			       "/dev/infiniband/rdma_cm is not readable and writable by this user");
		rd_doc_hint(f, "run as a user allowed by the udev rules (group rdma) or fix the permissions");
	} else if (n <= 0) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "no_cm_device_node",
			       "/dev/infiniband/uverbs*",
			       "no /dev/infiniband/uverbs* node: user-space verbs cannot open a device");
		rd_doc_hint(f, "modprobe ib_uverbs");
	} else if (acc < n) {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_PROBLEM, "device_node_access",
			       "/dev/infiniband/uverbs*",
			       "%d of %d uverbs nodes are not readable and writable by this user",
			       n - acc, n);
		rd_doc_hint(f, "fix the permissions of /dev/infiniband/uverbs* (udev rules, group rdma)");
	} else {
		f = rd_doc_add(d, "device_nodes", "host", RDIAG_DOC_OK, NULL, "/dev/infiniband",
			       "rdma_cm and %d uverbs node(s) present and accessible", n);
	}
	rd_doc_evidence(f, "/dev/infiniband/rdma_cm: %s; uverbs nodes: %s",
			cm_ok ? (cm_acc ? "present, rw" : "present, no access") : "missing",
			n > 0 ? names : "none");
	check_modules(d, f);
}

/* CAP_IPC_LOCK (bit 14) in the effective set, from /proc/self/status (no libcap needed) */
static bool cap_ipc_lock(void)
{
	FILE *fp = fopen("/proc/self/status", "re");
	char line[256];
	unsigned long long eff = 0;

	if (!fp)
		return false;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "CapEff: %llx", &eff) == 1)
			break;
	fclose(fp);
	return (eff >> 14) & 1;
}

static void check_memlock(struct rdiag_doctor *d)
{
	struct rdiag_doc_finding *f;
	struct rlimit rl;
	bool ipc_lock = cap_ipc_lock();

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
		check_modules(d, f);
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
	size_t i, j;
	int ret;

	ret = rd_doc_devices(d, NULL, &devs);
	check_devices(d, devs, ret, d->discover_err);
	if (d->ndevices) {
		check_device_nodes(d);
		if (flags & RDIAG_DOC_ALL_PORTS)
			for (i = 0; i < devs->n; i++)
				for (j = 0; j < devs->dev[i].n_ports; j++)
					rd_doc_check_port(d, &devs->dev[i], &devs->dev[i].ports[j], NULL);
		rd_doc_check_firewall(d);
		check_memlock(d);
	}
	return 0;
}
