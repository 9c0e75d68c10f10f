/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/* rdmatop terminal ownership; see term.h. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "term.h"

static int wake_pipe[2] = { -1, -1 };
static volatile sig_atomic_t pending;
static bool active, color;
static int saved_stderr = -1, held_stderr = -1;
static SCREEN *screen;

int term_pipe_init(void)
{
	if (wake_pipe[0] >= 0)
		return 0;
	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

int term_wakeup_fd(void)
{
	return wake_pipe[0];
}

/* async-signal-safe */
void term_wakeup(void)
{
	int e = errno;
	ssize_t r = write(wake_pipe[1], "x", 1);

	(void)r;	/* a full pipe already means "wake up" */
	errno = e;
}

void term_drain(void)
{
	char buf[64];

	while (read(wake_pipe[0], buf, sizeof(buf)) > 0)
		;
}

unsigned term_take_events(void)
{
	unsigned ev;
	sigset_t all, old;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	ev = (unsigned)pending;
	pending = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ev;
}

static void on_signal(int sig)
{
	switch (sig) {
	case SIGWINCH:
	case SIGCONT:
		pending |= TERM_EV_RESIZE;
		break;
	case SIGTSTP:
		pending |= TERM_EV_SUSPEND;
		break;
	default:
		pending |= TERM_EV_QUIT;
		break;
	}
	term_wakeup();
}

/* a crash must not leave the user's terminal in raw mode: restore, then die as before */
static void on_fatal(int sig)
{
	if (active) {
		endwin();
		active = false;
	}
	if (saved_stderr >= 0)
		dup2(saved_stderr, STDERR_FILENO);
	signal(sig, SIG_DFL);
	raise(sig);
}

void term_signals_install(void)
{
	static const int quit[] = { SIGINT, SIGTERM, SIGHUP };
	static const int soft[] = { SIGWINCH, SIGTSTP, SIGCONT };
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGQUIT };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	/* no SA_RESTART for the signals that end rdmatop: a counter read that blocks (a hung
	 * file system) returns EINTR and the collection stops there; restarted, it would
	 * block again and the signal would be lost */
	for (i = 0; i < sizeof(quit) / sizeof(quit[0]); i++)
		sigaction(quit[i], &sa, NULL);
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < sizeof(soft) / sizeof(soft[0]); i++)
		sigaction(soft[i], &sa, NULL);
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static void hold_stderr(void)
{
	int fd = memfd_create("rdmatop-stderr", MFD_CLOEXEC);

	if (fd < 0)
		return;		/* no memfd: stderr simply stays where it was */
	saved_stderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved_stderr < 0) {
		close(fd);
		return;
	}
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	held_stderr = fd;
}

static void replay_stderr(void)
{
	char buf[4096];
	ssize_t n;

	if (saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, STDERR_FILENO);
	close(saved_stderr);
	saved_stderr = -1;
	if (held_stderr < 0)
		return;
	if (lseek(held_stderr, 0, SEEK_SET) == 0) {
		while ((n = read(held_stderr, buf, sizeof(buf))) > 0)
			if (write(STDERR_FILENO, buf, (size_t)n) != n)
				break;
	}
	close(held_stderr);
	held_stderr = -1;
}

int term_start(bool want_color)
{
	hold_stderr();
	/* a short ESC delay so that Esc leaves a screen at once */
	if (!getenv("ESCDELAY"))
		set_escdelay(25);
	/* newterm rather than initscr: an unknown TERM is an error we report, not an exit */
	screen = newterm(NULL, stdout, stdin);
	if (!screen) {
		replay_stderr();
		return -ENOTTY;
	}
	set_term(screen);
	active = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	color = false;
	if (want_color && has_colors() && start_color() == OK) {
		use_default_colors();
		init_pair(1, COLOR_RED, -1);	/* error / breach */
		init_pair(2, COLOR_YELLOW, -1);	/* warning */
		init_pair(3, COLOR_GREEN, -1);	/* bar, ok */
		init_pair(4, COLOR_CYAN, -1);	/* header accents */
		init_pair(5, COLOR_BLACK, COLOR_CYAN);	/* column header */
		color = true;
	}
	return 0;
}

void term_stop(void)
{
	if (active) {
		curs_set(1);
		endwin();
		active = false;
	}
	if (screen) {
		delscreen(screen);
		screen = NULL;
	}
	replay_stderr();
}

bool term_active(void)
{
	return active;
}

bool term_color(void)
{
	return color;
}

void term_suspend(void)
{
	struct sigaction sa, old;
	sigset_t set;

	if (active)
		endwin();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTSTP, &sa, &old);
	sigemptyset(&set);
	sigaddset(&set, SIGTSTP);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(SIGTSTP);
	/* continued: back to our handler and the screen */
	sigaction(SIGTSTP, &old, NULL);
	if (active) {
		term_resize();
		refresh();
	}
}

void term_resize(void)
{
	struct winsize ws;

	if (!active)
		return;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
	else {
		endwin();
		refresh();
	}
	clearok(stdscr, TRUE);
}
