/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* lib/capture/internal.h: libpcap loaded with dlopen() the first time a capture is opened (internal).
 *
 * Why: Debian's libpcap.so.0.8 pulls in libdbus-1, libsystemd, libcap, libgcrypt, liblzma,
 * libzstd, liblz4 and libgpg-error.  Linking it would make every tool (rdmastat, rdmatop...)
 * map and relocate those eight libraries at start-up although only captures need them, which
 * is most of the start-up time under emulation.  Debian's libpcap.a is not PIC, so the .so
 * cannot carry it statically either.
 *
 * How: include this header after <pcap/pcap.h> (types and constants still come from there).
 * Every libpcap function the library uses is then a macro for a pointer in rd_pcap, whose type
 * is taken from libpcap's own prototype with __typeof__, so a call is checked as before.  Call
 * rd_pcap_load() before the first pcap_*() call; a function missing from the list below is an
 * undefined reference at link time (the .so links with --no-undefined and without -lpcap). */
#ifndef RD_PCAP_DL_H
#define RD_PCAP_DL_H
#include <stdbool.h>
#include <stddef.h>
#include <pcap/pcap.h>

#define RD_PCAP_FUNCS(X)						\
	X(activate) X(breakloop) X(close) X(compile) X(create)		\
	X(datalink) X(datalink_val_to_name) X(dump) X(dump_close)	\
	X(dump_file) X(dump_flush) X(dump_fopen) X(file) X(freecode)	\
	X(fopen_offline_with_tstamp_precision) X(geterr)		\
	X(get_tstamp_precision) X(next_ex) X(set_buffer_size)		\
	X(set_immediate_mode) X(set_snaplen) X(set_timeout)		\
	X(set_tstamp_precision) X(setfilter) X(snapshot) X(stats)		\
	X(statustostr)

struct rd_pcap_fns {
#define RD_PCAP_FIELD(n) __typeof__(pcap_##n) *n;
	RD_PCAP_FUNCS(RD_PCAP_FIELD)
#undef RD_PCAP_FIELD
};

/* filled once by rd_pcap_load(); read-only afterwards */
extern struct rd_pcap_fns rd_pcap;

/* Load libpcap (once per process, thread-safe).  0, or -errno with a one-line reason in
 * err ("cannot load libpcap: libpcap.so.0.8: cannot open shared object file: ...") */
int rd_pcap_load(char *err, size_t len);

#define pcap_activate				(*rd_pcap.activate)
#define pcap_breakloop				(*rd_pcap.breakloop)
#define pcap_close				(*rd_pcap.close)
#define pcap_compile				(*rd_pcap.compile)
#define pcap_create				(*rd_pcap.create)
#define pcap_datalink				(*rd_pcap.datalink)
#define pcap_datalink_val_to_name		(*rd_pcap.datalink_val_to_name)
#define pcap_dump				(*rd_pcap.dump)
#define pcap_dump_close				(*rd_pcap.dump_close)
#define pcap_dump_file				(*rd_pcap.dump_file)
#define pcap_dump_flush				(*rd_pcap.dump_flush)
#define pcap_dump_fopen				(*rd_pcap.dump_fopen)
#define pcap_file				(*rd_pcap.file)
#define pcap_freecode				(*rd_pcap.freecode)
#define pcap_fopen_offline_with_tstamp_precision (*rd_pcap.fopen_offline_with_tstamp_precision)
#define pcap_geterr				(*rd_pcap.geterr)
#define pcap_get_tstamp_precision		(*rd_pcap.get_tstamp_precision)
#define pcap_next_ex				(*rd_pcap.next_ex)
#define pcap_set_buffer_size			(*rd_pcap.set_buffer_size)
#define pcap_set_immediate_mode			(*rd_pcap.set_immediate_mode)
#define pcap_set_snaplen			(*rd_pcap.set_snaplen)
#define pcap_set_timeout			(*rd_pcap.set_timeout)
#define pcap_set_tstamp_precision		(*rd_pcap.set_tstamp_precision)
#define pcap_setfilter				(*rd_pcap.setfilter)
#define pcap_snapshot				(*rd_pcap.snapshot)
#define pcap_stats				(*rd_pcap.stats)
#define pcap_statustostr			(*rd_pcap.statustostr)

/* false (the default): a classic pcap file's records are read from a mapping (pcap_map.h);
 * true: every file is read through libpcap.  For the tests that compare the two readers. */
extern bool rd_capture_no_map;

#endif
