/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatrace: rdmatrace's flight recorder, "rdmatrace record" and "rdmatrace dump"
 * (dispatched from main.c; records in the ring of rdmadiag/ring.h). */
#ifndef RDIAG_TRACE_CMDS_H
#define RDIAG_TRACE_CMDS_H
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* the subcommands, as common/cmd.h runs them (argv[0] is "record" or "dump"; ctx unused) */
int trace_record_main(int argc, char **argv, void *ctx);
int trace_dump_main(int argc, char **argv, void *ctx);

/* shared by both: "1.2.3.4:5" / "[::1]:5", "" for AF_UNSPEC */
const char *trace_addr_str(const struct sockaddr_storage *s, char *buf, size_t len);
/* SIZE with an optional k/K or M suffix (powers of 1024): 0 or -EINVAL/-ERANGE */
int trace_parse_size(const char *s, uint64_t *out);
/* RFC 3339 in UTC ("2026-12-02T01:30:00Z", fraction allowed) or seconds since the epoch:
 * ns since the epoch; 0 or -EINVAL */
int trace_parse_time(const char *s, uint64_t *ns);
#endif
