/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Capabilities of this process from /proc/self/status (no libcap needed). */
#include <linux/capability.h>
#include <stdio.h>

#include "verbs.h"

bool rd_cap_ipc_lock_in(const char *status_path)
{
	FILE *fp = fopen(status_path ? status_path : "/proc/self/status", "re");
	char line[256];
	unsigned long long eff = 0;
	bool found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(fp);
	return found && ((eff >> CAP_IPC_LOCK) & 1);
}

bool rd_cap_ipc_lock(void)
{
	return rd_cap_ipc_lock_in(NULL);
}
