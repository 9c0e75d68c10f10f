/* rd_caps.h: capabilities of this process (internal to lib/verbs).  One reader of
 * /proc/self/status for the doctor's memlock check and rdmacheck's mr-cost: memory
 * registration pins pages and charges them to RLIMIT_MEMLOCK unless the process has
 * CAP_IPC_LOCK in its effective set - root in a container without it is limited too. */
#ifndef RD_CAPS_H
#define RD_CAPS_H
#include <stdbool.h>

/* CAP_IPC_LOCK (bit 14) in the CapEff line of status_path (NULL: /proc/self/status);
 * false when the file or the line cannot be read */
bool rd_cap_ipc_lock_in(const char *status_path);
bool rd_cap_ipc_lock(void);

#endif
