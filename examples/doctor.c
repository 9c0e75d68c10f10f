/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* doctor: the host checks rdmadoctor runs before an rdma_connect (devices, modules, device
 * nodes, ports, GIDs, MTU, firewall, memlock), and with a destination the path checks and a
 * real connection attempt, then the verdict.
 *
 * Uses rdmadiag/doctor.h: one handle owns every finding, step and verdict.  A failed check is
 * a finding, not an error: rdiag_doctor_errmsg(d) only explains a call that could not run.
 *
 *	./doctor                 host checks and the verdict
 *	./doctor DEST [PORT]     also the path to DEST and an rdma_connect attempt
 */
#include <stdio.h>
#include <stdlib.h>
#include <rdmadiag/doctor.h>

int main(int argc, char **argv)
{
	struct rdiag_doc_opts o = { 0 };
	struct rdiag_doc_verdict v;
	struct rdiag_doctor *d;

	if (rdiag_doctor_open(&d, NULL) < 0) {
		fprintf(stderr, "doctor: %s\n", rdiag_doctor_errmsg(NULL));
		return 2;
	}
	if (rdiag_doctor_check_local(d, 0) < 0)
		fprintf(stderr, "doctor: %s\n", rdiag_doctor_errmsg(d));
	if (argc > 1) {
		o.dst = argv[1];
		o.port = argc > 2 ? (uint16_t)atoi(argv[2]) : 0;
		if (rdiag_doctor_check_path(d, &o) < 0 || rdiag_doctor_attempt(d, &o) < 0)
			fprintf(stderr, "doctor: %s\n", rdiag_doctor_errmsg(d));
	}
	for (size_t i = 0; i < rdiag_doctor_nfindings(d); i++) {
		const struct rdiag_doc_finding *f = rdiag_doctor_finding(d, i);

		printf("%-8s %-13s %s", rdiag_doc_level_name(f->level), f->check, f->summary);
		printf(f->cause ? " [%s]\n" : "\n", f->cause);
	}
	for (size_t i = 0; i < rdiag_doctor_nsteps(d); i++) {
		const struct rdiag_doc_step *s = rdiag_doctor_step(d, i);

		if (s->done)
			printf("step %-14s %s %.1f ms %s\n", s->name, s->ok ? "ok" : "failed", s->ms,
			       s->detail);
	}
	rdiag_doctor_verdict(d, &v);
	printf("verdict: %s (%s, layer %s): %s\n", v.ok ? "ok" : "problem", v.cause, v.layer,
	       v.sentence);
	if (!v.ok && v.next[0])
		printf("next: %s\n", v.next);
	rdiag_doctor_close(d);
	return v.ok ? 0 : 1;
}
