/* val_test.h: helpers of the validate tests (check_validate.c,
 * check_validate_files.c): a CSV row built into a case, a file of
 * tests/validation read. */
#ifndef TRAINSIM_VAL_TEST_H
#define TRAINSIM_VAL_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include "validate.h"

/* Builds the case of one CSV data row (the header is added); returns
 * val_build's result, with why filled on -1. */
#define HEADER "id,source,hardware,gpus,model_params_b,layers,hidden,heads,seq_len," \
	"global_batch,micro_batch,tp,pp,dp,other_parallel,precision,recompute,metric,value," \
	"unit,verified\n"
static inline int build_row(const char *row, val_case *c, char *why, size_t n)
{
	char text[2048], err[256];
	snprintf(text, sizeof text, HEADER "%s\n", row);
	val_row *r;
	size_t nr;
	ck_assert_msg(val_parse(text, "t.csv", &r, &nr, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(nr, 1);
	int rc = val_build(&r[0], c, why, n);
	free(r);
	return rc;
}

/* Builds the row that `fmt` makes of (i, cell) and asserts it builds. */
static inline void build_cell(const char *fmt, size_t i, const char *cell, val_case *c)
{
	char row[512], why[256];
	snprintf(row, sizeof row, fmt, i, cell);
	ck_assert_msg(build_row(row, c, why, sizeof why) == 0, "%s: %s", cell, why);
}

/* The rows of tests/validation/NAME (free() them). */
static inline val_row *validation_rows(const char *name, size_t *n)
{
	const char *top = getenv("top_srcdir");
	char path[512], err[512];
	snprintf(path, sizeof path, "%s/tests/validation/%s", top ? top : ".", name);
	val_row *r;
	ck_assert_msg(val_read(path, &r, n, err, sizeof err) == 0, "%s", err);
	return r;
}

#endif
