/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop: the header line of every screen, curses and batch, Ports and Fabric alike
 * (view.h): time, host, interval, devices, QPs in ERR, error deltas, breaches, state. */
#include <stdio.h>
#include <time.h>

#include "fmt.h"
#include "view.h"

const char *rt_view_header(const struct rt_model *m, const struct rt_frame_info *fi, char *buf,
			   size_t len)
{
	char tbuf[16], ibuf[16];
	struct tm tm;
	size_t off;

	localtime_r(&fi->wall, &tm);
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", &tm);
	off = (size_t)snprintf(buf, len,
			       "rdmatop - %s %s  every %s  devices %u  QPs in ERR %u  error deltas %llu",
			       tbuf, fi->host, rt_fmt_interval(ibuf, sizeof(ibuf), fi->interval),
			       m->ndevs, m->qps_in_err, (unsigned long long)m->err_deltas);
	if (fi->th && off < len)
		off += (size_t)snprintf(buf + off, len - off, "  breaches %u%s", m->breaches,
					m->th_enabled ? "" : " (off)");
	if (fi->paused && off < len)
		off += (size_t)snprintf(buf + off, len - off, "  [paused]");
	if (fi->collecting && off < len)
		snprintf(buf + off, len - off, "  [collecting %s %.1fs]",
			 fi->collecting_dev && *fi->collecting_dev ? fi->collecting_dev : "",
			 fi->collecting_s);
	return buf;
}
