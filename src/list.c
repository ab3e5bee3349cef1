/*
 * list.c - `gputop --list` (see list.h). Says why a backend found nothing,
 * in words a user can act on, instead of a bare "no GPU".
 */
#include "list.h"

#include <string.h>

#include "text.h"

void gt_list_print(FILE *out, const struct gt_collector *c,
                   const struct gt_devlist *devs)
{
	char name[GT_STR_NAME * 4];

	fprintf(out, "%-8s %-12s %-7s %s\n", "BACKEND", "STATUS", "DEVICES",
	        "DETAIL");
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct gt_backend *b = &c->backends[i];
		fprintf(out, "%-8s %-12s %-7u %s\n", b->ops->name,
		        gt_backend_status_name(b->status), b->device_count,
		        b->detail);
	}
	fputc('\n', out);
	if (!devs || devs->count == 0) {
		fprintf(out, "No GPU found.\n");
		gt_list_print_reasons(out, c);
		return;
	}
	fprintf(out, "%-3s %-18s %-7s %-8s %-12s %-10s %s\n", "IDX", "ID",
	        "VENDOR", "DRIVER", "VERSION", "MEMORY", "NAME");
	for (size_t i = 0; i < devs->count; i++) {
		const struct gt_static *st = &devs->items[i];
		char mem[32] = "N/A";
		if (gt_val_ok(&st->f[GT_S_VRAM_TOTAL]))
			snprintf(mem, sizeof(mem), "%.1f GiB",
			         (double)st->f[GT_S_VRAM_TOTAL].v /
			             (1024.0 * 1024.0 * 1024.0));
		gt_text_escape(name, sizeof(name), st->name, strlen(st->name));
		fprintf(out, "%-3u %-18s %-7s %-8s %-12s %-10s %s%s\n",
		        st->index, st->id, gt_vendor_name(st->vendor),
		        st->driver, st->driver_version, mem,
		        st->demo ? "[DEMO] " : "", name);
	}
}

void gt_list_print_reasons(FILE *out, const struct gt_collector *c)
{
	for (size_t i = 0; i < c->nbackends; i++) {
		const struct gt_backend *b = &c->backends[i];
		if (b->status != GT_BACKEND_OK || b->device_count == 0)
			fprintf(out, "  %s: %s\n", b->ops->name, b->detail);
	}
}
