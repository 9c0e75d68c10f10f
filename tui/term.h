/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop terminal ownership: curses start/stop, signals, held stderr.
 *
 * While curses owns the screen, fd 2 points at a memfd (htop's redirectStderr idea) so that
 * warnings from the library or libc do not scribble over the display; term_stop() replays
 * them to the real stderr after endwin().  Every exit path (q, SIGINT, SIGTERM, a fatal
 * signal) goes through term_stop(), and SIGTSTP leaves curses mode before stopping. */
#ifndef RDMATOP_TERM_H
#define RDMATOP_TERM_H
#include <stdbool.h>

/* events the main loop learns about through term_wakeup_fd() */
enum term_event {
	TERM_EV_RESIZE  = 1 << 0,
	TERM_EV_QUIT    = 1 << 1,	/* SIGINT / SIGTERM */
	TERM_EV_SUSPEND = 1 << 2,	/* SIGTSTP */
};

/* self-pipe: signal handlers and the collector thread write one byte to wake the loop */
int term_pipe_init(void);
int term_wakeup_fd(void);
void term_wakeup(void);
void term_drain(void);
/* returns and clears the pending TERM_EV_* bits */
unsigned term_take_events(void);
/* install SIGINT/SIGTERM/SIGWINCH/SIGTSTP/SIGCONT and fatal-signal handlers */
void term_signals_install(void);

/* start curses on the controlling tty; colour is used only when the terminal has it and
 * NO_COLOR is unset.  Returns 0 or -errno. */
int term_start(bool want_color);
/* leave curses mode and replay held stderr; safe to call twice */
void term_stop(void);
bool term_active(void);
bool term_color(void);
/* SIGTSTP: leave curses, stop, come back on SIGCONT */
void term_suspend(void);
/* re-read the window size after SIGWINCH */
void term_resize(void);

#endif
