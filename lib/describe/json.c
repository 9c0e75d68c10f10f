/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A small JSON reader, enough for the host description (format.c, and so the fleet compare),
 * 'nft -j list ruleset' (the doctor's firewall check) and a peer's counters: a tree of nodes, depth-limited, strings unescaped (\uXXXX outside ASCII becomes '?').
 * Not a general-purpose parser: no streaming, whole input in memory. */
#include <stdlib.h>
#include <string.h>

#include "describe.h"
#include "util/util.h"

#define JSON_MAX_DEPTH 64

struct jp {
	const char *p, *end;
	int depth;
};

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static char *parse_string(struct jp *j)
{
	const char *s;
	char *out, *o;

	if (j->p >= j->end || *j->p != '"')
		return NULL;
	s = ++j->p;
	while (j->p < j->end && *j->p != '"')
		j->p += *j->p == '\\' ? 2 : 1;
	if (j->p >= j->end)
		return NULL;
	out = o = malloc((size_t)(j->p - s) + 1);
	if (!out)
		return NULL;
	while (s < j->p) {
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': *o++ = '\n'; break;
		case 't': *o++ = '\t'; break;
		case 'r': *o++ = '\r'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'u': {
			int v = 0, k, h;

			for (k = 1; k <= 4 && s + k < j->p; k++) {
				h = rd_hexval(s[k]);
				v = v * 16 + (h < 0 ? 0 : h);
			}
			*o++ = v > 0 && v < 0x80 ? (char)v : '?';
			s += 4;
			break;
		}
		default: *o++ = *s; break;
		}
		s++;
	}
	*o = 0;
	j->p++;
	return out;
}

static struct rd_json *parse_value(struct jp *j);

static struct rd_json *parse_container(struct jp *j, bool obj)
{
	struct rd_json *n = calloc(1, sizeof(*n)), **tail;
	char close = obj ? '}' : ']';

	if (!n)
		return NULL;
	n->type = obj ? RD_JOBJ : RD_JARR;
	tail = &n->child;
	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return n;
	}
	for (;;) {
		char *key = NULL;
		struct rd_json *v;

		ws(j);
		if (obj) {
			key = parse_string(j);
			ws(j);
			if (!key || j->p >= j->end || *j->p != ':') {
				free(key);
				goto fail;
			}
			j->p++;
		}
		v = parse_value(j);
		if (!v) {
			free(key);
			goto fail;
		}
		v->key = key;
		*tail = v;
		tail = &v->next;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return n;
		}
		goto fail;
	}
fail:
	rd_json_free(n);
	return NULL;
}

static struct rd_json *parse_value(struct jp *j)
{
	struct rd_json *n;
	char *end;

	ws(j);
	if (j->p >= j->end || ++j->depth > JSON_MAX_DEPTH)
		return NULL;
	if (*j->p == '{' || *j->p == '[') {
		n = parse_container(j, *j->p == '{');
		j->depth--;
		return n;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	j->depth--;
	if (*j->p == '"') {
		n->type = RD_JSTR;
		n->str = parse_string(j);
		if (!n->str) {
			free(n);
			return NULL;
		}
	} else if ((size_t)(j->end - j->p) >= 4 && !strncmp(j->p, "true", 4)) {
		n->type = RD_JBOOL, n->num = 1, j->p += 4;
	} else if ((size_t)(j->end - j->p) >= 5 && !strncmp(j->p, "false", 5)) {
		n->type = RD_JBOOL, j->p += 5;
	} else if ((size_t)(j->end - j->p) >= 4 && !strncmp(j->p, "null", 4)) {
		n->type = RD_JNULL, j->p += 4;
	} else {
		n->type = RD_JNUM;
		n->num = strtod(j->p, &end);
		if (end == j->p || end > j->end) {
			free(n);
			return NULL;
		}
		j->p = end;
	}
	return n;
}

struct rd_json *rd_json_parse(const char *text, size_t len)
{
	struct jp j = { text, text + len, 0 };
	struct rd_json *n;

	/* strtod may read past len on unterminated input; callers pass NUL-terminated text */
	n = parse_value(&j);
	if (!n)
		return NULL;
	ws(&j);
	if (j.p != j.end && *j.p) {
		rd_json_free(n);
		return NULL;
	}
	return n;
}

void rd_json_free(struct rd_json *j)
{
	while (j) {
		struct rd_json *next = j->next;

		rd_json_free(j->child);
		free(j->key);
		free(j->str);
		free(j);
		j = next;
	}
}

const struct rd_json *rd_json_get(const struct rd_json *obj, const char *key)
{
	const struct rd_json *c;

	if (!obj || obj->type != RD_JOBJ)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (c->key && strcmp(c->key, key) == 0)
			return c;
	return NULL;
}
