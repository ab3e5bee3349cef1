/* SPDX-License-Identifier: MIT */
/*
 * test_fdinfo.c - tests of the fdinfo scanner's rates (src/fdinfo.c) on
 * synthetic proc trees: round 1 from a real sample, round 2 a copy with
 * counters advanced by known amounts, so every percentage is exact
 * (250 ms of engine time over 1 s = 25.00 %); sharing, sums, clamps,
 * counters going backwards, several devices, a size that cannot be read.
 */
#include "support/fdinfo_test.h"

/* ---- scanner: two samples with known deltas --------------------------------
 */

static void test_i915_two_samples(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	struct gt_val val, enc, dec;
	bool lower;
	char *a = fixture(I915_TABS, NULL);
	tree_drm(t, 100, 5, a);

	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 1);
	assert_int_equal(gt_fdinfo_client_count(fi), 1);
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 100);
	assert_why(&v.items[0].f[GT_P_GPU], GT_WHY_PENDING);
	assert_why(&v.items[0].f[GT_P_ENC], GT_WHY_PENDING);
	assert_why(&v.items[0].f[GT_P_DEC], GT_WHY_PENDING);
	/* No memory keys in this i915: the driver is too old to say. */
	assert_why(&v.items[0].f[GT_P_MEM], GT_WHY_UNSUPPORTED_DRIVER);
	assert_why(&v.items[0].f[GT_P_GTT], GT_WHY_UNSUPPORTED_DRIVER);
	/* Host fields are the caller's. */
	assert_why(&v.items[0].f[GT_P_CPU], GT_WHY_NOT_COLLECTED);
	assert_int_equal(v.items[0].type, GT_PROC_GRAPHICS);
	assert_int_equal(v.unreadable, 0);
	gt_proc_vec_free(&v);
	gt_fdinfo_device_busy(fi, PDEV_I915, &val, &lower);
	assert_why(&val, GT_WHY_PENDING);

	/* 1 s later: render +250 ms = 25 %; video +1 s over 2 engines =
	 * 50 %; copy +100 ms = 10 %. */
	char *b = bump(a, "drm-engine-render", 250 * MS);
	b = bumpf(b, "drm-engine-video", 1000 * MS);
	b = bumpf(b, "drm-engine-copy", 100 * MS);
	tree_set(t, 100, 5, b);
	gt_fdinfo_update(fi, T0 + SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 1);
	assert_val(&v.items[0].f[GT_P_GPU], 2500);
	assert_val(&v.items[0].f[GT_P_ENC], 5000);
	assert_val(&v.items[0].f[GT_P_DEC], 5000);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_I915, 2500);
	gt_fdinfo_device_media(fi, PDEV_I915, &enc, &dec, &lower);
	assert_val(&enc, 5000);
	assert_val(&dec, 5000);
	assert_false(lower);

	/* 2 s later, copy +1.5 s (75 %) is now the busiest class. */
	char *c = bump(b, "drm-engine-copy", 1500 * MS);
	tree_set(t, 100, 5, c);
	gt_fdinfo_update(fi, T0 + 3 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 7500);
	assert_val(&v.items[0].f[GT_P_ENC], 0);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_I915, 7500);

	/* Another device sees nothing. */
	procs(fi, PDEV_XE, &v);
	assert_int_equal(v.count, 0);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_XE, 0);

	gt_fdinfo_free(fi);
	free(a);
	free(b);
	free(c);
}

static char *xe_advance(const char *text, uint64_t dt, uint64_t rcs,
                        uint64_t vcs, uint64_t ccs)
{
	static const char *const eng[] = {"rcs", "bcs", "vcs", "vecs", "ccs"};
	char key[64];
	char *out = bump(text, "drm-cycles-rcs", (int64_t)rcs);
	out = bumpf(out, "drm-cycles-vcs", (int64_t)vcs);
	out = bumpf(out, "drm-cycles-ccs", (int64_t)ccs);
	for (int i = 0; i < 5; i++) {
		snprintf(key, sizeof(key), "drm-total-cycles-%s", eng[i]);
		out = bumpf(out, key, (int64_t)dt);
	}
	return out;
}

static void test_xe_cycles(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char *a = fixture(XE_SPACES, NULL);
	tree_drm(t, 200, 3, a);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	procs(fi, PDEV_XE, &v);
	assert_int_equal(v.count, 1);
	assert_why(&v.items[0].f[GT_P_GPU], GT_WHY_PENDING);
	assert_val(&v.items[0].f[GT_P_MEM], 23992 * KIB);
	assert_val(&v.items[0].f[GT_P_GTT], 192 * KIB);
	assert_int_equal(v.items[0].type, GT_PROC_GRAPHICS); /* rcs ran */
	gt_proc_vec_free(&v);

	/* No wall clock: whatever now_ns says, cycles decide. D = 1e9
	 * cycles; rcs +D/4 = 25 %; vcs +D over 2 = 50 %; ccs +D/2 over 4
	 * = 12.5 %. */
	const uint64_t d = 1000000000ull;
	char *b = xe_advance(a, d, d / 4, d, d / 2);
	tree_set(t, 200, 3, b);
	gt_fdinfo_update(fi, T0 + 7 * SEC, false);
	procs(fi, PDEV_XE, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 2500);
	assert_val(&v.items[0].f[GT_P_ENC], 5000);
	assert_val(&v.items[0].f[GT_P_DEC], 5000);
	assert_int_equal(v.items[0].type, GT_PROC_BOTH); /* ccs ran too */
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_XE, 2500);

	/* ccs +D over 4 engines = 25 %, rcs +D/8 = 12.5 %: compute wins. */
	char *c = xe_advance(b, d, d / 8, 0, d);
	tree_set(t, 200, 3, c);
	gt_fdinfo_update(fi, T0 + 8 * SEC, false);
	procs(fi, PDEV_XE, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 2500);
	assert_val(&v.items[0].f[GT_P_ENC], 0);
	gt_proc_vec_free(&v);

	/* Busy far beyond the clock (a tiny delta-total): 100 %, and no
	 * wrap-around of an intermediate product (429497 x 10000 wraps a
	 * 32-bit value to 2704). */
	char *w = xe_advance(c, 1, 429497, 0, 0);
	tree_set(t, 200, 3, w);
	gt_fdinfo_update(fi, T0 + 8 * SEC + 1, false);
	procs(fi, PDEV_XE, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 10000);
	gt_proc_vec_free(&v);
	free(c);
	c = w;

	/* The GPU timestamp did not move: null, not 0 % and not NaN. */
	char *e = bump(c, "drm-cycles-rcs", 5);
	tree_set(t, 200, 3, e);
	gt_fdinfo_update(fi, T0 + 9 * SEC, false);
	procs(fi, PDEV_XE, &v);
	assert_why(&v.items[0].f[GT_P_GPU], GT_WHY_PENDING);
	gt_proc_vec_free(&v);
	/* A pending client adds nothing to the device; it is its only one. */
	struct gt_val val;
	gt_fdinfo_device_busy(fi, PDEV_XE, &val, NULL);
	assert_why(&val, GT_WHY_PENDING);

	gt_fdinfo_free(fi);
	free(a);
	free(b);
	free(c);
	free(e);
}

static void test_amdgpu_current(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char *a = fixture(AMD_V1, NULL);
	tree_drm(t, 300, 9, a);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	procs(fi, PDEV_AMD, &v);
	assert_int_equal(v.count, 1);
	assert_why(&v.items[0].f[GT_P_GPU], GT_WHY_PENDING);
	/* amdgpu omits idle engines: no video line is not "unsupported". */
	assert_why(&v.items[0].f[GT_P_ENC], GT_WHY_PENDING);
	assert_val(&v.items[0].f[GT_P_MEM], 544428 * KIB);
	assert_val(&v.items[0].f[GT_P_GTT], 22 * MIB);
	gt_proc_vec_free(&v);

	/* 2 s later gfx +500 ms: 25 %; no video line: 0 %. */
	char *b = bump(a, "drm-engine-gfx", 500 * MS);
	tree_set(t, 300, 9, b);
	gt_fdinfo_update(fi, T0 + 2 * SEC, false);
	procs(fi, PDEV_AMD, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 2500);
	assert_val(&v.items[0].f[GT_P_ENC], 0);
	assert_val(&v.items[0].f[GT_P_DEC], 0);
	assert_int_equal(v.items[0].type, GT_PROC_GRAPHICS);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_AMD, 2500);

	/* The encoder's first line appears (it ran for 100 ms of the last
	 * second): counted from 0, not pending. */
	char *c = concat(b, "drm-engine-enc:\t100000000 ns\n");
	tree_set(t, 300, 9, c);
	gt_fdinfo_update(fi, T0 + 3 * SEC, false);
	procs(fi, PDEV_AMD, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 0);
	assert_val(&v.items[0].f[GT_P_ENC], 1000);
	assert_val(&v.items[0].f[GT_P_DEC], 0);
	gt_proc_vec_free(&v);
	struct gt_val enc, dec;
	gt_fdinfo_device_media(fi, PDEV_AMD, &enc, &dec, NULL);
	assert_val(&enc, 1000);
	assert_val(&dec, 0);

	gt_fdinfo_free(fi);
	free(a);
	free(b);
	free(c);
}

static void test_amdgpu_compute_and_kfd(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char *a = fixture(AMD_V2, NULL);    /* client 4, compute only */
	char *k = fixture(AMD_ROCMI, NULL); /* no engine lines at all */
	tree_drm(t, 310, 4, a);
	tree_drm(t, 320, 8, k);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	char *b = bump(a, "drm-engine-compute", 1000 * MS);
	tree_set(t, 310, 4, b);
	gt_fdinfo_update(fi, T0 + SEC, false);
	procs(fi, PDEV_AMD, &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].type, GT_PROC_COMPUTE);
	assert_val(&v.items[0].f[GT_P_GPU], 10000);
	assert_val(&v.items[0].f[GT_P_MEM], 44564 * KIB);
	gt_proc_vec_free(&v);

	procs(fi, "0000:83:00.0", &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 320);
	assert_int_equal(v.items[0].type, GT_PROC_GRAPHICS);
	assert_val(&v.items[0].f[GT_P_GPU], 0);
	assert_val(&v.items[0].f[GT_P_MEM], 76 * KIB);
	assert_val(&v.items[0].f[GT_P_GTT], (44 + 6200) * KIB);
	gt_proc_vec_free(&v);

	gt_fdinfo_free(fi);
	free(a);
	free(b);
	free(k);
}

static void test_amdgpu_legacy(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	struct gt_val val;
	char *a = fixture(AMD_515, NULL);
	tree_drm(t, 330, 7, a);
	/* A dup of the same file: same pasid, counted once. */
	tree_drm(t, 330, 8, a);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	assert_int_equal(gt_fdinfo_client_count(fi), 1);
	procs(fi, PDEV_AMD, &v);
	assert_int_equal(v.count, 1);
	/* The kernel computed the percentage: valid on the first round. */
	assert_val(&v.items[0].f[GT_P_GPU], 7059);
	assert_val(&v.items[0].f[GT_P_ENC], 0);
	assert_val(&v.items[0].f[GT_P_MEM], 17196 * KIB);
	assert_val(&v.items[0].f[GT_P_GTT], 6144 * KIB);
	gt_proc_vec_free(&v);
	gt_fdinfo_device_busy(fi, PDEV_AMD, &val, NULL);
	assert_why(&val, GT_WHY_PENDING); /* the device needs two rounds */
	gt_fdinfo_update(fi, T0 + SEC, false);
	busy_is(fi, PDEV_AMD, 7059);
	gt_fdinfo_free(fi);
	free(a);
}

/* ---- scanner: sharing, clamping, ordering ---------------------------------
 */

static void test_shared_client_counts_once(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char *a = fixture(AMD_87, NULL); /* client 217 at 0000:08:00.0 */
	/* Inherited across fork: both hold the same client. Pid 420 is
	 * read after 410, so 410 owns it. */
	tree_drm(t, 420, 5, a);
	tree_drm(t, 410, 99, a);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 2);
	assert_int_equal(gt_fdinfo_client_count(fi), 1);

	char *b = bump(a, "drm-engine-gfx", 250 * MS);
	tree_set(t, 410, 99, b);
	tree_set(t, 420, 5, b);
	gt_fdinfo_update(fi, T0 + SEC, false);
	procs(fi, "0000:08:00.0", &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 410);
	assert_val(&v.items[0].f[GT_P_GPU], 2500);
	assert_val(&v.items[0].f[GT_P_MEM], 2068 * KIB); /* not twice */
	gt_proc_vec_free(&v);
	busy_is(fi, "0000:08:00.0", 2500); /* not 50 % */

	/* The parent exits: the child keeps the client and its baseline. */
	tree_rm_pid(t, 410);
	char *c = bump(b, "drm-engine-gfx", 500 * MS);
	tree_set(t, 420, 5, c);
	gt_fdinfo_update(fi, T0 + 2 * SEC, false);
	assert_int_equal(gt_fdinfo_pid_count(fi), 1);
	procs(fi, "0000:08:00.0", &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 420);
	assert_val(&v.items[0].f[GT_P_GPU], 5000);
	gt_proc_vec_free(&v);

	gt_fdinfo_free(fi);
	free(a);
	free(b);
	free(c);
}

static void test_one_process_two_clients(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	set_client(t, 500, 3, 10, SEC);
	set_client(t, 500, 4, 11, SEC);
	set_client(t, 500, 5, 10, SEC); /* dup of fd 3 */
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	assert_int_equal(gt_fdinfo_client_count(fi), 2);
	set_client(t, 500, 3, 10, SEC + 250 * MS);
	set_client(t, 500, 5, 10, SEC + 250 * MS);
	set_client(t, 500, 4, 11, SEC + 500 * MS);
	gt_fdinfo_update(fi, T0 + SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 1);
	assert_val(&v.items[0].f[GT_P_GPU], 7500);
	assert_val(&v.items[0].f[GT_P_GTT], (10 + 11) * KIB);
	/* An iGPU: sizes, but no VRAM region. */
	assert_why(&v.items[0].f[GT_P_MEM], GT_WHY_UNSUPPORTED_DEVICE);
	gt_proc_vec_free(&v);

	/* A third client opens: its pid stays valid, the new one adds from
	 * the next round on. */
	set_client(t, 500, 6, 12, 0);
	set_client(t, 500, 3, 10, SEC + 350 * MS);
	set_client(t, 500, 5, 10, SEC + 350 * MS);
	set_client(t, 500, 4, 11, SEC + 600 * MS);
	gt_fdinfo_update(fi, T0 + 2 * SEC, true);
	assert_int_equal(gt_fdinfo_client_count(fi), 3);
	procs(fi, PDEV_I915, &v);
	assert_val(&v.items[0].f[GT_P_GPU], 2000);
	gt_proc_vec_free(&v);

	gt_fdinfo_free(fi);
}

/* An amdgpu client (5.19-6.4 prints only drm-memory-*) with id id whose
 * VRAM size is vram, as the driver printed it. */
static void amd_client(struct tree *t, int pid, int fd, int id,
                       const char *vram)
{
	char text[256];
	snprintf(text, sizeof(text),
	         "drm-driver:\tamdgpu\ndrm-pdev:\t%s\ndrm-client-id:\t%d\n"
	         "drm-memory-vram:\t%s\ndrm-memory-gtt:\t8 KiB\n"
	         "drm-engine-gfx:\t1000 ns\n",
	         PDEV_AMD, id, vram);
	tree_drm(t, pid, fd, text);
}

/* A VRAM size the driver printed in a form gputop cannot read: N/A with a
 * reason that names the key, not "not supported by this driver version";
 * the GTT beside it is still read. One such client of a process makes its
 * sum N/A, not short. */
static void test_malformed_vram(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	char why[256];

	amd_client(t, 700, 3, 20, "abc KiB");
	amd_client(t, 800, 3, 21, "4 KiB");
	amd_client(t, 800, 4, 22, "4 TiB"); /* no such unit */
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	procs(fi, PDEV_AMD, &v);
	assert_int_equal(v.count, 2);
	for (size_t i = 0; i < v.count; i++) {
		const struct gt_process *p = &v.items[i];
		assert_why(&p->f[GT_P_MEM], GT_WHY_MALFORMED);
		assert_int_equal(
		    p->f[GT_P_MEM].code,
		    gt_why_fdinfo_key(GT_WHY_FDI_MEMORY, GT_WHY_FDI_VRAM, -1));
		gt_why_text(&p->f[GT_P_MEM], NULL, why, sizeof(why));
		assert_non_null(strstr(why,
		                       "the driver's fdinfo line "
		                       "drm-memory-vram: could not be read"));
		assert_null(strstr(why, "not supported"));
	}
	assert_int_equal(v.items[0].pid, 700);
	assert_val(&v.items[0].f[GT_P_GTT], 8 * KIB);
	assert_val(&v.items[1].f[GT_P_GTT], 16 * KIB);
	gt_proc_vec_free(&v);
	gt_fdinfo_free(fi);
}

static void test_clamp_and_backwards(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	set_client(t, 600, 3, 20, 0);
	set_client(t, 601, 3, 21, 0);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);

	/* 3 s of render in 1 s (sampling skew): 100 %, never more. Two
	 * clients at 60 % and 70 %: the device is capped at 100 %. */
	set_client(t, 600, 3, 20, 3 * SEC);
	set_client(t, 601, 3, 21, 700 * MS);
	gt_fdinfo_update(fi, T0 + SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_val(&proc_pid(&v, 600)->f[GT_P_GPU], 10000);
	assert_val(&proc_pid(&v, 601)->f[GT_P_GPU], 7000);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_I915, 10000);

	set_client(t, 600, 3, 20, 3 * SEC + 600 * MS);
	set_client(t, 601, 3, 21, 1300 * MS);
	gt_fdinfo_update(fi, T0 + 2 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_val(&proc_pid(&v, 600)->f[GT_P_GPU], 6000);
	assert_val(&proc_pid(&v, 601)->f[GT_P_GPU], 6000);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_I915, 10000);

	/* The counter of 600 goes back 1 s: no rate, never negative; the
	 * device counts only 601 (100 ms = 10 %). */
	set_client(t, 600, 3, 20, 2 * SEC + 600 * MS);
	set_client(t, 601, 3, 21, 1400 * MS);
	gt_fdinfo_update(fi, T0 + 3 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_why(&proc_pid(&v, 600)->f[GT_P_GPU], GT_WHY_PENDING);
	assert_val(&proc_pid(&v, 601)->f[GT_P_GPU], 1000);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_I915, 1000);

	/* Still below the old value: still no rate. Then above it by 200 ms:
	 * measured from the kept (higher) value, 20 %. */
	set_client(t, 600, 3, 20, 3 * SEC);
	gt_fdinfo_update(fi, T0 + 4 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_why(&proc_pid(&v, 600)->f[GT_P_GPU], GT_WHY_PENDING);
	gt_proc_vec_free(&v);
	set_client(t, 600, 3, 20, 3 * SEC + 800 * MS);
	gt_fdinfo_update(fi, T0 + 5 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_val(&proc_pid(&v, 600)->f[GT_P_GPU], 2000);
	gt_proc_vec_free(&v);

	/* The same fd number, now another client (closed and reopened): a
	 * new client, pending however large its counter. */
	set_client(t, 601, 3, 99, 50 * SEC);
	gt_fdinfo_update(fi, T0 + 6 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_why(&proc_pid(&v, 601)->f[GT_P_GPU], GT_WHY_PENDING);
	gt_proc_vec_free(&v);

	/* The clock did not move (a caller bug): no division by zero. */
	gt_fdinfo_update(fi, T0 + 6 * SEC, false);
	procs(fi, PDEV_I915, &v);
	assert_why(&proc_pid(&v, 600)->f[GT_P_GPU], GT_WHY_PENDING);
	gt_proc_vec_free(&v);

	gt_fdinfo_free(fi);
}

static void test_devices_and_addresses(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	struct gt_val val;
	char *x = fixture(XE_TABS, NULL);
	char *m = fixture(MSM, NULL);
	char *n = fixture(XDNA, NULL);
	set_client(t, 700, 3, 1, 0);
	tree_drm(t, 701, 3, x);
	tree_drm(t, 702, 3, m);                     /* no pdev */
	tree_fd(t, 703, 4, "/dev/accel/accel0", n); /* the NPU */
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	gt_fdinfo_update(fi, T0 + SEC, false);
	assert_int_equal(gt_fdinfo_client_count(fi), 4);
	const char *forms[] = {"0000:03:00.0", "00000000:03:00.0", "03:00.0",
	                       "0000:03:00.0\n"};
	for (int i = 0; i < 4; i++) {
		procs(fi, forms[i], &v);
		assert_int_equal(v.count, 1);
		assert_int_equal(v.items[0].pid, 701);
		gt_proc_vec_free(&v);
	}
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 700);
	gt_proc_vec_free(&v);
	procs(fi, "0000:c5:00.1", &v);
	assert_int_equal(v.count, 1);
	assert_int_equal(v.items[0].pid, 703);
	gt_proc_vec_free(&v);
	/* Not a PCI address: nothing, and no crash. */
	procs(fi, "garbage", &v);
	assert_int_equal(v.count, 0);
	gt_proc_vec_free(&v);
	procs(fi, NULL, &v);
	assert_int_equal(v.count, 0);
	gt_proc_vec_free(&v);
	gt_fdinfo_device_busy(fi, "garbage", &val, NULL);
	assert_why(&val, GT_WHY_UNSUPPORTED_DEVICE);
	busy_is(fi, "0000:09:00.0", 0); /* a device nobody uses */
	gt_fdinfo_free(fi);
	free(x);
	free(m);
	free(n);
}

static void set_comm(struct tree *t, int pid, const char *comm)
{
	char p[PATH_MAX];
	tree_pid(t, pid);
	snprintf(p, sizeof(p), "%s/%d/comm", t->root, pid);
	write_file(p, comm, strlen(comm));
}

static void test_brokers_credit_the_compositor(void **state)
{
	struct tree *t = *state;
	struct gt_proc_vec v;
	/* logind opened the card for the compositor and kept a copy; pid 1
	 * inherited one too. The compositor gets the client. */
	set_comm(t, 1, "systemd\n");
	set_comm(t, 50, "systemd-logind\n");
	set_comm(t, 60, "gnome-shell\n");
	set_comm(t, 70, "Xwayland\n");
	set_client(t, 1, 9, 30, 0);
	set_client(t, 50, 20, 30, 0);
	set_client(t, 60, 14, 30, 0);
	set_client(t, 70, 3, 30, 0);
	/* A client only logind holds stays logind's. */
	set_client(t, 50, 21, 31, 0);
	struct gt_fdinfo *fi = gt_fdinfo_new(t->root);
	assert_non_null(fi);
	gt_fdinfo_update(fi, T0, false);
	set_client(t, 1, 9, 30, 400 * MS);
	set_client(t, 50, 20, 30, 400 * MS);
	set_client(t, 60, 14, 30, 400 * MS);
	set_client(t, 70, 3, 30, 400 * MS);
	set_client(t, 50, 21, 31, 100 * MS);
	gt_fdinfo_update(fi, T0 + SEC, false);
	assert_int_equal(gt_fdinfo_client_count(fi), 2);
	procs(fi, PDEV_I915, &v);
	assert_int_equal(v.count, 2);
	assert_int_equal(v.items[0].pid, 50);
	assert_val(&v.items[0].f[GT_P_GPU], 1000);
	assert_int_equal(v.items[1].pid, 60);
	assert_val(&v.items[1].f[GT_P_GPU], 4000);
	gt_proc_vec_free(&v);
	busy_is(fi, PDEV_I915, 5000);
	gt_fdinfo_free(fi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    tree_test(test_i915_two_samples),
	    tree_test(test_xe_cycles),
	    tree_test(test_amdgpu_current),
	    tree_test(test_amdgpu_compute_and_kfd),
	    tree_test(test_amdgpu_legacy),
	    tree_test(test_shared_client_counts_once),
	    tree_test(test_one_process_two_clients),
	    tree_test(test_malformed_vram),
	    tree_test(test_clamp_and_backwards),
	    tree_test(test_devices_and_addresses),
	    tree_test(test_brokers_credit_the_compositor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
