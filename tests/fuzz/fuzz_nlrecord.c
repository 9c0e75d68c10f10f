/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* libFuzzer target: the netlink record/replay file (lib/netlink/record.c, what
 * RDMADIAG_NL_REPLAY names and --nl-record writes), and the recorded replies it carries
 * through every request of the counters module.
 *
 * Input: the file, written to a memfd (one for the process) and named by path
 * (/proc/self/fd/N).  The sysfs root is an empty scratch directory, so everything comes
 * from the recording.  Seeds are the recordings of tests/fixtures/netlink/. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>

#include "counters_exercise.h"
#include "scratch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];

	if (size > (1 << 20))
		return 0;
	/* each open of the path is a file description of its own, at offset 0 */
	if (fd < 0 && (fd = memfd_create("fuzz-nlrecord", MFD_CLOEXEC)) < 0)
		return 0;
	if (pwrite(fd, data, size, 0) != (ssize_t)size || ftruncate(fd, (off_t)size) != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	setenv("RDMADIAG_SYSFS_ROOT", scratch_dir(), 1);
	setenv("RDMADIAG_NL_REPLAY", path, 1);
	exercise_counters(NULL);
	unsetenv("RDMADIAG_NL_REPLAY");
	return 0;
}
