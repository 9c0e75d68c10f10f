/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The agent's log: one line per event on stderr, "rdmadiag_exporter: level: message", which
 * systemd's journal keeps; lines below --log.level are dropped. */
#include <stdarg.h>
#include <stdio.h>

#include "common/tool.h"
#include "agent.h"

enum agent_log_level agent_log_level = LOG_INFO;

void agent_log(enum agent_log_level lv, const char *fmt, ...)
{
	static const char *const name[] = { "error", "warn", "info", "debug" };
	char line[1024];
	va_list ap;

	if (lv > agent_log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one write per line: lines of concurrent scrapes do not interleave */
	fprintf(stderr, "%s: %s: %s\n", tool_name(), name[lv], line);
}
