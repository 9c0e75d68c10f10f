/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Small helpers: paths under the (possibly fake) sysfs root, strict number parsing and the
 * handle's error text. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

size_t rd_strlcpy(char *dst, const char *src, size_t len)
{
	size_t l = strlen(src);

	if (len) {
		size_t n = l < len - 1 ? l : len - 1;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return l;
}

int rd_path(const struct rdiag_counters *c, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	size_t l = strlen(c->root);
	int n;

	if (l >= len)
		return -ENAMETOOLONG;
	memcpy(buf, c->root, l);
	va_start(ap, fmt);
	n = vsnprintf(buf + l, len - l, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - l)
		return -ENAMETOOLONG;
	return (int)l + n;
}

/* A value file is opened non-blocking and read only when it is a regular file, as every sysfs
 * attribute is: a FIFO in a (fake or damaged) tree would otherwise block open() until a
 * writer comes, and a device could block read() for ever. */
int rd_open_value(int dfd, const char *name, int flags)
{
	struct stat st;
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags), err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = errno;
		close(fd);
		return -err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
	}
	return fd;
}

int rd_read_str(const char *path, char *buf, size_t len)
{
	int fd, err;
	ssize_t r;

	fd = rd_open_value(AT_FDCWD, path, 0);
	if (fd < 0)
		return fd;
	r = read(fd, buf, len - 1);
	err = errno;
	close(fd);
	if (r < 0)
		return -err;
	buf[r] = '\0';
	while (r > 0 && (buf[r - 1] == '\n' || buf[r - 1] == ' '))
		buf[--r] = '\0';
	return 0;
}

/* A counter value as the kernel writes it: decimal digits, then at most trailing blanks and
 * newlines.  Nothing else is a number: not an empty or blank file (it is not 0), not a sign,
 * and not the octal or hex that strtoull(.., 0) would take ("010" is ten, "0x10" an error). */
int rd_parse_u64(const char *s, uint64_t *v)
{
	const char *p = s;
	uint64_t d = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (d > (UINT64_MAX - digit) / 10)
			return -ERANGE;
		d = d * 10 + digit;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*v = d;
	return 0;
}

/* a LID as sysfs prints it ("0x%x": ports/N/lid and sm_lid): "0x" and 1 to 8 hex digits,
 * then at most trailing blanks and newlines */
int rd_parse_hex_u32(const char *s, uint32_t *v)
{
	const char *p = s + 2;
	uint32_t d = 0;
	int n = 0;

	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -EINVAL;
	for (;; p++, n++) {
		unsigned int digit;

		if (*p >= '0' && *p <= '9')
			digit = (unsigned int)(*p - '0');
		else if ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')
			digit = (unsigned int)((*p | 0x20) - 'a' + 10);
		else
			break;
		if (n == 8)
			return -ERANGE;
		d = d << 4 | digit;
	}
	if (!n)
		return -EINVAL;
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*v = d;
	return 0;
}

/* A port directory's name as the kernel makes it ("%u", ports start at 1): decimal digits,
 * no sign, no leading zero, nothing after, at most 2^32-1.  "4294967297" is not port 1 and
 * "01" not a second port 1. */
int rd_parse_port(const char *s, uint32_t *port)
{
	uint64_t v = 0;
	const char *p;

	if (*s < '1' || *s > '9')
		return -EINVAL;
	for (p = s; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > UINT32_MAX) {
			for (; *p; p++)
				if (*p < '0' || *p > '9')
					return -EINVAL;
			return -ERANGE;
		}
	}
	*port = (uint32_t)v;
	return 0;
}

int rd_read_u64(const char *path, uint64_t *v)
{
	char buf[64];
	int ret = rd_read_str(path, buf, sizeof(buf));

	if (ret < 0)
		return ret;
	return rd_parse_u64(buf, v);
}

bool rd_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Device names follow the driver: mlx5_0, rxe0, bnxt_re0, irdma0 / rdmap*, efa_0, mana_0,
 * erdma_0, hfi1_0.  Used only to pick the right catalogue rows for ambiguous names. */
const char *rd_guess_driver(const char *n)
{
	static const struct { const char *prefix, *driver; } map[] = {
		{ "mlx5", "mlx5" }, { "mlx4", "mlx4" }, { "rxe", "rxe" }, { "bnxt_re", "bnxt_re" },
		{ "irdma", "irdma" }, { "rdmap", "irdma" }, { "iwp", "irdma" }, { "i40iw", "irdma" },
		{ "efa", "efa" }, { "mana", "mana" }, { "erdma", "erdma" }, { "hfi1", "hfi1" },
		{ "qib", "qib" }, { "siw", "siw" }, { "qedr", "qedr" }, { "ocrdma", "ocrdma" },
		{ "vmw_pvrdma", "vmw_pvrdma" }, { "hns", "hns" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(n, map[i].prefix, strlen(map[i].prefix)))
			return map[i].driver;
	return "";
}

void rd_seterr(struct rdiag_counters *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
}
