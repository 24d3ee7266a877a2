/* memest.h: the simulator's own memory, estimated from a scenario before
 * anything is allocated (cluster links, flows in flight with their pending
 * events, tables), so that absurd inputs are refused at once with a message
 * naming the limit (run.max_memory, --max-memory) instead of swapping. */
#ifndef TRAINSIM_MEMEST_H
#define TRAINSIM_MEMEST_H

#include <stddef.h>
#include "coll.h"
#include "scenario.h"

/* The limit when neither the scenario nor the command line gives one. */
#define MEMEST_DEFAULT_LIMIT_BYTES (4.0 * 1024 * 1024 * 1024)

/* The limit in effect: opt_bytes (a command-line value) if > 0, else the
 * scenario's run.max_memory if > 0, else MEMEST_DEFAULT_LIMIT_BYTES. */
double memest_limit(const scenario *s, double opt_bytes);

/* Bytes of the cluster's links (built by cluster_build), from the node count,
 * GPUs and NICs per node and the intra-node kind. */
double memest_cluster(const scn_cluster *c);

/* Flows one collective `op` over n ranks keeps in flight at once, with
 * per_node of its ranks on each node it spans (coll_a2a.c: one flow per node
 * pair and rail across nodes; the ring-like algorithms a few per rank and
 * rail). An estimate, not a count. */
double memest_coll_flows(const scn_cluster *c, coll_op op, int n, int per_node);
/* The flows of a parameter-server all_reduce over n ranks with ps servers:
 * every worker to every server in each phase, n x min(ps, n) (a ring's grow
 * as n, these as n^2 when a server sits on each node). */
double memest_ps_flows(int n, int ps);

/* Bytes of `flows` concurrent flows: their records, routes, link entries,
 * pending completion and delivery events and re-plan scratch. */
double memest_flows(double flows);

/* 0 when need_bytes <= limit_bytes; else -1 and err = "<what> needs about X
 * of memory; the limit is Y (run.max_memory or --max-memory)". */
int memest_check(const char *what, double need_bytes, double limit_bytes, char *err,
                 size_t errlen);

#endif
