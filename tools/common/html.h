/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* Self-contained HTML reports (rdmadump --report, rdmatrace dump --report): one file that opens
 * from a mail attachment on an air-gapped machine.  The page is well-formed XML as well as
 * HTML5 (XHTML-compatible: every element closed, no named entity but XML's, the script free of
 * '<' and '&'), so a strict XML parser checks it; its inline SVG has no namespace (the HTML
 * parser gives it SVG's), so the file holds no URL at all.  A Content-Security-Policy in the
 * page allows nothing from outside: no fetch, no image but data:, no script but the one inline
 * script below (by its hash), which sorts tables (class "sort", by a cell's data-v when it has
 * one, else its text) and zooms an SVG of class "zoomable" on a click; the SVGs' <title>s are
 * the hover texts.  Every string from a capture or a ring goes through html_text(). */
#ifndef RDIAG_HTML_H
#define RDIAG_HTML_H
#include <stdio.h>

/* the doctype, the head (CSP, the title escaped, the common style sheet and css) and <body> */
void html_begin(FILE *f, const char *title, const char *css);
/* the script and the end of the page; 0 or -EIO (a write error on f) */
int html_end(FILE *f);
/* text or an attribute value, escaped for XML and HTML (xml_escape) */
void html_text(FILE *f, const char *s);
/* a step of 1, 2 or 5 times a power of ten that cuts span into about want parts (an axis's
 * ticks) */
double html_nice_step(double span, int want);
/* the inline script and its CSP hash ("sha256-..."), for the tests */
const char *html_script(void);
const char *html_script_hash(void);
#endif
