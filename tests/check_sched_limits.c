/* check_sched_limits.c: sched.c built with its operation limit lifted, as if
 * the loader allowed far longer pipelines: a stage's op count (2 m v) that
 * does not fit in an int is refused with an error, never wrapped into a
 * short or empty schedule. */
#include <check.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define SCHED_MAX_OPS LLONG_MAX
#include "sched.c"

/* 2 x 2^30 micro-batches x 2 chunks = 2^32 ops per stage: wrapped in int it
 * was 0, and the build "succeeded" with empty stages. */
START_TEST(interleaved_ops_past_int)
{
	sched s;
	char err[256] = "";
	int rc = sched_build(&s, SCHED_INTERLEAVED, 2, 1 << 30, 2, err, sizeof err);
	if (rc == 0)
		sched_release(&s);
	ck_assert_msg(rc == -1, "rc %d, ops per stage %d: %s", rc, rc ? 0 : s.ops_per_stage, err);
	ck_assert_msg(strstr(err, "1073741824 micro-batches") != NULL, "%s", err);
}
END_TEST

/* 1F1B one op past INT_MAX: refused as a limit (-1), not an allocation failure. */
START_TEST(one_f_one_b_ops_past_int)
{
	sched s;
	char err[256] = "";
	int m = INT_MAX / 2 + 1;
	int rc = sched_build(&s, SCHED_1F1B, 4, m, 1, err, sizeof err);
	if (rc == 0)
		sched_release(&s);
	ck_assert_msg(rc == -1, "rc %d: %s", rc, err);
	ck_assert_msg(strstr(err, "int") != NULL, "%s", err);
}
END_TEST

/* Just inside the int range the limit does not refuse: small builds run as before. */
START_TEST(small_schedules_unchanged)
{
	sched s;
	char err[256] = "";
	ck_assert_int_eq(sched_build(&s, SCHED_INTERLEAVED, 4, 6, 2, err, sizeof err), 0);
	ck_assert_int_eq(s.ops_per_stage, 24);
	double mk;
	ck_assert_int_eq(sched_replay(&s, 1.0, 2.0, &mk), 0);
	sched_release(&s);
}
END_TEST

int main(void)
{
	Suite *su = suite_create("sched_limits");
	TCase *tc = tcase_create("int");
	tcase_add_test(tc, interleaved_ops_past_int);
	tcase_add_test(tc, one_f_one_b_ops_past_int);
	tcase_add_test(tc, small_schedules_unchanged);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
