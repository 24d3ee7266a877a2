/* fuzz_validate.c: libFuzzer target for `trainsim validate`'s reader. Any input
 * is read as a published-runs CSV (tests/validation/README.md): a refusal must
 * name the file and line; every row must become a scenario or be refused with
 * a reason; a scenario built from a row must be one a user can run (its YAML,
 * as `validate --show` prints it, loads again), and a small one must predict a
 * finite value or fail with a message. Published runs nobody here has seen go
 * through exactly this code. */
#include <math.h>
#include <string.h>
#include "fuzz.h"
#include "scn.h"
#include "validate.h"

#define NAME "fuzz.csv"
#define MAX_INPUT (64 * 1024)
/* Predictions are simulations: bounded so that one input stays well under a
 * second in a sanitizer build (larger layouts are the bench's business). */
#define PREDICT_MAX_GPUS 64
#define PREDICT_MAX_LAYERS 128
#define PREDICT_MAX_MICROBATCHES 64
#define PREDICT_MAX_EVENTS 2000000
/* Building a row may simulate too (the schedule a bf16 row leaves open is
 * chosen by simulating the candidates): rows past this size are skipped. */
#define BUILD_MAX_GPUS 512
#define BUILD_MAX_LAYERS 256

/* The built scenario, written as --show writes it, loads as a user's file. */
static void check_runnable(const val_row *r, const scenario *s)
{
	fuzz_cap y;
	fuzz_cap_open(&y);
	FUZZ_ASSERT(scn_write_yaml(s, y.f) == 0, "row %s: scn_write_yaml failed", r->id);
	char *yaml = fuzz_cap_close(&y);
	fuzz_cap m;
	fuzz_cap_open(&m);
	scn_doc *d = scn_doc_load_string(yaml, strlen(yaml), "show.yaml", m.f);
	scenario t;
	int rc = d ? scn_from_doc(d, &t, m.f, true) : -1;
	char *msg = fuzz_cap_close(&m);
	FUZZ_ASSERT(rc == 0, "row %s (line %d) became a scenario the loader refuses:\n%s\n%s",
	            r->id, r->line, msg, yaml);
	scn_release(&t);
	scn_doc_free(d);
	free(msg);
	free(yaml);
}

static bool small_enough(const val_case *c)
{
	const scenario *s = &c->s;
	int mb = s->training.micro_batch > 0 ? s->training.micro_batch : 1;
	int dp = scn_dp(s) > 0 ? scn_dp(s) : 1;
	long per_pipe = s->training.global_batch / ((long)mb * dp);
	return scn_gpus(s) <= PREDICT_MAX_GPUS && s->model.layers <= PREDICT_MAX_LAYERS &&
	       per_pipe <= PREDICT_MAX_MICROBATCHES &&
	       (!c->has_base || scn_gpus(&c->base) <= PREDICT_MAX_GPUS);
}

static bool cheap_to_build(const val_row *r)
{
	double parts = (double)(r->tp > 0 ? r->tp : 1) * (r->pp > 0 ? r->pp : 1) *
	               (r->dp > 0 ? r->dp : 1);
	return r->gpus <= BUILD_MAX_GPUS && parts <= BUILD_MAX_GPUS &&
	       r->layers <= BUILD_MAX_LAYERS;
}

static void check_row(const val_row *rows, size_t n, size_t i, val_cache *cache)
{
	const val_row *r = &rows[i];
	val_case c;
	char why[256] = "";
	if (!cheap_to_build(r))
		return;
	if (val_build(r, &c, why, sizeof why) < 0) {
		FUZZ_ASSERT(why[0] != '\0', "row %s (line %d) refused without a reason", r->id,
		            r->line);
		return;
	}
	if (c.metric == VM_SCALING_EFF && val_link_baseline(rows, n, i, &c, why, sizeof why) < 0) {
		FUZZ_ASSERT(why[0] != '\0', "row %s: no baseline and no reason", r->id);
		scn_release(&c.s);
		return;
	}
	FUZZ_ASSERT(isfinite(c.published_si) && c.unit_scale > 0 && isfinite(c.unit_scale),
	            "row %s: published %g in units of %g", r->id, c.published_si, c.unit_scale);
	check_runnable(r, &c.s);
	if (small_enough(&c)) {
		double pred = NAN;
		char err[160] = "";
		c.s.run.max_events = PREDICT_MAX_EVENTS;
		if (val_predict(&c, cache, &pred, err, sizeof err) == 0)
			FUZZ_ASSERT(isfinite(pred) && pred >= 0, "row %s: predicted %g", r->id, pred);
		else
			FUZZ_ASSERT(err[0] != '\0', "row %s: prediction failed silently", r->id);
	}
	scn_release(&c.s);
	if (c.has_base)
		scn_release(&c.base);
}

int fuzz_validate_input(const uint8_t *data, size_t size)
{
	if (size > MAX_INPUT)
		return 0;
	char *text = malloc(size + 1); /* exact size: ASan sees a read past the NUL */
	FUZZ_ASSERT(text != NULL, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	val_row *rows = NULL;
	size_t n = 0;
	char err[256] = "";
	if (val_parse(text, NAME, &rows, &n, err, sizeof err) < 0) {
		FUZZ_ASSERT(!strncmp(err, NAME ":", strlen(NAME ":")),
		            "a refused CSV without 'NAME:LINE: ': '%s'", err);
		free(text);
		return 0;
	}
	val_cache *cache = val_cache_new();
	FUZZ_ASSERT(cache != NULL, "out of memory");
	for (size_t i = 0; i < n; i++)
		check_row(rows, n, i, cache);
	val_cache_free(cache);
	free(rows);
	free(text);
	return 0;
}

#ifndef FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_validate_input(data, size);
}
#endif
