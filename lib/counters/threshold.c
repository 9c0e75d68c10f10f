/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Thresholds: "NAME_OR_CONCEPT[@DEV[/PORT]] > VALUE[/s]" rules, parsed with line numbers and
 * evaluated per sample.  Format in rdmadiag/threshold.h. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rdmadiag/catalog.h>
#include <rdmadiag/threshold.h>

#include "open_error.h"

#define MAX_FILE (1 << 20)

/* why the last failed rdiag_threshold_open() of the process failed */
static struct rd_open_error open_err = RD_OPEN_ERROR_INIT;

void rdiag_threshold_close(struct rdiag_thresholds *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		free(t->rule[i].key);
		free(t->rule[i].dev);
	}
	free(t->rule);
	free(t);
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* a plain decimal number: digits with at most one '.', and an exponent (e, an optional sign,
 * digits); what strtod takes beyond that (hex floats "0x1p4", "inf", "nan", leading blanks)
 * is not a threshold */
static bool decimal(const char *s)
{
	bool digits = false;

	for (; (*s >= '0' && *s <= '9'); s++)
		digits = true;
	if (*s == '.')
		for (s++; (*s >= '0' && *s <= '9'); s++)
			digits = true;
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (*s < '0' || *s > '9')
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return !*s;
}

/* "12", "1.5k", "3M/s" -> value; 0 or -EINVAL */
static int parse_value(char *s, double *v, enum rdiag_threshold_kind *kind)
{
	char *end;
	size_t l;
	double mul = 1;

	*kind = RDIAG_THR_ABSOLUTE;
	if (*s == '+') {
		*kind = RDIAG_THR_DELTA;
		s++;
	}
	l = strlen(s);
	if (l > 2 && !strcmp(s + l - 2, "/s")) {
		if (*kind == RDIAG_THR_DELTA)
			return -EINVAL;
		*kind = RDIAG_THR_RATE;
		s[l - 2] = '\0';
		l -= 2;
	}
	if (!l)
		return -EINVAL;
	switch (s[l - 1]) {
	case 'k': mul = 1e3; s[--l] = '\0'; break;
	case 'M': mul = 1e6; s[--l] = '\0'; break;
	case 'G': mul = 1e9; s[--l] = '\0'; break;
	default: break;
	}
	if (!decimal(s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end)
		return -EINVAL;
	/* finite after the suffix too: 1e308G would be infinity, a limit nothing exceeds */
	*v *= mul;
	if (!isfinite(*v) || *v < 0)
		return -EINVAL;
	return 0;
}

static int parse_line(char *line, struct rdiag_threshold_rule *r, const char **why)
{
	char *gt, *lhs, *rhs, *at, *slash, *end;
	unsigned long port;

	gt = strchr(line, '>');
	if (!gt) {
		*why = "expected 'NAME > VALUE'";
		return -EINVAL;
	}
	*gt = '\0';
	lhs = trim(line);
	rhs = trim(gt + 1);
	if (*rhs == '=' || *rhs == '>' || strchr(rhs, '>')) {
		*why = "only one '>' comparison is supported";
		return -EINVAL;
	}
	if (!*lhs) {
		*why = "missing counter name or concept before '>'";
		return -EINVAL;
	}
	if (parse_value(rhs, &r->limit, &r->kind) < 0) {
		*why = "bad value after '>' (want N, +N or N/s; k/M/G suffixes allowed)";
		return -EINVAL;
	}
	at = strrchr(lhs, '@');
	if (at) {
		*at = '\0';
		slash = strchr(at + 1, '/');
		if (slash) {
			*slash = '\0';
			errno = 0;
			port = strtoul(slash + 1, &end, 10);
			if (errno || end == slash + 1 || *end || !port || port > UINT32_MAX) {
				*why = "bad port after '/'";
				return -EINVAL;
			}
			r->port = (uint32_t)port;
		}
		if (!*trim(at + 1)) {
			*why = "missing device after '@'";
			return -EINVAL;
		}
		r->dev = strdup(trim(at + 1));
		if (!r->dev)
			return -ENOMEM;
		lhs = trim(lhs);
		if (!*lhs) {
			*why = "missing counter name or concept before '@'";
			return -EINVAL;
		}
	}
	r->key = strdup(lhs);
	return r->key ? 0 : -ENOMEM;
}

static int parse_buf(const char *buf, size_t len, struct rdiag_thresholds **out, char *err,
		     size_t errlen)
{
	struct rdiag_thresholds *t;
	const char *p = buf, *end = buf + len;
	unsigned int lineno = 0;
	size_t cap = 0;
	int ret = 0;

	*out = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	while (p < end && !ret) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct rdiag_threshold_rule r, *nr;
		const char *why = "";
		char *line, *s;

		lineno++;
		line = strndup(p, l);
		p += l + (nl ? 1 : 0);
		if (!line) {
			ret = -ENOMEM;
			break;
		}
		s = trim(line);
		if (!*s || *s == '#') {
			free(line);
			continue;
		}
		if (memchr(p - l - (nl ? 1 : 0), '\0', l)) {
			why = "NUL byte in line";
			ret = -EINVAL;
		}
		memset(&r, 0, sizeof(r));
		r.line = lineno;
		if (!ret)
			ret = parse_line(s, &r, &why);
		free(line);
		if (ret == -EINVAL && err)
			snprintf(err, errlen, "line %u: %s", lineno, why);
		if (!ret && t->n == cap) {
			/* doubling: one realloc per rule made a big file quadratic (60 000
			 * rules under ASan, whose realloc always copies) */
			size_t ncap = cap ? cap * 2 : 16;

			nr = realloc(t->rule, ncap * sizeof(*nr));
			if (!nr) {
				ret = -ENOMEM;
			} else {
				t->rule = nr;
				cap = ncap;
			}
		}
		if (!ret) {
			t->rule[t->n++] = r;
			continue;
		}
		free(r.key);
		free(r.dev);
	}
	if (ret) {
		rdiag_threshold_close(t);
		return ret;
	}
	*out = t;
	return 0;
}

static int parse_file(const char *path, struct rdiag_thresholds **out, char *err,
		      size_t errlen)
{
	char *buf;
	size_t len = 0;
	ssize_t r = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one byte more than allowed: a file of exactly MAX_FILE bytes fills the buffer
	 * without being too large */
	buf = malloc(MAX_FILE + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (len <= MAX_FILE && (r = read(fd, buf + len, MAX_FILE + 1 - len)) > 0)
		len += (size_t)r;
	ret = r < 0 ? -errno : 0;
	close(fd);
	if (!ret && len > MAX_FILE) {
		if (err)
			snprintf(err, errlen, "file larger than %d bytes", MAX_FILE);
		ret = -EFBIG;
	}
	if (!ret)
		ret = parse_buf(buf, len, out, err, errlen);
	free(buf);
	return ret;
}

int rdiag_threshold_open(struct rdiag_thresholds **out, const struct rdiag_threshold_opts *o)
{
	char why[256] = "";
	int ret;

	if (out)
		*out = NULL;
	if (!out || !o || !o->path == !o->buf) {
		rd_open_error_set(&open_err, "rdiag_threshold_open: give a file or a buffer");
		return -EINVAL;
	}
	ret = o->path ? parse_file(o->path, out, why, sizeof(why)) :
		parse_buf(o->buf, o->len, out, why, sizeof(why));
	if (ret < 0)
		rd_open_error_set(&open_err, "%s", *why ? why : strerror(-ret));
	return ret;
}

const char *rdiag_threshold_errmsg(const struct rdiag_thresholds *t)
{
	/* a parsed rule set has no failure of its own: eval's only error is -ENOMEM */
	return t ? "" : rd_open_error_get(&open_err);
}

bool rdiag_threshold_matches(const struct rdiag_threshold_rule *r, const struct rdiag_sample *s)
{
	if (r->dev && strcmp(r->dev, s->dev))
		return false;
	if (r->port && r->port != s->port)
		return false;
	return rdiag_sample_match(r->key, s, 0);
}

bool rdiag_threshold_matches_none(const struct rdiag_threshold_rule *r,
				  const struct rdiag_samples *set)
{
	size_t i, n = set ? rdiag_samples_count(set) : 0;

	for (i = 0; i < n; i++)
		if (rdiag_threshold_matches(r, rdiag_samples_get(set, i)))
			return false;
	return true;
}

/* The breach list grows by doubling, as the rule array does (one realloc per breach was
 * quadratic).  The list carries no capacity field, so the room is implied by the count: a
 * list this function grew to n entries has room for the next power of two >= n (at least
 * BREACH_ROOM_MIN), and it reallocates only when n reaches that.  A caller that resets
 * *n while keeping *list stays safe: the implied room only shrinks. */
#define BREACH_ROOM_MIN 16

static size_t breach_room(size_t n)
{
	size_t room = BREACH_ROOM_MIN;

	if (!n)
		return 0;
	while (room < n && room <= SIZE_MAX / 2)
		room *= 2;
	return room;
}

int rdiag_threshold_eval(const struct rdiag_thresholds *t, const struct rdiag_sample *s,
			 const struct rdiag_rate *rate, struct rdiag_breach **list, size_t *n)
{
	uint32_t scale = s->cat && s->cat->scale ? s->cat->scale : 1;
	size_t i;
	int found = 0;

	if (!t || s->err)
		return 0;
	for (i = 0; i < t->n; i++) {
		const struct rdiag_threshold_rule *r = &t->rule[i];
		struct rdiag_breach *nl;
		double obs;

		if (!rdiag_threshold_matches(r, s))
			continue;
		switch (r->kind) {
		case RDIAG_THR_ABSOLUTE:
			obs = (double)s->value * scale;
			break;
		case RDIAG_THR_DELTA:
			if (!rate || rate->state != RDIAG_RATE_VALID)
				continue;
			obs = (double)rate->delta;
			break;
		default:
			if (!rate || rate->state != RDIAG_RATE_VALID)
				continue;
			obs = rate->per_sec;
			break;
		}
		if (!(obs > r->limit))
			continue;
		nl = *list;
		if (*n == breach_room(*n)) {
			size_t room = *n ? *n * 2 : BREACH_ROOM_MIN;

			if (room > SIZE_MAX / sizeof(*nl))
				return -ENOMEM;
			nl = realloc(*list, room * sizeof(*nl));
			if (!nl)
				return -ENOMEM;
			*list = nl;
		}
		nl[*n].rule = r;
		nl[*n].sample = s;
		nl[*n].observed = obs;
		(*n)++;
		found++;
	}
	return found;
}
