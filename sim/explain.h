/* explain.h: a plain-language account of a simulated step for `trainsim
 * explain` and `run --explain`: the biggest losses, the saturated resource,
 * the 2(n-1)/n factor of ring all-reduce, nvidia-smi utilization against MFU,
 * and the next thing to try, following the usual diagnosis path (GPU
 * utilization, point-to-point bandwidth, one node against many, all-reduce
 * bandwidth, then software fixes before hardware). */
#ifndef TRAINSIM_EXPLAIN_H
#define TRAINSIM_EXPLAIN_H

#include <stdio.h>
#include "scenario.h"
#include "step.h"

/* Where the scenario came from, so that explain can simulate variants of it
 * (one node instead of many, each candidate fix) with the loader's own
 * validation. NULL: explain only what r holds. */
typedef struct explain_src {
	const char *path;
	const char *const *sets;   /* the user's --set overrides, applied first */
	int nsets;
} explain_src;

/* Writes the account to out. Variants that cannot run (a layout the loader
 * rejects) are left out silently. Returns 0, or -1 if a write failed. */
int explain_write(FILE *out, const scenario *s, const step_result *r, const explain_src *src);

#endif
