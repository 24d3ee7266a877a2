/* engine.h: the discrete-event core. One clock in seconds, one queue ordered by
 * (time, priority, insertion sequence) so that runs repeat bit for bit, pooled
 * event records, and a hard cap on the number of events a run may execute. */
#ifndef TRAINSIM_ENGINE_H
#define TRAINSIM_ENGINE_H

#include <stdint.h>
#include <stdbool.h>
#include <gsl/gsl_rng.h>

typedef struct sim sim;

/* A handler: called at its time with the context and argument it was given. */
typedef void (*sim_fn)(sim *s, void *ctx, uint64_t arg);

/* Priorities order events at the same instant: lower runs first. Model events
 * use SIM_PRIO_NORMAL; the flow network re-plans rates at SIM_PRIO_LATE, after
 * every same-time event has been applied. */
enum { SIM_PRIO_EARLY = 0, SIM_PRIO_NORMAL = 10, SIM_PRIO_LATE = 20 };

/* Error codes (negative returns). */
enum { SIM_OK = 0, SIM_ELIMIT = -1, SIM_ENOMEM = -2, SIM_EINVAL = -3 };

/* Creates an engine whose master seed is `seed`; `max_events` caps sim_run
 * (0 = the default, SIM_DEFAULT_MAX_EVENTS). Returns NULL on allocation
 * failure. The caller frees with sim_free. */
#define SIM_DEFAULT_MAX_EVENTS 200000000ULL
sim *sim_new(uint64_t seed, uint64_t max_events);
void sim_free(sim *s);

/* Current simulated time in seconds. */
double sim_now(const sim *s);

/* Schedules fn(ctx, arg) at absolute time t >= sim_now (asserted). Returns 0,
 * or SIM_ENOMEM. */
int sim_at(sim *s, double t, int prio, sim_fn fn, void *ctx, uint64_t arg);
/* Same, at sim_now + dt (dt >= 0). */
int sim_after(sim *s, double dt, int prio, sim_fn fn, void *ctx, uint64_t arg);

/* Runs events until the queue is empty, sim_stop is called, or the event cap
 * is hit. Returns SIM_OK, or SIM_ELIMIT when the cap stopped the run (or
 * SIM_ENOMEM if the queue could not grow; the run can then be resumed). */
int sim_run(sim *s);
void sim_stop(sim *s);

/* Events executed so far, and the cap. */
uint64_t sim_events(const sim *s);
uint64_t sim_max_events(const sim *s);
/* Events scheduled so far (sim_at calls that succeeded): unchanged between two
 * calls means nothing else was scheduled in between. */
uint64_t sim_scheduled(const sim *s);

/* A GSL generator for the stochastic entity `stream`, seeded from (master
 * seed, stream) so that entities draw independently of each other and of the
 * order in which they are created. Owned by the engine; valid until sim_free. */
gsl_rng *sim_rng(sim *s, uint64_t stream);

/* The seed mixer behind sim_rng (splitmix64 of seed and stream), exposed for
 * code that needs a reproducible generator outside an engine. */
uint64_t sim_seed_mix(uint64_t seed, uint64_t stream);

#endif
