/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Text output never carries another party's control bytes to a terminal: device, counter and
 * netdev names, a process's COMM (which any user sets) and a CM peer's device name are data,
 * and a byte that would move the cursor, clear the screen or retitle the window is printed as
 * an escape instead, as ls -b and tcpdump do.  JSON escapes them its own way. */
#ifndef RD_ESC_H
#define RD_ESC_H
#include <stdbool.h>
#include <stddef.h>

/* true when s holds a byte below 0x20, DEL, a UTF-8 encoded C1 control (U+0080-U+009F), or
 * a byte 0x80-0x9f outside any valid UTF-8 sequence (a C1 control to an 8-bit terminal:
 * 0x9b is CSI).  Valid UTF-8 otherwise passes, and so do other stray bytes (0xa0-0xff) */
bool tool_needs_esc(const char *s);
/* s itself when it needs no escape; otherwise its copy in buf (NUL-terminated, cut at a whole
 * escape when too long) with \n \t \r \\ as such and other control bytes as \ooo */
const char *tool_esc(const char *s, char *buf, size_t len);
/* the same into one of a few rotating static buffers, for printf arguments (single-threaded
 * tools; at most 8 in one call) */
const char *tool_esc_tmp(const char *s);
/* the length of the valid UTF-8 sequence at p (RFC 3629: no overlong form, no surrogate,
 * nothing above U+10FFFF), 0 when p does not start one */
size_t tool_utf8_len(const unsigned char *p);
#endif
