/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* A saved event format file (events/SYSTEM/EVENT/format of a directory rdmatrace --input
 * reads) is anyone's text, and libtraceevent 1.7 follows NULL pointers on shapes the kernel
 * never writes.  Each format is checked against the kernel's own layout before libtraceevent
 * parses it: printable ASCII, "name:", "ID:", "format:", field lines, then one "print fmt:"
 * line (a C string and well-formed arguments naming declared fields) that ends the file. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "internal.h"

#define FORMAT_MAX_FIELDS 256

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* the name a "field:" declaration declares: its last identifier, after any [N] suffixes
 * ("u32 cm_id", "unsigned char srcaddr[28]", "__data_loc char[] name") */
static void field_name(const char *decl, size_t len, const char **name, size_t *nlen)
{
	size_t e = len, b;

	while (e && (decl[e - 1] == ' ' || decl[e - 1] == ']')) {
		if (decl[e - 1] == ']')
			while (e && decl[e - 1] != '[')
				e--;
		if (e)
			e--;
	}
	for (b = e; b && ident_char(decl[b - 1]); b--)
		;
	*name = decl + b;
	*nlen = e - b;
}

/* Every REC->NAME of the print format names a declared field.  libtraceevent 1.7 follows a
 * NULL field when __print_symbolic() or __print_flags() is given an undeclared one (a
 * format file of a saved directory is anyone's text; the kernel never writes that). */
static bool format_refs_declared(const char *buf)
{
	const char *names[FORMAT_MAX_FIELDS], *p, *fmt = strstr(buf, "\nprint fmt:");
	size_t lens[FORMAT_MAX_FIELDS], n = 0, i;

	if (!fmt)
		return true;	/* libtraceevent refuses it */
	for (p = buf; (p = strstr(p, "field:")) && p < fmt; ) {
		const char *decl = p + 6, *semi = memchr(decl, ';', (size_t)(fmt - decl));

		if (!semi)
			break;
		if (n == FORMAT_MAX_FIELDS)
			return false;
		field_name(decl, (size_t)(semi - decl), &names[n], &lens[n]);
		n++;
		p = semi;
	}
	for (p = fmt; (p = strstr(p, "REC->")); ) {
		const char *id = p + 5;
		size_t l = 0;

		while (ident_char(id[l]))
			l++;
		for (i = 0; i < n && (lens[i] != l || memcmp(names[i], id, l)); i++)
			;
		if (i == n)
			return false;
		p = id + l;
	}
	return true;
}

/* The kernel writes its formats in printable ASCII, tabs and newlines; libtraceevent 1.7
 * follows a NULL pointer on some other bytes (e.g. one inside a field's "[28]") */
static bool format_plain_text(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((buf[i] < 0x20 || buf[i] > 0x7e) && buf[i] != '\t' && buf[i] != '\n')
			return false;
	return true;
}

/* "N;" of a field line's offset:, size: or signed: (signed may be negative) */
static const char *number_semi(const char *p, bool sign)
{
	const char *d;

	if (sign && *p == '-')
		p++;
	for (d = p; *p >= '0' && *p <= '9'; p++)
		;
	return p > d && *p == ';' ? p + 1 : NULL;
}

/* one line of the format section as the kernel writes it:
 *	field:DECL;<tab>offset:N;<tab>size:N;[<tab>signed:N;]
 * DECL of identifiers, blanks and '*', and bracketed array sizes ("[28]", "[]", "[4 * 2]");
 * libtraceevent 1.7 follows a NULL pointer on a bracket it cannot close */
static bool field_line_plain(const char *p, const char *eol)
{
	if (strncmp(p, "\tfield:", 7))
		return false;
	for (p += 7; p < eol && *p != ';'; p++) {
		if (*p == '[') {
			for (p++; p < eol && *p != ']'; p++)
				if (!ident_char(*p) && !strchr(" +-*/()", *p))
					return false;
			if (p == eol)
				return false;
		} else if (!ident_char(*p) && *p != ' ' && *p != '*') {
			return false;
		}
	}
	if (p == eol || strncmp(p, ";\toffset:", 9) || !(p = number_semi(p + 9, false)) ||
	    strncmp(p, "\tsize:", 6) || !(p = number_semi(p + 6, false)))
		return false;
	if (p < eol && (strncmp(p, "\tsigned:", 8) || !(p = number_semi(p + 8, true))))
		return false;
	return p == eol;
}

/* the kernel's layout: "name: ", "ID: ", "format:", then field lines or empty ones up to
 * "print fmt: " (libtraceevent 1.7 follows a NULL pointer on a file cut in a field line) */
static bool format_fields_plain(const char *buf)
{
	const char *p = strstr(buf, "\nformat:\n"), *end = strstr(buf, "\nprint fmt: ");

	if (strncmp(buf, "name: ", 6) || !strstr(buf, "\nID: ") || !p || !end || end < p)
		return false;
	for (p += 9; p < end + 1; ) {
		const char *eol = strchr(p, '\n');

		if (eol > p && !field_line_plain(p, eol))
			return false;
		p = eol + 1;
	}
	return true;
}

#define PRINT_MAX_DEPTH 64

/* a C string or character literal at p (quote q) on one line: past its closing quote, or NULL */
static const char *literal_end(const char *p, const char *eol, char q)
{
	for (p++; p < eol && *p != q; p++)
		if (*p == '\\' && ++p == eol)
			return NULL;
	return p < eol ? p + 1 : NULL;
}

static const char *skip_blanks(const char *p, const char *eol)
{
	while (p < eol && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

static const char *ident_end(const char *p, const char *eol)
{
	while (p < eol && ident_char(*p))
		p++;
	return p;
}

/* a cast at p, "(" type ")": identifiers, blanks and '*' only, with an identifier; past
 * its ')', or NULL */
static const char *cast_end(const char *p, const char *eol)
{
	bool name = false;

	for (p++; p < eol && *p != ')'; p++) {
		if (ident_char(*p) && !(*p >= '0' && *p <= '9'))
			name = true;
		else if (!ident_char(*p) && *p != ' ' && *p != '*')
			return NULL;
	}
	return p < eol && name ? p + 1 : NULL;
}

/* the arguments after the print format's string, [p, eol), as the kernel writes them:
 * operands are numbers, literals, REC->FIELD, calls NAME(...) and brace lists; names stand
 * nowhere else, but in casts "(TYPE)" before an operand and alone in a call (__get_str(NAME),
 * open[] holds 'c' for a call's bracket); C operators between operands, '/'
 * and '%' by a number other than 0 only (libtraceevent divides at parse and print time);
 * brackets that pair up ('(' with ')', '{' with '}', '[' with ']', each '?' with a ':'
 * inside the same bracket); no empty argument, no operator before a closing bracket, a
 * comma or the end */
static bool print_args_plain(const char *p, const char *eol)
{
	char open[PRINT_MAX_DEPTH];
	int ternary[PRINT_MAX_DEPTH + 1] = { 0 };
	size_t depth = 0;
	char prev = ',';	/* the last token's class: 'a' operand, ',', '(', 'o' operator */
	bool call = false;	/* the last token is a name followed by '(' */

	for (p = skip_blanks(p, eol); p < eol; p = skip_blanks(p, eol)) {
		const char *q, *e;
		char c = *p;

		if (ident_char(c)) {
			if (prev == 'a' || prev == ')')
				return false;	/* two operands in a row: "REC->a b" */
			e = ident_end(p, eol);
			q = skip_blanks(e, eol);
			call = !(c >= '0' && c <= '9') && q < eol && *q == '(';
			if (!(c >= '0' && c <= '9') && !call &&
			    !(e - p == 3 && !memcmp(p, "REC", 3) && eol - q > 2 && !memcmp(q, "->", 2)) &&
			    !(prev == '(' && depth && open[depth - 1] == 'c' && q < eol && *q == ')'))
				return false;	/* a bare name, but __get_str(NAME) */
			p = e;
			prev = 'a';
			continue;
		}
		if (c == '"' || c == '\'') {
			if (prev == 'a' || prev == ')' || !(p = literal_end(p, eol, c)))
				return false;
			prev = 'a';
			continue;
		}
		if (c == '-' && p + 1 < eol && p[1] == '>') {
			if (prev != 'a' && prev != ')')
				return false;
			q = skip_blanks(p + 2, eol);
			e = ident_end(q, eol);
			if (e == q || (*q >= '0' && *q <= '9'))
				return false;
			p = e;
			prev = 'a';
			continue;
		}
		if (c == '(' && prev != 'a' && prev != ')' && (e = cast_end(p, eol))) {
			p = e;
			prev = 'o';	/* a prefix: an operand must follow */
			continue;
		}
		if (c == '(' || c == '{' || c == '[') {
			if (depth == PRINT_MAX_DEPTH || ((prev == 'a' || prev == ')') && !(c == '(' && call)))
				return false;
			open[depth++] = c == '(' && call ? 'c' : c;
			call = false;
			ternary[depth] = 0;
			prev = '(';
			p++;
			continue;
		}
		if (c == ')' || c == '}' || c == ']') {
			char want = c == ')' ? '(' : c == '}' ? '{' : '[';

			if (!depth || (open[depth - 1] != want && !(c == ')' && open[depth - 1] == 'c')) ||
			    ternary[depth] ||
			    prev == ',' || prev == 'o' || (prev == '(' && c != ')'))
				return false;
			depth--;
			prev = ')';
			p++;
			continue;
		}
		if (c == ',') {
			if (prev == ',' || prev == '(' || prev == 'o')
				return false;
			prev = ',';
			p++;
			continue;
		}
		if (!strchr("+-*/%&|^~!<>=?:", c))
			return false;
		if (c == '/' || c == '%') {
			unsigned long long d;
			char *end;

			q = skip_blanks(p + 1, eol);
			if (q == eol || *q < '0' || *q > '9')
				return false;
			d = strtoull(q, &end, 0);
			if (!d || (end < eol && ident_char(*end) && !strchr("uUlL", *end)))
				return false;
		}
		if (c == '?')
			ternary[depth]++;
		else if (c == ':' && ternary[depth]-- <= 0)
			return false;
		prev = 'o';
		p++;
	}
	return !depth && !ternary[0] && (prev == 'a' || prev == ')');
}

/* the "print fmt: " line: a C string, then nothing or ", " and its arguments, and the line
 * ends the file (a trailing newline or more) */
static bool print_fmt_plain(const char *buf)
{
	const char *p = strstr(buf, "\nprint fmt: "), *eol, *q;

	if (!p || strstr(p + 1, "\nprint fmt: "))
		return false;
	p += 12;
	eol = strchr(p, '\n');
	if (!eol)
		eol = p + strlen(p);
	for (q = eol; *q == '\n'; q++)
		;
	if (*q || *p != '"' || !(p = literal_end(p, eol, '"')))
		return false;
	if (p == eol)
		return true;
	if (*p != ',')
		return false;
	return print_args_plain(p + 1, eol);
}

int rd_trace_parse_format(struct tep_handle *tep, const char *buf, size_t len, const char *sys)
{
	if (!format_plain_text(buf, len) || !format_fields_plain(buf) ||
	    !print_fmt_plain(buf) || !format_refs_declared(buf))
		return -EINVAL;
	return tep_parse_event(tep, buf, len, sys) == TEP_ERRNO__SUCCESS ? 0 : -EINVAL;
}
