/* SPDX-License-Identifier: MIT */
/*
 * fuzz_metrics.c - libFuzzer harness of the Prometheus exposition
 * (gt_metrics_render) of the devices and processes fuzz_gpus.h builds,
 * in text format or OpenMetrics, with or without the top processes, the
 * HTTP counters and a dashboard's frame counts, at any clock. The output
 * must be valid UTF-8 and every line a "# HELP", "# TYPE", the final
 * "# EOF" (OpenMetrics only) or a sample: a name, labels name="value"
 * whose values escape only \\, \" and \n, a space and a number strtod
 * reads whole.
 */
#include "fuzz_gpus.h"

#include <stdlib.h>

#include "export/metrics.h"

static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* One sample line [p, end): name{k="v",...} number */
static void check_sample(const char *p, const char *end)
{
	FUZZ_CHECK(p < end && name_char(*p, true));
	while (p < end && name_char(*p, false))
		p++;
	if (p < end && *p == '{') {
		p++;
		while (p < end && *p != '}') {
			FUZZ_CHECK(name_char(*p, true));
			while (p < end && name_char(*p, false))
				p++;
			FUZZ_CHECK(end - p >= 2 && p[0] == '=' && p[1] == '"');
			for (p += 2; p < end && *p != '"'; p++)
				if (*p == '\\') {
					p++;
					FUZZ_CHECK(p < end &&
					           (*p == '\\' || *p == '"' ||
					            *p == 'n'));
				}
			FUZZ_CHECK(p < end && *p == '"');
			p++;
			if (p < end && *p == ',')
				p++;
		}
		FUZZ_CHECK(p < end && *p == '}');
		p++;
	}
	FUZZ_CHECK(p < end && *p == ' ');
	p++;
	char num[64];
	size_t n = (size_t)(end - p);
	FUZZ_CHECK(n > 0 && n < sizeof(num));
	memcpy(num, p, n);
	num[n] = '\0';
	char *stop;
	strtod(num, &stop);
	FUZZ_CHECK(*stop == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = {data, size};
	static struct fuzz_gpus g;
	static const unsigned codes[] = {200, 404};
	uint64_t counts[] = {fuzz_u64(&in), fuzz_u64(&in)};
	struct gt_metrics_http http = {fuzz_u64(&in), 2, codes, counts};

	uint8_t how = fuzz_u8(&in);
	fuzz_gpus_take(&in, &g);
	for (size_t i = 0; i < g.ndev; i++)
		g.samples[i].monotonic_ns = fuzz_u64(&in);
	struct gt_metrics_input min = {
	    .devices = (how & 1) ? NULL : g.devs,
	    .samples = g.samples,
	    .procs = g.no_procs ? NULL : &g.plist,
	    .backends = &g.be,
	    .nbackends = 1,
	    .now_mono_ns = fuzz_u64(&in),
	    .now_real = {(time_t)(fuzz_u64(&in) >> 34),
	                 (long)(fuzz_u64(&in) % 1000000000)},
	    .interval_ns = fuzz_u64(&in) >> 8,
	    .have_round = how & 2,
	    .round_end_ns = fuzz_u64(&in),
	    .round_took_ns = fuzz_u64(&in) >> 8,
	    .rounds = fuzz_u64(&in),
	    .process_top = (how >> 4) % 4,
	    .openmetrics = how & 4,
	    .http = (how & 8) ? &http : NULL,
	};
	/* A dashboard beside it (--listen): its frames and their CPU. */
	min.frames = fuzz_u64(&in);
	min.frame_cpu_ns = fuzz_u64(&in);
	size_t len = 0;
	char *text = gt_metrics_render(&min, &len);
	FUZZ_CHECK(text != NULL && len == strlen(text));
	FUZZ_CHECK(len > 0 && text[len - 1] == '\n');
	FUZZ_CHECK(valid_utf8((const unsigned char *)text, len));
	for (const char *p = text; p < text + len;) {
		const char *end = strchr(p, '\n');
		if (strncmp(p, "# EOF", 5) == 0) {
			FUZZ_CHECK(min.openmetrics && end == p + 5 &&
			           end + 1 == text + len);
		} else if (strncmp(p, "# HELP ", 7) != 0 &&
		           strncmp(p, "# TYPE ", 7) != 0) {
			check_sample(p, end);
		}
		p = end + 1;
	}
	free(text);
	fuzz_gpus_free(&g);
	return 0;
}
