/* SPDX-License-Identifier: MIT */
/*
 * dashboard_term.c - owns putting the terminal back when gputop dies of a
 * signal while the dashboard holds it: the bytes to write are prepared up
 * front, and the handlers of every signal that would otherwise end gputop
 * with the terminal on the alternate screen, in raw mode, with mouse
 * reporting on, write them and then let the signal do what it would have
 * done; and Ctrl-Z: gputop stops with the terminal put back, and comes
 * back repainted.
 */
#include <curses.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include "ui/dashboard_priv.h"

/* The bytes that put the terminal back, prepared before any signal can
 * arrive: a fatal-signal handler may only write() them. Global because a
 * signal handler has no other way to reach them. */
static char restore_seq[256];
static size_t restore_len;
static struct termios restore_termios;
static volatile sig_atomic_t restore_armed;
/* The thread that draws. A fatal signal sent by someone else (kill) may be
 * taken by any thread, and after a stop it races the drawing thread's
 * redraw on SIGCONT; handing it to the drawing thread makes the restore the
 * last thing written. */
static pid_t restore_ui_tid;
static struct sigaction restore_action;
/* Set by the SIGTSTP handler, read by the loop after its wait: global as
 * a handler has no other way to reach the loop. */
static volatile sig_atomic_t tstp_pending;
static bool tstp_taken; /* SIGTSTP's handler is gputop's */

static void restore_terminal_now(void)
{
	if (!restore_armed)
		return;
	restore_armed = 0;
	if (restore_len)
		(void)!write(STDOUT_FILENO, restore_seq, restore_len);
	tcsetattr(STDIN_FILENO, TCSANOW, &restore_termios);
}

static void on_fatal(int sig, siginfo_t *info, void *context)
{
	(void)context;
	/* si_code <= 0: sent by a process (kill, tgkill, sigqueue), not a
	 * fault of this thread, so any thread may handle it instead. */
	if (info && info->si_code <= 0 &&
	    (pid_t)syscall(SYS_gettid) != restore_ui_tid) {
		/* SA_RESETHAND set the default; re-arm for the UI thread. */
		sigaction(sig, &restore_action, NULL);
		syscall(SYS_tgkill, getpid(), restore_ui_tid, sig);
		return;
	}
	restore_terminal_now();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void append_cap(const char *cap)
{
	char *s = tigetstr(cap);
	if (!s || s == (char *)-1)
		return;
	size_t n = strlen(s);
	if (restore_len + n < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

void gt_dashboard_term_save(void)
{
	tcgetattr(STDIN_FILENO, &restore_termios);
}

/* A signal whose default action ends the process gets the restoring
 * handler only while nobody else handles or ignores it: main.c's clean
 * stop, or a library's handler, stays. */
static void arm_if_default(int sig)
{
	struct sigaction old;
	if (sigaction(sig, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
	    old.sa_handler == SIG_DFL)
		sigaction(sig, &restore_action, NULL);
}

void gt_dashboard_term_arm(void)
{
	/* Faults of gputop itself, and their kill(1) forms: always
	 * ours, even over a sanitizer's handler, since a report printed on
	 * the alternate screen is lost with it. SIGTRAP and SIGSYS count
	 * here: a stray breakpoint or a seccomp filter kills like a fault. */
	static const int crash[] = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,
	                            SIGABRT, SIGTRAP, SIGSYS};
	/* Everything else whose default action ends the process: SIGQUIT
	 * (Ctrl-\ and kill -QUIT), resource limits (SIGXCPU, SIGXFSZ),
	 * SIGPIPE (a write to a closed pipe or socket: gputop does not
	 * expect one, so it still ends, but with the terminal back),
	 * signals gputop never uses (SIGUSR1/2, timers SIGALRM, SIGVTALRM,
	 * SIGPROF, SIGIO, SIGPWR, SIGSTKFLT, the real-time ones), all of
	 * which a stray kill can send. Not here: SIGINT, SIGTERM, SIGHUP
	 * (main.c stops cleanly), the job-control stops (ncurses handles
	 * SIGTSTP), signals ignored by default, SIGKILL (cannot be). */
	static const int ending[] = {
	    SIGQUIT,   SIGXCPU, SIGXFSZ,   SIGPIPE, SIGUSR1,
	    SIGUSR2,   SIGALRM, SIGVTALRM, SIGPROF,
#ifdef SIGIO
	    SIGIO,
#endif
#ifdef SIGPWR
	    SIGPWR,
#endif
#ifdef SIGSTKFLT
	    SIGSTKFLT,
#endif
	};

	restore_len = 0;
	append_cap("sgr0");
	append_cap("cnorm");
	append_cap("rmcup");
	/* Mouse reporting off (xterm protocol), so a crash does not leave
	 * the shell receiving mouse escapes. */
	static const char mouse_off[] = "\033[?1000l\033[?1006l";
	if (restore_len + sizeof(mouse_off) < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, mouse_off,
		       sizeof(mouse_off) - 1);
		restore_len += sizeof(mouse_off) - 1;
	}
	memset(&restore_action, 0, sizeof(restore_action));
	restore_action.sa_sigaction = on_fatal;
	sigemptyset(&restore_action.sa_mask);
	restore_action.sa_flags = (int)(SA_RESETHAND | SA_SIGINFO);
	restore_ui_tid = (pid_t)syscall(SYS_gettid);
	for (size_t i = 0; i < sizeof(crash) / sizeof(crash[0]); i++)
		sigaction(crash[i], &restore_action, NULL);
	for (size_t i = 0; i < sizeof(ending) / sizeof(ending[0]); i++)
		arm_if_default(ending[i]);
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		arm_if_default(s);
	restore_armed = 1;
}

void gt_dashboard_term_disarm(void)
{
	restore_armed = 0;
	if (tstp_taken) {
		signal(SIGTSTP, SIG_DFL);
		tstp_taken = false;
	}
}

/* ---- Ctrl-Z ---------------------------------------------------------- */

static void on_tstp(int sig)
{
	(void)sig;
	tstp_pending = 1;
}

static void tstp_handler(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tstp;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTSTP, &sa, NULL);
}

/* Left to curses, SIGTSTP costs two system calls a frame: doupdate swaps
 * in SIG_IGN for SIGTSTP and back around its output, unless the
 * application handles the signal itself. It then stops from inside its
 * handler, which may run in the middle of a frame. Here the loop (which
 * blocks SIGTSTP outside its wait) stops between frames instead. */
void gt_dashboard_term_take_tstp(void)
{
	struct sigaction old;
	tstp_taken = false;
	if (sigaction(SIGTSTP, NULL, &old) != 0 ||
	    (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
		return; /* ignored (no job control) or someone else's */
	tstp_handler();
	tstp_taken = true;
}

bool gt_dashboard_term_tstp_due(void)
{
	if (!tstp_pending)
		return false;
	tstp_pending = 0;
	return tstp_taken;
}

void gt_dashboard_term_suspend(void)
{
	struct sigaction dfl;
	sigset_t tstp, old;

	endwin(); /* the terminal as it was before gputop */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGTSTP, &dfl, NULL);
	sigemptyset(&tstp);
	sigaddset(&tstp, SIGTSTP);
	pthread_sigmask(SIG_UNBLOCK, &tstp, &old);
	raise(SIGTSTP); /* stops here until SIGCONT */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	tstp_handler();
	tstp_pending = 0;
	/* The shell may have changed the terminal's modes meanwhile: they
	 * are what endwin puts back next time. doupdate goes back to
	 * gputop's modes and repaints the whole screen. */
	def_shell_mode();
	doupdate();
}
