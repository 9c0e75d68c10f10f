/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The pages of the tools' HTML reports; see html.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "html.h"
#include "out.h"

/* The one script of a page.  The CSP allows it by the SHA-256 of its text: after a change,
 * the hash below must be made again, as tests/bats/rdmadump_report.bats checks:
 *	python3 -c 'import hashlib,base64,sys; print(base64.b64encode(hashlib.sha256(
 *		sys.stdin.buffer.read()).digest()).decode())' < script.js
 * It holds no '<' and no '&' (the page is XML too). */
static const char script[] =
	"(function () {\n"
	"\tvar d = document;\n"
	"\td.querySelectorAll('table.sort th').forEach(function (th) {\n"
	"\t\tth.addEventListener('click', function () {\n"
	"\t\t\tvar t = th.closest('table'), b = t.tBodies[0], i = th.cellIndex,\n"
	"\t\t\t\tr = Array.prototype.slice.call(b.rows),\n"
	"\t\t\t\tup = th.getAttribute('data-dir') !== 'up';\n"
	"\t\t\tt.querySelectorAll('th').forEach(function (h) { h.removeAttribute('data-dir'); });\n"
	"\t\t\tth.setAttribute('data-dir', up ? 'up' : 'down');\n"
	"\t\t\tr.sort(function (x, y) {\n"
	"\t\t\t\tvar a = x.cells[i], c = y.cells[i], p = a.getAttribute('data-v'), k;\n"
	"\t\t\t\tif (p !== null)\n"
	"\t\t\t\t\tk = Number(p) - Number(c.getAttribute('data-v'));\n"
	"\t\t\t\telse\n"
	"\t\t\t\t\tk = a.textContent.localeCompare(c.textContent);\n"
	"\t\t\t\treturn up ? k : -k;\n"
	"\t\t\t});\n"
	"\t\t\tr.forEach(function (x) { b.appendChild(x); });\n"
	"\t\t});\n"
	"\t});\n"
	"\td.querySelectorAll('svg.zoomable').forEach(function (s) {\n"
	"\t\ts.addEventListener('click', function () { s.classList.toggle('zoom'); });\n"
	"\t});\n"
	"\td.body.setAttribute('data-ready', '1');\n"
	"})();\n";
#define SCRIPT_HASH "sha256-TfVSAXUc5N5bxvSIEY0LUqTQWKNGCoZj902SSM8890A="

static const char base_css[] =
	"body{font-family:sans-serif;font-size:14px;margin:1em 2em;color:#111}\n"
	"h2{border-bottom:1px solid #ccc;margin-top:1.6em}pre{font-size:12px;"
	"background:#f6f6f6;padding:.5em;overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;"
	"padding:2px 6px}th{background:#eee;cursor:pointer;position:sticky;top:0}\n"
	"td.n{text-align:right}th[data-dir=up]::after{content:' \\25b2'}"
	"th[data-dir=down]::after{content:' \\25bc'}\n"
	".scroll{overflow-x:auto}svg.zoomable{cursor:zoom-in}"
	"svg.zoom{width:200%;height:auto;cursor:zoom-out}\n"
	".m:hover{stroke-width:3}.err{color:#b00}.note{color:#555;font-size:12px}\n";

void html_text(FILE *f, const char *s)
{
	xml_escape(f, s ? s : "");
}

void html_begin(FILE *f, const char *title, const char *css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; img-src data:; script-src '" SCRIPT_HASH "'; "
	      "base-uri 'none'; form-action 'none'\"/>\n"
	      "<meta name=\"referrer\" content=\"no-referrer\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width\"/>\n<title>", f);
	html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n", base_css, css ? css : "");
}

int html_end(FILE *f)
{
	fprintf(f, "<script>%s</script>\n</body>\n</html>\n", script);
	return ferror(f) ? -EIO : 0;
}

double html_nice_step(double span, int want)
{
	double raw = span / want, mag, r;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	r = raw / mag;
	return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * mag;
}

const char *html_script(void)
{
	return script;
}

const char *html_script_hash(void)
{
	return SCRIPT_HASH;
}
