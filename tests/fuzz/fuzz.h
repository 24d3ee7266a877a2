/* fuzz.h: the fuzz targets of tests/fuzz/, callable without libFuzzer so that
 * replay.c runs the corpus and the regressions through the same code in
 * `make check`. Each target returns 0 and aborts (after a message on stderr)
 * when a property it checks does not hold. */
#ifndef TRAINSIM_FUZZ_H
#define TRAINSIM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Loader: parse, map, write back as YAML, load that again: equal scenario,
 * identical second writing; every refusal says where and why. */
int fuzz_loader_input(const uint8_t *data, size_t size);

/* Units and --set: the input as a quantity of every kind, as an nccl-tests
 * size, and as a --set assignment on a fixed scenario. */
int fuzz_units_input(const uint8_t *data, size_t size);

/* Validate: the input as a published-runs CSV: positioned refusals, every row
 * built or refused with a reason, built scenarios loadable, small ones
 * predicted. */
int fuzz_validate_input(const uint8_t *data, size_t size);

/* A broken property: print what and where, then abort (a libFuzzer crash). */
#define FUZZ_ASSERT(cond, ...)                                                   \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "%s:%d: property failed: %s: ", __FILE__, \
			        __LINE__, #cond);                                \
			fprintf(stderr, __VA_ARGS__);                            \
			fputc('\n', stderr);                                     \
			abort();                                                 \
		}                                                                \
	} while (0)

/* An error stream in memory (open_memstream); fuzz_cap_close returns the text
 * (caller frees). */
typedef struct fuzz_cap {
	FILE *f;
	char *text;
	size_t len;
} fuzz_cap;

void fuzz_cap_open(fuzz_cap *c);
char *fuzz_cap_close(fuzz_cap *c);

/* Asserts that a failed load or map printed at least one message and that the
 * first has the form "NAME:LINE:COL: text" (or "--set: text" when set). */
void fuzz_check_message(const char *msg, const char *name, int allow_set);
/* The same form for the warnings of an accepted scenario (none is fine). */
void fuzz_check_warnings(const char *msg, const char *name, int allow_set);

struct scenario;
/* Writes an accepted scenario with scn_write_yaml, loads the text again and
 * asserts an equal scenario and an identical second writing. */
void fuzz_round_trip(const struct scenario *s);

#endif
