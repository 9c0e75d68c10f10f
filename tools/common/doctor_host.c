/* The "host" object of rdmadoctor local -j (doctor_host.h).  Keys follow iproute2's rdma -j
 * where it has one (ifname, port, state, physical_state, netdev); a field that is not known
 * is absent.  Per RoCE port also the lossless chain's DSCP, priority, PFC and ECN (lib/fabric)
 * where it can be checked.  Nothing is printed in text mode. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/utsname.h>

#include "doctor_host.h"
#include "out.h"
#include "rdmadiag/counters.h"
#include "rdmadiag/doctor.h"
#include "rdmadiag/fabric.h"

static void memlock_out(struct out *o)
{
	struct rlimit rl;
	char buf[48];

	if (getrlimit(RLIMIT_MEMLOCK, &rl))
		return;
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(buf, sizeof(buf), "unlimited");
	else
		snprintf(buf, sizeof(buf), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
	out_str(o, "memlock", NULL, buf);
}

/* "on"/"off" for a chain link that could be decided, NULL otherwise */
static const char *link_onoff(const struct rdiag_chain *c, const char *name)
{
	int i;

	for (i = 0; i < RDIAG_CHAIN_LINKS; i++)
		if (c->link[i].name && !strcmp(c->link[i].name, name))
			return c->link[i].state == RDIAG_LINK_OK ? "on" :
			       c->link[i].state == RDIAG_LINK_BROKEN ? "off" : NULL;
	return NULL;
}

/* the lossless chain of the port (lib/fabric, as rdmadoctor local's lossless check): the DSCP
 * and priority RoCE rides, and whether PFC and ECN are on for it; nothing when the chain
 * cannot be checked (no DCB nor OFED settings: rxe on veth) */
static void fabric_out(struct out *o, const struct rdiag_device *dev, const struct rdiag_port *p)
{
	struct rdiag_chain c;
	const char *v;

	if (rdiag_fabric_port_chain(p->netdev, dev->name, p->port, &c) < 0)
		return;
	if (!strcmp(c.verdict, "unknown"))
		return;
	if (c.dscp >= 0)
		out_i64(o, "dscp", NULL, c.dscp);
	if (c.prio >= 0)
		out_i64(o, "priority", NULL, c.prio);
	if ((v = link_onoff(&c, "pfc")))
		out_str(o, "pfc", NULL, v);
	if ((v = link_onoff(&c, "ecn")))
		out_str(o, "ecn", NULL, v);
}

static void port_out(struct out *o, struct rdiag_doctor *d, const struct rdiag_device *dev,
		     const struct rdiag_port *p)
{
	struct rdiag_doc_env e;
	const char *n;

	out_obj_begin(o, NULL);
	out_str(o, "ifname", NULL, dev->name);
	out_u64(o, "port", NULL, p->port);
	if ((n = rdiag_port_state_name(p->state)))
		out_str(o, "state", NULL, n);
	if ((n = rdiag_port_phys_state_name(p->phys_state)))
		out_str(o, "physical_state", NULL, n);
	if (p->link_layer[0])
		out_str(o, "link_layer", NULL, p->link_layer);
	if (p->netdev[0])
		out_str(o, "netdev", NULL, p->netdev);
	if (p->mtu)
		out_u64(o, "mtu", NULL, p->mtu);
	if (p->rate[0])
		out_str(o, "rate", NULL, p->rate);
	if (dev->driver[0])
		out_str(o, "driver", NULL, dev->driver);
	if (dev->fw_ver[0])
		out_str(o, "fw_ver", NULL, dev->fw_ver);
	/* the RoCE v2 GID a job would use on this port, and rdma_cm's configfs defaults */
	if (p->netdev[0] && !strcmp(p->link_layer, "Ethernet") &&
	    rdiag_doctor_env(d, p->netdev, &e) == 0 && !strcmp(e.dev, dev->name) &&
	    e.port == p->port) {
		out_i64(o, "gid_index", NULL, e.gid_index);
		out_str(o, "gid_addr", NULL, e.addr);
		out_i64(o, "tos", NULL, e.tos);
		if (e.roce_mode[0])
			out_str(o, "roce_mode", NULL, e.roce_mode);
	}
	if (p->netdev[0] && !strcmp(p->link_layer, "Ethernet"))
		fabric_out(o, dev, p);
	out_obj_end(o);
}

void doctor_host_out(struct out *o, struct rdiag_doctor *d)
{
	struct rdiag_counters *c;
	struct rdiag_devices *devs = NULL;
	struct utsname u;
	char host[256];
	size_t i, j;

	if (!out_json(o))
		return;
	out_obj_begin(o, "host");
	if (!gethostname(host, sizeof(host))) {
		host[sizeof(host) - 1] = 0;
		out_str(o, "hostname", NULL, host);
	}
	if (!uname(&u))
		out_str(o, "kernel", NULL, u.release);
	memlock_out(o);
	out_arr_begin(o, "ports");
	if (!rdiag_counters_open(&c, NULL)) {
		if (!rdiag_counters_discover(c, &devs)) {
			for (i = 0; i < devs->n; i++)
				for (j = 0; j < devs->dev[i].n_ports; j++)
					port_out(o, d, &devs->dev[i], &devs->dev[i].ports[j]);
			rdiag_counters_devices_free(devs);
		}
		rdiag_counters_close(c);
	}
	out_arr_end(o);
	out_obj_end(o);
}
