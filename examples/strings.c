/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* strings: explain an rdma_cm event and its status, or a work-completion status, the way a
 * support thread would.  No device, no librdmacm or libibverbs needed.
 *
 * Uses rdmadiag/cmstr.h (event names, status decoding, likely causes, REJ reasons, errno
 * names) and the work-completion strings of rdmadiag/selftest.h.
 *
 *	./strings REJECTED 28          an rdma_cm event (name or number) and its status
 *	./strings wc RNR_RETRY_EXC_ERR a work-completion status (name or number)
 *	./strings explain 'LINE'       a completion-error line from a log (rdmadiag/explain.h)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdmadiag/cmstr.h>
#include <rdmadiag/explain.h>
#include <rdmadiag/selftest.h>

/* a name function gives NULL for a value that has no name: the caller picks the fallback */
static const char *known(const char *name)
{
	return name ? name : "UNKNOWN";
}

static int number_or(const char *s, int (*from_name)(const char *))
{
	char *end;
	long v = strtol(s, &end, 0);

	return *s && !*end ? (int)v : from_name(s);
}

int main(int argc, char **argv)
{
	char buf[256];
	int ev, st;

	if (argc == 3 && !strcmp(argv[1], "wc")) {
		st = number_or(argv[2], rdiag_wc_status_from_name);
		if (st < 0) {
			fprintf(stderr, "strings: unknown work-completion status '%s'\n", argv[2]);
			return 2;
		}
		printf("%s (%d): %s\n", known(rdiag_wc_status_name(st)), st, rdiag_wc_status_str(st));
		printf("hint: %s\n", rdiag_wc_status_hint(st));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "explain")) {
		struct rdiag_explain e;

		if (rdiag_explain_line(argv[2], strlen(argv[2]), &e)) {
			printf("no completion error in this line\n");
			return 0;
		}
		if (e.wc_status >= 0)
			printf("%s: %s\n", known(rdiag_wc_status_name(e.wc_status)),
			       rdiag_wc_status_meaning(e.wc_status));
		if (e.has_vendor_err)
			printf("vendor error 0x%x: %s\n", (unsigned int)e.vendor_err,
			       e.vendor_meaning ? e.vendor_meaning : "unknown");
		printf("likely: %s (%s)\n", e.causes[0].text, e.causes[0].check);
		return 1;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: strings EVENT STATUS | strings wc STATUS | strings explain LINE\n");
		return 2;
	}
	ev = number_or(argv[1], rdiag_cm_event_from_name);
	if (ev < 0) {
		fprintf(stderr, "strings: unknown rdma_cm event '%s'\n", argv[1]);
		return 2;
	}
	st = atoi(argv[2]);
	printf("%s (%d)%s: %s\n", known(rdiag_cm_event_name(ev)), ev,
	       rdiag_cm_event_is_error(ev) ? " [error]" : "", rdiag_cm_event_meaning(ev));
	/* buffer-last string function: the caller's buffer, always terminated, returned */
	printf("status: %s\n", rdiag_cm_status_str(ev, st, buf, sizeof(buf)));
	printf("cause: %s\n", rdiag_cm_status_cause(ev, st));
	if (st < 0)
		printf("errno: %s\n", rdiag_errno_name(st));
	return 0;
}
