/* val_test.h: helpers of the validate tests (check_validate.c,
 * check_validate_files.c): a CSV row built into a case, a file of
 * tests/validation read. */
#ifndef TRAINSIM_VAL_TEST_H
#define TRAINSIM_VAL_TEST_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Builds `row` and checks the cluster it reads: the GPU (NULL: any), GPUs a
 * node (-1: any), NICs and their Gb/s, TCP or not (-1: either). `what` names
 * the row in a failure. */
static inline void check_cluster(const char *row, const char *what, const char *gpu, int gpn,
                                 int nics, double gbps, int tcp)
{
	val_case c;
	char why[256];
	ck_assert_msg(build_row(row, &c, why, sizeof why) == 0, "%s: %s", what, why);
	const scn_cluster *k = &c.s.cluster;
	ck_assert_msg((!gpu || !strcmp(k->gpu.name, gpu)) && (gpn < 0 || k->gpus_per_node == gpn) &&
	              k->nic.count == nics && fabs(k->nic.speed_Bps * 8 / 1e9 - gbps) < 1e-6 &&
	              (tcp < 0 || (k->nic.transport == TRANSPORT_TCP) == (tcp > 0)),
	              "%s: %s, %d a node, %d x %g Gb/s, transport %d", what, k->gpu.name,
	              k->gpus_per_node, k->nic.count, k->nic.speed_Bps * 8 / 1e9, k->nic.transport);
	scn_release(&c.s);
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
