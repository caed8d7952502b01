/*
 * Unit tests of the user marks' slots (layer/xl_marks.c, behind `xrlm ctl
 * mark`): sequence numbers from 1 and no slot past XL_MARKS_SLOTS; each
 * side writes a mark once, into the place of its session among those it
 * holds open, as one "# mark" line; gives up on a mark whose session it
 * closed before it could, and not on a later one's; the outcome is
 * pending until both sides are done, written only when both wrote it;
 * asking frees the slot, and so does giving up or, for a mark nobody
 * waits for, the second side's pass.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "xl_marks.h"

#include <stdio.h>
#include <string.h>

#define PRE 0
#define POST 1

static struct xl_marks marks;

static int setup(void **state)
{
	(void)state;
	xl_marks_init(&marks);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	xl_marks_fini(&marks);
	return 0;
}

/* What a writer was given: lines and places; fail: its writes fail. */
struct sink {
	int lines;
	unsigned at[8];
	char last[512];
	bool fail;
};

static bool sink_write(void *ctx, unsigned at, const char *line)
{
	struct sink *s = ctx;

	if (s->lines < 8)
		s->at[s->lines] = at;
	s->lines++;
	snprintf(s->last, sizeof(s->last), "%s", line);
	return !s->fail;
}

/* Side @p side's writer pass with sessions @p a and @p b open, @p closed ended. */
static struct sink pass(unsigned side, uint32_t a, uint32_t b, uint32_t closed, bool fail)
{
	const uint32_t open_ids[XL_MARKS_OPEN] = {a, b};
	struct sink s = {.fail = fail};

	xl_marks_write(&marks, side, open_ids, closed, sink_write, &s);
	return s;
}

/* The free slots: filled with marks of session 99, then given back. */
static unsigned free_slots(void)
{
	uint64_t seqs[XL_MARKS_SLOTS + 1];
	unsigned n = 0;

	while (n <= XL_MARKS_SLOTS && (seqs[n] = xl_marks_add(&marks, 99, 0, "f")) != 0)
		n++;
	for (unsigned i = 0; i < n; i++)
		xl_marks_result(&marks, seqs[i], true);
	return n;
}

static void test_slots(void **state)
{
	(void)state;
	uint64_t seq[XL_MARKS_SLOTS];

	for (unsigned i = 0; i < XL_MARKS_SLOTS; i++) {
		seq[i] = xl_marks_add(&marks, 1, i, "m");
		assert_int_equal(seq[i], i + 1);
	}
	assert_int_equal(xl_marks_add(&marks, 1, 0, "one too many"), 0);
	/* The outcome asked, pending: the slot stays taken. */
	assert_int_equal(xl_marks_result(&marks, seq[3], false), XL_MARK_PENDING);
	assert_int_equal(xl_marks_add(&marks, 1, 0, "still full"), 0);
	/* Given up: the slot is free again, for the next sequence number. */
	assert_int_equal(xl_marks_result(&marks, seq[3], true), XL_MARK_LOST);
	assert_int_equal(xl_marks_add(&marks, 1, 0, "m"), XL_MARKS_SLOTS + 1);
	/* A sequence number no slot holds is lost. */
	assert_int_equal(xl_marks_result(&marks, 1000, false), XL_MARK_LOST);
}

static void test_written_once_in_place(void **state)
{
	(void)state;
	uint64_t seq = xl_marks_add(&marks, 7, 123456789, "hello\\x20there");

	/* Session 7 open in the second place (the first: the one in its grace). */
	struct sink s = pass(PRE, 6, 7, 5, false);
	assert_int_equal(s.lines, 1);
	assert_int_equal(s.at[0], 1);
	assert_string_equal(s.last, "# mark t=123456789 text=hello\\x20there\n");
	assert_int_equal(xl_marks_result(&marks, seq, false), XL_MARK_PENDING);
	/* Done on this side: not written again. */
	assert_int_equal(pass(PRE, 6, 7, 5, false).lines, 0);
	s = pass(POST, 7, 0, 6, false);
	assert_int_equal(s.lines, 1);
	assert_int_equal(s.at[0], 0);
	assert_int_equal(xl_marks_result(&marks, seq, false), XL_MARK_WRITTEN);
	/* Asked: freed. */
	assert_int_equal(xl_marks_result(&marks, seq, false), XL_MARK_LOST);
	assert_int_equal(free_slots(), XL_MARKS_SLOTS);
}

static void test_not_open(void **state)
{
	(void)state;
	/* Session 0 is no session: an empty place does not take its mark. */
	uint64_t zero = xl_marks_add(&marks, 0, 1, "zero");
	uint64_t later = xl_marks_add(&marks, 9, 1, "later");
	uint64_t ended = xl_marks_add(&marks, 8, 1, "ended");

	/* Sessions up to 8 closed, 9 not open yet: 8's mark is given up, 9's waits. */
	assert_int_equal(pass(PRE, 0, 0, 8, false).lines, 0);
	assert_int_equal(pass(POST, 0, 0, 8, false).lines, 0);
	assert_int_equal(xl_marks_result(&marks, ended, false), XL_MARK_LOST);
	assert_int_equal(xl_marks_result(&marks, later, false), XL_MARK_PENDING);
	/* 9 opens: written on both sides. */
	assert_int_equal(pass(PRE, 9, 0, 8, false).lines, 1);
	assert_int_equal(pass(POST, 0, 9, 8, false).lines, 1);
	assert_int_equal(xl_marks_result(&marks, later, false), XL_MARK_WRITTEN);
	/* Session 0's: given up on by both (0 is up to any closed id), never written. */
	assert_int_equal(xl_marks_result(&marks, zero, false), XL_MARK_LOST);
}

static void test_one_side_failed(void **state)
{
	(void)state;
	uint64_t seq = xl_marks_add(&marks, 3, 1, "half");

	assert_int_equal(pass(PRE, 3, 0, 2, true).lines, 1);
	assert_int_equal(xl_marks_result(&marks, seq, false), XL_MARK_PENDING);
	assert_int_equal(pass(POST, 3, 0, 2, false).lines, 1);
	assert_int_equal(xl_marks_result(&marks, seq, false), XL_MARK_LOST);
}

static void test_abandoned(void **state)
{
	(void)state;
	/* Abandoned after both sides were done: freed at once. */
	uint64_t seq = xl_marks_add(&marks, 4, 1, "done");
	pass(PRE, 4, 0, 3, false);
	pass(POST, 4, 0, 3, false);
	xl_marks_abandon(&marks, seq);
	assert_int_equal(free_slots(), XL_MARKS_SLOTS);

	/* Abandoned before: still written by each side, freed by the second's pass only. */
	seq = xl_marks_add(&marks, 4, 1, "left");
	xl_marks_abandon(&marks, seq);
	assert_int_equal(pass(PRE, 4, 0, 3, false).lines, 1);
	assert_int_equal(free_slots(), XL_MARKS_SLOTS - 1);
	assert_int_equal(pass(POST, 4, 0, 3, false).lines, 1);
	assert_int_equal(free_slots(), XL_MARKS_SLOTS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_slots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_written_once_in_place, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_one_side_failed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abandoned, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
