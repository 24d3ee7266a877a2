/* schedule.h (named so as not to shadow the system <sched.h> on the -I path):
 * pipeline schedules as schedules: for every stage the ordered list
 * of forward (F) and backward (B) operations on (micro-batch, model chunk)
 * that the stage executes. The step model replays these lists on the event
 * engine, so the bubble comes out of the dependencies, not from a formula.
 * Schedules plug in through a table in sched.c (one line per schedule). */
#ifndef TRAINSIM_SCHED_H
#define TRAINSIM_SCHED_H

#include <stdint.h>
#include <stddef.h>
#include "scenario.h"

enum { SCHED_F = 0, SCHED_B = 1 };

typedef struct sched_op {
	uint8_t kind;            /* SCHED_F or SCHED_B */
	uint8_t chunk;           /* local chunk on the stage, 0..v-1 */
	uint16_t pad;
	int32_t mb;              /* micro-batch, 0..m-1 */
} sched_op;

typedef struct sched {
	scn_schedule kind;
	int pp, m, v;            /* stages, micro-batches per step, chunks per stage */
	int ops_per_stage;       /* 2 * m * v */
	int warm_extra;          /* interleaved: forwards added to Megatron's warm-up */
	sched_op *ops;           /* stage st: ops[st * ops_per_stage + i] */
} sched;

/* Builds the op lists of `kind` for pp stages, m micro-batches and v chunks
 * per stage (v > 1 only for SCHED_INTERLEAVED; interleaved with v == 1 is
 * 1F1B). Interleaving with m not a multiple of pp warms up with more
 * forwards when Megatron's count would deadlock (warm_extra). Returns 0, or a
 * negative error with a message in err (limits). Release with sched_release. */
int sched_build(sched *out, scn_schedule kind, int pp, int m, int v, char *err, size_t errlen);
void sched_release(sched *s);
const char *sched_name(scn_schedule kind);

static inline const sched_op *sched_stage_ops(const sched *s, int st)
{
	return s->ops + (size_t)st * (size_t)s->ops_per_stage;
}

/* Replays the schedule without a network, every F taking t_f and every B
 * t_b seconds on every chunk, transfers free: the makespan in *makespan_s.
 * Returns 0, or -1 when the op order deadlocks. Used by the tests and to
 * refuse a deadlocking schedule before simulating it. */
int sched_replay(const sched *s, double t_f, double t_b, double *makespan_s);

#endif
