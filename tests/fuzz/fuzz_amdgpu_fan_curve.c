/* SPDX-License-Identifier: MIT */
/*
 * fuzz_amdgpu_fan_curve.c - libFuzzer harness of the RDNA3+ firmware fan
 * curve reader (gt_control_amdgpu_read_curve, control_amdgpu_priv.h): it
 * reads gpu_od/fan_ctrl/fan_curve of a device directory, so each input is
 * written there in a scratch directory (tmpfs) first. Checks the return
 * code against the points found and that a range needs a fan speed range;
 * the same text read twice gives the same curve.
 */
#include "fuzz_common.h"

#include <errno.h>
#include <limits.h>

#include "control/control_amdgpu_priv.h"

static struct amd dev;
static char curve_path[PATH_MAX];

static void setup(void)
{
	char dir[PATH_MAX];
	snprintf(dev.dir, sizeof(dev.dir), "%s/card", fuzz_dir());
	snprintf(dir, sizeof(dir), "%s", dev.dir);
	FUZZ_CHECK(mkdir(dir, 0700) == 0);
	snprintf(dir, sizeof(dir), "%s/gpu_od", dev.dir);
	FUZZ_CHECK(mkdir(dir, 0700) == 0);
	snprintf(dir, sizeof(dir), "%s/gpu_od/fan_ctrl", dev.dir);
	FUZZ_CHECK(mkdir(dir, 0700) == 0);
	snprintf(curve_path, sizeof(curve_path), "%s/fan_curve", dir);
	snprintf(dev.id, sizeof(dev.id), "0000:03:00.0");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct od_curve o, again;

	if (!curve_path[0])
		setup();
	fuzz_write_file(curve_path, data, size);
	memset(&o, 0x5a, sizeof(o));
	int rc = gt_control_amdgpu_read_curve(&dev, &o);
	FUZZ_CHECK(rc == 0 || rc == -EBADMSG);
	FUZZ_CHECK((rc == 0) == o.points);
	if (o.range)
		FUZZ_CHECK(o.smax > 0);
	FUZZ_CHECK(gt_control_amdgpu_read_curve(&dev, &again) == rc);
	FUZZ_CHECK(memcmp(&o, &again, sizeof(o)) == 0);
	return 0;
}
