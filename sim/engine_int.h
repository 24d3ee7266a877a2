/* engine_int.h: what engine.c (heap, run loop, generators) and
 * engine_ladder.c (the ladder of time buckets in front of the heap) share.
 * Not for other modules. */
#ifndef TRAINSIM_ENGINE_INT_H
#define TRAINSIM_ENGINE_INT_H

#include "engine.h"

/* An event's place in the order: `ps` packs the priority (biased, top 8
 * bits) above the insertion sequence (low 56 bits), so that comparing
 * (t, ps) is comparing (time, prio, sequence). */
typedef struct {
	double t;
	uint64_t ps;
} sim_key;

/* What an event does. Events in the heap keep it in the pool, found through
 * their slot; the pool is as small as the heap, so it stays in cache. */
typedef struct {
	sim_fn fn;
	void *ctx;
	uint64_t arg;
} sim_ev;

/* A pending event in the ladder, payload included, so that draining a
 * bucket reads memory in order and never jumps into the pool. */
typedef struct {
	sim_key key;
	sim_ev ev;
} simq_item;

#define SIMQ_NIL UINT32_MAX
#define SIMQ_CHUNK_ITEMS 16

/* Ladder buckets are chains of fixed-size chunks, so that filling and
 * draining them walks memory in order rather than chasing pointers. Only
 * the head chunk of a chain is partly filled: the chain's count says how
 * much, so that adding an item writes the chunk and never reads it. */
typedef struct {
	uint32_t next;
	simq_item item[SIMQ_CHUNK_ITEMS];
} simq_chunk;

typedef struct {
	uint32_t head;          /* chunk that receives the next item */
	uint32_t count;
} simq_chain;

/* Items in the head chunk of a chain of `count` > 0 items. */
static inline uint32_t simq_head_items(uint32_t count)
{
	return (count - 1) % SIMQ_CHUNK_ITEMS + 1;
}

/* A rung: nb buckets, bucket k holding the events whose x = (t - base) *
 * inv_width falls in [k, k+1). Buckets below cur have gone to finer rungs or
 * to the heap. The map from t to x is monotone, so no bucket holds an event
 * earlier than one in a lower bucket, and events of one instant share one. */
typedef struct {
	double base, inv_width;
	uint32_t nb, cur, cap;
	simq_chain *bucket;
} simq_rung;

#define SIMQ_RUNGS 8

struct sim {
	double now;
	uint64_t seed, seq, events, max_events;
	bool stopped;
	bool top_dead;          /* heap[0] already ran; the next push may replace it */
	/* The heap of the near future: keys (16 bytes, so that the four
	 * children of a node fill one cache line) and, in parallel, slots. */
	void *key_mem;          /* aligned allocation behind key */
	sim_key *key;           /* key[0] is the root; children of i: 4i+1..4i+4 */
	uint32_t *hslot;
	uint32_t n, cap;        /* heap entries / capacity of heap, pool, free list */
	sim_ev *pool;
	uint32_t *free_slots;
	uint32_t nfree, npool;
	/* The ladder: rungs[0] is the coarsest; `top` collects, unsorted, what
	 * lies beyond it (everything, while there is no rung). */
	simq_rung rungs[SIMQ_RUNGS];
	int nrungs;
	simq_chain top;
	double top_min, top_max;
	simq_chunk *chunks;
	uint32_t nchunks, capchunks, free_chunk, nfree_chunks;
	/* Generators per stream: open addressing, linear probing, NULL = empty. */
	struct sim_rngent *rngs;
	size_t nrngs, caprngs;
};

/* engine.c: makes room in the heap and its pool for `need` events (0 or
 * SIM_ENOMEM); inserts into the heap, which must have room. */
int simi_reserve(sim *s, uint64_t need);
void simi_heap_push(sim *s, sim_key k, const sim_ev *ev);

/* engine_ladder.c. */
void simq_init(sim *s);
void simq_free(sim *s);
/* Files an event in the ladder. Returns 1 if it did, 0 if the event is
 * earlier than every undrained bucket (it belongs in the heap), or
 * SIM_ENOMEM. */
int simq_put(sim *s, sim_key k, sim_fn fn, void *ctx, uint64_t arg);
/* With the heap empty, moves the next events of the ladder into it. 0, or
 * SIM_ENOMEM. */
int simq_refill(sim *s);

#endif
