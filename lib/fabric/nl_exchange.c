/* lib/fabric's one netlink request/answer, for dcbnl (NETLINK_ROUTE) and ethtool netlink
 * (NETLINK_GENERIC): the replay when RDMADIAG_NL_REPLAY is set, nothing when a sysfs root
 * describes another machine, else the socket (opened on first use), with --nl-record's copy
 * of both directions. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <libmnl/libmnl.h>

#include "internal.h"
#include "counters/internal.h"

static int socket_ready(struct rdiag_fabric *f, struct mnl_socket **sock, int proto,
			const char *what)
{
	if (*sock)
		return 0;
	*sock = mnl_socket_open2(proto, SOCK_CLOEXEC);
	if (!*sock || mnl_socket_bind(*sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = errno ? errno : EPROTONOSUPPORT;

		if (*sock)
			mnl_socket_close(*sock);
		*sock = NULL;
		rd_fabric_seterr(f, "cannot open the %s socket: %s", what, strerror(err));
		return -err;
	}
	return 0;
}

int rd_fabric_exchange(struct rdiag_fabric *f, bool generic, void *req, void *buf, size_t size,
		       const void **rep, size_t *replen)
{
	const char *what = generic ? "generic netlink" : "rtnetlink";
	struct mnl_socket **sock = generic ? &f->genl : &f->nl;
	struct nlmsghdr *nlh = req;
	ssize_t r;
	int ret;

	if (f->replay) {
		const uint8_t *const *bufs;
		const size_t *lens;
		size_t n;

		ret = rd_replay_lookup(f->replay, req, nlh->nlmsg_len, &bufs, &lens, &n);
		if (ret < 0 || !n)
			return -ENOENT;
		*rep = bufs[0];
		*replen = lens[0];
		return 0;
	}
	if (f->root[0])
		return -ENXIO;
	ret = socket_ready(f, sock, generic ? NETLINK_GENERIC : NETLINK_ROUTE, what);
	if (ret < 0)
		return ret;
	nlh->nlmsg_seq = ++f->seq + (uint32_t)time(NULL);
	if (f->record)
		rd_record_write(f->record, "req", req, nlh->nlmsg_len);
	if (mnl_socket_sendto(*sock, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		rd_fabric_seterr(f, "%s send: %s", what, strerror(errno));
		return ret;
	}
	r = mnl_socket_recvfrom(*sock, buf, size);
	if (r < 0) {
		ret = -errno;
		rd_fabric_seterr(f, "%s receive: %s", what, strerror(errno));
		return ret;
	}
	if (f->record) {
		rd_record_write(f->record, "rep", buf, (size_t)r);
		fflush(f->record);
	}
	*rep = buf;
	*replen = (size_t)r;
	return 0;
}
