/* SPDX-License-Identifier: MIT */
/*
 * test_drmnode.c - DRM discovery: the merge of libdrm's records into
 * gputop's (drmnode.c) fed hand-built drmDevice and drmVersion structs,
 * the guards of the drmGetVersion path (a sleeping device is never
 * opened), the sysfs scan of the synthetic trees in tests/fixtures/drm
 * (a virtio GPU's PCI function, a platform framebuffer's location), that a
 * fixture root never reaches libdrm, and the table of reasons why a DRM
 * device is unsupported (drmdev.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "linux/drmdev.h"
#include "linux/drmnode.h"
#include "core/model.h"

static const char *fixture(const char *tree)
{
	static char buf[PATH_MAX];
	const char *v = getenv("GPUTOP_FIXTURES");
	if (!v || !*v)
		fail_msg(
		    "GPUTOP_FIXTURES is not set (run through tests/run.sh)");
	snprintf(buf, sizeof(buf), "%s/%s", v, tree);
	return buf;
}

/* A drmDevice as drmGetDevices2 fills it, built by hand. */
struct fake_dev {
	drmDevice dev;
	drmPciBusInfo bus;
	drmPciDeviceInfo info;
	char *nodes[DRM_NODE_MAX];
};

static drmDevice *pci_dev(struct fake_dev *f, uint16_t dom, uint8_t bus,
                          uint8_t dev, uint8_t fn, const char *primary,
                          const char *render)
{
	memset(f, 0, sizeof(*f));
	f->bus = (drmPciBusInfo){dom, bus, dev, fn};
	f->dev.bustype = DRM_BUS_PCI;
	f->dev.businfo.pci = &f->bus;
	f->dev.deviceinfo.pci = &f->info;
	f->dev.nodes = f->nodes;
	if (primary) {
		f->nodes[DRM_NODE_PRIMARY] = (char *)primary;
		f->dev.available_nodes |= 1 << DRM_NODE_PRIMARY;
	}
	if (render) {
		f->nodes[DRM_NODE_RENDER] = (char *)render;
		f->dev.available_nodes |= 1 << DRM_NODE_RENDER;
	}
	return &f->dev;
}

static void sysfs_dev(struct gt_drmdev *d, const char *card, const char *pdev)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->card, sizeof(d->card), "%s", card);
	snprintf(d->pdev, sizeof(d->pdev), "%s", pdev);
}

/* ------------------------------------------------------------------ */
/* the merge (pure)                                                     */
/* ------------------------------------------------------------------ */

static void test_pci_address(void **state)
{
	(void)state;
	struct fake_dev f;
	char addr[32];

	assert_true(gt_drmnode_pci_address(
	    pci_dev(&f, 0, 0x03, 0x00, 0, NULL, NULL), addr, sizeof(addr)));
	assert_string_equal(addr, "0000:03:00.0");
	/* lower-case hex, as PCI_SLOT_NAME and drm-pdev write it */
	assert_true(gt_drmnode_pci_address(
	    pci_dev(&f, 0x10, 0xc4, 0x1f, 7, NULL, NULL), addr, sizeof(addr)));
	assert_string_equal(addr, "0010:c4:1f.7");
	/* too small a buffer is a failure, not a cut address */
	assert_false(gt_drmnode_pci_address(&f.dev, addr, 8));
	/* not PCI, or no bus info */
	f.dev.bustype = DRM_BUS_PLATFORM;
	assert_false(gt_drmnode_pci_address(&f.dev, addr, sizeof(addr)));
	pci_dev(&f, 0, 1, 0, 0, NULL, NULL);
	f.dev.businfo.pci = NULL;
	assert_false(gt_drmnode_pci_address(&f.dev, addr, sizeof(addr)));
	assert_false(gt_drmnode_pci_address(NULL, addr, sizeof(addr)));
}

static void test_merge_by_pci_address(void **state)
{
	(void)state;
	struct fake_dev f;
	struct gt_drmdev d;

	sysfs_dev(&d, "card1", "0000:03:00.0");
	/* another function of the same device is not it */
	assert_false(
	    gt_drmnode_merge(&d, pci_dev(&f, 0, 3, 0, 1, "/dev/dri/card1",
	                                 "/dev/dri/renderD128")));
	assert_string_equal(d.render_node, "");
	/* the PCI address decides, not the node's name */
	assert_true(
	    gt_drmnode_merge(&d, pci_dev(&f, 0, 3, 0, 0, "/dev/dri/card7",
	                                 "/dev/dri/renderD135")));
	assert_string_equal(d.primary_node, "/dev/dri/card7");
	assert_string_equal(d.render_node, "/dev/dri/renderD135");
	assert_string_equal(d.pdev, "0000:03:00.0");
}

static void test_merge_only_available_nodes(void **state)
{
	(void)state;
	struct fake_dev f;
	struct gt_drmdev d;

	sysfs_dev(&d, "card0", "0000:00:02.0");
	pci_dev(&f, 0, 0, 2, 0, "/dev/dri/card0", NULL);
	/* a pointer left in nodes[] without its bit is not a node */
	f.nodes[DRM_NODE_RENDER] = (char *)"/dev/dri/renderD128";
	assert_true(gt_drmnode_merge(&d, &f.dev));
	assert_string_equal(d.primary_node, "/dev/dri/card0");
	assert_string_equal(d.render_node, "");
	/* no node array at all */
	sysfs_dev(&d, "card0", "0000:00:02.0");
	f.dev.nodes = NULL;
	assert_true(gt_drmnode_merge(&d, &f.dev));
	assert_string_equal(d.primary_node, "");
}

static void test_merge_long_path_left_out(void **state)
{
	(void)state;
	struct fake_dev f;
	struct gt_drmdev d;
	char longpath[GT_DRMDEV_NODE_LEN + 16];

	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[0] = '/';
	longpath[sizeof(longpath) - 1] = '\0';
	sysfs_dev(&d, "card0", "0000:03:00.0");
	assert_true(gt_drmnode_merge(
	    &d, pci_dev(&f, 0, 3, 0, 0, "/dev/dri/card0", longpath)));
	/* a cut path would open another file: it is left out instead */
	assert_string_equal(d.render_node, "");
	assert_string_equal(d.primary_node, "/dev/dri/card0");
}

static void test_merge_without_sysfs_address(void **state)
{
	(void)state;
	struct fake_dev f;
	struct gt_drmdev d;

	/* A virtio GPU in a copied tree without the kernel's links: libdrm
	 * knows its PCI function; the card's name ties the two. */
	sysfs_dev(&d, "card1", "");
	assert_false(
	    gt_drmnode_merge(&d, pci_dev(&f, 0, 0, 2, 0, "/dev/dri/card10",
	                                 "/dev/dri/renderD128")));
	assert_false(gt_drmnode_merge(
	    &d, pci_dev(&f, 0, 0, 2, 0, "/dev/dri/card", NULL)));
	assert_true(
	    gt_drmnode_merge(&d, pci_dev(&f, 0, 0, 2, 0, "/dev/dri/card1",
	                                 "/dev/dri/renderD129")));
	assert_string_equal(d.pdev, "0000:00:02.0");
	assert_string_equal(d.render_node, "/dev/dri/renderD129");

	/* A platform device: matched by name, and it stays without one. */
	sysfs_dev(&d, "card0", "");
	pci_dev(&f, 0, 0, 0, 0, "/dev/dri/card0", NULL);
	f.dev.bustype = DRM_BUS_PLATFORM;
	f.dev.businfo.pci = NULL;
	assert_true(gt_drmnode_merge(&d, &f.dev));
	assert_string_equal(d.pdev, "");
	assert_string_equal(d.primary_node, "/dev/dri/card0");
}

static void test_merge_all(void **state)
{
	(void)state;
	struct fake_dev f[3];
	struct gt_drmdev d[3];
	drmDevicePtr list[3] = {
	    pci_dev(&f[0], 0, 0x0c, 0, 0, "/dev/dri/card1",
	            "/dev/dri/renderD129"),
	    pci_dev(&f[1], 0, 0x00, 2, 0, "/dev/dri/card0",
	            "/dev/dri/renderD128"),
	    pci_dev(&f[2], 0, 0x64, 0, 0, "/dev/dri/card2",
	            "/dev/dri/renderD130"),
	};

	sysfs_dev(&d[0], "card0", "0000:00:02.0");
	sysfs_dev(&d[1], "card1", "0000:0c:00.0");
	sysfs_dev(&d[2], "card3", "0000:0d:00.0"); /* libdrm lists no such */
	gt_drmnode_merge_all(d, 3, list, 3);
	assert_string_equal(d[0].render_node, "/dev/dri/renderD128");
	assert_string_equal(d[1].render_node, "/dev/dri/renderD129");
	assert_string_equal(d[1].primary_node, "/dev/dri/card1");
	assert_string_equal(d[2].render_node, "");
	assert_string_equal(d[2].primary_node, "");
	/* an empty list changes nothing */
	sysfs_dev(&d[0], "card0", "0000:00:02.0");
	gt_drmnode_merge_all(d, 1, list, 0);
	assert_string_equal(d[0].render_node, "");
}

static void test_set_version(void **state)
{
	(void)state;
	struct gt_drmdev d;
	char name[] = "amdgpuTRAILING";
	drmVersion v = {.version_major = 3,
	                .version_minor = 57,
	                .version_patchlevel = 0,
	                .name_len = 6,
	                .name = name};

	sysfs_dev(&d, "card0", "0000:03:00.0");
	snprintf(d.drm_why, sizeof(d.drm_why), "an old reason");
	gt_drmnode_set_version(&d, &v);
	/* name_len bounds the name: the buffer need not end there */
	assert_string_equal(d.drm_name, "amdgpu");
	assert_string_equal(d.drm_version, "3.57.0");
	assert_string_equal(d.drm_why, "");

	char xe[] = "xe";
	v = (drmVersion){1, 1, 0, 2, xe, 0, NULL, 0, NULL};
	gt_drmnode_set_version(&d, &v);
	assert_string_equal(d.drm_name, "xe");
	assert_string_equal(d.drm_version, "1.1.0");

	/* a name longer than the record is cut, still terminated */
	char big[80];
	memset(big, 'n', sizeof(big));
	v = (drmVersion){1, 6, 0, (int)sizeof(big), big, 0, NULL, 0, NULL};
	gt_drmnode_set_version(&d, &v);
	assert_int_equal(strlen(d.drm_name), sizeof(d.drm_name) - 1);

	/* no reply, or nonsense numbers: nothing */
	v = (drmVersion){-1, 0, 0, 0, NULL, 0, NULL, 0, NULL};
	gt_drmnode_set_version(&d, &v);
	assert_string_equal(d.drm_name, "");
	assert_string_equal(d.drm_version, "");
	gt_drmnode_set_version(&d, NULL);
	assert_string_equal(d.drm_version, "");
}

static void test_attach_falls_back_to_sysfs_name(void **state)
{
	(void)state;
	struct gt_drmdev d[2];
	/* Addresses no machine has: whatever libdrm lists here, these are
	 * not among them, and the kernel's naming stands in. */
	sysfs_dev(&d[0], "card98", "ffff:ff:1f.7");
	snprintf(d[0].render, sizeof(d[0].render), "renderD191");
	sysfs_dev(&d[1], "card99", "ffff:ff:1f.6"); /* no render node */
	gt_drmnode_attach(d, 2);
	assert_string_equal(d[0].render_node, "/dev/dri/renderD191");
	assert_string_equal(d[0].primary_node, "");
	assert_string_equal(d[1].render_node, "");
	/* nothing is opened: no version, no reason */
	assert_string_equal(d[0].drm_version, "");
	assert_string_equal(d[0].drm_why, "");
}

/* ------------------------------------------------------------------ */
/* drmGetVersion's guards                                               */
/* ------------------------------------------------------------------ */

/* A device directory whose power/runtime_status says status. */
static void make_devdir(char *dir, size_t len, const char *status)
{
	char path[128];
	snprintf(dir, len, "/tmp/gputop-drmnode-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/power", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/power/runtime_status", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", status);
	fclose(f);
}

static void remove_devdir(const char *dir)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/power/runtime_status", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/power", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/node", dir);
	unlink(path);
	rmdir(dir);
}

static void test_read_version_never_wakes(void **state)
{
	(void)state;
	struct gt_drmdev d;
	char dir[32];
	sysfs_dev(&d, "card0", "0000:03:00.0");
	make_devdir(dir, sizeof(dir), "suspended");
	gt_copy_str(d.devdir, sizeof(d.devdir), dir);
	/* A node that exists: were it opened, the answer would differ. */
	snprintf(d.render_node, sizeof(d.render_node), "/dev/null");
	assert_int_equal(gt_drmnode_read_version(&d), -EAGAIN);
	assert_non_null(strstr(d.drm_why, "asleep"));
	assert_string_equal(d.drm_version, "");
	/* awake again: asked again (here: /dev/null is no DRM device) */
	char path[128];
	snprintf(path, sizeof(path), "%s/power/runtime_status", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("active\n", f);
	fclose(f);
	assert_int_not_equal(gt_drmnode_read_version(&d), -EAGAIN);
	assert_non_null(strstr(d.drm_why, "drmGetVersion"));
	remove_devdir(dir);
}

static void test_read_version_failures(void **state)
{
	(void)state;
	struct gt_drmdev d;
	char dir[32], path[GT_DRMDEV_NODE_LEN];

	sysfs_dev(&d, "card0", "0000:03:00.0");
	make_devdir(dir, sizeof(dir), "active");
	gt_copy_str(d.devdir, sizeof(d.devdir), dir);
	/* no render node known */
	assert_int_equal(gt_drmnode_read_version(&d), -ENOENT);
	assert_string_equal(d.drm_why, "no render node");
	/* a node that is not there */
	snprintf(path, sizeof(path), "%s/renderD128", dir);
	gt_copy_str(d.render_node, sizeof(d.render_node), path);
	/* the device is asked once: the first answer stands */
	assert_int_equal(gt_drmnode_read_version(&d), -ENOENT);
	assert_string_equal(d.drm_why, "no render node");
	d.drm_rc = 0; /* as if never asked */
	assert_int_equal(gt_drmnode_read_version(&d), -ENOENT);
	assert_non_null(strstr(d.drm_why, "cannot open"));
	/* a file that is no DRM device: the ioctl fails, with the reason */
	snprintf(path, sizeof(path), "%s/node", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	gt_copy_str(d.render_node, sizeof(d.render_node), path);
	d.drm_rc = 0;
	int rc = gt_drmnode_read_version(&d);
	assert_true(rc < 0);
	assert_non_null(strstr(d.drm_why, "drmGetVersion"));
	assert_string_equal(d.drm_version, "");
	/* permission: only meaningful for a user root's override does not
	 * cover */
	if (geteuid() != 0) {
		assert_int_equal(chmod(path, 0), 0);
		d.drm_rc = 0;
		assert_int_equal(gt_drmnode_read_version(&d), -EACCES);
		assert_non_null(strstr(d.drm_why, "render group"));
	}
	remove_devdir(dir);
}

/* ------------------------------------------------------------------ */
/* the sysfs scan of the synthetic trees                                */
/* ------------------------------------------------------------------ */

static void test_scan_virtio_and_nouveau(void **state)
{
	(void)state;
	struct gt_drmdev *d = NULL;
	size_t n = 0;

	assert_int_equal(gt_drmdev_scan(fixture("drm/nouveau-virtio"), &d, &n),
	                 0);
	/* connectors (card0-Virtual-1) and render nodes are not cards */
	assert_int_equal(n, 2);

	/* card0 is a virtio device; its PCI function is the parent */
	assert_string_equal(d[0].card, "card0");
	assert_string_equal(d[0].driver, "virtio_gpu");
	assert_string_equal(d[0].pdev, "0000:00:02.0");
	assert_int_equal(d[0].vendor, 0x1af4);
	assert_int_equal(d[0].device, 0x1050); /* not virtio's id 0x0010 */
	assert_int_equal(d[0].subsys_device, 0x1100);
	assert_string_equal(d[0].location, "pci0000:00/0000:00:02.0/virtio0");
	assert_string_equal(d[0].render, "renderD128");
	assert_false(d[0].suspended);

	assert_string_equal(d[1].card, "card1");
	assert_string_equal(d[1].driver, "nouveau");
	assert_string_equal(d[1].pdev, "0000:01:00.0");
	assert_int_equal(d[1].vendor, 0x10de);
	assert_int_equal(d[1].device, 0x1c82);
	assert_int_equal(d[1].subsys_vendor, 0x1043);
	assert_int_equal(d[1].revision, 0xa1);
	assert_string_equal(d[1].render, "renderD129");
	assert_string_equal(gt_drmdev_address(&d[1]), "0000:01:00.0");
	free(d);
}

static void test_scan_simpledrm(void **state)
{
	(void)state;
	struct gt_drmdev *d = NULL;
	size_t n = 0;

	assert_int_equal(gt_drmdev_scan(fixture("drm/simpledrm"), &d, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(d[0].driver, "simple-framebuffer");
	assert_string_equal(d[0].pdev, "");
	assert_int_equal(d[0].vendor, 0);
	assert_int_equal(d[0].device, 0);
	assert_string_equal(d[0].render, ""); /* simpledrm has none */
	assert_string_equal(d[0].location, "platform/simple-framebuffer.0");
	assert_string_equal(gt_drmdev_address(&d[0]),
	                    "platform/simple-framebuffer.0");
	free(d);
}

static void test_fixture_root_skips_libdrm(void **state)
{
	(void)state;
	struct gt_drmdev *d = NULL;
	size_t n = 0;
	const char *root = fixture("drm/nouveau-virtio");

	assert_false(gt_drmdev_live_root(root));
	assert_false(gt_drmdev_live_root("/nonexistent"));
	/* The same records as the plain scan: no node path, no version,
	 * although the tree names render nodes. */
	assert_int_equal(gt_drmnode_discover(root, &d, &n), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(d[i].render_node, "");
		assert_string_equal(d[i].primary_node, "");
		assert_string_equal(d[i].drm_version, "");
		assert_string_equal(d[i].drm_why, "");
	}
	free(d);
}

/* ------------------------------------------------------------------ */
/* why a device is unsupported                                          */
/* ------------------------------------------------------------------ */

static const char *why_for(const char *driver)
{
	static struct gt_drmdev d;
	memset(&d, 0, sizeof(d));
	snprintf(d.driver, sizeof(d.driver), "%s", driver);
	return gt_drmdev_unsupported_why(&d);
}

static void test_unsupported_reasons(void **state)
{
	(void)state;
	assert_string_equal(why_for("radeon"),
	                    "gputop reads AMD GPUs through amdgpu only");
	assert_string_equal(
	    why_for("nouveau"),
	    "NVIDIA cards are read through NVML (libnvidia-ml), "
	    "not nouveau; install the NVIDIA driver");
	assert_string_equal(why_for("virtio_gpu"),
	                    "a virtual GPU has no usage counters");
	assert_string_equal(why_for("vmwgfx"),
	                    "a virtual GPU has no usage counters");
	assert_string_equal(why_for("simple-framebuffer"),
	                    "a firmware framebuffer (simpledrm), not a GPU");
	assert_string_equal(why_for("simpledrm"),
	                    "a firmware framebuffer, not a GPU");
	assert_non_null(strstr(why_for("vfio-pci"), "virtual machine"));
	assert_non_null(strstr(why_for("nvidia"), "nvml"));
	assert_string_equal(why_for(""), "no kernel driver is bound");
	assert_string_equal(why_for("panfrost"),
	                    "no gputop backend reads this driver");
	/* a prefix of a known name is not that name */
	assert_string_equal(why_for("radeonx"),
	                    "no gputop backend reads this driver");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pci_address),
	    cmocka_unit_test(test_merge_by_pci_address),
	    cmocka_unit_test(test_merge_only_available_nodes),
	    cmocka_unit_test(test_merge_long_path_left_out),
	    cmocka_unit_test(test_merge_without_sysfs_address),
	    cmocka_unit_test(test_merge_all),
	    cmocka_unit_test(test_set_version),
	    cmocka_unit_test(test_attach_falls_back_to_sysfs_name),
	    cmocka_unit_test(test_read_version_never_wakes),
	    cmocka_unit_test(test_read_version_failures),
	    cmocka_unit_test(test_scan_virtio_and_nouveau),
	    cmocka_unit_test(test_scan_simpledrm),
	    cmocka_unit_test(test_fixture_root_skips_libdrm),
	    cmocka_unit_test(test_unsupported_reasons),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
