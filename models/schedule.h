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

/* Megatron-LM's blocking point-to-point calls (p2p_communication.py: each
 * send/recv helper posts its isends and irecvs together, waits for all of
 * them, then torch.cuda.synchronize()). Flags of the call a stage makes
 * just before its op i (i = ops_per_stage: after its last op): send the
 * output of op i-1, of op i-2 (the interleaved steady state sends a
 * forward's output after the backward that follows it), receive the input
 * of op i, of op i+1; SEQ: the sends complete before the receives are
 * posted (two helper calls in a row, as 1F1B's send_forward then
 * recv_forward); RSEQ: the receives complete before the sends are posted
 * (DeepSpeed's forward step: RecvActivation, then SendGrad). Only outputs
 * and inputs that cross to a neighbouring stage are transfers; the others
 * are ignored. */
enum { SCHED_CALL_SEND1 = 1, SCHED_CALL_SEND2 = 2, SCHED_CALL_RECV0 = 4,
       SCHED_CALL_RECV1 = 8, SCHED_CALL_SEQ = 16, SCHED_CALL_RSEQ = 32 };

typedef struct sched {
	scn_schedule kind;
	int pp, m, v;            /* stages, micro-batches per step, chunks per stage */
	int ops_per_stage;       /* 2 * m * v */
	int warm_extra;          /* interleaved: forwards added to Megatron's warm-up */
	sched_op *ops;           /* stage st: ops[st * ops_per_stage + i] */
	/* Megatron's calls, [st * (ops_per_stage + 1) + i] (1F1B and interleaved);
	 * NULL (GPipe): a stage sends as soon as an op ends and an op waits for
	 * its own input only. */
	uint8_t *calls;
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

/* The transfers of stage st's call before its op i: the indices, in the
 * step's arrival table order ((dir * pp * v + chunk) * m + mb, dir 0 for
 * activations, 1 for gradients, chunk the receiving global chunk), of what it
 * sends (*ns of them, into send[2]) and receives (*nr, into recv[2]). */
void sched_call_transfers(const sched *s, int st, int i, long send[2], int *ns, long recv[2],
                          int *nr);

/* Flags of stage st's call before its op i (0 <= i <= ops_per_stage); 0 when
 * the schedule has no calls. */
static inline int sched_call(const sched *s, int st, int i)
{
	return s->calls ? s->calls[(size_t)st * (size_t)(s->ops_per_stage + 1) + (size_t)i] : 0;
}

/* Replays the schedule without a network, every F taking t_f and every B
 * t_b seconds on every chunk, transfers free: the makespan in *makespan_s.
 * With calls, a transfer starts once both its sender and its receiver have
 * posted it, and a call ends when all its transfers have. Returns 0, or -1
 * when the op order (or its calls) deadlocks. Used by the tests and to
 * refuse a deadlocking schedule before simulating it. */
int sched_replay(const sched *s, double t_f, double t_b, double *makespan_s);

#endif
