/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/cmstr.h: the rdma_cm strings librdmacm does not have.
 *
 * librdmacm's rdma_event_str() names an event but says nothing about event->status, whose
 * meaning depends on the event: a negative errno for the error events, except for REJECTED,
 * where it is the transport's reject reason (the IB CM REJ reason on IB and RoCE), see
 * rdma_get_cm_event(3).  These functions decode both and add the likely cause, the way a
 * support thread would (rdma-reference.md section 3.13).
 *
 * Event numbers are enum rdma_cm_event_type values; they are taken as plain ints so that
 * the strings work for events newer than the installed librdmacm.  The IB CM reject reason
 * names come from the packet module (rdiag_cm_rej_reason_name() in rdmadiag/packet.h);
 * this header adds what each reason means.  Every function accepts any value.  As every
 * name function of the library, rdiag_cm_event_name() returns NULL for a value it has no
 * name for (the caller prints its own fallback); the texts (meaning, status, cause) are
 * never NULL.
 */
#ifndef RDMADIAG_CMSTR_H
#define RDMADIAG_CMSTR_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 9 -> "ESTABLISHED"; NULL for values outside the enum */
const char *rdiag_cm_event_name(int event);
/* "RDMA_CM_EVENT_ESTABLISHED" -> 9, also without the prefix, any case; -1 when unknown */
int rdiag_cm_event_from_name(const char *name);
/* one sentence: what the event means to the application */
const char *rdiag_cm_event_meaning(int event);
/* true for events that report a failure (ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR,
 * UNREACHABLE, REJECTED, MULTICAST_ERROR, ADDRINFO_ERROR, DEVICE_REMOVAL) */
int rdiag_cm_event_is_error(int event);

/* what event->status means for this event, decoded:
 *   REJECTED, 8   -> "reject reason 8 INVALID_SERVICE_ID"
 *   ADDR_ERROR, -110 -> "-110 ETIMEDOUT (Connection timed out)"
 *   ESTABLISHED, 0 -> "0 (success)"
 * written into buf (always NUL-terminated); returns buf */
char *rdiag_cm_status_str(int event, int status, char *buf, size_t len);
/* the likely cause of (event, status) and what to check, one or two sentences; a generic
 * sentence when the pair is not in the table */
const char *rdiag_cm_status_cause(int event, int status);

/* IB CM reject reason 1..35 -> what it means ("no listener matched the service ID ...");
 * "unassigned reject reason" for 0, 34 and values above 35 */
const char *rdiag_cm_rej_reason_meaning(unsigned int reason);

/* errno number (positive or negative) -> "ETIMEDOUT"; "E?" when unknown */
const char *rdiag_errno_name(int err);

#ifdef __cplusplus
}
#endif
#endif
