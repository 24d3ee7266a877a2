/* engine_ladder.c: the ladder queue (Tang, Goh, Thng, ACM TOMACS 15(3),
 * 2005) in front of the engine's heap. Far events wait unsorted in buckets by
 * time range; a crowded bucket is refined into a finer rung; a small one goes
 * to the heap when the heap runs dry, so the heap stays small and in cache
 * while insertion and removal cost O(1) amortized. Order stays exact: the
 * heap sorts by (time, prio, sequence), and buckets only partition time. */
#include "engine_int.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A rung is built with about this many events per bucket; a bucket with more
 * than SPLIT becomes a finer rung rather than going to the heap (the ladder
 * queue paper found about 50 good). The coarsest rung takes 256 per bucket:
 * with 1e6 pending events its bucket heads then stay in cache, which
 * bench_engine measured as the best of 32..1024 (32 for the finer rungs). */
#define SIMQ_BUCKET_EVENTS 32
#define SIMQ_TOP_EVENTS 256
#define SIMQ_BUCKET_SPLIT 64
#define SIMQ_MAX_BUCKETS (1u << 22)

void simq_init(sim *s)
{
	s->top = (simq_chain){ SIMQ_NIL, 0 };
	s->free_chunk = SIMQ_NIL;
}

void simq_free(sim *s)
{
	for (int r = 0; r < SIMQ_RUNGS; r++)
		free(s->rungs[r].bucket);
	free(s->chunks);
}

/* Makes sure `need` more chunks can be taken without allocating. */
static int simq_reserve(sim *s, uint64_t need)
{
	uint64_t have = (uint64_t)s->nfree_chunks + (s->capchunks - s->nchunks);
	if (have >= need)
		return SIM_OK;
	uint64_t want = (uint64_t)s->nchunks + need, ncap = s->capchunks ? s->capchunks : 64;
	while (ncap < want)
		ncap *= 2;
	if (ncap >= SIMQ_NIL)
		return SIM_ENOMEM;
	simq_chunk *c = realloc(s->chunks, ncap * sizeof *c);
	if (!c)
		return SIM_ENOMEM;
	s->chunks = c;
	s->capchunks = (uint32_t)ncap;
	return SIM_OK;
}

/* Takes a chunk (simq_reserve must have made room) and puts it in front. */
static void simq_chain_grow(sim *s, simq_chain *ch)
{
	uint32_t c;
	if (s->free_chunk != SIMQ_NIL) {
		c = s->free_chunk;
		s->free_chunk = s->chunks[c].next;
		s->nfree_chunks--;
	} else {
		c = s->nchunks++;
	}
	s->chunks[c].next = ch->head;
	ch->head = c;
}

static void simq_chunk_give(sim *s, uint32_t c)
{
	s->chunks[c].next = s->free_chunk;
	s->free_chunk = c;
	s->nfree_chunks++;
}

/* The next free item of chain ch, counted in (NULL on SIM_ENOMEM). The
 * chain's count says where it is: adding never reads the chunk. */
static simq_item *simq_chain_slot(sim *s, simq_chain *ch)
{
	uint32_t at = ch->count % SIMQ_CHUNK_ITEMS;
	if (at == 0) {
		if (simq_reserve(s, 1))
			return NULL;
		simq_chain_grow(s, ch);
	}
	ch->count++;
	return &s->chunks[ch->head].item[at];
}

/* The chain an event at time t belongs to: `top` if beyond the coarsest
 * rung, else the bucket of the first rung whose undrained range holds it.
 * NULL if it is earlier than every undrained bucket: it belongs in the
 * heap. */
static simq_chain *simq_place(sim *s, double t)
{
	if (s->nrungs == 0)
		return &s->top;
	for (int r = 0; r < s->nrungs; r++) {
		simq_rung *g = &s->rungs[r];
		double x = (t - g->base) * g->inv_width;
		if (x >= (double)g->nb) {
			if (r == 0)
				return &s->top;
			/* A finer rung spans its parent bucket's events when it was
			 * built; a later event of that bucket joins its last bucket. */
			x = (double)(g->nb - 1);
		}
		if (x >= (double)g->cur)
			return &g->bucket[(uint32_t)x];
	}
	return NULL;
}

int simq_put(sim *s, sim_key k, sim_fn fn, void *ctx, uint64_t arg)
{
	simq_chain *ch = simq_place(s, k.t);
	if (!ch)
		return 0;
	simq_item *it = simq_chain_slot(s, ch);
	if (!it)
		return SIM_ENOMEM;
	it->key = k;
	it->ev.fn = fn;
	it->ev.ctx = ctx;
	it->ev.arg = arg;
	if (ch == &s->top) {
		if (s->top.count == 1 || k.t < s->top_min)
			s->top_min = k.t;
		if (s->top.count == 1 || k.t > s->top_max)
			s->top_max = k.t;
	}
	return 1;
}

/* Builds rung r from chain src, whose events lie in [tmin, tmax], and
 * recycles src's chunks. On SIM_ENOMEM nothing has moved. */
static int simq_rung_build(sim *s, int r, simq_chain src, double tmin, double tmax)
{
	simq_rung *g = &s->rungs[r];
	uint32_t nb = src.count / (r == 0 ? SIMQ_TOP_EVENTS : SIMQ_BUCKET_EVENTS);
	nb = nb < 1 ? 1 : nb > SIMQ_MAX_BUCKETS ? SIMQ_MAX_BUCKETS : nb;
	/* All at one instant (or nearly): the steepest map, so that only that
	 * instant lands in bucket 0 and anything later goes past the rung. */
	double inv = tmax > tmin ? (double)nb / (tmax - tmin) : DBL_MAX;
	if (!(inv <= DBL_MAX))
		inv = DBL_MAX;
	/* Rounding may put tmax at x = nb: narrow until it falls inside. */
	while ((tmax - tmin) * inv >= (double)nb)
		inv *= 1 - 0x1p-40;
	if (simq_reserve(s, (uint64_t)nb + src.count / SIMQ_CHUNK_ITEMS + 1))
		return SIM_ENOMEM;
	if (nb > g->cap) {
		simq_chain *b = realloc(g->bucket, nb * sizeof *b);
		if (!b)
			return SIM_ENOMEM;
		g->bucket = b;
		g->cap = nb;
	}
	g->base = tmin;
	g->inv_width = inv;
	g->nb = nb;
	g->cur = 0;
	for (uint32_t k = 0; k < nb; k++)
		g->bucket[k] = (simq_chain){ SIMQ_NIL, 0 };
	uint32_t n = simq_head_items(src.count);
	for (uint32_t c = src.head, next; c != SIMQ_NIL; c = next, n = SIMQ_CHUNK_ITEMS) {
		next = s->chunks[c].next;
		if (next != SIMQ_NIL)
			__builtin_prefetch(&s->chunks[next]);
		for (uint32_t i = 0; i < n; i++) {
			simq_item it = s->chunks[c].item[i];
			uint32_t k = (uint32_t)((it.key.t - tmin) * inv);
			*simq_chain_slot(s, &g->bucket[k]) = it;   /* reserved above */
		}
		simq_chunk_give(s, c);
	}
	s->nrungs = r + 1;
	return SIM_OK;
}

/* Moves a bucket's events to the heap (simi_reserve made room). */
static void simq_drain(sim *s, simq_chain b)
{
	uint32_t n = simq_head_items(b.count);
	for (uint32_t c = b.head, next; c != SIMQ_NIL; c = next, n = SIMQ_CHUNK_ITEMS) {
		const simq_chunk *ch = &s->chunks[c];
		next = ch->next;
		if (next != SIMQ_NIL)
			__builtin_prefetch(&s->chunks[next]);
		for (uint32_t i = 0; i < n; i++)
			simi_heap_push(s, ch->item[i].key, &ch->item[i].ev);
		simq_chunk_give(s, c);
	}
}

static void simq_span(const sim *s, simq_chain b, double *tmin, double *tmax)
{
	double lo = INFINITY, hi = -INFINITY;
	uint32_t n = simq_head_items(b.count);
	for (uint32_t c = b.head; c != SIMQ_NIL; c = s->chunks[c].next, n = SIMQ_CHUNK_ITEMS)
		for (uint32_t i = 0; i < n; i++) {
			double t = s->chunks[c].item[i].key.t;
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
	*tmin = lo;
	*tmax = hi;
}

int simq_refill(sim *s)
{
	for (;;) {
		if (s->nrungs == 0) {
			if (s->top.count == 0)
				return SIM_OK;
			int rc = simq_rung_build(s, 0, s->top, s->top_min, s->top_max);
			if (rc)
				return rc;
			s->top = (simq_chain){ SIMQ_NIL, 0 };
		}
		simq_rung *g = &s->rungs[s->nrungs - 1];
		while (g->cur < g->nb && g->bucket[g->cur].count == 0)
			g->cur++;
		if (g->cur == g->nb) {
			s->nrungs--;
			continue;
		}
		simq_chain b = g->bucket[g->cur++];
		if (b.count > SIMQ_BUCKET_SPLIT && s->nrungs < SIMQ_RUNGS) {
			double tmin, tmax;
			simq_span(s, b, &tmin, &tmax);
			if (tmax > tmin) {
				int rc = simq_rung_build(s, s->nrungs, b, tmin, tmax);
				if (rc) {
					g->cur--;
					return rc;
				}
				continue;
			}
		}
		if (simi_reserve(s, (uint64_t)s->n + b.count)) {
			g->cur--;
			return SIM_ENOMEM;
		}
		simq_drain(s, b);
		return SIM_OK;
	}
}
