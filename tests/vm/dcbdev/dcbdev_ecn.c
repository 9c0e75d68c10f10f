// SPDX-License-Identifier: GPL-2.0
/* rdmadiag_dcbdev: ECN (DCQCN) per priority in the layout Mellanox OFED's mlx5 driver keeps
 * and upstream drivers lack:
 *   /sys/class/net/DEV/ecn/roce_np/enable/0..7	notification point (marks -> CNPs)
 *   /sys/class/net/DEV/ecn/roce_rp/enable/0..7	reaction point (CNPs -> rate)
 * each "0" or "1", read and written as OFED's are.  Every priority starts enabled, as on
 * mlx5.  The device only keeps the bits (it marks nothing): the files exist so that a
 * reader of the OFED layout (lib/fabric) reads a real kernel file. */
#include <linux/kobject.h>
#include <linux/netdevice.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "dcbdev.h"

static const char *const ecn_role[DCBDEV_ECN_ROLES] = { "roce_np", "roce_rp" };

/* the file's device, role and priority, from where it sits: DEV/ecn/ROLE/enable/PRIO */
static u8 *ecn_bit(struct kobject *enable, const struct attribute *attr)
{
	struct kobject *role = enable->parent, *ecn = role->parent;
	struct dcbdev_priv *p = netdev_priv(to_net_dev(kobj_to_dev(ecn->parent)));
	unsigned int r = strcmp(kobject_name(role), ecn_role[0]) ? 1 : 0;

	return &p->ecn[r][attr->name[0] - '0'];
}

static ssize_t ecn_show(struct kobject *kobj, struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(*ecn_bit(kobj, &attr->attr)));
}

static ssize_t ecn_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t len)
{
	bool on;

	if (kstrtobool(buf, &on))
		return -EINVAL;
	WRITE_ONCE(*ecn_bit(kobj, &attr->attr), on);
	return len;
}

#define ECN_ATTR(n) static struct kobj_attribute ecn_attr_##n = __ATTR(n, 0644, ecn_show, ecn_store)
ECN_ATTR(0); ECN_ATTR(1); ECN_ATTR(2); ECN_ATTR(3);
ECN_ATTR(4); ECN_ATTR(5); ECN_ATTR(6); ECN_ATTR(7);

static struct attribute *ecn_attrs[] = {
	&ecn_attr_0.attr, &ecn_attr_1.attr, &ecn_attr_2.attr, &ecn_attr_3.attr,
	&ecn_attr_4.attr, &ecn_attr_5.attr, &ecn_attr_6.attr, &ecn_attr_7.attr, NULL
};
static const struct attribute_group ecn_group = { .attrs = ecn_attrs };

void dcbdev_ecn_del(struct net_device *dev)
{
	struct dcbdev_priv *p = netdev_priv(dev);
	int r;

	for (r = 0; r < DCBDEV_ECN_ROLES; r++) {
		if (p->ecn_enable[r]) {
			sysfs_remove_group(p->ecn_enable[r], &ecn_group);
			kobject_put(p->ecn_enable[r]);
			p->ecn_enable[r] = NULL;
		}
		kobject_put(p->ecn_role[r]);
		p->ecn_role[r] = NULL;
	}
	kobject_put(p->ecn_dir);
	p->ecn_dir = NULL;
}

/* after register_netdevice (the netdev's kobject exists) */
int dcbdev_ecn_add(struct net_device *dev)
{
	struct dcbdev_priv *p = netdev_priv(dev);
	int r, err;

	memset(p->ecn, 1, sizeof(p->ecn));
	p->ecn_dir = kobject_create_and_add("ecn", &dev->dev.kobj);
	if (!p->ecn_dir)
		return -ENOMEM;
	for (r = 0; r < DCBDEV_ECN_ROLES; r++) {
		p->ecn_role[r] = kobject_create_and_add(ecn_role[r], p->ecn_dir);
		if (p->ecn_role[r])
			p->ecn_enable[r] = kobject_create_and_add("enable", p->ecn_role[r]);
		if (!p->ecn_enable[r]) {
			err = -ENOMEM;
			goto fail;
		}
		err = sysfs_create_group(p->ecn_enable[r], &ecn_group);
		if (err) {
			kobject_put(p->ecn_enable[r]);
			p->ecn_enable[r] = NULL;
			goto fail;
		}
	}
	return 0;
fail:
	dcbdev_ecn_del(dev);
	return err;
}
