/* rdmadoctor local -j: the "host" object, a description of this host that rdmadoctor compare
 * reads back from many hosts (host name, kernel, memlock, and per port its state, netdev, MTU,
 * rate, driver, firmware, RoCE v2 GID index, RoCE mode and default ToS).  JSON only. */
#ifndef RD_DOCTOR_HOST_H
#define RD_DOCTOR_HOST_H

struct out;
struct rdiag_doctor;

void doctor_host_out(struct out *o, struct rdiag_doctor *d);

#endif
