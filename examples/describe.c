/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* describe: the fleet compare of rdmadoctor compare.  Reads the host descriptions in FILEs
 * (each line one 'rdmadoctor -j local' document, as collected from many hosts) and prints
 * every property on which some hosts differ from the majority, most harmful first.
 *
 * Uses rdmadiag/describe.h: one handle holds the hosts; no device and no doctor needed.
 *
 *	./describe FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdmadiag/describe.h>

static int add_file(struct rdiag_describe_compare *c, const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f) {
		perror(path);
		return -1;
	}
	while (!rc && (n = getline(&line, &cap, f)) > 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = 0;
		if (n && rdiag_describe_compare_add(c, line, (size_t)n, path) < 0) {
			fprintf(stderr, "describe: %s: %s\n", path, rdiag_describe_compare_errmsg(c));
			rc = -1;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

int main(int argc, char **argv)
{
	struct rdiag_describe_compare *c;
	size_t i, j;
	int k;

	if (argc < 2) {
		fprintf(stderr, "usage: describe FILE...\n");
		return 2;
	}
	if (rdiag_describe_compare_open(&c, NULL) < 0) {
		fprintf(stderr, "describe: %s\n", rdiag_describe_compare_errmsg(NULL));
		return 2;
	}
	for (k = 1; k < argc; k++)
		if (add_file(c, argv[k]) < 0) {
			rdiag_describe_compare_close(c);
			return 2;
		}
	if (rdiag_describe_compare_run(c) < 0) {
		fprintf(stderr, "describe: %s\n", rdiag_describe_compare_errmsg(c));
		rdiag_describe_compare_close(c);
		return 2;
	}
	printf("%zu hosts\n", rdiag_describe_compare_nhosts(c));
	for (i = 0; i < rdiag_describe_compare_nprops(c); i++) {
		const struct rdiag_desc_cmp_prop *p = rdiag_describe_compare_prop(c, i);

		if (!p->ndiffer)
			break;		/* the rest agree */
		printf("%s [%s]: %zu hosts have %s;", p->name, rdiag_cmp_impact_name(p->impact),
		       p->nmajority, p->majority ? p->majority : "nothing");
		for (j = 0; j < p->ndiffer; j++)
			printf(" %s has %s", p->differ[j].host,
			       p->differ[j].value ? p->differ[j].value : "nothing");
		printf("\n");
	}
	rdiag_describe_compare_close(c);
	return 0;
}
