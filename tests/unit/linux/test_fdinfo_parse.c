/* SPDX-License-Identifier: MIT */
/*
 * test_fdinfo_parse.c - tests of the DRM fdinfo text parser
 * (src/fdinfo_parse.c): every real sample in tests/fixtures/fdinfo, the
 * whitespace and unit quirks, memory sizes that cannot be read, amdgpu's
 * legacy percentages, engine classes, PCI addresses, and truncated or
 * random input.
 */
#include "support/fdinfo_test.h"

static const char *const all_fixtures[] = {
    I915_TABS, I915_SPACES, XE_TABS,   XE_SPACES, AMD_V1,   AMD_V2,  AMD_LATE,
    AMD_515,   AMD_87,      AMD_ROCMI, MSM,       PANFROST, PANTHOR, XDNA,
};

static struct gt_fdinfo_sample *parse_fixture(const char *rel, bool expect_drm)
{
	size_t len;
	char *text = fixture(rel, &len);
	struct gt_fdinfo_sample *s = malloc(sizeof(*s));
	assert_non_null(s);
	bool drm = gt_fdinfo_parse(text, len, s);
	free(text);
	if (drm != expect_drm)
		fail_msg("%s: parse returned %d", rel, drm);
	return s;
}

/* ---- parser: the real samples ---------------------------------------------
 */

static void test_parse_i915(void **state)
{
	(void)state;
	const char *files[] = {I915_TABS, I915_SPACES};
	for (int i = 0; i < 2; i++) {
		struct gt_fdinfo_sample *s = parse_fixture(files[i], true);
		assert_string_equal(s->driver, "i915");
		assert_false(s->legacy);
		assert_true(s->has_pdev);
		assert_int_equal(s->pdev, pdev_key(PDEV_I915));
		assert_true(s->has_client_id);
		assert_int_equal(s->client_id, 7);
		assert_int_equal(s->n_engines, 4);
		const struct gt_fdinfo_engine *e = engine(s, "render");
		assert_int_equal(e->ns, 9288864723ull);
		assert_int_equal(e->have, GT_FDI_HAVE_NS);
		assert_int_equal(e->cls, GT_FDI_RENDER);
		assert_int_equal(e->capacity, 1);
		e = engine(s, "copy");
		assert_int_equal(e->ns, 2035071108ull);
		assert_int_equal(e->cls, GT_FDI_COPY);
		e = engine(s, "video");
		assert_int_equal(e->capacity, 2);
		assert_int_equal(e->cls, GT_FDI_CODEC);
		assert_int_equal(e->have, GT_FDI_HAVE_NS);
		assert_int_equal(engine(s, "video-enhance")->cls, GT_FDI_VPP);
		/* No size keys in this sample: neither memory is known. */
		uint64_t b;
		assert_false(s->any_mem);
		assert_false(gt_fdinfo_sample_mem(s, GT_FDI_VRAM, &b));
		assert_false(gt_fdinfo_sample_mem(s, GT_FDI_GTT, &b));
		free(s);
	}
}

static void test_parse_xe(void **state)
{
	(void)state;
	const char *files[] = {XE_TABS, XE_SPACES};
	for (int i = 0; i < 2; i++) {
		struct gt_fdinfo_sample *s = parse_fixture(files[i], true);
		assert_string_equal(s->driver, "xe");
		assert_int_equal(s->pdev, pdev_key(PDEV_XE));
		assert_int_equal(s->client_id, 3);
		assert_int_equal(s->n_engines, 5);
		const struct gt_fdinfo_engine *e = engine(s, "rcs");
		assert_int_equal(e->cycles, 28257900ull);
		assert_int_equal(e->total_cycles, 7655183225ull);
		assert_int_equal(e->have,
		                 GT_FDI_HAVE_CYCLES | GT_FDI_HAVE_TOTAL);
		assert_int_equal(e->cls, GT_FDI_RENDER);
		assert_int_equal(e->capacity, 1);
		assert_int_equal(engine(s, "bcs")->cls, GT_FDI_COPY);
		assert_int_equal(engine(s, "vcs")->capacity, 2);
		assert_int_equal(engine(s, "vcs")->cls, GT_FDI_CODEC);
		assert_int_equal(engine(s, "vecs")->capacity, 2);
		assert_int_equal(engine(s, "vecs")->cls, GT_FDI_VPP);
		assert_int_equal(engine(s, "ccs")->capacity, 4);
		assert_int_equal(engine(s, "ccs")->cls, GT_FDI_COMPUTE);
		/* Resident: vram0 23992 KiB; gtt 192 KiB + system 0. The
		 * shared 16 MiB and the stolen region are not counted. */
		assert_int_equal(mem_of(s, GT_FDI_VRAM), 23992 * KIB);
		assert_int_equal(mem_of(s, GT_FDI_GTT), 192 * KIB);
		free(s);
	}
}

static void test_parse_amdgpu_formats(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		bool legacy, has_id;
		uint64_t id, pasid;
		const char *pdev;
		uint64_t vram, gtt;
		const char *engine;
		enum gt_fdinfo_class cls;
		uint64_t ns;
		uint32_t pct;
	} cases[] = {
	    /* 2024 drm_print_memory_stats, with the ": \t" legacy lines:
	     * resident wins over drm-memory-* and total. */
	    {AMD_V1, false, true, 30, 32785, PDEV_AMD, 544428 * KIB, 22 * MIB,
	     "gfx", GT_FDI_RENDER, 39456116802ull, 0},
	    {AMD_V2, false, true, 4, 32771, PDEV_AMD, 44564 * KIB, 2392 * KIB,
	     "compute", GT_FDI_COMPUTE, 46464671ull, 0},
	    {AMD_LATE, false, true, 30, 32785, PDEV_AMD, 155068 * KIB, 20 * MIB,
	     "gfx", GT_FDI_RENDER, 19291217545ull, 0},
	    /* 5.19-6.4: only drm-memory-* (gtt 8192 + cpu 0 KiB). */
	    {AMD_87, false, true, 217, 32784, "0000:08:00.0", 2068 * KIB,
	     8192 * KIB, "gfx", GT_FDI_RENDER, 107322799ull, 0},
	    /* 5.15: "vram mem: 17196 kB", a kernel-made "gfx0: 70.59%". */
	    {AMD_515, true, false, 0, 32774, PDEV_AMD, 17196 * KIB, 6144 * KIB,
	     "gfx0", GT_FDI_RENDER, 0, 7059},
	    /* KFD user: no engine at all; cpu 6200 KiB counts as GTT. */
	    {AMD_ROCMI, false, true, 1203108, 32771, "0000:83:00.0", 76 * KIB,
	     (44 + 6200) * KIB, NULL, GT_FDI_OTHER, 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gt_fdinfo_sample *s = parse_fixture(cases[i].file, true);
		assert_string_equal(s->driver, "amdgpu");
		assert_int_equal(s->legacy, cases[i].legacy);
		assert_int_equal(s->has_client_id, cases[i].has_id);
		assert_int_equal(s->client_id, cases[i].id);
		assert_true(s->has_pasid);
		assert_int_equal(s->pasid, cases[i].pasid);
		assert_true(s->has_pdev);
		assert_int_equal(s->pdev, pdev_key(cases[i].pdev));
		assert_int_equal(mem_of(s, GT_FDI_VRAM), cases[i].vram);
		assert_int_equal(mem_of(s, GT_FDI_GTT), cases[i].gtt);
		if (!cases[i].engine) {
			assert_int_equal(s->n_engines, 0);
		} else {
			assert_int_equal(s->n_engines, 1);
			const struct gt_fdinfo_engine *e =
			    engine(s, cases[i].engine);
			assert_int_equal(e->cls, cases[i].cls);
			assert_int_equal(e->ns, cases[i].ns);
			assert_int_equal(e->pct, cases[i].pct);
			assert_int_equal(e->have, cases[i].pct
			                              ? GT_FDI_HAVE_PCT
			                              : GT_FDI_HAVE_NS);
		}
		free(s);
	}
}

static void test_parse_other_drivers(void **state)
{
	(void)state;
	uint64_t b;
	struct gt_fdinfo_sample *s = parse_fixture(MSM, true);
	assert_string_equal(s->driver, "msm");
	assert_false(s->has_pdev); /* a platform device */
	const struct gt_fdinfo_engine *e = engine(s, "gpu");
	assert_int_equal(e->cls, GT_FDI_OTHER);
	assert_int_equal(e->ns, 1734371319ull);
	assert_int_equal(e->cycles, 1153645024ull);
	assert_int_equal(e->have, GT_FDI_HAVE_NS | GT_FDI_HAVE_CYCLES);
	assert_false(gt_fdinfo_sample_mem(s, GT_FDI_GTT, &b));
	free(s);

	s = parse_fixture(PANFROST, true);
	assert_int_equal(s->n_engines, 2);
	assert_int_equal(engine(s, "fragment")->ns, 1846584880ull);
	assert_int_equal(engine(s, "vertex-tiler")->cycles, 52617357ull);
	assert_int_equal(mem_of(s, GT_FDI_GTT), 36496 * KIB);
	assert_false(gt_fdinfo_sample_mem(s, GT_FDI_VRAM, &b));
	free(s);

	s = parse_fixture(PANTHOR, true);
	assert_int_equal(engine(s, "panthor")->ns, 111110952750ull);
	assert_int_equal(mem_of(s, GT_FDI_GTT), 16480 * KIB);
	free(s);

	/* The NPU: its own driver and PCI function, never a GPU's client. */
	s = parse_fixture(XDNA, true);
	assert_string_equal(s->driver, "amdxdna_accel_driver");
	assert_int_equal(s->pdev, pdev_key("0000:c5:00.1"));
	assert_int_equal(s->client_id, 76);
	assert_int_equal(engine(s, "npu-amdxdna")->cls, GT_FDI_OTHER);
	assert_int_equal(mem_of(s, GT_FDI_GTT), 0); /* total-memory only */
	free(s);
}

static void test_parse_quirks(void **state)
{
	(void)state;
	struct gt_fdinfo_sample s;
	uint64_t b;
	/* CR LF, a space before the TAB, blanks around the key, unknown keys
	 * and lines, overflow, unknown units, capacity 0, and no final
	 * newline. */
	static const char text[] =
	    "pos:\t0\r\n"
	    "drm-driver:\tamdgpu\r\n"
	    "drm-pdev:\t0000:0A:00.0\n"
	    "drm-client-id: \t 12\n"
	    "drm-memory-vram:\t1 GiB\n"
	    "drm-memory-gtt: \t22528 KiB\n"
	    "drm-resident-stolen:\t4 MiB\n"
	    "unknown-key: whatever\n"
	    "no colon here\n"
	    ":\n"
	    "drm-engine-compute:\t99999999999999999999999 ns\n"
	    "drm-engine-dma:\t5 furlongs\n"
	    "drm-resident-gtt:\t5 TiB\n"
	    "drm-engine-capacity-gfx:\t0\n"
	    "drm-engine-an-engine-name-far-too-long-to-keep:\t1 ns\n"
	    " drm-engine-gfx:\t5 ns";
	assert_true(gt_fdinfo_parse(text, sizeof(text) - 1, &s));
	assert_string_equal(s.driver, "amdgpu");
	assert_int_equal(s.pdev, pdev_key("0000:0a:00.0"));
	assert_int_equal(s.client_id, 12);
	assert_int_equal(mem_of(&s, GT_FDI_VRAM), 1ull << 30);
	assert_int_equal(mem_of(&s, GT_FDI_GTT), 22528 * KIB);
	assert_int_equal(s.n_engines, 1);
	assert_int_equal(engine(&s, "gfx")->ns, 5);
	assert_int_equal(engine(&s, "gfx")->capacity, 1);

	/* A NUL ends the text; a length shorter than the text too. */
	static const char nul[] = "drm-driver:\ti915\n\0\ndrm-client-id:\t9\n";
	assert_true(gt_fdinfo_parse(nul, sizeof(nul) - 1, &s));
	assert_false(s.has_client_id);
	assert_true(gt_fdinfo_parse(text, 40, &s));
	assert_false(s.has_pdev);

	/* Not DRM: the generic lines only, or nothing. */
	static const char plain[] = "pos:\t0\nflags:\t0100002\nmnt_id:\t21\n";
	assert_false(gt_fdinfo_parse(plain, sizeof(plain) - 1, &s));
	assert_false(gt_fdinfo_parse("", 0, &s));
	assert_false(gt_fdinfo_parse(NULL, 10, &s));
	assert_false(gt_fdinfo_sample_mem(&s, GT_FDI_VRAM, &b));

	/* The capacity clamp and a capacity printed before its engine. */
	static const char cap[] = "drm-driver: xe\n"
	                          "drm-engine-capacity-ccs: 100000\n"
	                          "drm-cycles-ccs: 5\n";
	assert_true(gt_fdinfo_parse(cap, sizeof(cap) - 1, &s));
	assert_int_equal(engine(&s, "ccs")->capacity, GT_FDINFO_MAX_CAPACITY);
	assert_int_equal(engine(&s, "ccs")->have, GT_FDI_HAVE_CYCLES);
}

/* A memory size the driver printed but that cannot be read (not a number,
 * a unit not known, too large) is not taken as absent: no size, and the
 * key named for the reason; a kind of key that could be read is used
 * instead, and a region gputop ignores stays ignored. */
static void test_parse_malformed_memory(void **state)
{
	static const struct {
		const char *text;
		enum gt_fdinfo_mem mem;
		int key; /* in keys[]; -1: the size is read after all */
		uint64_t bytes;
	} cases[] = {
	    {"drm-memory-vram:\tabc KiB\n", GT_FDI_VRAM, 0, 0},
	    {"drm-memory-vram:\t12 TiB\n", GT_FDI_VRAM, 0, 0},
	    {"drm-memory-vram:\t99999999999999999999 KiB\n", GT_FDI_VRAM, 0, 0},
	    {"drm-memory-vram:\t\n", GT_FDI_VRAM, 0, 0},
	    {"drm-total-vram0:\t-4 KiB\n", GT_FDI_VRAM, 1, 0},
	    {"drm-resident-local1:\t4 KB\n", GT_FDI_VRAM, 2, 0},
	    {"vram mem:\tlots\n", GT_FDI_VRAM, 3, 0},
	    {"drm-resident-system0:\t1.5 MiB\n", GT_FDI_GTT, 4, 0},
	    /* resident cannot be read, drm-memory-* can: that one */
	    {"drm-resident-vram:\tx\ndrm-memory-vram:\t8 KiB\n", GT_FDI_VRAM,
	     -1, 8 * KIB},
	    /* one region of two: the sum would be short */
	    {"drm-total-vram0:\t4 KiB\ndrm-total-vram1:\t4 XiB\n", GT_FDI_VRAM,
	     5, 0},
	};
	const int32_t keys[] = {
	    gt_why_fdinfo_key(GT_WHY_FDI_MEMORY, GT_WHY_FDI_VRAM, -1),
	    gt_why_fdinfo_key(GT_WHY_FDI_TOTAL, GT_WHY_FDI_VRAM, 0),
	    gt_why_fdinfo_key(GT_WHY_FDI_RESIDENT, GT_WHY_FDI_LOCAL, 1),
	    gt_why_fdinfo_key(GT_WHY_FDI_LEGACY, GT_WHY_FDI_VRAM, -1),
	    gt_why_fdinfo_key(GT_WHY_FDI_RESIDENT, GT_WHY_FDI_SYSTEM, 0),
	    gt_why_fdinfo_key(GT_WHY_FDI_TOTAL, GT_WHY_FDI_VRAM, 1),
	};
	struct gt_fdinfo_sample s;
	char text[256];
	uint64_t b;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "drm-driver:\tamdgpu\n%s",
		         cases[i].text);
		assert_true(gt_fdinfo_parse(text, strlen(text), &s));
		bool ok = gt_fdinfo_sample_mem(&s, cases[i].mem, &b);
		int32_t bad = gt_fdinfo_sample_bad_key(&s, cases[i].mem);
		int32_t want = cases[i].key < 0 ? -1 : keys[cases[i].key];
		if (ok != (cases[i].key < 0) || b != cases[i].bytes ||
		    bad != want || !s.any_mem)
			fail_msg(
			    "case %zu: ok %d, %llu bytes, key %d (want %d)", i,
			    ok, (unsigned long long)b, (int)bad, (int)want);
		/* the other memory: no key at all, nothing bad */
		enum gt_fdinfo_mem other =
		    cases[i].mem == GT_FDI_VRAM ? GT_FDI_GTT : GT_FDI_VRAM;
		assert_false(gt_fdinfo_sample_mem(&s, other, &b));
		assert_int_equal(gt_fdinfo_sample_bad_key(&s, other), -1);
	}
	/* An ignored region stays ignored, readable or not. */
	static const char stolen[] = "drm-driver:\ti915\n"
	                             "drm-resident-stolen:\tabc\n";
	assert_true(gt_fdinfo_parse(stolen, sizeof(stolen) - 1, &s));
	assert_false(s.any_mem);
	assert_int_equal(gt_fdinfo_sample_bad_key(&s, GT_FDI_VRAM), -1);
	assert_int_equal(gt_fdinfo_sample_bad_key(&s, GT_FDI_GTT), -1);
}

static void test_parse_legacy_percent(void **state)
{
	(void)state;
	struct gt_fdinfo_sample s;
	/* amdgpu 5.14 printed the pdev without a domain and the percentages
	 * with "%d.%d%%" of hundredths: "70.5%" is 70.05 %. */
	static const char text[] = "pdev:\t04:00.0\n"
	                           "pasid:\t5\n"
	                           "gfx0:\t70.5%\n"
	                           "enc_10:\t3.25%\n"
	                           "compute1:\t100.0%\n"
	                           "dec0:\t7%\n"
	                           "bogus0:\t5.0%\n"
	                           "gfx1:\tnot a number%\n";
	assert_true(gt_fdinfo_parse(text, sizeof(text) - 1, &s));
	assert_true(s.legacy);
	assert_string_equal(s.driver, "amdgpu");
	assert_int_equal(s.pdev, pdev_key(PDEV_AMD));
	assert_int_equal(s.pasid, 5);
	assert_int_equal(s.n_engines, 4);
	assert_int_equal(engine(&s, "gfx0")->pct, 7005);
	assert_int_equal(engine(&s, "enc_10")->pct, 325);
	assert_int_equal(engine(&s, "enc_10")->cls, GT_FDI_ENC);
	assert_int_equal(engine(&s, "compute1")->pct, 10000);
	assert_int_equal(engine(&s, "compute1")->cls, GT_FDI_COMPUTE);
	assert_int_equal(engine(&s, "dec0")->pct, 700);
	assert_int_equal(engine(&s, "dec0")->have, GT_FDI_HAVE_PCT);

	/* pasid alone, or pdev alone, is not a client. */
	assert_false(gt_fdinfo_parse("pasid:\t5\n", 9, &s));
	assert_false(gt_fdinfo_parse("pdev:\t04:00.0\n", 14, &s));
}

static void test_engine_classes(void **state)
{
	(void)state;
	static const struct {
		const char *name;
		enum gt_fdinfo_class cls;
	} cases[] = {
	    {"gfx", GT_FDI_RENDER},        {"gfx0", GT_FDI_RENDER},
	    {"render", GT_FDI_RENDER},     {"rcs", GT_FDI_RENDER},
	    {"compute", GT_FDI_COMPUTE},   {"compute12", GT_FDI_COMPUTE},
	    {"ccs", GT_FDI_COMPUTE},       {"dma", GT_FDI_COPY},
	    {"sdma1", GT_FDI_COPY},        {"copy", GT_FDI_COPY},
	    {"bcs", GT_FDI_COPY},          {"video", GT_FDI_CODEC},
	    {"vcs", GT_FDI_CODEC},         {"dec", GT_FDI_DEC},
	    {"jpeg", GT_FDI_DEC},          {"jpeg0", GT_FDI_DEC},
	    {"enc", GT_FDI_ENC},           {"enc_1", GT_FDI_ENC},
	    {"enc_10", GT_FDI_ENC},        {"enc0", GT_FDI_ENC},
	    {"video-enhance", GT_FDI_VPP}, {"vecs", GT_FDI_VPP},
	    {"vpe", GT_FDI_VPP},           {"gpu", GT_FDI_OTHER},
	    {"fragment", GT_FDI_OTHER},    {"panthor", GT_FDI_OTHER},
	    {"0", GT_FDI_OTHER},           {"", GT_FDI_OTHER},
	    {"gfxx", GT_FDI_OTHER},        {"xgfx", GT_FDI_OTHER},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (gt_fdinfo_engine_class(cases[i].name) != cases[i].cls)
			fail_msg("class of '%s' is %d, want %d", cases[i].name,
			         gt_fdinfo_engine_class(cases[i].name),
			         cases[i].cls);
}

static void test_pdev_parse(void **state)
{
	(void)state;
	uint64_t k;
	assert_int_equal(pdev_key("00000000:03:00.0"),
	                 pdev_key("0000:03:00.0"));
	assert_int_equal(pdev_key("0000:0A:1f.7"), pdev_key("0000:0a:1F.7"));
	assert_int_equal(pdev_key(" 03:00.0\t"), pdev_key("0000:03:00.0"));
	assert_true(pdev_key("0001:03:00.0") != pdev_key("0000:03:00.0"));
	assert_true(pdev_key("0000:03:00.1") != pdev_key("0000:03:00.0"));
	assert_true(pdev_key("0000:04:00.0") != pdev_key("0000:03:00.0"));
	static const char *const bad[] = {
	    "",
	    "0000:03:00",
	    "zz:00.0",
	    "0000:03:00.8",
	    "0000:100:00.0",
	    "0000:03:20.0",
	    "0000:03:00.0x",
	    "000000000:03:00.0",
	    ":03:00.0",
	    "0000:03:00.",
	    "0000::00.0",
	    "0000:03:000.0",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (gt_fdinfo_pdev_parse(bad[i], strlen(bad[i]), &k))
			fail_msg("'%s' parsed as a PCI address", bad[i]);
}

/* Bad input never crashes and never gives out-of-range state. */
static void check_sane(const struct gt_fdinfo_sample *s)
{
	assert_true(s->n_engines <= GT_FDINFO_MAX_ENGINES);
	assert_non_null(memchr(s->driver, '\0', sizeof(s->driver)));
	for (uint32_t i = 0; i < s->n_engines; i++) {
		const struct gt_fdinfo_engine *e = &s->engines[i];
		assert_non_null(memchr(e->name, '\0', sizeof(e->name)));
		assert_true(e->name[0] != '\0');
		assert_true(e->capacity >= 1 &&
		            e->capacity <= GT_FDINFO_MAX_CAPACITY);
		assert_true(e->cls < GT_FDI__CLASS_COUNT);
	}
}

static void test_parse_fuzz(void **state)
{
	(void)state;
	struct gt_fdinfo_sample s;
	/* Every truncation of every sample. */
	for (size_t f = 0; f < sizeof(all_fixtures) / sizeof(all_fixtures[0]);
	     f++) {
		size_t len;
		char *text = fixture(all_fixtures[f], &len);
		for (size_t n = 0; n <= len; n++) {
			/* A heap copy of exactly n bytes: ASan sees overreads.
			 */
			char *cut = malloc(n ? n : 1);
			assert_non_null(cut);
			memcpy(cut, text, n);
			gt_fdinfo_parse(cut, n, &s);
			check_sane(&s);
			free(cut);
		}
		free(text);
	}
	/* Random bytes, and random lines made of real keys and values. */
	static const char *const words[] = {
	    "drm-driver",
	    "drm-pdev",
	    "drm-client-id",
	    "drm-engine-",
	    "drm-engine-capacity-",
	    "drm-cycles-",
	    "drm-total-cycles-",
	    "drm-total-",
	    "drm-resident-",
	    "drm-memory-",
	    "pdev",
	    "pasid",
	    "vram mem",
	    "gfx0",
	    "enc_10",
	    "render",
	    "vram0",
	    "gtt",
	    ":",
	    ": \t",
	    "\t",
	    " ",
	    "\n",
	    "\r",
	    "%",
	    ".",
	    "ns",
	    "KiB",
	    "MiB",
	    "GiB",
	    "0",
	    "18446744073709551615",
	    "18446744073709551616",
	    "0000:03:00.0",
	    "ffffffff:ff:1f.7",
	    "-1",
	    "\xff",
	    "\0",
	};
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char buf[2048];
	for (int round = 0; round < 4000; round++) {
		size_t n = 0;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		size_t want = (size_t)(seed >> 33) % sizeof(buf);
		bool bytes = round % 2 == 0;
		while (n < want) {
			seed = seed * 6364136223846793005ull +
			       1442695040888963407ull;
			if (bytes) {
				buf[n++] = (char)(seed >> 56);
				continue;
			}
			const char *w =
			    words[(seed >> 33) %
			          (sizeof(words) / sizeof(words[0]))];
			size_t wl = w[0] ? strlen(w) : 1;
			if (n + wl > want)
				break;
			memcpy(buf + n, w, wl);
			n += wl;
		}
		char *heap = malloc(n ? n : 1);
		assert_non_null(heap);
		memcpy(heap, buf, n);
		gt_fdinfo_parse(heap, n, &s);
		check_sane(&s);
		free(heap);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_i915),
	    cmocka_unit_test(test_parse_xe),
	    cmocka_unit_test(test_parse_amdgpu_formats),
	    cmocka_unit_test(test_parse_other_drivers),
	    cmocka_unit_test(test_parse_quirks),
	    cmocka_unit_test(test_parse_malformed_memory),
	    cmocka_unit_test(test_parse_legacy_percent),
	    cmocka_unit_test(test_engine_classes),
	    cmocka_unit_test(test_pdev_parse),
	    cmocka_unit_test(test_parse_fuzz),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
