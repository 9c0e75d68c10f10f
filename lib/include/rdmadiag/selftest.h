/* rdmadiag/selftest.h: verbs self-tests (rdmacheck) and work-completion strings.
 *
 * Part 1, work-completion strings: usable without a device.  rdiag_wc_status_name() gives
 * the enumerator ("IBV_WC_RNR_RETRY_EXC_ERR"), rdiag_wc_status_str() libibverbs' wording
 * ("RNR retry counter exceeded") and rdiag_wc_status_hint() the likely causes and what to
 * check.  All three accept any int and never return NULL.
 *
 * Part 2, self-tests: rdiag_selftest_open() opens the device (and optionally a peer device)
 * into one context that owns every verbs object the tests create; each test is one call
 * returning a structured result; rdiag_selftest_close() releases everything still held.
 * Every test releases its own objects in reverse order of creation on every path, so the
 * context holds nothing between tests ("rdma res show" before = after).
 */
#ifndef RDMADIAG_SELFTEST_H
#define RDMADIAG_SELFTEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- work-completion status strings (enum ibv_wc_status values) ---- */
const char *rdiag_wc_status_name(int status);	/* "IBV_WC_REM_ACCESS_ERR" */
const char *rdiag_wc_status_str(int status);	/* "remote access error" */
const char *rdiag_wc_status_hint(int status);	/* likely causes */
/* "IBV_WC_REM_ACCESS_ERR" or "REM_ACCESS_ERR" (any case) -> 10; -1 when unknown */
int rdiag_wc_status_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
