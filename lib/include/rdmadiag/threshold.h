/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadiag/threshold.h: counter thresholds (rdmastat --thresholds, rdmatop).
 *
 * File format, one rule per line; blank lines and lines starting with '#' are ignored:
 *
 *     NAME_OR_CONCEPT[@DEV[/PORT]] > VALUE        absolute value
 *     NAME_OR_CONCEPT[@DEV[/PORT]] > +VALUE       increase within one interval (delta)
 *     NAME_OR_CONCEPT[@DEV[/PORT]] > VALUE/s      rate per second
 *
 * NAME_OR_CONCEPT is a raw counter name (may contain spaces; shell globs allowed) or a
 * catalogue concept ("rnr_nak_received").  VALUE is a non-negative decimal number (a fraction
 * and an exponent allowed: 2.5, 1e6; not hex), with an optional k/M/G suffix = 10^3/10^6/10^9,
 * finite after the suffix (1e308G is refused).  Values compare against the scaled
 * value (bytes for PMA data counters).  Delta and rate rules only fire when a VALID rate
 * exists (interval mode); absolute rules fire on every sample.
 */
#ifndef RDMADIAG_THRESHOLD_H
#define RDMADIAG_THRESHOLD_H
#include <stddef.h>
#include <stdint.h>
#include <rdmadiag/counters.h>
#include <rdmadiag/rate.h>

#ifdef __cplusplus
extern "C" {
#endif

enum rdiag_threshold_kind {
	RDIAG_THR_ABSOLUTE = 0,
	RDIAG_THR_DELTA,
	RDIAG_THR_RATE,
};

struct rdiag_threshold_rule {
	char *key;		/* name, glob or concept */
	char *dev;		/* NULL = any device */
	uint32_t port;		/* 0 = any port */
	enum rdiag_threshold_kind kind;
	double limit;
	unsigned int line;	/* 1-based line in the file */
};

struct rdiag_thresholds {
	size_t n;
	struct rdiag_threshold_rule *rule;
};

struct rdiag_breach {
	const struct rdiag_threshold_rule *rule;
	const struct rdiag_sample *sample;	/* owned by the caller's sample set */
	double observed;	/* scaled value, delta or rate */
};

/* what to parse: a file (path) or a buffer (buf, len), exactly one */
struct rdiag_threshold_opts {
	const char *path;
	const char *buf;
	size_t len;
};

/* Parse the rules into a new set.  0 or -errno: -EINVAL for a malformed line, and
 * rdiag_threshold_errmsg(NULL) says "line N: what is wrong"; -EFBIG for a file over 1 MiB
 * (1 MiB itself is read);
 * other errors -errno from open/read. */
int rdiag_threshold_open(struct rdiag_thresholds **out, const struct rdiag_threshold_opts *opts);
void rdiag_threshold_close(struct rdiag_thresholds *t);
/* with t == NULL why the last failed rdiag_threshold_open() of the process failed
 * (librdmadiag(3), Conventions); a parsed set has no failure of its own: "" */
const char *rdiag_threshold_errmsg(const struct rdiag_thresholds *t);

/* does the rule apply to this sample (its device and port, and its key by
 * rdiag_sample_match: name, alias, concept or glob; an Ethernet statistic by its name,
 * concept or priority concept)? */
bool rdiag_threshold_matches(const struct rdiag_threshold_rule *r, const struct rdiag_sample *s);
/* does the rule apply to no sample of the set (rdiag_threshold_matches() with each)?  Such
 * a rule can never breach: a typo in a monitoring rule would read as "no errors", so the
 * tools warn about it at their first sample.  true for an empty or NULL set */
bool rdiag_threshold_matches_none(const struct rdiag_threshold_rule *r,
				  const struct rdiag_samples *set);

/* Evaluate every rule against one sample (rate may be NULL in snapshot mode).  Breaches are
 * appended to *list / *n (grown by doubling; start from NULL / 0, pass only a list this
 * function grew, free(*list) when done).  Returns the number of new breaches, or -ENOMEM. */
int rdiag_threshold_eval(const struct rdiag_thresholds *t, const struct rdiag_sample *s,
			 const struct rdiag_rate *rate, struct rdiag_breach **list, size_t *n);

const char *rdiag_threshold_kind_name(enum rdiag_threshold_kind k); /* "absolute" "delta" "rate" */

#ifdef __cplusplus
}
#endif
#endif
