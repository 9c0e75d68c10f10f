/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmastat's Ethernet selection words: which counter names, concepts and threshold keys
 * name a statistic of lib/fabric's Ethernet catalogue, so that reading the netdevs'
 * ethtool -S sets is asked for (rdmastat(1), Ethernet statistics). */
#ifndef RDIAG_ETH_WORDS_H
#define RDIAG_ETH_WORDS_H
#include <stdbool.h>

/* a concept of the Ethernet catalogue ("prio_pause", "discards_phy"), or a per-priority
 * concept with its priority ("prio3_pause") */
bool eth_word_is_concept(const char *w);
/* a concept as above, or a statistic name of any driver in the catalogue ("rx_prio3_pause",
 * "rx_pfc_ena_frames_pri3", "port.rx_priority_3_xoff"); globs never are */
bool eth_word_known(const char *w);

#endif
