/* check_json.c: the JSON emitter's exact output: escaping, commas, indent,
 * non-finite numbers, shortest round-trip numbers, and its error reports. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_rng.h>

#include "json.h"

/* An emitter writing to memory; capture() closes it and returns the text. */
typedef struct {
	FILE *f;
	char *buf;
	size_t len;
	json *j;
} sink;

static void sink_open(sink *k, bool pretty)
{
	k->buf = NULL;
	k->f = open_memstream(&k->buf, &k->len);
	ck_assert_ptr_nonnull(k->f);
	k->j = json_new(k->f, pretty);
	ck_assert_ptr_nonnull(k->j);
}

/* Frees the emitter (its result in *rc) and returns the text (caller frees). */
static char *sink_close(sink *k, int *rc)
{
	*rc = json_free(k->j);
	fclose(k->f);
	return k->buf;
}

static void expect(sink *k, const char *want)
{
	int rc;
	char *got = sink_close(k, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_escaping)
{
	sink k;
	sink_open(&k, false);
	json_str(k.j, "q\"b\\n\nt\tc\x01\x1f z\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	expect(&k, "\"q\\\"b\\\\n\\u000at\\u0009c\\u0001\\u001f z\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"\n");

	/* Invalid UTF-8 (a lone continuation, a truncated sequence, an overlong
	 * '/', a surrogate) becomes U+FFFD, one per bad byte. */
	sink_open(&k, false);
	json_str(k.j, "a\x80" "b\xe2\x82" "c\xc0\xaf" "d\xed\xa0\x80");
	expect(&k, "\"a\\ufffdb\\ufffd\\ufffdc\\ufffd\\ufffdd\\ufffd\\ufffd\\ufffd\"\n");

	sink_open(&k, false);
	json_obj_begin(k.j);
	json_kstr(k.j, "k\"ey", NULL);
	json_obj_end(k.j);
	expect(&k, "{\"k\\\"ey\":null}\n");
}
END_TEST

START_TEST(test_nesting_compact)
{
	sink k;
	sink_open(&k, false);
	json_obj_begin(k.j);
	json_key(k.j, "a");
	json_arr_begin(k.j);
	json_int(k.j, 1);
	json_num(k.j, 2.5);
	json_obj_begin(k.j);
	json_key(k.j, "b");
	json_null(k.j);
	json_obj_end(k.j);
	json_arr_begin(k.j);
	json_arr_end(k.j);
	json_arr_end(k.j);
	json_kbool(k.j, "c", true);
	json_kbool(k.j, "c2", false);
	json_kstr(k.j, "d", "x");
	json_kint(k.j, "e", -7);
	json_knum(k.j, "f", 0.1);
	json_key(k.j, "g");
	json_obj_begin(k.j);
	json_obj_end(k.j);
	json_obj_end(k.j);
	/* A second top-level value: JSON lines. */
	json_int(k.j, 3);
	expect(&k, "{\"a\":[1,2.5,{\"b\":null},[]],\"c\":true,\"c2\":false,\"d\":\"x\","
		   "\"e\":-7,\"f\":0.1,\"g\":{}}\n3\n");
}
END_TEST

START_TEST(test_nesting_pretty)
{
	sink k;
	sink_open(&k, true);
	json_obj_begin(k.j);
	json_key(k.j, "a");
	json_arr_begin(k.j);
	json_int(k.j, 1);
	json_obj_begin(k.j);
	json_knum(k.j, "b", 1e21);
	json_obj_end(k.j);
	json_arr_end(k.j);
	json_key(k.j, "e");
	json_arr_begin(k.j);
	json_arr_end(k.j);
	json_kstr(k.j, "s", "v");
	json_obj_end(k.j);
	expect(&k, "{\n  \"a\": [\n    1,\n    {\n      \"b\": 1e+21\n    }\n  ],\n"
		   "  \"e\": [],\n  \"s\": \"v\"\n}\n");
}
END_TEST

START_TEST(test_nonfinite_is_null)
{
	sink k;
	sink_open(&k, false);
	json_arr_begin(k.j);
	json_num(k.j, NAN);
	json_num(k.j, INFINITY);
	json_num(k.j, -INFINITY);
	json_num(k.j, -0.0);
	json_arr_end(k.j);
	expect(&k, "[null,null,null,-0]\n");
	char buf[32];
	json_fmt_num(buf, sizeof buf, NAN);
	ck_assert_str_eq(buf, "null");
}
END_TEST

START_TEST(test_numbers_round_trip)
{
	char buf[32];
	const struct { double v; const char *s; } cases[] = {
		{ 0.1, "0.1" }, { 0.1 + 0.2, "0.30000000000000004" }, { 1.0 / 3, "0.3333333333333333" },
		{ 100, "100" }, { 1e21, "1e+21" }, { 1.5e-7, "1.5e-07" }, { 123456789012345678.0, "1.2345678901234568e+17" },
		{ 9007199254740993.0, "9007199254740992" }, { DBL_MAX, "1.7976931348623157e+308" },
		{ 5e-324, "4.94065645841247e-324" }, { 2.5e9, "2500000000" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		json_fmt_num(buf, sizeof buf, cases[i].v);
		ck_assert_str_eq(buf, cases[i].s);
	}
	/* Random doubles over the whole range read back exactly. */
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	for (int i = 0; i < 200000; i++) {
		uint64_t bits = (uint64_t)gsl_rng_get(r) << 32 | gsl_rng_get(r);
		double v;
		memcpy(&v, &bits, sizeof v);
		if (!isfinite(v))
			continue;
		json_fmt_num(buf, sizeof buf, v);
		ck_assert_msg(strtod(buf, NULL) == v, "%s does not read back", buf);
		ck_assert_uint_lt(strlen(buf), 25);
	}
	gsl_rng_free(r);

	sink k;
	sink_open(&k, false);
	json_arr_begin(k.j);
	json_int(k.j, INT64_MIN);
	json_int(k.j, INT64_MAX);
	json_int(k.j, 0);
	json_arr_end(k.j);
	expect(&k, "[-9223372036854775808,9223372036854775807,0]\n");
}
END_TEST

static int emit_and_free(void (*script)(json *))
{
	sink k;
	sink_open(&k, false);
	script(k.j);
	int rc;
	free(sink_close(&k, &rc));
	return rc;
}

static void s_unclosed(json *j) { json_obj_begin(j); json_arr_begin(j); json_arr_end(j); }
static void s_extra_end(json *j) { json_arr_begin(j); json_arr_end(j); json_arr_end(j); }
static void s_mismatch(json *j) { json_obj_begin(j); json_arr_end(j); }
static void s_key_in_array(json *j) { json_arr_begin(j); json_key(j, "k"); json_arr_end(j); }
static void s_value_no_key(json *j) { json_obj_begin(j); json_int(j, 1); json_obj_end(j); }
static void s_dangling_key(json *j) { json_obj_begin(j); json_key(j, "k"); json_obj_end(j); }
static void s_top_key(json *j) { json_key(j, "k"); }
static void s_good(json *j) { json_obj_begin(j); json_kint(j, "k", 1); json_obj_end(j); }

START_TEST(test_errors)
{
	ck_assert_int_eq(emit_and_free(s_good), 0);
	ck_assert_int_lt(emit_and_free(s_unclosed), 0);
	ck_assert_int_lt(emit_and_free(s_extra_end), 0);
	ck_assert_int_lt(emit_and_free(s_mismatch), 0);
	ck_assert_int_lt(emit_and_free(s_key_in_array), 0);
	ck_assert_int_lt(emit_and_free(s_value_no_key), 0);
	ck_assert_int_lt(emit_and_free(s_dangling_key), 0);
	ck_assert_int_lt(emit_and_free(s_top_key), 0);
	ck_assert_int_lt(json_free(NULL), 0);

	/* Writes that fail (a full device) are reported. */
	FILE *f = fopen("/dev/full", "w");
	if (f) {
		json *j = json_new(f, true);
		json_arr_begin(j);
		for (int i = 0; i < 10000; i++)
			json_str(j, "a string long enough to fill a stdio buffer");
		json_arr_end(j);
		ck_assert_int_lt(json_free(j), 0);
		fclose(f);
	}
}
END_TEST

int main(void)
{
	Suite *su = suite_create("json");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_nesting_compact);
	tcase_add_test(tc, test_nesting_pretty);
	tcase_add_test(tc, test_nonfinite_is_null);
	tcase_add_test(tc, test_numbers_round_trip);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
