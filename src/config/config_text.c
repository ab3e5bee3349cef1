/* SPDX-License-Identifier: MIT */
/*
 * config_text.c - quoting a value for a message and the canonical PCI id
 * (config_text.h). Digits are read by hand, as everywhere in config, since
 * the dashboard runs under setlocale(LC_ALL, "").
 */
#include "config/config_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"

const char *gt_config_shown(const char *v, char *buf, size_t len)
{
	size_t n = strlen(v);
	size_t w = gt_text_escape(buf, len, v, n > 40 ? 40 : n);
	if (n > 40 && w + 4 < len)
		memcpy(buf + w, "...", 4);
	return buf;
}

/* 1 to 8 hex digits at *p (read up to 9, so a ninth makes it fail). */
static int hex_field(const char **p, unsigned long *v)
{
	int n = 0, d;
	for (*v = 0; (d = gt_text_hex_digit((unsigned char)**p)) >= 0 && n < 9;
	     (*p)++, n++)
		*v = *v * 16 + (unsigned long)d;
	return n >= 1 && n <= 8 ? 0 : -1;
}

int gt_config_pci_normalize(const char *s, char *out, size_t len)
{
	unsigned long a = 0, b = 0, dom = 0, bus, dev, fn;
	const char *p = s;
	int n = -1;
	bool ok = s && !hex_field(&p, &a) && *p++ == ':' && !hex_field(&p, &b);
	bus = a;
	dev = b;
	if (ok && *p == ':') { /* the domain was given */
		p++;
		dom = a;
		bus = b;
		ok = !hex_field(&p, &dev);
	}
	if (ok && *p++ == '.' && !hex_field(&p, &fn) && !*p && bus <= 0xff &&
	    dev <= 0x1f && fn <= 7)
		/* Linux's sysfs form: 4 digits, more for VMD domains. */
		n = snprintf(out, len, "%04lx:%02lx:%02lx.%lx", dom, bus, dev,
		             fn);
	if (n >= 0 && (size_t)n < len)
		return 0;
	if (len)
		out[0] = '\0';
	return -1;
}
