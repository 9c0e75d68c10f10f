/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The "host" object of rdmadoctor local -j (doctor_host.h): the library's description of this
 * host (rdiag_doctor_host_json), the same object a listener serves on its side channel and
 * rdmadoctor compare reads back.  Nothing is printed in text mode. */
#include <stdlib.h>
#include <string.h>

#include "host.h"
#include "common/out.h"
#include "common/tool.h"
#include "rdmadiag/doctor.h"

void doctor_host_out(struct out *o, struct rdiag_doctor *d)
{
	char *json = NULL;

	if (!out_json(o))
		return;
	if (rdiag_doctor_host_json(d, &json)) {
		tool_warn("local: %s", rdiag_doctor_errmsg(d));
		return;
	}
	out_json_raw(o, "host", json, strlen(json));
	free(json);
}
