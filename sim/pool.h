/* pool.h: runs independent jobs on forked worker processes and hands each
 * result, one line of text, to the parent as soon as it is ready. Workers
 * take the next job when they finish one, so slow and fast jobs balance; a
 * worker that crashes on a job costs that job only. */
#ifndef TRAINSIM_POOL_H
#define TRAINSIM_POOL_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

/* Runs in a worker: renders job `job` as one line (malloc'd, ending in '\n'
 * with no other newline) into *line and *len. Returns 0, or negative for a
 * failure that should end the worker (out of memory). */
typedef int (*pool_eval_fn)(void *ctx, size_t job, char **line, size_t *len);

/* Runs in the parent for each finished job, in the order jobs finish; the
 * line (len bytes, its newline included) is followed by a NUL. When
 * the worker died on the job, line is NULL and `died` says how ("killed by
 * signal 11 (Segmentation fault)"). Returns 0, or negative to stop the pool
 * (an output error). */
typedef int (*pool_sink_fn)(void *ctx, size_t job, const char *line, size_t len,
                            const char *died);

typedef struct pool_cfg {
	int workers;                         /* >= 1; capped at the number of jobs */
	pool_eval_fn eval;
	void *eval_ctx;
	pool_sink_fn sink;
	void *sink_ctx;
	const volatile sig_atomic_t *stop;   /* set by a signal handler: stop soon; may be NULL */
} pool_cfg;

enum { POOL_DONE = 0, POOL_STOPPED = 1, POOL_ERROR = -1 };

/* Runs jobs[0..njobs) on cfg->workers processes. Returns POOL_DONE when every
 * job went to the sink, POOL_STOPPED when *stop was set or a worker was
 * killed from outside (SIGINT, SIGTERM, SIGKILL: the jobs in flight are not
 * reported), POOL_ERROR when the sink failed or no worker could start
 * (message on err). Every worker is reaped before it returns. */
int pool_run(const pool_cfg *cfg, const size_t *jobs, size_t njobs, FILE *err);

#endif
