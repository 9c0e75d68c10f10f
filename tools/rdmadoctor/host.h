/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmadoctor local -j: the "host" object, the library's description of this host
 * (rdiag_doctor_host_json: what a listener serves, what rdmadoctor compare reads back from many
 * hosts; rdmadoctor(1) lists its members).  JSON only. */
#ifndef RD_DOCTOR_HOST_H
#define RD_DOCTOR_HOST_H

struct out;
struct rdiag_doctor;

void doctor_host_out(struct out *o, struct rdiag_doctor *d);

#endif
