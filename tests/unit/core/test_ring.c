/* SPDX-License-Identifier: MIT */
/*
 * test_ring.c - single-threaded tests of the sample ring (src/ring.c) and of
 * the hazard-pointer publisher (src/publish.c). The cross-thread behaviour is
 * covered by tests/stress under ThreadSanitizer; these pin down the exact
 * results: positions, EMPTY/OVERWRITTEN, lost counts, byte-exact copies, and
 * when the publisher frees what.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/publish.h"
#include "core/ring.h"

/* ------------------------------------------------------------------ */
/* gt_ring                                                              */
/* ------------------------------------------------------------------ */

static void push_u64(struct gt_ring *r, uint64_t v)
{
	gt_ring_push(r, &v);
}

static void test_ring_init_rounds_capacity(void **state)
{
	static const struct {
		size_t ask, want;
	} cases[] = {
	    {1, 1}, {2, 2},  {3, 4},       {4, 4},       {5, 8},       {7, 8},
	    {8, 8}, {9, 16}, {1000, 1024}, {1024, 1024}, {1025, 2048},
	};
	struct gt_ring r;
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(gt_ring_init(&r, cases[i].ask, 8), 0);
		assert_int_equal(r.capacity, cases[i].want);
		assert_int_equal(r.elem_size, 8);
		assert_int_equal(r.words, 1);
		assert_int_equal(gt_ring_head(&r), 0);
		gt_ring_destroy(&r);
	}
	assert_int_equal(gt_ring_init(&r, 4, 13), 0);
	assert_int_equal(r.words, 2);
	gt_ring_destroy(&r);
	assert_int_equal(gt_ring_init(&r, 4, 16), 0);
	assert_int_equal(r.words, 2);
	gt_ring_destroy(&r);
	assert_int_equal(gt_ring_init(&r, 4, 1), 0);
	assert_int_equal(r.words, 1);
	gt_ring_destroy(&r);

	assert_int_equal(gt_ring_init(&r, 0, 8), -1);
	assert_int_equal(gt_ring_init(&r, 8, 0), -1);
	/* destroy after a failed init, and twice, is harmless */
	gt_ring_destroy(&r);
	gt_ring_destroy(&r);
}

static void test_ring_empty_before_written(void **state)
{
	struct gt_ring r;
	uint64_t out = 0xdead, pos = 0xbeef;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 8, sizeof(uint64_t)), 0);
	assert_int_equal(gt_ring_read_at(&r, 0, &out), GT_RING_EMPTY);
	assert_int_equal(gt_ring_read_at(&r, 7, &out), GT_RING_EMPTY);
	assert_int_equal(gt_ring_read_latest(&r, &out, &pos), GT_RING_EMPTY);
	assert_int_equal(out, 0xdead); /* untouched */
	assert_int_equal(pos, 0xbeef);

	struct gt_ring_cursor c = {0, 0};
	assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_EMPTY);
	assert_int_equal(c.next, 0);
	assert_int_equal(c.lost, 0);

	push_u64(&r, 100);
	push_u64(&r, 101);
	push_u64(&r, 102);
	assert_int_equal(gt_ring_head(&r), 3);
	/* records not yet written, in fresh slots and in used ones */
	assert_int_equal(gt_ring_read_at(&r, 3, &out), GT_RING_EMPTY);
	assert_int_equal(gt_ring_read_at(&r, 7, &out), GT_RING_EMPTY);
	assert_int_equal(gt_ring_read_at(&r, 8, &out),
	                 GT_RING_EMPTY); /* slot 0 */
	assert_int_equal(gt_ring_read_at(&r, 10, &out), GT_RING_EMPTY);
	assert_int_equal(gt_ring_read_at(&r, 1000, &out), GT_RING_EMPTY);
	gt_ring_destroy(&r);
}

static void test_ring_push_read_at(void **state)
{
	struct gt_ring r;
	uint64_t out;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 8, sizeof(uint64_t)), 0);
	for (uint64_t i = 0; i < 8; i++) {
		push_u64(&r, 1000 + i);
		assert_int_equal(gt_ring_head(&r), i + 1);
	}
	for (uint64_t i = 0; i < 8; i++) {
		out = 0;
		assert_int_equal(gt_ring_read_at(&r, i, &out), GT_RING_OK);
		assert_int_equal(out, 1000 + i);
	}
	gt_ring_destroy(&r);
}

static void test_ring_overwritten_after_wrap(void **state)
{
	struct gt_ring r;
	uint64_t out;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 4, sizeof(uint64_t)), 0);
	for (uint64_t i = 0; i < 10; i++)
		push_u64(&r, 500 + i);
	/* slots hold records 6..9 now */
	for (uint64_t i = 0; i < 6; i++) {
		out = 0xdead;
		assert_int_equal(gt_ring_read_at(&r, i, &out),
		                 GT_RING_OVERWRITTEN);
	}
	for (uint64_t i = 6; i < 10; i++) {
		assert_int_equal(gt_ring_read_at(&r, i, &out), GT_RING_OK);
		assert_int_equal(out, 500 + i);
	}
	assert_int_equal(gt_ring_read_at(&r, 10, &out), GT_RING_EMPTY);
	gt_ring_destroy(&r);
}

static void test_ring_capacity_one(void **state)
{
	struct gt_ring r;
	uint64_t out, pos;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 1, sizeof(uint64_t)), 0);
	push_u64(&r, 1);
	push_u64(&r, 2);
	assert_int_equal(gt_ring_read_at(&r, 0, &out), GT_RING_OVERWRITTEN);
	assert_int_equal(gt_ring_read_at(&r, 1, &out), GT_RING_OK);
	assert_int_equal(out, 2);
	assert_int_equal(gt_ring_read_latest(&r, &out, &pos), GT_RING_OK);
	assert_int_equal(out, 2);
	assert_int_equal(pos, 1);
	gt_ring_destroy(&r);
}

static void test_ring_read_latest(void **state)
{
	struct gt_ring r;
	uint64_t out, pos;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 4, sizeof(uint64_t)), 0);
	for (uint64_t i = 0; i < 11; i++) {
		push_u64(&r, 7000 + i);
		out = 0;
		pos = 0xffff;
		assert_int_equal(gt_ring_read_latest(&r, &out, &pos),
		                 GT_RING_OK);
		assert_int_equal(out, 7000 + i);
		assert_int_equal(pos, i);
	}
	/* pos_out is optional */
	out = 0;
	assert_int_equal(gt_ring_read_latest(&r, &out, NULL), GT_RING_OK);
	assert_int_equal(out, 7010);
	/* reading does not consume */
	assert_int_equal(gt_ring_read_latest(&r, &out, &pos), GT_RING_OK);
	assert_int_equal(pos, 10);
	gt_ring_destroy(&r);
}

static void test_ring_cursor_in_order(void **state)
{
	struct gt_ring r;
	struct gt_ring_cursor c = {0, 0};
	uint64_t out;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 8, sizeof(uint64_t)), 0);
	for (uint64_t i = 0; i < 5; i++)
		push_u64(&r, 300 + i);
	for (uint64_t i = 0; i < 5; i++) {
		assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_OK);
		assert_int_equal(out, 300 + i);
		assert_int_equal(c.next, i + 1);
	}
	assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_EMPTY);
	assert_int_equal(c.next, 5);

	/* interleaved with the writer, never falling behind: nothing lost
	 * over many laps of the ring */
	for (uint64_t i = 5; i < 100; i++) {
		push_u64(&r, 300 + i);
		if (i % 3 == 0)
			push_u64(&r, 300 + ++i);
		while (gt_ring_read_next(&r, &c, &out) == GT_RING_OK)
			assert_int_equal(out, 300 + c.next - 1);
	}
	assert_int_equal(c.next, gt_ring_head(&r));
	assert_int_equal(c.lost, 0);

	/* a reader may start at "now" */
	struct gt_ring_cursor late = {gt_ring_head(&r), 0};
	assert_int_equal(gt_ring_read_next(&r, &late, &out), GT_RING_EMPTY);
	push_u64(&r, 424242);
	assert_int_equal(gt_ring_read_next(&r, &late, &out), GT_RING_OK);
	assert_int_equal(out, 424242);
	assert_int_equal(late.lost, 0);
	gt_ring_destroy(&r);
}

static void test_ring_cursor_lapped(void **state)
{
	struct gt_ring r;
	struct gt_ring_cursor c = {0, 0};
	uint64_t out;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 4, sizeof(uint64_t)), 0);
	for (uint64_t i = 0; i < 10; i++)
		push_u64(&r, 900 + i);
	/* records 0..5 are gone: skip to the oldest held, count 6 lost */
	assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_OK);
	assert_int_equal(out, 906);
	assert_int_equal(c.lost, 6);
	assert_int_equal(c.next, 7);
	for (uint64_t i = 7; i < 10; i++) {
		assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_OK);
		assert_int_equal(out, 900 + i);
	}
	assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_EMPTY);
	assert_int_equal(c.lost, 6);

	/* read some, fall behind again by exactly 3 records */
	for (uint64_t i = 10; i < 12; i++)
		push_u64(&r, 900 + i);
	assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_OK);
	assert_int_equal(out, 910);
	/* c.next = 11; push 12..17: head 18, oldest held 14 */
	for (uint64_t i = 12; i < 18; i++)
		push_u64(&r, 900 + i);
	assert_int_equal(gt_ring_read_next(&r, &c, &out), GT_RING_OK);
	assert_int_equal(out, 914);
	assert_int_equal(c.lost, 6 + 3);
	/* behind by exactly the capacity: nothing lost */
	struct gt_ring_cursor edge = {gt_ring_head(&r) - 4, 0};
	assert_int_equal(gt_ring_read_next(&r, &edge, &out), GT_RING_OK);
	assert_int_equal(out, 914);
	assert_int_equal(edge.lost, 0);
	gt_ring_destroy(&r);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 3));
}

/* Sizes that are not a multiple of 8 round-trip byte-exact, and a read
 * writes exactly elem_size bytes (the out buffers are exact-size heap
 * blocks, so ASan catches any overrun). */
static void check_odd_size(size_t size)
{
	struct gt_ring r;
	unsigned char *in = malloc(size);
	unsigned char *out = malloc(size);
	unsigned char *want = malloc(size);
	assert_non_null(in);
	assert_non_null(out);
	assert_non_null(want);

	assert_int_equal(gt_ring_init(&r, 4, size), 0);
	assert_int_equal(r.words, (size + 7) / 8);
	for (unsigned k = 0; k < 7; k++) {
		fill_pattern(in, size, k);
		gt_ring_push(&r, in);
	}
	/* records 3..6 held */
	for (unsigned k = 3; k < 7; k++) {
		fill_pattern(want, size, k);
		memset(out, 0, size);
		assert_int_equal(gt_ring_read_at(&r, k, out), GT_RING_OK);
		assert_memory_equal(out, want, size);
	}
	uint64_t pos;
	fill_pattern(want, size, 6);
	assert_int_equal(gt_ring_read_latest(&r, out, &pos), GT_RING_OK);
	assert_int_equal(pos, 6);
	assert_memory_equal(out, want, size);

	/* the tail of a partial last word does not leak between records */
	memset(in, 0xff, size);
	gt_ring_push(&r, in);
	memset(in, 0x00, size);
	for (unsigned k = 0; k < 4; k++)
		gt_ring_push(&r, in);
	memset(out, 0xaa, size);
	assert_int_equal(gt_ring_read_latest(&r, out, NULL), GT_RING_OK);
	assert_memory_equal(out, in, size);

	gt_ring_destroy(&r);
	free(in);
	free(out);
	free(want);
}

static void test_ring_odd_sizes(void **state)
{
	(void)state;
	check_odd_size(1);
	check_odd_size(7);
	check_odd_size(13);
	check_odd_size(61 * 8 + 4);
	check_odd_size(61 * 8);
}

static void test_ring_struct_records(void **state)
{
	struct rec {
		uint64_t seq;
		double d;
		char name[5];
	};
	struct gt_ring r;
	struct rec in, out;
	(void)state;

	assert_int_equal(gt_ring_init(&r, 2, sizeof(struct rec)), 0);
	memset(&in, 0, sizeof(in));
	in.seq = 12345678901234ull;
	in.d = -1.5;
	memcpy(in.name, "gpu0", 5);
	gt_ring_push(&r, &in);
	memset(&out, 0x11, sizeof(out));
	assert_int_equal(gt_ring_read_at(&r, 0, &out), GT_RING_OK);
	assert_memory_equal(&out, &in, sizeof(in));
	gt_ring_destroy(&r);
}

/*
 * Byte counts that overflow size_t must be refused, not wrapped into a small
 * allocation that the first push then overruns. Here words * capacity =
 * (2^60 + 1) * 16 wraps to 16.
 */
static void test_ring_init_rejects_size_overflow(void **state)
{
	struct gt_ring r;
	(void)state;

	if (sizeof(size_t) < 8)
		skip();
	int rc = gt_ring_init(&r, 16, ((size_t)1 << 63) + 8);
	if (rc == 0)
		gt_ring_destroy(&r);
	assert_int_equal(rc, -1);

	/* elem_size + 7 wraps: words would be 0 */
	rc = gt_ring_init(&r, 1, SIZE_MAX - 6);
	if (rc == 0)
		gt_ring_destroy(&r);
	assert_int_equal(rc, -1);
}

/*
 * A capacity above the largest power of two of size_t cannot be rounded up:
 * init must fail. (Run in a child with a watchdog: the rounding loop can
 * spin forever when the shift overflows to 0.)
 */
static void test_ring_init_rejects_huge_capacity(void **state)
{
	(void)state;
	static const size_t caps[] = {((SIZE_MAX >> 1) + 2), SIZE_MAX};
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct gt_ring r;
			alarm(5);
			int rc = gt_ring_init(&r, caps[i], 8);
			_exit(rc == -1 ? 0 : 1);
		}
		int status = 0;
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (WIFSIGNALED(status))
			fail_msg("gt_ring_init(capacity=%zu) did not return "
			         "(signal %d)",
			         caps[i], WTERMSIG(status));
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
}

/* ------------------------------------------------------------------ */
/* gt_pub                                                               */
/* ------------------------------------------------------------------ */

#define NOBJ 64

struct obj {
	int id;
};

static int freed[NOBJ];

static void obj_free(void *p)
{
	struct obj *o = p;
	assert_true(o->id >= 0 && o->id < NOBJ);
	freed[o->id]++;
	free(o);
}

static struct obj *obj_new(int id)
{
	struct obj *o = malloc(sizeof(*o));
	assert_non_null(o);
	o->id = id;
	return o;
}

static int total_freed(void)
{
	int n = 0;
	for (int i = 0; i < NOBJ; i++)
		n += freed[i];
	return n;
}

static int pub_setup(void **state)
{
	(void)state;
	memset(freed, 0, sizeof(freed));
	return 0;
}

static void test_pub_empty(void **state)
{
	struct gt_pub pub;
	(void)state;

	gt_pub_init(&pub, obj_free);
	int s = gt_pub_reader_open(&pub);
	assert_true(s >= 0);
	assert_null(gt_pub_acquire(&pub, s));
	gt_pub_release(&pub, s);
	gt_pub_reader_close(&pub, s);
	gt_pub_destroy(&pub);
	assert_int_equal(total_freed(), 0);
}

static void test_pub_publish_acquire_release(void **state)
{
	struct gt_pub pub;
	(void)state;

	gt_pub_init(&pub, obj_free);
	int s = gt_pub_reader_open(&pub);
	assert_true(s >= 0);

	struct obj *a = obj_new(0);
	gt_pub_publish(&pub, a);
	const struct obj *got = gt_pub_acquire(&pub, s);
	assert_ptr_equal(got, a);
	assert_int_equal(got->id, 0);
	gt_pub_release(&pub, s);

	/* nobody holds a: replacing it frees it at once */
	gt_pub_publish(&pub, obj_new(1));
	assert_int_equal(freed[0], 1);
	assert_int_equal(freed[1], 0);

	got = gt_pub_acquire(&pub, s);
	assert_int_equal(got->id, 1);
	gt_pub_release(&pub, s);

	/* publishing NULL retires the current object */
	gt_pub_publish(&pub, NULL);
	assert_int_equal(freed[1], 1);
	assert_null(gt_pub_acquire(&pub, s));
	gt_pub_release(&pub, s);

	gt_pub_reader_close(&pub, s);
	gt_pub_destroy(&pub);
	assert_int_equal(total_freed(), 2);
}

static void test_pub_held_object_survives(void **state)
{
	struct gt_pub pub;
	(void)state;

	gt_pub_init(&pub, obj_free);
	int r1 = gt_pub_reader_open(&pub);
	int r2 = gt_pub_reader_open(&pub);
	assert_true(r1 >= 0 && r2 >= 0 && r1 != r2);

	gt_pub_publish(&pub, obj_new(0));
	const struct obj *held = gt_pub_acquire(&pub, r1);
	assert_int_equal(held->id, 0);

	/* r1 holds 0 through two newer publications */
	gt_pub_publish(&pub, obj_new(1));
	assert_int_equal(freed[0], 0);
	const struct obj *o2 = gt_pub_acquire(&pub, r2);
	assert_int_equal(o2->id, 1); /* a new reader sees the newest */
	gt_pub_release(&pub, r2);

	gt_pub_publish(&pub, obj_new(2));
	assert_int_equal(freed[0], 0);
	assert_int_equal(freed[1], 1); /* not held: freed */
	assert_int_equal(held->id, 0); /* still readable (ASan: no UAF) */

	o2 = gt_pub_acquire(&pub, r2);
	assert_int_equal(o2->id, 2);
	gt_pub_release(&pub, r2);

	/* released: freed at the next publication, not before */
	gt_pub_release(&pub, r1);
	assert_int_equal(freed[0], 0);
	gt_pub_publish(&pub, obj_new(3));
	assert_int_equal(freed[0], 1);
	assert_int_equal(freed[2], 1);
	assert_int_equal(freed[3], 0);

	/* the holder of the current object keeps it when it is replaced */
	const struct obj *cur = gt_pub_acquire(&pub, r1);
	assert_int_equal(cur->id, 3);
	gt_pub_publish(&pub, obj_new(4));
	assert_int_equal(freed[3], 0);
	assert_int_equal(cur->id, 3);
	/* re-acquiring moves the hazard to the newest object */
	cur = gt_pub_acquire(&pub, r1);
	assert_int_equal(cur->id, 4);
	gt_pub_publish(&pub, obj_new(5));
	assert_int_equal(freed[3], 1);
	assert_int_equal(freed[4], 0);
	gt_pub_release(&pub, r1);

	gt_pub_reader_close(&pub, r1);
	gt_pub_reader_close(&pub, r2);
	gt_pub_destroy(&pub);
	for (int i = 0; i <= 5; i++)
		assert_int_equal(freed[i], 1);
	assert_int_equal(total_freed(), 6);
}

static void test_pub_close_drops_hazard(void **state)
{
	struct gt_pub pub;
	(void)state;

	gt_pub_init(&pub, obj_free);
	int s = gt_pub_reader_open(&pub);
	gt_pub_publish(&pub, obj_new(0));
	assert_non_null(gt_pub_acquire(&pub, s));
	gt_pub_reader_close(&pub, s); /* without release */
	gt_pub_publish(&pub, obj_new(1));
	assert_int_equal(freed[0], 1);
	gt_pub_destroy(&pub);
	assert_int_equal(freed[1], 1);
}

static void test_pub_reader_slots(void **state)
{
	struct gt_pub pub;
	int slots[GT_PUB_READERS];
	(void)state;

	gt_pub_init(&pub, obj_free);
	for (int i = 0; i < GT_PUB_READERS; i++) {
		slots[i] = gt_pub_reader_open(&pub);
		assert_true(slots[i] >= 0 && slots[i] < GT_PUB_READERS);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(slots[i], slots[j]);
	}
	assert_int_equal(gt_pub_reader_open(&pub), -1);
	assert_int_equal(gt_pub_reader_open(&pub), -1);

	/* a closed slot can be opened again */
	gt_pub_reader_close(&pub, slots[5]);
	int again = gt_pub_reader_open(&pub);
	assert_int_equal(again, slots[5]);
	assert_int_equal(gt_pub_reader_open(&pub), -1);

	for (int i = 0; i < GT_PUB_READERS; i++)
		gt_pub_reader_close(&pub, slots[i]);
	gt_pub_destroy(&pub);
}

/* Every reader holds a different retired object: the retired list reaches
 * its bound and nothing is freed early, twice, or never. */
static void test_pub_all_readers_hold(void **state)
{
	struct gt_pub pub;
	int slots[GT_PUB_READERS];
	const struct obj *held[GT_PUB_READERS];
	int id = 0;
	(void)state;

	gt_pub_init(&pub, obj_free);
	for (int i = 0; i < GT_PUB_READERS; i++)
		slots[i] = gt_pub_reader_open(&pub);
	for (int i = 0; i < GT_PUB_READERS; i++) {
		gt_pub_publish(&pub, obj_new(id++));
		held[i] = gt_pub_acquire(&pub, slots[i]);
		assert_int_equal(held[i]->id, i);
	}
	/* 16 more publications: each new object is freed when replaced,
	 * none of the 16 held ones is */
	for (int k = 0; k < GT_PUB_READERS; k++) {
		gt_pub_publish(&pub, obj_new(id++));
		assert_true(pub.nretired <= GT_PUB_READERS + 1);
	}
	for (int i = 0; i < GT_PUB_READERS; i++) {
		assert_int_equal(freed[i], 0);
		assert_int_equal(held[i]->id, i);
	}
	for (int i = GT_PUB_READERS; i < id - 1; i++)
		assert_int_equal(freed[i], 1);

	/* release half, publish: exactly those go */
	for (int i = 0; i < GT_PUB_READERS; i += 2)
		gt_pub_release(&pub, slots[i]);
	gt_pub_publish(&pub, obj_new(id++));
	for (int i = 0; i < GT_PUB_READERS; i++)
		assert_int_equal(freed[i], i % 2 == 0 ? 1 : 0);

	/* destroy frees the rest, each once: the still-held ones included
	 * (destroy requires no active reader; the test only checks counts) */
	gt_pub_destroy(&pub);
	for (int i = 0; i < id; i++)
		assert_int_equal(freed[i], 1);
	assert_int_equal(total_freed(), id);
}

static void test_pub_destroy_frees_everything(void **state)
{
	struct gt_pub pub;
	(void)state;

	gt_pub_init(&pub, obj_free);
	int s = gt_pub_reader_open(&pub);
	gt_pub_publish(&pub, obj_new(0));
	(void)gt_pub_acquire(&pub, s);
	gt_pub_publish(&pub, obj_new(1)); /* 0 retired, held */
	assert_int_equal(total_freed(), 0);
	gt_pub_release(&pub, s);
	gt_pub_reader_close(&pub, s);
	gt_pub_destroy(&pub);
	assert_int_equal(freed[0], 1);
	assert_int_equal(freed[1], 1);
	assert_int_equal(total_freed(), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ring_init_rounds_capacity),
	    cmocka_unit_test(test_ring_empty_before_written),
	    cmocka_unit_test(test_ring_push_read_at),
	    cmocka_unit_test(test_ring_overwritten_after_wrap),
	    cmocka_unit_test(test_ring_capacity_one),
	    cmocka_unit_test(test_ring_read_latest),
	    cmocka_unit_test(test_ring_cursor_in_order),
	    cmocka_unit_test(test_ring_cursor_lapped),
	    cmocka_unit_test(test_ring_odd_sizes),
	    cmocka_unit_test(test_ring_struct_records),
	    cmocka_unit_test(test_ring_init_rejects_size_overflow),
	    cmocka_unit_test(test_ring_init_rejects_huge_capacity),
	    cmocka_unit_test_setup(test_pub_empty, pub_setup),
	    cmocka_unit_test_setup(test_pub_publish_acquire_release, pub_setup),
	    cmocka_unit_test_setup(test_pub_held_object_survives, pub_setup),
	    cmocka_unit_test_setup(test_pub_close_drops_hazard, pub_setup),
	    cmocka_unit_test_setup(test_pub_reader_slots, pub_setup),
	    cmocka_unit_test_setup(test_pub_all_readers_hold, pub_setup),
	    cmocka_unit_test_setup(test_pub_destroy_frees_everything,
	                           pub_setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
