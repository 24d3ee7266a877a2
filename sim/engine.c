/* engine.c: the discrete-event core behind engine.h: the run loop, pooled
 * event records, the 4-ary heap that holds the near future in exact (time,
 * prio, sequence) order (engine_ladder.c keeps the rest), and a lazily filled
 * table of per-stream GSL generators. */
#include "engine_int.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIM_PRIO_BIAS 128
#define SIM_SEQ_BITS 56

struct sim_rngent {
	uint64_t stream;
	gsl_rng *rng;
};

#define SIM_HEAP_ALIGN 64
/* The root sits three entries into the allocation so that each group of four
 * children (4i+1..4i+4) starts on a 64-byte boundary. */
#define SIM_HEAP_SKEW 3

uint64_t sim_seed_mix(uint64_t seed, uint64_t stream)
{
	/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): a bijection per step, so
	 * for one seed distinct streams always give distinct seeds. */
	uint64_t z = seed;
	for (int round = 0; round < 2; round++) {
		z += 0x9E3779B97F4A7C15ULL;
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
		z ^= z >> 31;
		if (round == 0)
			z ^= stream;
	}
	return z;
}

sim *sim_new(uint64_t seed, uint64_t max_events)
{
	sim *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->seed = seed;
	s->max_events = max_events ? max_events : SIM_DEFAULT_MAX_EVENTS;
	simq_init(s);
	return s;
}

void sim_free(sim *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->caprngs; i++)
		if (s->rngs[i].rng)
			gsl_rng_free(s->rngs[i].rng);
	free(s->rngs);
	simq_free(s);
	free(s->key_mem);
	free(s->hslot);
	free(s->pool);
	free(s->free_slots);
	free(s);
}

double sim_now(const sim *s) { return s->now; }
uint64_t sim_events(const sim *s) { return s->events; }
uint64_t sim_scheduled(const sim *s) { return s->seq; }
uint64_t sim_max_events(const sim *s) { return s->max_events; }
void sim_stop(sim *s) { s->stopped = true; }

/* Grows heap, pool and free list together to hold `need` events: the pool
 * holds the payloads of the events in the heap (the ladder keeps its own). */
int simi_reserve(sim *s, uint64_t need)
{
	if (need <= s->cap)
		return SIM_OK;
	uint64_t ncap = s->cap ? s->cap : 1024;
	while (ncap < need)
		ncap *= 2;
	if (ncap > UINT32_MAX / 2)
		return SIM_ENOMEM;
	size_t bytes = (size_t)(ncap + SIM_HEAP_SKEW) * sizeof(sim_key);
	bytes = (bytes + SIM_HEAP_ALIGN - 1) / SIM_HEAP_ALIGN * SIM_HEAP_ALIGN;
	void *mem = aligned_alloc(SIM_HEAP_ALIGN, bytes);
	sim_ev *pool = realloc(s->pool, (size_t)ncap * sizeof *pool);
	if (pool)
		s->pool = pool;
	uint32_t *fs = realloc(s->free_slots, (size_t)ncap * sizeof *fs);
	if (fs)
		s->free_slots = fs;
	uint32_t *hs = realloc(s->hslot, (size_t)ncap * sizeof *hs);
	if (hs)
		s->hslot = hs;
	if (!mem || !pool || !fs || !hs) {
		free(mem);
		return SIM_ENOMEM;
	}
	sim_key *key = (sim_key *)mem + SIM_HEAP_SKEW;
	if (s->n)
		memcpy(key, s->key, (size_t)s->n * sizeof *key);
	free(s->key_mem);
	s->key_mem = mem;
	s->key = key;
	s->cap = (uint32_t)ncap;
	return SIM_OK;
}

/* a runs before b? Bitwise operators instead of && and || so that the
 * comparison compiles to flag arithmetic and conditional moves: which child
 * is smallest is a coin toss no branch predictor can learn. */
static inline bool sim_before(sim_key a, sim_key b)
{
	return (a.t < b.t) | ((a.t == b.t) & (a.ps < b.ps));
}

static inline void sim_put(sim *s, uint32_t i, sim_key k, uint32_t slot)
{
	s->key[i] = k;
	s->hslot[i] = slot;
}

static void sim_sift_up(sim *s, uint32_t i, sim_key k, uint32_t slot)
{
	while (i > 0) {
		uint32_t p = (i - 1) >> 2;
		if (!sim_before(k, s->key[p]))
			break;
		sim_put(s, i, s->key[p], s->hslot[p]);
		i = p;
	}
	sim_put(s, i, k, slot);
}

/* Index of the first to run among the children c..end-1. The full case
 * selects by arithmetic on the comparison results, never by a branch. */
static inline uint32_t sim_min_child(const sim_key *h, uint32_t c, uint32_t end)
{
	if (end - c == 4) {
		uint32_t a = c + (uint32_t)sim_before(h[c + 1], h[c]);
		uint32_t b = c + 2 + (uint32_t)sim_before(h[c + 3], h[c + 2]);
		uint32_t pick_b = -(uint32_t)sim_before(h[b], h[a]);
		return a ^ ((a ^ b) & pick_b);
	}
	uint32_t best = c;
	for (uint32_t k = c + 1; k < end; k++)
		best = sim_before(h[k], h[best]) ? k : best;
	return best;
}

/* Fills the hole at the root with (k, slot), moving it down past smaller
 * children. Top-down, stopping early: in a simulation most new events belong
 * near the top (a re-plan at this instant, a delivery a hop later), and the
 * ladder keeps the heap small, so the path down is short and in cache. */
static void sim_sift_down(sim *s, sim_key k, uint32_t slot)
{
	uint32_t i = 0, n = s->n;
	for (;;) {
		uint32_t c = 4 * i + 1;
		if (c >= n)
			break;
		uint32_t best = sim_min_child(s->key, c, c + 4 < n ? c + 4 : n);
		if (!sim_before(s->key[best], k))
			break;
		sim_put(s, i, s->key[best], s->hslot[best]);
		i = best;
	}
	sim_put(s, i, k, slot);
}

static void sim_pop_root(sim *s)
{
	s->n--;
	if (s->n > 0)
		sim_sift_down(s, s->key[s->n], s->hslot[s->n]);
}

static inline uint32_t sim_slot_take(sim *s, const sim_ev *ev)
{
	uint32_t slot = s->nfree ? s->free_slots[--s->nfree] : s->npool++;
	s->pool[slot] = *ev;
	return slot;
}

void simi_heap_push(sim *s, sim_key k, const sim_ev *ev)
{
	assert(s->n < s->cap);
	uint32_t slot = sim_slot_take(s, ev);
	s->n++;
	sim_sift_up(s, s->n - 1, k, slot);
}

int sim_at(sim *s, double t, int prio, sim_fn fn, void *ctx, uint64_t arg)
{
	assert(t >= s->now && "event scheduled in the past (or at NaN)");
	assert(t < INFINITY && "event scheduled at infinity");
	assert(prio >= -SIM_PRIO_BIAS && prio < SIM_PRIO_BIAS);
	assert(s->seq < (1ULL << SIM_SEQ_BITS));
	assert(fn);
	/* + 0.0 turns -0.0 into +0.0 so that equal instants compare equal. */
	sim_key k = { t + 0.0, (uint64_t)(prio + SIM_PRIO_BIAS) << SIM_SEQ_BITS | s->seq };
	int placed = simq_put(s, k, fn, ctx, arg);
	if (placed < 0)
		return placed;
	s->seq++;
	if (placed)
		return SIM_OK;
	sim_ev ev = { fn, ctx, arg };
	if (s->top_dead) {
		/* The running event still holds the root (its slot is free): its
		 * successor takes its place, one sift instead of a pop and a push. */
		s->top_dead = false;
		sim_sift_down(s, k, sim_slot_take(s, &ev));
		return SIM_OK;
	}
	if (simi_reserve(s, (uint64_t)s->n + 1))
		return SIM_ENOMEM;
	simi_heap_push(s, k, &ev);
	return SIM_OK;
}

int sim_after(sim *s, double dt, int prio, sim_fn fn, void *ctx, uint64_t arg)
{
	assert(dt >= 0 && "negative delay");
	return sim_at(s, s->now + dt, prio, fn, ctx, arg);
}

int sim_run(sim *s)
{
	s->stopped = false;
	for (;;) {
		if (s->top_dead) {
			s->top_dead = false;
			sim_pop_root(s);
		}
		if (s->stopped)
			return SIM_OK;
		if (s->n == 0) {
			int rc = simq_refill(s);
			if (rc)
				return rc;
			if (s->n == 0)
				return SIM_OK;
		}
		if (s->events >= s->max_events)
			return SIM_ELIMIT;
		uint32_t slot = s->hslot[0];
		sim_ev ev = s->pool[slot];
		s->free_slots[s->nfree++] = slot;
		s->now = s->key[0].t;
		s->top_dead = true;
		s->events++;
		ev.fn(s, ev.ctx, ev.arg);
	}
}

static size_t sim_rng_hash(uint64_t key, size_t mask)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 17) & mask;
}

static int sim_rng_grow(sim *s)
{
	size_t ncap = s->caprngs ? s->caprngs * 2 : 16;
	struct sim_rngent *t = calloc(ncap, sizeof *t);
	if (!t)
		return SIM_ENOMEM;
	for (size_t i = 0; i < s->caprngs; i++) {
		if (!s->rngs[i].rng)
			continue;
		size_t j = sim_rng_hash(s->rngs[i].stream, ncap - 1);
		while (t[j].rng)
			j = (j + 1) & (ncap - 1);
		t[j] = s->rngs[i];
	}
	free(s->rngs);
	s->rngs = t;
	s->caprngs = ncap;
	return SIM_OK;
}

gsl_rng *sim_rng(sim *s, uint64_t stream)
{
	if (2 * (s->nrngs + 1) > s->caprngs && sim_rng_grow(s))
		return NULL;
	size_t mask = s->caprngs - 1, j = sim_rng_hash(stream, mask);
	while (s->rngs[j].rng) {
		if (s->rngs[j].stream == stream)
			return s->rngs[j].rng;
		j = (j + 1) & mask;
	}
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		return NULL;
	/* GSL's mt19937 keeps only the low 32 bits of its seed: fold the high
	 * half in so that both halves of the mix matter. */
	uint64_t m = sim_seed_mix(s->seed, stream);
	gsl_rng_set(r, (unsigned long)((m ^ (m >> 32)) & 0xFFFFFFFFULL));
	s->rngs[j] = (struct sim_rngent){ stream, r };
	s->nrngs++;
	return r;
}
