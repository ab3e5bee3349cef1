/* SPDX-License-Identifier: MIT */
/*
 * list.c - `gputop --list` (see list.h). Says why a backend found nothing,
 * in words a user can act on, instead of a bare "no GPU"; and lists every
 * DRM device no backend took (radeon, nouveau, virtual and firmware
 * framebuffers) with the reason, from linux/drmdev.c's one table of reasons.
 */
#include "export/list.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "linux/drmdev.h"
#include "core/text.h"

/* True if a listed device is d. */
static bool claimed(const struct gt_drmdev *d, const struct gt_devlist *devs)
{
	char id[GT_STR_SHORT];
	snprintf(id, sizeof(id), "drm:%s", d->card);
	for (size_t i = 0; devs && i < devs->count; i++) {
		const struct gt_static *st = &devs->items[i];
		if (d->pdev[0] ? strcasecmp(st->pci_bus_id, d->pdev) == 0
		               : strcmp(st->id, id) == 0)
			return true;
	}
	return false;
}

/* Prints one line per DRM device of the collector's sysfs root that is
 * not in devs (NULL: none is), after head when there is one. */
static void print_unsupported(FILE *out, const struct gt_collector *c,
                              const struct gt_devlist *devs, const char *head)
{
	struct gt_drmdev *drm = NULL;
	size_t n = 0;
	bool first = true;
	int width = 12; /* a PCI address */

	/* Only the demo backend ran: no DRM device was looked at. */
	const struct gt_collector_config *cfg = gt_collector_config(c);

	if (cfg->demo || gt_drmdev_scan(cfg->backend.sysfs_root, &drm, &n) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(gt_drmdev_address(&drm[i]));
		if (!claimed(&drm[i], devs) && len > width)
			width = len;
	}
	for (size_t i = 0; i < n; i++) {
		const struct gt_drmdev *d = &drm[i];
		char ids[16] = "-";
		if (claimed(d, devs))
			continue;
		if (first && head)
			fputs(head, out);
		first = false;
		if (d->vendor || d->device)
			snprintf(ids, sizeof(ids), "%04x:%04x", d->vendor,
			         d->device);
		fprintf(out, "  %-6s %-*s %-9s %s: %s\n", d->card, width,
		        gt_drmdev_address(d), ids,
		        d->driver[0] ? d->driver : "(no driver)",
		        gt_drmdev_unsupported_why(d));
	}
	free(drm);
}

static void print_backend_reasons(FILE *out, const struct gt_collector *c)
{
	size_t nb;
	const struct gt_backend *backends = gt_collector_backends(c, &nb);

	for (size_t i = 0; i < nb; i++) {
		const struct gt_backend *b = &backends[i];
		if (b->status != GT_BACKEND_OK || b->device_count == 0)
			fprintf(out, "  %s: %s\n", b->ops->name, b->detail);
	}
}

void gt_list_print(FILE *out, const struct gt_collector *c,
                   const struct gt_devlist *devs)
{
	char name[GT_STR_NAME * 4];
	size_t nb;
	const struct gt_backend *backends = gt_collector_backends(c, &nb);

	fprintf(out, "%-8s %-12s %-7s %s\n", "BACKEND", "STATUS", "DEVICES",
	        "DETAIL");
	for (size_t i = 0; i < nb; i++) {
		const struct gt_backend *b = &backends[i];
		fprintf(out, "%-8s %-12s %-7u %s\n", b->ops->name,
		        gt_backend_status_name(b->status), b->device_count,
		        b->detail);
	}
	fputc('\n', out);
	if (!devs || devs->count == 0) {
		fprintf(out, "No GPU found.\n");
		print_backend_reasons(out, c);
	} else {
		fprintf(out, "%-3s %-18s %-7s %-8s %-12s %-10s %s\n", "IDX",
		        "ID", "VENDOR", "DRIVER", "VERSION", "MEMORY", "NAME");
		for (size_t i = 0; i < devs->count; i++) {
			const struct gt_static *st = &devs->items[i];
			char mem[32] = "N/A";
			if (gt_val_ok(&st->f[GT_S_VRAM_TOTAL]))
				snprintf(mem, sizeof(mem), "%.1f GiB",
				         (double)st->f[GT_S_VRAM_TOTAL].v /
				             (1024.0 * 1024.0 * 1024.0));
			gt_text_escape(name, sizeof(name), st->name,
			               strlen(st->name));
			fprintf(out, "%-3u %-18s %-7s %-8s %-12s %-10s %s%s\n",
			        st->index, st->id, gt_vendor_name(st->vendor),
			        st->driver, st->driver_version, mem,
			        st->demo ? "[DEMO] " : "", name);
		}
	}
	print_unsupported(
	    out, c, devs,
	    "\nUnsupported DRM devices (no backend reads them):\n");
}

void gt_list_print_reasons(FILE *out, const struct gt_collector *c)
{
	print_backend_reasons(out, c);
	print_unsupported(out, c, NULL, NULL);
}
