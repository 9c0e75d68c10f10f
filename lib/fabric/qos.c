/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* ECN/DCQCN and RoCE defaults where kernels and drivers keep them (rdiag_fabric_qos in
 * fabric.h lists the paths).  Each path is read under RDMADIAG_SYSFS_ROOT; one that does not
 * exist leaves its field "not available" (-1 or ""): upstream kernels have no qos/ or ecn/
 * directory, debugfs needs root, configfs rdma_cm/DEV exists only once someone made it.
 *
 * OFED's qos/dscp2prio is read in the two shapes seen: mlnx_qos's "prio:P dscp:D,D,..."
 * lines, and "{D,P}" pairs; anything else in it is a malformed file. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

/* read ROOT + path into buf (NUL-terminated, trailing newline kept); bytes or -errno */
static ssize_t read_file(const struct rdiag_fabric *f, const char *path, char *buf, size_t len)
{
	char full[PATH_MAX];
	ssize_t n, total = 0;
	int fd;

	if ((size_t)snprintf(full, sizeof(full), "%s%s", f->root, path) >= sizeof(full))
		return -ENAMETOOLONG;
	fd = open(full, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1 && (n = read(fd, buf + total, len - 1 - (size_t)total)) > 0)
		total += n;
	close(fd);
	buf[total] = '\0';
	return total;
}

/* a small non-negative decimal file: the value, -ENOENT absent, -EINVAL not a number */
static int read_int(const struct rdiag_fabric *f, const char *path, int max)
{
	char buf[64], *end;
	ssize_t n = read_file(f, path, buf, sizeof(buf));
	long v;

	if (n < 0)
		return n == -EACCES || n == -EPERM ? -ENOENT : (int)n;
	errno = 0;
	v = strtol(buf, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (end == buf || *end || errno || v < 0 || v > max)
		return -EINVAL;
	return (int)v;
}

static int parse_dscp2prio(const char *s, int8_t map[64])
{
	const char *p;
	int d, prio, n, got = 0;

	memset(map, -1, 64);
	if (strstr(s, "prio:")) {
		for (p = strstr(s, "prio:"); p; p = strstr(p, "prio:")) {
			if (sscanf(p, "prio:%d dscp:%n", &prio, &n) != 1 || prio < 0 || prio > 7)
				return -EINVAL;
			p += n;
			while (sscanf(p, "%d%n", &d, &n) == 1) {
				if (d < 0 || d > 63)
					return -EINVAL;
				map[d] = (int8_t)prio;
				got++;
				p += n;
				if (*p != ',')
					break;
				p++;
			}
		}
		return got ? 0 : -EINVAL;
	}
	for (p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
		if (sscanf(p, "{%d,%d}", &d, &prio) != 2 || d < 0 || d > 63 || prio < 0 || prio > 7)
			return -EINVAL;
		map[d] = (int8_t)prio;
		got++;
	}
	return got ? 0 : -EINVAL;
}

static void read_ecn(const struct rdiag_fabric *f, const char *ifname, const char *which,
		     int8_t out[RDIAG_DCB_PRIOS])
{
	char path[256];
	int p, v;

	for (p = 0; p < RDIAG_DCB_PRIOS; p++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/ecn/%s/enable/%d", ifname, which, p);
		v = read_int(f, path, 1);
		out[p] = (int8_t)(v < 0 ? -1 : v);
	}
}

/* the parent device's name (the PCI address for a PCI NIC), "" when there is none */
static void parent_dev(const struct rdiag_fabric *f, const char *ifname, char *out, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	ssize_t n;
	const char *b;

	out[0] = '\0';
	if ((size_t)snprintf(path, sizeof(path), "%s/sys/class/net/%s/device", f->root, ifname) >=
	    sizeof(path))
		return;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	b = strrchr(link, '/');
	b = b ? b + 1 : link;
	if (strlen(b) < len)
		memcpy(out, b, strlen(b) + 1);
}

int rdiag_fabric_qos(struct rdiag_fabric *f, const char *ifname, const char *dev,
		     uint32_t port, struct rdiag_fabric_qos *out)
{
	char path[256], buf[4096];
	ssize_t n;
	int v;

	memset(out, 0, sizeof(*out));
	f->err[0] = '\0';
	out->trust = RDIAG_TRUST_NA;
	memset(out->dscp2prio, -1, sizeof(out->dscp2prio));
	out->cnp_dscp = out->cnp_prio = out->cnp_prio_mode = out->roce_tos = -1;
	if (strchr(ifname, '/') || !strcmp(ifname, "..") || (dev && strchr(dev, '/'))) {
		rd_fabric_seterr(f, "'%s': not an interface name", ifname);
		return -EINVAL;
	}

	snprintf(path, sizeof(path), "/sys/class/net/%s/qos/trust", ifname);
	n = read_file(f, path, buf, sizeof(buf));
	if (n >= 0) {
		buf[strcspn(buf, "\n")] = '\0';
		if (!strcmp(buf, "pcp"))
			out->trust = RDIAG_TRUST_PCP;
		else if (!strcmp(buf, "dscp"))
			out->trust = RDIAG_TRUST_DSCP;
		else {
			rd_fabric_seterr(f, "%s: '%.32s' is neither pcp nor dscp", path, buf);
			return -EINVAL;
		}
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/qos/dscp2prio", ifname);
	n = read_file(f, path, buf, sizeof(buf));
	if (n >= 0) {
		if (parse_dscp2prio(buf, out->dscp2prio) < 0) {
			rd_fabric_seterr(f, "%s: not a DSCP to priority map", path);
			return -EINVAL;
		}
		out->has_dscp2prio = true;
	}
	snprintf(path, sizeof(path), "/proc/net/vlan/%s", ifname);
	out->vlan = read_file(f, path, buf, sizeof(buf)) >= 0;
	read_ecn(f, ifname, "roce_np", out->ecn_np);
	read_ecn(f, ifname, "roce_rp", out->ecn_rp);

	parent_dev(f, ifname, out->pci, sizeof(out->pci));
	if (out->pci[0]) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5/%s/cc_params/np_cnp_dscp", out->pci);
		v = read_int(f, path, 63);
		out->cnp_dscp = v < 0 ? -1 : v;
		snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5/%s/cc_params/np_cnp_prio", out->pci);
		v = read_int(f, path, 7);
		out->cnp_prio = v < 0 ? -1 : v;
		snprintf(path, sizeof(path), "/sys/kernel/debug/mlx5/%s/cc_params/np_cnp_prio_mode",
			 out->pci);
		v = read_int(f, path, 1);
		out->cnp_prio_mode = v < 0 ? -1 : v;
	}
	if (dev && port) {
		snprintf(path, sizeof(path), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos",
			 dev, port);
		v = read_int(f, path, 255);
		out->roce_tos = v < 0 ? -1 : v;
		snprintf(path, sizeof(path), "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_mode",
			 dev, port);
		n = read_file(f, path, buf, sizeof(buf));
		if (n > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			buf[sizeof(out->roce_mode) - 1] = '\0';
			memcpy(out->roce_mode, buf, strlen(buf) + 1);
		}
	}
	return 0;
}
