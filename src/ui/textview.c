/*
 * textview.c - the plain-text live view (see textview.h). Values the device
 * cannot give print as N/A; names and command lines are escaped so a process
 * cannot send control sequences to the terminal.
 */
#include "textview.h"

#include <errno.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "text.h"

static void fmt_val(char *buf, size_t len, const struct gt_val *v,
		    enum gt_unit unit, const char *suffix)
{
	if (!gt_val_ok(v)) {
		snprintf(buf, len, "N/A");
		return;
	}
	switch (unit) {
	case GT_UNIT_BYTES:
		snprintf(buf, len, "%.1f GiB",
			 (double)v->v / (1024.0 * 1024.0 * 1024.0));
		return;
	case GT_UNIT_BYTES_PER_S:
		snprintf(buf, len, "%.1f MiB/s", (double)v->v / (1024.0 * 1024.0));
		return;
	default:
		snprintf(buf, len, "%.0f%s", gt_unit_to_json(unit, v->v), suffix);
		return;
	}
}

static void render_device(FILE *out, const struct gt_static *st,
			  const struct gt_sample *s)
{
	char util[16], used[32], total[32], temp[16], power[16], limit[16],
		gclk[16], mclk[16], name[GT_STR_NAME * 4];
	const struct gt_val *tot = gt_val_ok(&s->f[GT_F_MEM_TOTAL])
					   ? &s->f[GT_F_MEM_TOTAL]
					   : &st->f[GT_S_VRAM_TOTAL];

	gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
	fprintf(out, "[%u] %s%s  %s  %s\n", st->index, st->demo ? "DEMO " : "",
		name, st->id,
		s->state == GT_DEV_LOST     ? "LOST"
		: s->state == GT_DEV_ASLEEP ? "ASLEEP"
					    : "");
	fmt_val(util, sizeof(util), &s->f[GT_F_UTIL_GPU], GT_UNIT_CPERCENT, "%");
	fmt_val(used, sizeof(used), &s->f[GT_F_MEM_USED], GT_UNIT_BYTES, "");
	fmt_val(total, sizeof(total), tot, GT_UNIT_BYTES, "");
	fmt_val(temp, sizeof(temp), &s->f[GT_F_TEMP_GPU], GT_UNIT_MILLICELSIUS,
		"C");
	fmt_val(power, sizeof(power), &s->f[GT_F_POWER_DRAW], GT_UNIT_MILLIWATT,
		"W");
	fmt_val(limit, sizeof(limit), &s->f[GT_F_POWER_ENFORCED],
		GT_UNIT_MILLIWATT, "W");
	fmt_val(gclk, sizeof(gclk), &s->f[GT_F_CLK_GRAPHICS], GT_UNIT_MHZ, "MHz");
	fmt_val(mclk, sizeof(mclk), &s->f[GT_F_CLK_MEM], GT_UNIT_MHZ, "MHz");
	fprintf(out,
		"    GPU %-5s  MEM %s / %s  TEMP %-5s  POWER %s / %s  GFX %s  MEMCLK %s\n",
		util, used, total, temp, power, limit, gclk, mclk);
}

void gt_textview_render(FILE *out, const struct gt_view *v, int width)
{
	char cmd[1024];
	size_t n = v->devs ? v->devs->count : 0;
	bool demo = false;

	for (size_t i = 0; i < n; i++)
		demo = demo || v->devs->items[i].demo;
	fprintf(out, "gputop %s%s  (q to quit)\n\n", GPUTOP_VERSION,
		demo ? "  *** DEMO: simulated GPUs, not real hardware ***" : "");
	if (n == 0)
		fprintf(out, "No GPU found (gputop --list says why).\n");
	for (size_t i = 0; i < n; i++)
		render_device(out, &v->devs->items[i], &v->latest[i]);
	fprintf(out, "\n%7s %3s %-8s %-10s %6s %10s  %s\n", "PID", "DEV", "TYPE",
		"USER", "GPU%", "GPU MEM", "COMMAND");
	for (size_t i = 0; v->procs && i < v->procs->count; i++) {
		const struct gt_process *p = &v->procs->items[i];
		char gpu[16], mem[32], user[GT_USER_LEN * 4];
		const char *src = p->cmdline && p->cmdline[0] ? p->cmdline : p->name;
		fmt_val(gpu, sizeof(gpu), &p->f[GT_P_GPU], GT_UNIT_CPERCENT, "%");
		fmt_val(mem, sizeof(mem), &p->f[GT_P_MEM], GT_UNIT_BYTES, "");
		gt_text_escape(user, sizeof(user), p->user, strlen(p->user));
		/* The columns before COMMAND take 51 characters; cut the
		 * command (on a character boundary) rather than wrap. */
		size_t room = width > 60 ? (size_t)width - 51 : 10;
		if (room > sizeof(cmd))
			room = sizeof(cmd);
		gt_text_escape(cmd, room, src, strlen(src));
		fprintf(out, "%7d %3u %-8s %-10.10s %6s %10s  %s\n", p->pid,
			p->device_index,
			p->type == GT_PROC_BOTH	      ? "both"
			: p->type == GT_PROC_GRAPHICS ? "graphics"
						      : "compute",
			p->host_known ? user : "?", gpu, mem,
			p->host_known ? cmd : "(not in this proc tree)");
	}
}

int gt_textview_run(struct gt_view *v, unsigned interval_ms,
		    volatile sig_atomic_t *stop)
{
	struct termios saved, raw;
	bool tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
	int rc = 0;

	if (tty) {
		raw = saved;
		raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	while (!*stop) {
		gt_view_refresh(v);
		fputs("\033[H\033[2J", stdout);
		struct winsize ws;
		int width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col
				    ? ws.ws_col
				    : 120;
		gt_textview_render(stdout, v, width);
		if (fflush(stdout) != 0) {
			rc = -1;
			break;
		}
		struct pollfd pfd = {.fd = STDIN_FILENO, .events = POLLIN};
		int r = poll(&pfd, tty ? 1 : 0, (int)interval_ms);
		if (r > 0) {
			char ch;
			if (read(STDIN_FILENO, &ch, 1) == 1 && (ch == 'q' || ch == 'Q'))
				break;
		} else if (r < 0 && errno != EINTR) {
			break;
		}
	}
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	return rc;
}
