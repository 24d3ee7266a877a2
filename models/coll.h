/* coll.h: collectives as flows. A collective over a group of GPUs becomes a
 * pattern of concurrent flows on the cluster's links (ring edges, tree edges,
 * one ring per rail across nodes, ...), plus NCCL's per-step latency
 * accounting (cost-models.md 1.3), so that collectives contend with each other
 * and with other traffic. Sizes follow nccl-tests: `bytes` is the S of algbw
 * (all_gather/reduce_scatter/all_to_all/gather/scatter: the total array). */
#ifndef TRAINSIM_COLL_H
#define TRAINSIM_COLL_H

#include <stdint.h>
#include "topo.h"

/* COLL_GATHER and COLL_SCATTER are nccl-tests' gather_perf and scatter_perf:
 * grouped sends to (from) the root, S the whole array, S/n a rank. */
typedef enum { COLL_ALL_REDUCE, COLL_ALL_GATHER, COLL_REDUCE_SCATTER, COLL_ALL_TO_ALL,
               COLL_BROADCAST, COLL_REDUCE, COLL_SENDRECV, COLL_GATHER, COLL_SCATTER,
               COLL__N } coll_op;
typedef enum { ALGO_AUTO, ALGO_RING, ALGO_TREE, ALGO_HIERARCHICAL, ALGO_PS, ALGO_NVLS,
               ALGO_NVLS_TREE, ALGO_COLLNET, ALGO__N } coll_algo;

/* Parses nccl-tests and trainsim spellings ("all_reduce", "allreduce"). -1 if unknown. */
int coll_op_parse(const char *s);
const char *coll_op_name(coll_op op);
const char *coll_algo_name(coll_algo a);
/* nccl-tests' busbw/algbw factor for n ranks. */
double coll_busbw_factor(coll_op op, int n);

/* A protocol forced as NCCL_PROTO does (AUTO: NCCL's choice, by its cost
 * model); where the forced one cannot run the collective, NCCL's choice. */
typedef enum { COLL_PROTO_AUTO, COLL_PROTO_LL, COLL_PROTO_LL128, COLL_PROTO_SIMPLE,
               COLL_PROTO__N } coll_proto;
/* Parses NCCL_PROTO's spellings ("LL", "LL128", "Simple", any case); -1 if
 * unknown. */
int coll_proto_parse(const char *s);
const char *coll_proto_name(coll_proto p);

typedef void (*coll_done_fn)(sim *s, void *ctx, uint64_t arg);

typedef struct coll_req {
	coll_op op;
	coll_algo algo;          /* ALGO_AUTO: what NCCL's tuner would pick */
	const int *ranks;        /* GPU ids, n of them (copied) */
	int n;
	int root;                /* index into ranks for broadcast/reduce/gather/scatter;
	                          * peer for sendrecv */
	double bytes;
	double mult;             /* identical sibling collectives on parallel rails (>= 1) */
	bool symmetric;          /* all_to_all: every node of the group sends and receives
	                          * alike; only the first node's flows (out and in) are
	                          * simulated, the others' stand behind them (the step's
	                          * expert all-to-all, whose other nodes are not simulated) */
	int ps_servers;          /* ALGO_PS */
	coll_proto proto;        /* COLL_PROTO_AUTO: NCCL's choice */
	int dedup_topk;          /* all_to_all as DeepEP dispatches (0: NCCL's): each GPU's
	                          * tokens each go to dedup_topk of dedup_experts experts
	                          * spread evenly over the group's GPUs, and cross to another
	                          * node once whatever experts they meet there */
	int dedup_experts;
} coll_req;

typedef struct coll_ctx coll_ctx;   /* per-cluster state: pools, scratch */
coll_ctx *coll_ctx_new(cluster *cl, sim *s);
void coll_ctx_free(coll_ctx *cc);

/* Starts a collective at sim_now; done(s, ctx, arg) when every rank has
 * finished. Returns 0 or a negative error. */
int coll_start(coll_ctx *cc, const coll_req *req, coll_done_fn done, void *ctx, uint64_t arg);

/* Starts `count` (>= 1) identical collectives of req, issued back to back on
 * one stream (NCCL runs them in order on one communicator), as ONE pattern of
 * flows of count x req->bytes: the algorithm and protocol are those of one
 * collective of req->bytes, and the latency of every one of them is paid
 * (count x max(NCCL latency, route latency), minus what the flows already
 * paid). The bandwidth term is the same as running them one after the other;
 * what differs: the short latency gaps between them are at the end (other
 * traffic sees the stream's flows without those gaps), and a phase ends with
 * its last delivery once rather than once per collective (less than the
 * spread of its route latencies each). done() once, when the last would have
 * ended. coll_start is count 1. 0 or a negative error. */
int coll_start_batch(coll_ctx *cc, const coll_req *req, double count, coll_done_fn done,
                     void *ctx, uint64_t arg);

/* The probability that a token routed to `topk` of `experts` experts, spread
 * evenly over `nodes` nodes, meets at least one on a given other node: the
 * share of a GPU's tokens DeepEP sends to that node (once each). */
double coll_a2a_node_share(int topk, int experts, int nodes);

/* The algorithm ALGO_AUTO resolves to for this request. */
coll_algo coll_pick(const coll_ctx *cc, const coll_req *req);
/* Writes what req resolves to as "algorithm/protocol" ("ring/LL128",
 * "nvls/Simple") into buf. */
void coll_describe(const coll_ctx *cc, const coll_req *req, char *buf, size_t len);
/* NCCL-model latency of the request (seconds), excluding bandwidth time. */
double coll_latency(const coll_ctx *cc, const coll_req *req, coll_algo algo);

/* Thread blocks (one per NCCL channel, each on its own SM) a collective of
 * `ranks` GPUs of one node holds while it runs: NCCL's channel count for
 * the node (24 on 8 x A100 or H100), 16 for an NVLS all-reduce. */
int coll_node_ctas(const scn_cluster *c, int ranks, coll_op op);
/* Whether a large all-reduce of `ranks` GPUs of one node of c runs as NVLS
 * (the NVSwitch reduces), as coll_node_ctas counts its channels; the
 * reduce-scatter and all-gather of the same GPUs stay rings. */
bool coll_node_nvls(const scn_cluster *c, int ranks);

/* Runs one collective alone on a fresh engine and returns its duration in
 * seconds (negative on error): the building block of `trainsim nccl`. */
double coll_time_isolated(const scn_cluster *c, const coll_req *req, char *err, size_t errlen);
/* The same for `count` back-to-back collectives of req (coll_start_batch:
 * chosen as one, their bytes carried together), as a stream runs a queue
 * of gradient buckets. */
double coll_time_isolated_batch(const scn_cluster *c, const coll_req *req, double count, char *err,
                                size_t errlen);

/* What nccl-tests would report for that collective: coll_time_isolated,
 * but no faster than the host can launch it. nccl-tests -g G drives G GPUs
 * from one thread, which launches G kernels per iteration (COLL_LAUNCH_S
 * each; see coll.c). gpus_per_thread <= 1: one GPU per process. */
#define COLL_LAUNCH_S 5e-6
double coll_nccl_tests_time(const scn_cluster *c, const coll_req *req, int gpus_per_thread,
                            char *err, size_t errlen);

#endif
