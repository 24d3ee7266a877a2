/* flow.h: the flow-level network. Links have a capacity and a latency; a flow
 * moves bytes along a route of links. Concurrent flows share links max-min
 * fairly (progressive filling), rates are re-planned only when the set of
 * flows changes, and all changes at one instant are batched into one
 * re-plan. A flow may stand for `mult` identical sibling flows that run on
 * parallel, symmetric links (other tensor-parallel ranks on other rails): on a
 * link whose `fanin` is above 1 it then consumes rate * min(mult, fanin). */
#ifndef TRAINSIM_FLOW_H
#define TRAINSIM_FLOW_H

#include <stdint.h>
#include "engine.h"

typedef struct flownet flownet;

/* Called once per flow, when its last byte has arrived (transmission end plus
 * route latency). */
typedef void (*flow_done_fn)(sim *s, void *ctx, uint64_t arg);

/* Creates an empty network driven by engine `s` (not owned). NULL on OOM. */
flownet *flow_new(sim *s);
void flow_free(flownet *n);

/* Adds a unidirectional link; returns its id (>= 0) or a negative error.
 * capacity_Bps > 0, latency_s >= 0, fanin >= 1 (see above). `kind` is a small
 * tag the caller uses to group links in reports (NVLink, NIC, ...). */
int flow_link_add(flownet *n, double capacity_Bps, double latency_s, int fanin, int kind);
int flow_link_count(const flownet *n);
double flow_link_capacity(const flownet *n, int link);
double flow_link_latency(const flownet *n, int link);
int flow_link_kind(const flownet *n, int link);
/* Bytes the link has carried so far (counting siblings it carried), and the
 * time it spent with at least one flow on it. */
double flow_link_bytes(const flownet *n, int link);
double flow_link_busy_s(const flownet *n, int link);

/* Starts a flow of `bytes` along route[0..nlinks-1] (copied) at sim_now.
 * rate_cap_Bps bounds its rate (0 = none: a per-flow limit such as a TCP
 * window or a NIC's achievable fraction); mult >= 1 as above. A flow with no
 * links or no bytes completes after the route latency. done(s, ctx, arg) is
 * called on completion. Returns a flow id >= 0 or a negative error
 * (SIM_EINVAL for a bad link, bytes < 0, mult < 1...). An id is reused once
 * its flow has been delivered. */
int flow_start(flownet *n, const int *route, int nlinks, double bytes,
               double rate_cap_Bps, double mult, flow_done_fn done, void *ctx,
               uint64_t arg);
/* Completions due at one instant that a re-plan schedules one after another
 * run in one engine event, in that order, as their own events would have: a
 * done() callback that schedules an event at this instant with a priority
 * before SIM_PRIO_NORMAL sees it run after the batch's other completions,
 * and sim_stop() takes effect once the batch is over.
 *
 * flow_start_sent: as flow_start, but done() is called when the last byte
 * has left the sender, not a route latency later: for callers that only
 * need the latest arrival of a group of flows, which they can compute from
 * the send ends and schedule as one event, instead of one delivery event per
 * flow. A flow with no links or no bytes is done in an event at sim_now
 * (never inside this call). */
int flow_start_sent(flownet *n, const int *route, int nlinks, double bytes,
                    double rate_cap_Bps, double mult, flow_done_fn done, void *ctx,
                    uint64_t arg);

/* Per-flow bandwidth noise. From this call on, each flow started draws a
 * lognormal factor X of mean 1 and coefficient of variation cv from rng
 * (sigma^2 = ln(1 + cv^2), mu = -sigma^2 / 2) and moves as if every link of
 * its route, and its rate cap, were X times as fast for it: at the share a
 * re-plan gives it, it sends X bytes per byte of link time (its link byte
 * counts stay its real bytes). cv = 0 turns it off and draws nothing, so the
 * flows are exactly those of a network without noise. rng is not owned
 * (sim_rng's); draws happen in flow_start order, so a run repeats per seed.
 * Returns 0, or SIM_EINVAL (cv < 0, or cv > 0 without rng). */
int flow_set_noise(flownet *n, double cv, gsl_rng *rng);

/* Current rate of an active flow (bytes/s), 0 if finished. A new flow gets
 * its rate at the re-plan closing its instant (SIM_PRIO_LATE). */
double flow_rate(const flownet *n, int flow);
/* Flows started and not yet delivered (sending, or in their route latency). */
int flow_active_count(const flownet *n);
/* Totals for invariant checks: bytes handed to flow_start, bytes delivered. */
double flow_bytes_started(const flownet *n);
double flow_bytes_delivered(const flownet *n);
/* Number of rate re-plans done, and of flows started (for benchmarks: the
 * work of a run, which engine events no longer count one by one). */
uint64_t flow_replans(const flownet *n);
uint64_t flow_started(const flownet *n);

#endif
