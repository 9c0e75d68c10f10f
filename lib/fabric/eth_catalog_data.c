/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* The Ethernet statistics that matter for RoCE, per driver: data only (eth_catalog.c looks
 * names up).  "%p" in a name is the priority digit 0-7.  Concepts (rdmastat(1), fabric):
 *   prio_packets prio_bytes        traffic counted per 802.1Q priority
 *   prio_pause                     PFC pause frames on a priority
 *   prio_pause_duration            time the priority was paused (us)
 *   prio_pause_transition          XON->XOFF transitions of a priority
 *   prio_xon                       PFC XON (resume) frames on a priority
 *   prio_discards                  frames of a priority dropped (buffer or congestion)
 *   prio_ecn_marked                frames of a priority marked CE on receive
 *   pause                          link-level (global) pause frames
 *   discards_phy                   frames the port dropped for lack of receive buffer
 *   pause_storm                    pause storm detected (the port stopped honouring pause)
 * Names are the drivers' own (mlx5: en_stats.c; bnxt_en: bnxt_ethtool.c; ice: ice_ethtool.c;
 * i40e: i40e_ethtool.c); rdmadiag_dcbdev is the real-kernel tier's test device (mlx5 style). */
#include <stddef.h>

#include "internal.h"

#define PRIO_MLX5(drv) \
	{ drv, "rx_prio%p_packets", "prio_packets", "rx", "packets", "packets received on priority %p" }, \
	{ drv, "rx_prio%p_bytes", "prio_bytes", "rx", "bytes", "bytes received on priority %p" }, \
	{ drv, "tx_prio%p_packets", "prio_packets", "tx", "packets", "packets sent on priority %p" }, \
	{ drv, "tx_prio%p_bytes", "prio_bytes", "tx", "bytes", "bytes sent on priority %p" }, \
	{ drv, "rx_prio%p_pause", "prio_pause", "rx", "frames", "PFC pause frames received for priority %p (the peer asks this host to stop sending it)" }, \
	{ drv, "tx_prio%p_pause", "prio_pause", "tx", "frames", "PFC pause frames sent for priority %p (this host's receive buffer for it was filling)" }

const struct rdiag_eth_catalog_entry rd_eth_catalog[] = {
	PRIO_MLX5("mlx5_core"),
	{ "mlx5_core", "rx_prio%p_pause_duration", "prio_pause_duration", "rx", "us", "time priority %p was paused by the peer" },
	{ "mlx5_core", "tx_prio%p_pause_duration", "prio_pause_duration", "tx", "us", "time this port paused the peer on priority %p" },
	{ "mlx5_core", "rx_prio%p_pause_transition", "prio_pause_transition", "rx", "events", "times priority %p went from XON to XOFF" },
	{ "mlx5_core", "rx_prio%p_discards", "prio_discards", "rx", "packets", "packets of priority %p dropped by the port" },
	{ "mlx5_core", "rx_prio%p_buf_discard", "prio_discards", "rx", "packets", "packets of priority %p dropped for lack of receive buffer" },
	{ "mlx5_core", "rx_prio%p_cong_discard", "prio_discards", "rx", "packets", "packets of priority %p dropped by congestion (WRED)" },
	{ "mlx5_core", "rx_prio%p_marked", "prio_ecn_marked", "rx", "packets", "packets of priority %p marked CE by congestion" },
	{ "mlx5_core", "rx_discards_phy", "discards_phy", "rx", "packets", "packets the port dropped for lack of receive buffer (lossy traffic, or PFC not configured end to end)" },
	{ "mlx5_core", "tx_discards_phy", "discards_phy", "tx", "packets", "packets the port dropped on transmit" },
	{ "mlx5_core", "rx_pause_ctrl_phy", "pause", "rx", "frames", "link-level pause frames received" },
	{ "mlx5_core", "tx_pause_ctrl_phy", "pause", "tx", "frames", "link-level pause frames sent" },
	{ "mlx5_core", "tx_pause_storm_warning_events", "pause_storm", "tx", "events", "the port kept sending pause longer than the warning threshold" },
	{ "mlx5_core", "tx_pause_storm_error_events", "pause_storm", "tx", "events", "pause storm: the port stopped sending pause (the stall watchdog fired)" },

	{ "bnxt_en", "rx_pfc_ena_frames_pri%p", "prio_pause", "rx", "frames", "PFC frames received with priority %p enabled (paused)" },
	{ "bnxt_en", "tx_pfc_ena_frames_pri%p", "prio_pause", "tx", "frames", "PFC frames sent with priority %p enabled (pausing the peer)" },
	{ "bnxt_en", "rx_pfc_xon2xoff_frames_pri%p", "prio_pause_transition", "rx", "events", "times priority %p went from XON to XOFF" },
	{ "bnxt_en", "rx_packets_pri%p", "prio_packets", "rx", "packets", "packets received on priority %p" },
	{ "bnxt_en", "rx_bytes_pri%p", "prio_bytes", "rx", "bytes", "bytes received on priority %p" },
	{ "bnxt_en", "tx_packets_pri%p", "prio_packets", "tx", "packets", "packets sent on priority %p" },
	{ "bnxt_en", "tx_bytes_pri%p", "prio_bytes", "tx", "bytes", "bytes sent on priority %p" },
	{ "bnxt_en", "rx_pause_frames", "pause", "rx", "frames", "link-level pause frames received" },
	{ "bnxt_en", "tx_pause_frames", "pause", "tx", "frames", "link-level pause frames sent" },

	{ "ice", "rx_priority_%p_xoff.nic", "prio_pause", "rx", "frames", "PFC XOFF frames received for priority %p" },
	{ "ice", "tx_priority_%p_xoff.nic", "prio_pause", "tx", "frames", "PFC XOFF frames sent for priority %p" },
	{ "ice", "rx_priority_%p_xon.nic", "prio_xon", "rx", "frames", "PFC XON frames received for priority %p" },
	{ "ice", "tx_priority_%p_xon.nic", "prio_xon", "tx", "frames", "PFC XON frames sent for priority %p" },
	{ "ice", "rx_priority_%p_xon_2_xoff.nic", "prio_pause_transition", "rx", "events", "times priority %p went from XON to XOFF" },
	{ "ice", "link_xoff_rx.nic", "pause", "rx", "frames", "link-level XOFF frames received" },
	{ "ice", "link_xoff_tx.nic", "pause", "tx", "frames", "link-level XOFF frames sent" },

	{ "i40e", "port.rx_priority_%p_xoff", "prio_pause", "rx", "frames", "PFC XOFF frames received for priority %p" },
	{ "i40e", "port.tx_priority_%p_xoff", "prio_pause", "tx", "frames", "PFC XOFF frames sent for priority %p" },
	{ "i40e", "port.rx_priority_%p_xon", "prio_xon", "rx", "frames", "PFC XON frames received for priority %p" },
	{ "i40e", "port.tx_priority_%p_xon", "prio_xon", "tx", "frames", "PFC XON frames sent for priority %p" },
	{ "i40e", "port.rx_priority_%p_xon_2_xoff", "prio_pause_transition", "rx", "events", "times priority %p went from XON to XOFF" },
	{ "i40e", "port.link_xoff_rx", "pause", "rx", "frames", "link-level XOFF frames received" },
	{ "i40e", "port.link_xoff_tx", "pause", "tx", "frames", "link-level XOFF frames sent" },

	PRIO_MLX5("rdmadiag_dcbdev"),
};

const size_t rd_eth_catalog_n = sizeof(rd_eth_catalog) / sizeof(rd_eth_catalog[0]);
