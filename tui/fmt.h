/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop number formatting shared by the curses and batch views. */
#ifndef RDMATOP_FMT_H
#define RDMATOP_FMT_H
#include <stddef.h>
#include <stdint.h>

/* 1234567 -> "1.23M" (SI, 3 significant digits); exact below 10000 */
const char *rt_fmt_si(char *buf, size_t len, double v);
/* bytes per second -> "12.3MB/s" style without the "/s" */
const char *rt_fmt_bytes(char *buf, size_t len, double v);
/* a link rate in Gb/s -> "2.5G", "100G", "" when unknown */
const char *rt_fmt_gbps(char *buf, size_t len, double g);
/* a 0..1 utilisation as a bar of width w ("[###   ]"), or "-" padded when u < 0 */
const char *rt_fmt_bar(char *buf, size_t len, double u, int w);
/* seconds -> "1s", "0.5s", "2m" */
const char *rt_fmt_interval(char *buf, size_t len, double s);

#endif
