/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop views: the curses screens and the batch frames, both drawing the same model. */
#ifndef RDMATOP_VIEW_H
#define RDMATOP_VIEW_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "model.h"
#include "ui.h"

struct out;
struct rt_thresholds;

/* what the header needs besides the model */
struct rt_frame_info {
	const char *host;
	double interval;
	time_t wall;			/* wall-clock time of the frame */
	uint32_t wall_nsec;		/* and its nanoseconds (the JSON time) */
	bool paused;
	bool collecting;		/* the collector is still on a snapshot ... */
	double collecting_s;		/* ... for this long ... */
	const char *collecting_dev;	/* ... reading this device */
	const struct rt_thresholds *th;
	double pause_max;		/* --pause-max: a priority's pause frames/s that are a storm */
	bool utf8;			/* sparklines and graphs in Unicode blocks, else ASCII */
	unsigned spark;			/* batch --spark: samples in each row's sparkline, 0 none */
};

/* the smallest terminal the screens are drawn in; below it one line asks for room */
#define RT_MIN_COLS 32
#define RT_MIN_ROWS 6

/* curses: draw the current screen (the caller owns initscr/endwin) */
void rt_view_curses_draw(struct rt_model *m, struct rt_ui *ui, const struct rt_frame_info *fi,
			 bool color);

/* the header line, shared by both views (view_header.c) */
const char *rt_view_header(const struct rt_model *m, const struct rt_frame_info *fi, char *buf,
			   size_t len);

/* batch: one frame of the Ports table as text (like top -b), or one JSON line */
void rt_view_batch_frame(struct out *o, const struct rt_model *m,
			 const struct rt_frame_info *fi);

#endif
