/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* as_user: run a command as another user, or as root without CAP_IPC_LOCK, for the
 * real-kernel tier (the guest's busybox setpriv changes neither).
 *   usage: as_user [-u UID] [-g GID] [-L] CMD [ARG]...
 * -u/-g: the user and group to become (supplementary groups cleared); -L: CAP_IPC_LOCK
 * dropped from the bounding set, so that CMD (executed by root) does not have it and
 * RLIMIT_MEMLOCK applies to it.  Then CMD is executed.
 * Exit: CMD's, 2 usage, 1 a step failed.  Errors: one line, "as_user: what: why".
 * Built by tests/vm/progs/build.sh for the QEMU image only, never by make all. */
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>

#define ME "as_user"

static int fail(const char *what)
{
	fprintf(stderr, ME ": %s: %s\n", what, strerror(errno));
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: " ME " [-u UID] [-g GID] [-L] CMD [ARG]...\n");
	return 2;
}

int main(int argc, char **argv)
{
	long uid = -1, gid = -1;
	int opt, nolock = 0;
	char *end;

	while ((opt = getopt(argc, argv, "+u:g:L")) != -1) {
		switch (opt) {
		case 'u':
		case 'g':
			errno = 0;
			*(opt == 'u' ? &uid : &gid) = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || (opt == 'u' ? uid : gid) < 0)
				return usage();
			break;
		case 'L':
			nolock = 1;
			break;
		default:
			return usage();
		}
	}
	if (optind >= argc)
		return usage();
	if (nolock && prctl(PR_CAPBSET_DROP, CAP_IPC_LOCK, 0, 0, 0))
		return fail("drop CAP_IPC_LOCK");
	if ((uid >= 0 || gid >= 0) && setgroups(0, NULL))
		return fail("setgroups");
	if (gid >= 0 && setgid((gid_t)gid))
		return fail("setgid");
	if (uid >= 0 && setuid((uid_t)uid))
		return fail("setuid");
	execvp(argv[optind], argv + optind);
	return fail(argv[optind]);
}
