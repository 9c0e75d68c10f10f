/* Per-port checks of the doctor (doctor_port.c); internal. */
#ifndef RD_DOCTOR_PORT_H
#define RD_DOCTOR_PORT_H
#include "rd_doctor.h"
#include "rdmadiag/counters.h"

/* state/SM, netns, GIDs (for src when given), MTU and RoCE mode of one port */
void rd_doc_check_port(struct rdiag_doctor *d, const struct rdiag_device *dev,
		       const struct rdiag_port *p, const union rd_addr *src);
/* active/max MTU of a port through verbs (cached in d); 0 or -ENODEV */
int rd_doc_query_port(struct rdiag_doctor *d, const char *dev, uint32_t port,
		      unsigned int *active_mtu, unsigned int *max_mtu);
/* the mtu finding of a port whose netdev ndev has MTU mtu: qret is what querying the port's
 * active/max MTU returned (-errno: unknown, why says so) */
void rd_doc_mtu_finding(struct rdiag_doctor *d, const char *subj, const char *ndev,
			unsigned int mtu, int qret, unsigned int act, unsigned int max,
			const char *why);
#endif
