/* check_units.c: unit strings to SI doubles: every unit, the classic traps
 * (GB against GiB, Gbps against GB/s), and the errors users will hit. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "units.h"

static double parse_ok(const char *text, unit_kind k)
{
	double v = -1;
	char err[256] = "";
	int rc = unit_parse(text, k, &v, err, sizeof err);
	ck_assert_msg(rc == 0, "'%s' failed: %s", text, err);
	return v;
}

/* Asserts an error whose message contains `want`. */
static void parse_bad(const char *text, unit_kind k, const char *want)
{
	double v = 12345;
	char err[256] = "";
	ck_assert_int_eq(unit_parse(text, k, &v, err, sizeof err), -1);
	ck_assert_msg(strstr(err, want), "'%s': message '%s' lacks '%s'", text, err, want);
	ck_assert_double_eq(v, 12345); /* untouched on error */
}

START_TEST(bytes_units)
{
	ck_assert_double_eq(parse_ok("512B", UNIT_BYTES), 512);
	ck_assert_double_eq(parse_ok("25MB", UNIT_BYTES), 25e6);
	ck_assert_double_eq(parse_ok("80GB", UNIT_BYTES), 80e9);
	ck_assert_double_eq(parse_ok("30TB", UNIT_BYTES), 30e12);
	ck_assert_double_eq(parse_ok("1.5PB", UNIT_BYTES), 1.5e15);
	ck_assert_double_eq(parse_ok("2KB", UNIT_BYTES), 2000);
	ck_assert_double_eq(parse_ok("2kB", UNIT_BYTES), 2000);
	ck_assert_double_eq(parse_ok("8KiB", UNIT_BYTES), 8192);
	ck_assert_double_eq(parse_ok("3MiB", UNIT_BYTES), 3 * 1048576.0);
	ck_assert_double_eq(parse_ok("80GiB", UNIT_BYTES), 80 * 1073741824.0);
	ck_assert_double_eq(parse_ok("1TiB", UNIT_BYTES), 1099511627776.0);
	ck_assert_double_eq(parse_ok("1PiB", UNIT_BYTES), 1125899906842624.0);
	ck_assert_double_eq(parse_ok(" 96 GB ", UNIT_BYTES), 96e9);
	ck_assert_double_eq(parse_ok("0", UNIT_BYTES), 0);
	ck_assert_double_eq(parse_ok("1e3MB", UNIT_BYTES), 1e9);
}
END_TEST

START_TEST(gb_is_not_gib)
{
	double gb = parse_ok("80GB", UNIT_BYTES), gib = parse_ok("80GiB", UNIT_BYTES);
	ck_assert_double_ne(gb, gib);
	ck_assert_double_eq_tol(gib / gb, 1.073741824, 1e-12);
}
END_TEST

START_TEST(bandwidth_units)
{
	ck_assert_double_eq(parse_ok("200Gbps", UNIT_BANDWIDTH), 25e9);
	ck_assert_double_eq(parse_ok("25GB/s", UNIT_BANDWIDTH), 25e9);
	ck_assert_double_eq(parse_ok("10Gbps", UNIT_BANDWIDTH), 1.25e9);
	ck_assert_double_eq(parse_ok("10GbE", UNIT_BANDWIDTH), 1.25e9);
	ck_assert_double_eq(parse_ok("100Gb/s", UNIT_BANDWIDTH), 12.5e9);
	ck_assert_double_eq(parse_ok("400 Gbps", UNIT_BANDWIDTH), 50e9);
	ck_assert_double_eq(parse_ok("1.6Tbps", UNIT_BANDWIDTH), 200e9);
	ck_assert_double_eq(parse_ok("800Mbps", UNIT_BANDWIDTH), 100e6);
	ck_assert_double_eq(parse_ok("8bps", UNIT_BANDWIDTH), 1);
	ck_assert_double_eq(parse_ok("2TB/s", UNIT_BANDWIDTH), 2e12);
	ck_assert_double_eq(parse_ok("450GB/s", UNIT_BANDWIDTH), 450e9);
	ck_assert_double_eq(parse_ok("500MB/s", UNIT_BANDWIDTH), 500e6);
	ck_assert_double_eq(parse_ok("1GiB/s", UNIT_BANDWIDTH), 1073741824.0);
	ck_assert_double_eq(parse_ok("3KB/s", UNIT_BANDWIDTH), 3000);
	ck_assert_double_eq(parse_ok("7B/s", UNIT_BANDWIDTH), 7);
}
END_TEST

START_TEST(gbps_is_not_gbytes)
{
	/* the trap: 200Gbps is 25 GB/s, an eighth of 200GB/s */
	ck_assert_double_eq(parse_ok("200GB/s", UNIT_BANDWIDTH) / parse_ok("200Gbps", UNIT_BANDWIDTH),
	                    8);
}
END_TEST

START_TEST(time_units)
{
	ck_assert_double_eq_tol(parse_ok("600ns", UNIT_TIME), 600e-9, 1e-21);
	ck_assert_double_eq_tol(parse_ok("1.5us", UNIT_TIME), 1.5e-6, 1e-21);
	ck_assert_double_eq_tol(parse_ok("1.5\xc2\xb5s", UNIT_TIME), 1.5e-6, 1e-21);
	ck_assert_double_eq_tol(parse_ok("1ms", UNIT_TIME), 1e-3, 1e-18);
	ck_assert_double_eq(parse_ok("2s", UNIT_TIME), 2);
	ck_assert_double_eq(parse_ok("15min", UNIT_TIME), 900);
	ck_assert_double_eq(parse_ok("50000h", UNIT_TIME), 1.8e8);
	ck_assert_double_eq(parse_ok("2d", UNIT_TIME), 172800);
	ck_assert_double_eq(parse_ok(".5s", UNIT_TIME), 0.5);
}
END_TEST

START_TEST(count_units)
{
	ck_assert_double_eq(parse_ok("2048", UNIT_COUNT), 2048);
	ck_assert_double_eq(parse_ok("1.5e13", UNIT_COUNT), 1.5e13);
	ck_assert_double_eq(parse_ok("15T", UNIT_COUNT), 15e12);
	ck_assert_double_eq(parse_ok("4.1G", UNIT_COUNT), 4.1e9);
	ck_assert_double_eq(parse_ok("3M", UNIT_COUNT), 3e6);
	ck_assert_double_eq(parse_ok("1K", UNIT_COUNT), 1000);
	ck_assert_double_eq(parse_ok("2Ki", UNIT_COUNT), 2048);
	ck_assert_double_eq(parse_ok("1P", UNIT_COUNT), 1e15);
	ck_assert_double_eq(parse_ok("+7", UNIT_COUNT), 7);
	ck_assert_double_eq(parse_ok("0.02", UNIT_COUNT), 0.02);
}
END_TEST

START_TEST(flops_units)
{
	ck_assert_double_eq(parse_ok("312TFLOPS", UNIT_FLOPS), 312e12);
	ck_assert_double_eq(parse_ok("312TFLOP/s", UNIT_FLOPS), 312e12);
	ck_assert_double_eq(parse_ok("1.2PFLOPS", UNIT_FLOPS), 1.2e15);
	ck_assert_double_eq(parse_ok("1.2PFLOP/s", UNIT_FLOPS), 1.2e15);
	ck_assert_double_eq(parse_ok("19.5TFLOPS", UNIT_FLOPS), 19.5e12);
	ck_assert_double_eq(parse_ok("500GFLOPS", UNIT_FLOPS), 500e9);
	ck_assert_double_eq(parse_ok("1EFLOPS", UNIT_FLOPS), 1e18);
}
END_TEST

/* Power (a GPU's TDP or power limit): watts and kilowatts, capital W. */
START_TEST(power_units)
{
	ck_assert_double_eq(parse_ok("500W", UNIT_POWER), 500);
	ck_assert_double_eq(parse_ok("500 W", UNIT_POWER), 500);
	ck_assert_double_eq(parse_ok("1.2kW", UNIT_POWER), 1200);
	ck_assert_double_eq(parse_ok("0.5KW", UNIT_POWER), 500);
	parse_bad("500", UNIT_POWER, "has no unit; expected a power with a unit such as 500W");
	parse_bad("500w", UNIT_POWER, "units are case-sensitive: write W or kW");
	parse_bad("0.5kw", UNIT_POWER, "units are case-sensitive");
	parse_bad("500Wh", UNIT_POWER, "unknown unit 'Wh'");
	char b[32];
	unit_fmt(b, sizeof b, 700, UNIT_POWER);
	ck_assert_str_eq(b, "700 W");
	unit_fmt(b, sizeof b, 12000, UNIT_POWER);
	ck_assert_str_eq(b, "12 kW");
}
END_TEST

START_TEST(errors)
{
	parse_bad("200", UNIT_BANDWIDTH, "'200' has no unit; expected a bandwidth with a unit such as "
	          "200Gbps or 25GB/s");
	parse_bad("80", UNIT_BYTES, "has no unit; expected a size");
	parse_bad("600", UNIT_TIME, "has no unit; expected a time");
	parse_bad("312", UNIT_FLOPS, "has no unit; expected a rate");
	parse_bad("abc", UNIT_BYTES, "'abc' is not a number");
	parse_bad("abc", UNIT_COUNT, "'abc' is not a number; expected a number");
	parse_bad("1e400GB", UNIT_BYTES, "'1e400GB' is out of range");
	parse_bad("1e300PB", UNIT_BYTES, "is out of range");
	parse_bad("nanGB", UNIT_BYTES, "'nanGB' is not a number");
	parse_bad("NaN", UNIT_COUNT, "is not a number");
	parse_bad("inf", UNIT_COUNT, "is not a number");
	parse_bad(".inf", UNIT_COUNT, "is not a number");
	parse_bad("-5GB/s", UNIT_BANDWIDTH, "'-5GB/s' is negative");
	parse_bad("-1", UNIT_COUNT, "is negative");
	parse_bad("", UNIT_TIME, "empty value");
	parse_bad(NULL, UNIT_TIME, "empty value");
	parse_bad("0x10GB", UNIT_BYTES, "unknown unit 'x10GB'");
	parse_bad("10GB/s extra", UNIT_BANDWIDTH, "unknown unit");
	parse_bad("5Gb", UNIT_BYTES, "'b' is bits");
	parse_bad("5GB/s", UNIT_BYTES, "a size has no '/s'");
	parse_bad("100GB", UNIT_BANDWIDTH, "that is a size and a bandwidth is per second");
	parse_bad("25GBps", UNIT_BANDWIDTH, "write GB/s");
	/* a line rate without its per second: the unit it means */
	parse_bad("400Gb", UNIT_BANDWIDTH, "unknown unit 'Gb' in '400Gb': a bandwidth is per second "
	          "(expected a bandwidth with a unit such as 200Gbps or 25GB/s); did you mean "
	          "'400Gbps'?");
	parse_bad("400 Gbit", UNIT_BANDWIDTH, "did you mean '400Gbps'?");
	parse_bad("100Mbits", UNIT_BANDWIDTH, "did you mean '100Mbps'?");
	parse_bad("1.5Tb", UNIT_BANDWIDTH, "did you mean '1.5Tbps'?");
	parse_bad("5 parsecs", UNIT_TIME, "unknown unit 'parsecs'");
	parse_bad("15m", UNIT_TIME, "unknown unit 'm'");
	parse_bad("1.5X", UNIT_COUNT, "unknown unit 'X'");
	parse_bad("e5", UNIT_COUNT, "is not a number");
}
END_TEST

START_TEST(no_negative_zero)
{
	double v = parse_ok("-0GB", UNIT_BYTES);
	ck_assert(!signbit(v));
}
END_TEST

START_TEST(nccl_sizes)
{
	double b;
	char err[128];
	struct { const char *t; double v; } ok[] = {
		{"8", 8}, {"256K", 262144}, {"64M", 67108864}, {"8G", 8589934592.0},
		{"1.5G", 1610612736.0}, {"128k", 131072}, {"1T", 1099511627776.0}, {"4KB", 4096},
		{"1P", 1125899906842624.0}};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		ck_assert_int_eq(unit_parse_nccl_size(ok[i].t, &b, err, sizeof err), 0);
		ck_assert_double_eq(b, ok[i].v);
	}
	ck_assert_int_eq(unit_parse_nccl_size("x", &b, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "expected a size such as 8, 256K"));
	ck_assert_int_eq(unit_parse_nccl_size("-8", &b, err, sizeof err), -1);
	ck_assert_int_eq(unit_parse_nccl_size("8Q", &b, err, sizeof err), -1);
	ck_assert_int_eq(unit_parse_nccl_size("1e400", &b, err, sizeof err), -1);
	/* whole bytes only: a step of 1e-20 bytes never moved nccl's loop on */
	ck_assert_int_eq(unit_parse_nccl_size("1e-20", &b, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "not a whole number of bytes"));
	ck_assert_int_eq(unit_parse_nccl_size("0.5", &b, err, sizeof err), -1);
}
END_TEST

START_TEST(formatting)
{
	char b[64];
	unit_fmt(b, sizeof b, 1.25e9, UNIT_BANDWIDTH);
	ck_assert_str_eq(b, "1.25 GB/s");
	unit_fmt(b, sizeof b, 160, UNIT_TIME);
	ck_assert_str_eq(b, "160 s");
	unit_fmt(b, sizeof b, 3.2e-3, UNIT_TIME);
	ck_assert_str_eq(b, "3.2 ms");
	unit_fmt(b, sizeof b, 600e-9, UNIT_TIME);
	ck_assert_str_eq(b, "600 ns");
	unit_fmt(b, sizeof b, 200e9, UNIT_BYTES);
	ck_assert_str_eq(b, "200 GB");
	unit_fmt(b, sizeof b, 312e12, UNIT_FLOPS);
	ck_assert_str_eq(b, "312 TFLOP/s");
	unit_fmt(b, sizeof b, 1.5e13, UNIT_COUNT);
	ck_assert_str_eq(b, "15 T");
	unit_fmt(b, sizeof b, 42, UNIT_COUNT);
	ck_assert_str_eq(b, "42");
	unit_fmt(b, sizeof b, 0, UNIT_BYTES);
	ck_assert_str_eq(b, "0 B");
	unit_fmt(b, sizeof b, 0, UNIT_TIME);
	ck_assert_str_eq(b, "0 s");
	unit_fmt(b, sizeof b, 7200, UNIT_TIME);
	ck_assert_str_eq(b, "2 h");
	/* the schema's upper bounds read as written: 1 EB, not "1e+03 PB" */
	unit_fmt(b, sizeof b, 1e18, UNIT_BYTES);
	ck_assert_str_eq(b, "1 EB");
	ck_assert_double_eq(parse_ok("1EB", UNIT_BYTES), 1e18);
	unit_fmt(b, sizeof b, 1e15, UNIT_BANDWIDTH);
	ck_assert_str_eq(b, "1 PB/s");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("units");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, bytes_units);
	tcase_add_test(tc, gb_is_not_gib);
	tcase_add_test(tc, bandwidth_units);
	tcase_add_test(tc, gbps_is_not_gbytes);
	tcase_add_test(tc, time_units);
	tcase_add_test(tc, count_units);
	tcase_add_test(tc, flops_units);
	tcase_add_test(tc, power_units);
	tcase_add_test(tc, errors);
	tcase_add_test(tc, no_negative_zero);
	tcase_add_test(tc, nccl_sizes);
	tcase_add_test(tc, formatting);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
