/* report.c: the machine-readable renderers of a step_result (JSON object and
 * CSV rows, from one column table so that header and row cannot disagree)
 * and output files that appear whole or not at all. Text is report_text.c. */
#define _XOPEN_SOURCE 700   /* realpath(): XSI, beside the build's POSIX 2008 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "config.h"
#include "report.h"
#include "scn.h"
#include "validate.h"

int report_ring_ranks(const scenario *s, const step_result *r)
{
	if (r && r->dp_ring_n > 0)
		return r->dp_ring_n;
	int dp = scn_dp_grad(s), nodes = s->cluster.nodes;
	if (s->training.grad_reduce.algorithm == GRAD_ALGO_HIERARCHICAL && nodes > 1 && dp > nodes)
		return nodes;
	return dp;
}

double report_state_bytes(const scenario *s)
{
	if (s->model.custom || s->training.peft == PEFT_LORA)
		return 0;
	double w, g, o;
	wl_state_bytes(s, &w, &g, &o);
	return wl_params(&s->model) * (w + g + o);
}

int report_gpus_for_state(const scenario *s, const step_result *r)
{
	double state = report_state_bytes(s), cap = r->memory.capacity - WL_RUNTIME_RESERVE_BYTES;
	if (state <= 0 || cap <= 0 || state <= cap * scn_gpus(s))
		return 0;
	double need = ceil(state / cap);
	return need < 1e9 ? (int)need : 1000000000;
}

void report_wrap(FILE *out, int first, int indent, const char *text)
{
	int col = fprintf(out, "%*s", first, "");
	bool first_word = true;
	for (const char *p = text; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t w = strcspn(p, " ");
		if (!first_word && col + 1 + (int)w > REPORT_WRAP)
			col = fprintf(out, "\n%*s", indent, "") - 1;
		else if (!first_word)
			col += fprintf(out, " ");
		for (size_t i = 0; i < w; i++)
			fputc(p[i] == REPORT_NBSP ? ' ' : p[i], out);
		col += (int)w;
		p += w;
		first_word = false;
	}
	fputc('\n', out);
}

/* Micro-batches each pipeline runs per step (gradient accumulation steps). */
static int micro_batches(const scenario *s)
{
	const scn_training *t = &s->training;
	int per = (t->micro_batch > 0 ? t->micro_batch : 1) * scn_dp(s);
	return t->global_batch / per > 0 ? t->global_batch / per : 1;
}

static void json_layout(json *j, const scenario *s, const step_result *r)
{
	const scn_training *t = &s->training;
	json_key(j, "layout");
	json_obj_begin(j);
	json_kint(j, "tp", t->tp);
	json_kint(j, "pp", t->pp);
	json_kint(j, "dp", scn_dp(s));
	json_kint(j, "cp", scn_cp(s));
	json_kint(j, "ep", s->model.experts > 1 ? t->ep : 1);
	json_kint(j, "micro_batch", t->micro_batch);
	json_kint(j, "global_batch", t->global_batch);
	json_kint(j, "micro_batches", r->micro_batches > 0 ? r->micro_batches : micro_batches(s));
	if (t->peft == PEFT_LORA) {   /* only under LoRA: the reports of full training keep their keys */
		json_kstr(j, "peft", "lora");
		json_kint(j, "lora_rank", t->lora_rank);
	}
	/* the layers each pipeline stage holds (plan.c's split; up to 1024
	 * stages listed) */
	if (t->pp > 1 && t->pp <= 1024) {
		json_kint(j, "virtual_stages", t->schedule == SCHED_INTERLEAVED ? t->virtual_stages : 1);
		json_key(j, "stage_layers");
		json_arr_begin(j);
		for (int st = 0; st < t->pp; st++)
			json_int(j, wl_stage_layers(s, st));
		json_arr_end(j);
	}
	json_obj_end(j);
}

bool report_memory_close(const wl_memory *m)
{
	return m->capacity > 0 && fabs(m->total / m->capacity - 1) <= WL_MEMORY_ERROR;
}

void report_band_sentence(const scenario *s, char *buf, size_t n)
{
	bool moe = s->model.experts > 1;
	const char *gpu = s->cluster.gpu.name, *kind = moe ? "MoE" : "dense";
	const val_band *b = val_band_find(gpu, moe);
	if (!b) {
		snprintf(buf, n, "no published %s training run on the %s is in trainsim's validation "
		         "set: this step time is not validated", kind, gpu);
		return;
	}
	double m = b->median_pct;
	char how[64];
	if (fabs(m) < 0.05)
		snprintf(how, sizeof how, "as fast as published");
	else
		snprintf(how, sizeof how, "%.1f %% %s than published", fabs(m), m > 0 ? "faster" : "slower");
	if (b->runs < 5)
		snprintf(buf, n, "only %d published %s run%s on the %s: too few to say how far off this "
		         "is (predicted %s)", b->runs, kind, b->runs > 1 ? "s" : "", gpu, how);
	else
		snprintf(buf, n, "on the %s (%s models), trainsim predicted steps %s (median of %d "
		         "published runs from %d sources; half of them %+.0f..%+.0f %%): read this step "
		         "time as %s (trainsim validate --by-gpu)", gpu, kind, how, b->runs, b->families,
		         b->q1_pct, b->q3_pct,
		         m > 5 ? "likely optimistic" : m < -5 ? "likely pessimistic" : "about right");
}

static void json_validation(json *j, const scenario *s)
{
	bool moe = s->model.experts > 1;
	const val_band *b = val_band_find(s->cluster.gpu.name, moe);
	json_key(j, "validation");
	json_obj_begin(j);
	json_kstr(j, "gpu", s->cluster.gpu.name);
	json_kstr(j, "model", moe ? "moe" : "dense");
	json_kint(j, "runs", b ? b->runs : 0);
	if (b) {
		json_kint(j, "sources", b->families);
		json_knum(j, "median_speed_error_pct", b->median_pct);
		json_knum(j, "q1_speed_error_pct", b->q1_pct);
		json_knum(j, "q3_speed_error_pct", b->q3_pct);
	}
	json_obj_end(j);
}

static void json_memory(json *j, const wl_memory *m)
{
	json_key(j, "memory");
	json_obj_begin(j);
	json_knum(j, "per_gpu_bytes", m->total);
	json_knum(j, "capacity_bytes", m->capacity);
	json_kbool(j, "fits", m->fits);
	json_kbool(j, "close_to_limit", report_memory_close(m));
	json_knum(j, "weights", m->weights);
	json_knum(j, "gradients", m->gradients);
	json_knum(j, "optimizer", m->optimizer);
	json_knum(j, "activations", m->activations);
	json_knum(j, "other", m->other);
	json_obj_end(j);
}

static void json_split(json *j, const step_result *r)
{
	json_key(j, "split_s");
	json_obj_begin(j);
	for (int k = 0; k < SPLIT__N; k++)
		json_knum(j, step_split_name((step_split)k), r->split_s[k]);
	json_obj_end(j);
}

static void json_checkpoint(json *j, const step_result *r)
{
	const step_checkpoint *c = &r->checkpoint;
	json_key(j, "checkpoint");
	json_obj_begin(j);
	json_knum(j, "bytes", c->bytes);
	json_knum(j, "write_s", c->write_s);
	json_knum(j, "stall_s", c->stall_s);
	json_kint(j, "every", c->every);
	json_knum(j, "amortized_s", c->amortized_s);
	json_knum(j, "load_s", c->load_s);
	if (c->local_every > 0) {
		json_kint(j, "local_every", c->local_every);
		json_kint(j, "local_copies", c->local_copies);
		json_knum(j, "local_bytes_per_gpu", c->local_bytes_per_gpu);
		json_knum(j, "local_write_s", c->local_write_s);
		json_knum(j, "local_stall_s", c->local_stall_s);
		json_knum(j, "local_load_s", c->local_load_s);
	}
	json_obj_end(j);
}

report_cost report_run_cost(const scenario *s, const step_result *r)
{
	report_cost c = {0, 0, 0, 0};
	double price = s->run.gpu_hour_price, gpus = scn_gpus(s);
	if (r->goodput <= 0 || r->step_time_s <= 0 || r->tokens_per_s <= 0)
		return c;                   /* failures outrun the work: it never finishes */
	/* GPU time per token, as the time to train counts it: the step with its
	 * checkpoint share when failures are off; with failures on, the failure
	 * model charges the checkpoints itself (in goodput), on the step
	 * without them */
	double step = r->step_time_s - (r->job_mtbf_s > 0 ? r->checkpoint.amortized_s : 0);
	double per_token = step / (r->tokens_per_s * r->step_time_s) / r->goodput;
	c.busy_share = r->split_s[SPLIT_COMPUTE] * r->goodput / step;
	if (s->run.train_tokens > 0 && r->time_to_train_s > 0)
		c.gpu_hours = r->time_to_train_s * gpus / 3600;
	c.cost = c.gpu_hours * price;
	if (price > 0)
		c.per_mtok = price * gpus / 3600 * 1e6 * per_token;
	return c;
}

static void json_reliability(json *j, const scenario *s, const step_result *r)
{
	if (r->checkpoint.every > 0 || r->checkpoint.local_every > 0)
		json_checkpoint(j, r);
	json_knum(j, "goodput", r->goodput);
	if (r->job_mtbf_s > 0) {
		json_knum(j, "job_mtbf_s", r->job_mtbf_s);
		json_knum(j, "goodput_restarts", r->restart_frac);
		json_knum(j, "goodput_lost_work", r->lost_work_frac);
		json_knum(j, "goodput_checkpoints", r->ckpt_frac);
		json_knum(j, "restart_s", r->restart_s);
		if (r->best_checkpoint_every > 0)
			json_kint(j, "best_checkpoint_every", r->best_checkpoint_every);
		if (r->best_local_checkpoint_every > 0)
			json_kint(j, "best_local_checkpoint_every", r->best_local_checkpoint_every);
	}
	if (s->run.train_tokens > 0)
		json_knum(j, "time_to_train_s", r->time_to_train_s);
	report_cost c = report_run_cost(s, r);
	if (c.gpu_hours > 0)
		json_knum(j, "gpu_hours", c.gpu_hours);
	if (c.cost > 0)
		json_knum(j, "cost", c.cost);
	if (c.per_mtok > 0)
		json_knum(j, "cost_per_mtok", c.per_mtok);
}

static void json_options(json *j, const scenario *s, const step_result *r)
{
	if (s->training.grad_reduce.compression != COMPRESS_NONE) {
		json_knum(j, "compression_saving_s", r->compression_saving_s);
		json_knum(j, "compression_cost_s", r->compression_cost_s);
	}
	if (s->training.grad_reduce.sync == SYNC_ASYNC) {
		json_knum(j, "async_speedup", r->async_speedup);
		json_kint(j, "staleness", r->staleness);
	}
	if (r->moe_layer_mb_s > 0) {
		json_knum(j, "moe_layer_mb_s", r->moe_layer_mb_s);
		json_kbool(j, "moe_host_bound", r->moe_host_bound);
	}
	const hw_gpu *g = &s->cluster.gpu;
	if (g->power_limit_w > 0 && g->power_limit_w < g->tdp_w) {   /* the cap and its clock */
		json_knum(j, "gpu_power_limit_w", g->power_limit_w);
		json_knum(j, "gpu_power_clock", wl_power_clock(g));
	}
}

void report_json_fields(json *j, const scenario *s, const step_result *r)
{
	json_kstr(j, "trainsim_version", PACKAGE_VERSION);
	json_kstr(j, "scenario", s->name);
	json_kint(j, "gpus", r->gpus);
	json_kint(j, "nodes", r->nodes);
	json_kstr(j, "gpu", s->cluster.gpu.name);
	char ov[160];
	int nov = scn_gpu_overrides(&s->cluster.gpu, ov, sizeof ov);
	if (nov != 0)   /* the GPU's figures that are the user's, not the catalog's */
		json_kstr(j, "gpu_overrides", nov < 0 ? "all (not in the catalog)" : ov);
	json_kstr(j, "precision", hw_precision_name(s->training.precision));
	json_layout(j, s, r);
	json_kint(j, "steps", r->steps);
	json_kint(j, "seed", (int64_t)(s->run.seed & INT64_MAX));
	json_knum(j, "step_time_s", r->step_time_s);
	if (r->steps > 1) {
		json_knum(j, "step_p50_s", r->step_p50_s);
		json_knum(j, "step_p95_s", r->step_p95_s);
		json_knum(j, "step_p99_s", r->step_p99_s);
	}
	json_knum(j, "tokens_per_s", r->tokens_per_s);
	json_knum(j, "mfu", r->mfu);
	json_knum(j, "hfu", r->hfu);
	json_knum(j, "gpu_util", r->gpu_util);
	json_knum(j, "model_tflops_per_gpu", r->model_tflops_per_gpu);
	json_knum(j, "hardware_tflops_per_gpu", r->hardware_tflops_per_gpu);
	json_split(j, r);
	json_memory(j, &r->memory);
	json_validation(j, s);
	json_knum(j, "dp_bytes_per_gpu", r->dp_bytes_per_gpu);
	json_knum(j, "dp_allreduce_s", r->dp_allreduce_s);
	json_knum(j, "dp_naive_s", r->dp_naive_s);
	json_knum(j, "dp_collectives_per_step", r->dp_collectives_per_step);
	json_knum(j, "dp_latency_s", r->dp_latency_s);
	json_knum(j, "dp_wire_bytes_per_gpu", r->dp_wire_bytes_per_gpu);
	json_knum(j, "dp_gather_bytes_per_gpu", r->dp_gather_bytes_per_gpu);
	json_kstr(j, "dp_algorithm", r->dp_algorithm);
	json_kint(j, "dp_ring_n", report_ring_ranks(s, r));
	json_kint(j, "dp_syncs_per_step", r->dp_syncs_per_step);
	json_kint(j, "dp_zero_group", r->dp_zero_group);
	json_kint(j, "dp_zero_replicas", r->dp_zero_replicas);
	json_knum(j, "bubble_ideal", r->bubble_ideal);
	json_knum(j, "data_bytes_per_step", r->data_bytes_per_step);
	json_reliability(j, s, r);
	json_options(j, s, r);
	json_kstr(j, "bottleneck", r->bottleneck);
	json_key(j, "notes");
	json_arr_begin(j);
	for (int i = 0; i < r->n_notes && i < STEP_MAX_NOTES; i++)
		json_str(j, r->notes[i]);
	json_arr_end(j);
	json_kint(j, "events", (int64_t)r->events);
}

void report_json(json *j, const scenario *s, const step_result *r)
{
	json_obj_begin(j);
	report_json_fields(j, s, r);
	json_obj_end(j);
}

/* ---- CSV: one table of columns, named by their JSON path ---- */

typedef void (*col_fn)(const scenario *s, const step_result *r, char *buf, size_t len);

enum col_kind { COL_DBL, COL_INT, COL_SPLIT, COL_FN };

typedef struct csv_col {
	const char *name;
	enum col_kind kind;
	size_t arg;          /* offset into step_result, or split index */
	col_fn fn;
} csv_col;

static void fmt_num(char *buf, size_t len, double v)
{
	json_fmt_num(buf, len, v);
}

static void c_scenario(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%s", s->name);
}
static void c_tp(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", s->training.tp);
}
static void c_pp(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", s->training.pp);
}
static void c_dp(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", scn_dp(s));
}
static void c_cp(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", scn_cp(s));
}
static void c_ep(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", s->model.experts > 1 ? s->training.ep : 1);
}
static void c_fits(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->memory.fits ? "true" : "false");
}
static void c_pct(const step_result *r, double v, char *b, size_t n)
{
	if (r->steps > 1)
		fmt_num(b, n, v);
}
static void c_p50(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_pct(r, r->step_p50_s, b, n);
}
static void c_p95(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_pct(r, r->step_p95_s, b, n);
}
static void c_p99(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_pct(r, r->step_p99_s, b, n);
}
static void c_ckpt(const step_result *r, double v, char *b, size_t n)
{
	if (r->checkpoint.every > 0)
		fmt_num(b, n, v);
}
static void c_ckpt_bytes(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_ckpt(r, r->checkpoint.bytes, b, n);
}
static void c_ckpt_write(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_ckpt(r, r->checkpoint.write_s, b, n);
}
static void c_ckpt_amort(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->checkpoint.every > 0 || r->checkpoint.local_every > 0)
		fmt_num(b, n, r->checkpoint.amortized_s);
}
static void c_local(const step_result *r, double v, char *b, size_t n)
{
	if (r->checkpoint.local_every > 0)
		fmt_num(b, n, v);
}
static void c_local_every(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->checkpoint.local_every > 0)
		snprintf(b, n, "%d", r->checkpoint.local_every);
}
static void c_local_write(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_local(r, r->checkpoint.local_write_s, b, n);
}
static void c_local_stall(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_local(r, r->checkpoint.local_stall_s, b, n);
}
static void c_local_load(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_local(r, r->checkpoint.local_load_s, b, n);
}
static void c_local_copies(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->checkpoint.local_every > 0)
		snprintf(b, n, "%d", r->checkpoint.local_copies);
}
static void c_local_bytes(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_local(r, r->checkpoint.local_bytes_per_gpu, b, n);
}
static void c_best_local(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->job_mtbf_s > 0 && r->best_local_checkpoint_every > 0)
		snprintf(b, n, "%d", r->best_local_checkpoint_every);
}
static void c_ckpt_load(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_ckpt(r, r->checkpoint.load_s, b, n);
}
static void c_fail_part(const step_result *r, double v, char *b, size_t n)
{
	if (r->job_mtbf_s > 0)
		fmt_num(b, n, v);
}
static void c_mtbf(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_fail_part(r, r->job_mtbf_s, b, n);
}
static void c_restart(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_fail_part(r, r->restart_s, b, n);
}
static void c_g_restarts(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_fail_part(r, r->restart_frac, b, n);
}
static void c_g_lost(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_fail_part(r, r->lost_work_frac, b, n);
}
static void c_g_ckpt(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_fail_part(r, r->ckpt_frac, b, n);
}
static void c_best(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->job_mtbf_s > 0 && r->best_checkpoint_every > 0)
		snprintf(b, n, "%d", r->best_checkpoint_every);
}
static void c_ttt(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (s->run.train_tokens > 0)
		fmt_num(b, n, r->time_to_train_s);
}
static void c_gpu_hours(const scenario *s, const step_result *r, char *b, size_t n)
{
	report_cost c = report_run_cost(s, r);
	if (c.gpu_hours > 0)
		fmt_num(b, n, c.gpu_hours);
}
static void c_cost(const scenario *s, const step_result *r, char *b, size_t n)
{
	report_cost c = report_run_cost(s, r);
	if (c.cost > 0)
		fmt_num(b, n, c.cost);
}
static void c_per_mtok(const scenario *s, const step_result *r, char *b, size_t n)
{
	report_cost c = report_run_cost(s, r);
	if (c.per_mtok > 0)
		fmt_num(b, n, c.per_mtok);
}
static void c_events(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%llu", (unsigned long long)r->events);
}
static void c_bottleneck(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->bottleneck);
}
static void c_gpu(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%s", s->cluster.gpu.name);
}
static void c_gpu_overrides(const scenario *s, const step_result *r, char *b, size_t n)
{
	char ov[160];
	int nov = scn_gpu_overrides(&s->cluster.gpu, ov, sizeof ov);
	if (nov != 0)
		snprintf(b, n, "%s", nov < 0 ? "all (not in the catalog)" : ov);
}
static void c_precision(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%s", hw_precision_name(s->training.precision));
}
static void c_micro_batch(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", s->training.micro_batch);
}
static void c_global_batch(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", s->training.global_batch);
}
static void c_micro_batches(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", r->micro_batches > 0 ? r->micro_batches : micro_batches(s));
}
static void c_seed(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%lld", (long long)(s->run.seed & INT64_MAX));
}
static void c_algorithm(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%s", r->dp_algorithm);
}
static void c_ring_n(const scenario *s, const step_result *r, char *b, size_t n)
{
	snprintf(b, n, "%d", report_ring_ranks(s, r));
}
static void c_ckpt_stall(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_ckpt(r, r->checkpoint.stall_s, b, n);
}
static void c_ckpt_every(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->checkpoint.every > 0)
		snprintf(b, n, "%d", r->checkpoint.every);
}
static void c_compress(const scenario *s, double v, char *b, size_t n)
{
	if (s->training.grad_reduce.compression != COMPRESS_NONE)
		fmt_num(b, n, v);
}
static void c_saving(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_compress(s, r->compression_saving_s, b, n);
}
static void c_compress_cost(const scenario *s, const step_result *r, char *b, size_t n)
{
	c_compress(s, r->compression_cost_s, b, n);
}
static void c_async_speedup(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (s->training.grad_reduce.sync == SYNC_ASYNC)
		fmt_num(b, n, r->async_speedup);
}
static void c_staleness(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (s->training.grad_reduce.sync == SYNC_ASYNC)
		snprintf(b, n, "%d", r->staleness);
}
static void c_moe_mb(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->moe_layer_mb_s > 0)
		fmt_num(b, n, r->moe_layer_mb_s);
}
static void c_moe_host(const scenario *s, const step_result *r, char *b, size_t n)
{
	if (r->moe_layer_mb_s > 0)
		snprintf(b, n, "%s", r->moe_host_bound ? "true" : "false");
}

static void c_mem_close(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)s;
	snprintf(b, n, "%s", report_memory_close(&r->memory) ? "true" : "false");
}
static const val_band *band_of(const scenario *s)
{
	return val_band_find(s->cluster.gpu.name, s->model.experts > 1);
}
static void c_val_gpu(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%s", s->cluster.gpu.name);
}
static void c_val_model(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	snprintf(b, n, "%s", s->model.experts > 1 ? "moe" : "dense");
}
static void c_val_runs(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	const val_band *v = band_of(s);
	snprintf(b, n, "%d", v ? v->runs : 0);
}
static void c_val_sources(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	const val_band *v = band_of(s);
	if (v)
		snprintf(b, n, "%d", v->families);
}
/* the band's median, q1 or q3 (empty without a band) */
static void val_pct(const scenario *s, char *b, size_t n, int which)
{
	const val_band *v = band_of(s);
	if (v)
		fmt_num(b, n, which == 0 ? v->median_pct : which == 1 ? v->q1_pct : v->q3_pct);
}
static void c_val_med(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	val_pct(s, b, n, 0);
}
static void c_val_q1(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	val_pct(s, b, n, 1);
}
static void c_val_q3(const scenario *s, const step_result *r, char *b, size_t n)
{
	(void)r;
	val_pct(s, b, n, 2);
}

#define D(name, field) {name, COL_DBL, offsetof(step_result, field), NULL}
#define I(name, field) {name, COL_INT, offsetof(step_result, field), NULL}
#define S(k) {"split_s.", COL_SPLIT, k, NULL}
#define F(name, fn) {name, COL_FN, 0, fn}

static const csv_col csv_cols[] = {
	F("scenario", c_scenario), I("gpus", gpus), I("nodes", nodes),
	F("layout.tp", c_tp), F("layout.pp", c_pp), F("layout.dp", c_dp), I("steps", steps),
	D("step_time_s", step_time_s), D("tokens_per_s", tokens_per_s), D("mfu", mfu),
	D("hfu", hfu), D("gpu_util", gpu_util), D("model_tflops_per_gpu", model_tflops_per_gpu),
	D("hardware_tflops_per_gpu", hardware_tflops_per_gpu),
	S(SPLIT_COMPUTE), S(SPLIT_TP_COMM), S(SPLIT_PP_COMM), S(SPLIT_PP_BUBBLE), S(SPLIT_DP_COMM),
	S(SPLIT_DATA_STALL), S(SPLIT_CHECKPOINT), S(SPLIT_OPTIMIZER), S(SPLIT_IDLE),
	D("memory.per_gpu_bytes", memory.total), D("memory.capacity_bytes", memory.capacity),
	F("memory.fits", c_fits), D("dp_bytes_per_gpu", dp_bytes_per_gpu),
	D("dp_allreduce_s", dp_allreduce_s), D("dp_naive_s", dp_naive_s),
	D("dp_wire_bytes_per_gpu", dp_wire_bytes_per_gpu),
	F("step_p50_s", c_p50), F("step_p95_s", c_p95), F("step_p99_s", c_p99),
	F("checkpoint.bytes", c_ckpt_bytes), F("checkpoint.write_s", c_ckpt_write),
	F("checkpoint.amortized_s", c_ckpt_amort), D("goodput", goodput),
	F("job_mtbf_s", c_mtbf), F("best_checkpoint_every", c_best),
	F("time_to_train_s", c_ttt), F("events", c_events), F("bottleneck", c_bottleneck),
	F("layout.cp", c_cp),   /* added after the others: columns keep their places */
	F("gpu_hours", c_gpu_hours), F("cost", c_cost), F("cost_per_mtok", c_per_mtok),
	F("layout.ep", c_ep), D("dp_collectives_per_step", dp_collectives_per_step),
	D("dp_latency_s", dp_latency_s),
	/* the rest of the JSON's fields, appended so that older columns keep
	 * their places */
	F("gpu", c_gpu), F("precision", c_precision), F("layout.micro_batch", c_micro_batch),
	F("layout.global_batch", c_global_batch), F("layout.micro_batches", c_micro_batches),
	F("seed", c_seed), D("memory.weights", memory.weights),
	D("memory.gradients", memory.gradients), D("memory.optimizer", memory.optimizer),
	D("memory.activations", memory.activations), D("memory.other", memory.other),
	F("dp_algorithm", c_algorithm), F("dp_ring_n", c_ring_n),
	I("dp_syncs_per_step", dp_syncs_per_step), I("dp_zero_group", dp_zero_group),
	I("dp_zero_replicas", dp_zero_replicas), D("dp_gather_bytes_per_gpu", dp_gather_bytes_per_gpu),
	D("bubble_ideal", bubble_ideal), D("data_bytes_per_step", data_bytes_per_step),
	F("checkpoint.stall_s", c_ckpt_stall), F("checkpoint.every", c_ckpt_every),
	F("compression_saving_s", c_saving), F("compression_cost_s", c_compress_cost),
	F("async_speedup", c_async_speedup), F("staleness", c_staleness),
	F("goodput_restarts", c_g_restarts), F("goodput_lost_work", c_g_lost),
	F("goodput_checkpoints", c_g_ckpt), F("moe_layer_mb_s", c_moe_mb),
	F("moe_host_bound", c_moe_host), F("checkpoint.load_s", c_ckpt_load),
	F("restart_s", c_restart), F("checkpoint.local_every", c_local_every),
	F("checkpoint.local_write_s", c_local_write), F("checkpoint.local_stall_s", c_local_stall),
	F("checkpoint.local_load_s", c_local_load),
	F("best_local_checkpoint_every", c_best_local), F("gpu_overrides", c_gpu_overrides),
	F("checkpoint.local_copies", c_local_copies),
	F("checkpoint.local_bytes_per_gpu", c_local_bytes),
	F("memory.close_to_limit", c_mem_close), F("validation.gpu", c_val_gpu),
	F("validation.model", c_val_model), F("validation.runs", c_val_runs),
	F("validation.sources", c_val_sources),
	F("validation.median_speed_error_pct", c_val_med),
	F("validation.q1_speed_error_pct", c_val_q1), F("validation.q3_speed_error_pct", c_val_q3),
};
#define N_COLS (sizeof csv_cols / sizeof csv_cols[0])

#undef D
#undef I
#undef S
#undef F

int report_csv_columns(int nkeys)
{
	return nkeys + (int)N_COLS + 1;    /* + error */
}

void report_csv_field(FILE *out, const char *text)
{
	if (!text)
		text = "";
	if (!strpbrk(text, ",\"\r\n")) {
		fputs(text, out);
		return;
	}
	fputc('"', out);
	for (const char *p = text; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
}

static void csv_keys(FILE *out, const char *const *keys, int n)
{
	for (int i = 0; i < n; i++) {
		report_csv_field(out, keys[i]);
		fputc(',', out);
	}
}

static int csv_end(FILE *out)
{
	fputc('\n', out);          /* LF line ends, as pandas, R and gnuplot expect */
	return ferror(out) ? -1 : 0;
}

int report_csv_header(FILE *out, const char *const *keys, int nkeys)
{
	csv_keys(out, keys, nkeys);
	for (size_t c = 0; c < N_COLS; c++) {
		if (csv_cols[c].kind == COL_SPLIT) {
			fputs(csv_cols[c].name, out);
			fputs(step_split_name((step_split)csv_cols[c].arg), out);
		} else {
			report_csv_field(out, csv_cols[c].name);
		}
		fputc(',', out);
	}
	fputs("error", out);
	return csv_end(out);
}

static void csv_cell(FILE *out, const csv_col *c, const scenario *s, const step_result *r)
{
	char buf[sizeof r->bottleneck + 8];
	const char *base = (const char *)r;
	buf[0] = '\0';
	switch (c->kind) {
	case COL_DBL:
		fmt_num(buf, sizeof buf, *(const double *)(base + c->arg));
		break;
	case COL_INT:
		snprintf(buf, sizeof buf, "%d", *(const int *)(base + c->arg));
		break;
	case COL_SPLIT:
		fmt_num(buf, sizeof buf, r->split_s[c->arg]);
		break;
	case COL_FN:
		c->fn(s, r, buf, sizeof buf);
		break;
	}
	report_csv_field(out, buf);
}

int report_csv_row(FILE *out, const char *const *values, int nvalues,
                   const scenario *s, const step_result *r)
{
	csv_keys(out, values, nvalues);
	for (size_t c = 0; c < N_COLS; c++) {
		csv_cell(out, &csv_cols[c], s, r);
		fputc(',', out);
	}
	return csv_end(out);
}

int report_csv_row_error(FILE *out, const char *const *values, int nvalues,
                         const char *reason)
{
	csv_keys(out, values, nvalues);
	for (size_t c = 0; c < N_COLS; c++)
		fputc(',', out);
	report_csv_field(out, reason && *reason ? reason : "failed");
	return csv_end(out);
}

/* ---- output files that appear whole or not at all ---- */

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct report_file {
	FILE *fp;
	char *path;   /* as the user named it: for messages */
	char *dest;   /* what the temporary is renamed over; NULL: written in place */
	char *tmp;
};

enum target_kind {
	TARGET_NEW,      /* nothing there yet: created whole by a rename */
	TARGET_FILE,     /* a regular file: replaced whole by a rename */
	TARGET_DIRECT,   /* a device, a FIFO, an open descriptor: written in place */
};

/* The descriptor a name under /proc/PID/fd/ (where /dev/stdout and /dev/fd/N
 * lead) is ours, or -1. */
static int own_fd(const char *canon)
{
	char own[64];
	int n = snprintf(own, sizeof own, "/proc/%ld/fd/", (long)getpid());
	if (strncmp(canon, own, (size_t)n) || !canon[n])
		return -1;
	char *end;
	long fd = strtol(canon + n, &end, 10);
	return *end || fd < 0 || fd > INT_MAX ? -1 : (int)fd;
}

/* path with its directory made canonical and its last name kept as it is
 * (it may be a link still to follow, or not exist yet); NULL with errno. */
static char *canon_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	char *real = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!real)
		return NULL;
	size_t n = strlen(real) + strlen(base) + 2;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "%s%s%s", real, strcmp(real, "/") ? "/" : "", base);
	free(real);
	return out;
}

/* The link at `link` followed one step: its text, read relative to the
 * link's directory. NULL with errno. */
static char *link_next(const char *link)
{
	char text[PATH_MAX];
	ssize_t n = readlink(link, text, sizeof text - 1);
	if (n < 0)
		return NULL;
	text[n] = '\0';
	size_t dir = text[0] == '/' ? 0 : (size_t)(strrchr(link, '/') - link + 1);
	char *next = malloc(dir + (size_t)n + 1);
	if (next)
		snprintf(next, dir + (size_t)n + 1, "%.*s%s", (int)dir, link, text);
	return next;
}

/* Where a write to `path` lands. A symlink is followed to the name at its
 * end, existing or not, so that the rename replaces its target and the link
 * stays a link. A name under /proc (/dev/stdout, /dev/fd/N lead there) is an
 * open descriptor's: it is written in place, whatever its file is, because
 * renaming over the file the shell opened would leave our own stdout writing
 * into a file that no longer has that name; when the descriptor is ours,
 * *fd says which, so that the write shares its offset (`run --trace
 * /dev/stdout > FILE` then writes the report after the trace, not over it).
 * Devices and FIFOs are written in place: a rename would put a regular file
 * where /dev/null was. Returns 0 with *dest (malloc'd; NULL for
 * TARGET_DIRECT), or -1 with errno set. */
static int target_resolve(const char *path, char **dest, enum target_kind *kind, int *fd)
{
	struct stat st;
	char *cur = canon_dir(path);
	*dest = NULL;
	*fd = -1;
	for (int hops = 0; cur; hops++) {
		if (!strncmp(cur, "/proc/", 6)) {
			*fd = own_fd(cur);
			break;
		}
		if (lstat(cur, &st) < 0) {
			if (errno != ENOENT) {   /* "FILE/": ENOTDIR; a closed directory: EACCES */
				int e = errno;
				free(cur);
				errno = e;
				return -1;
			}
			*kind = TARGET_NEW;
			*dest = cur;
			return 0;
		}
		if (S_ISDIR(st.st_mode)) {
			free(cur);
			errno = EISDIR;
			return -1;
		}
		if (S_ISREG(st.st_mode)) {
			*kind = TARGET_FILE;
			*dest = cur;
			return 0;
		}
		if (!S_ISLNK(st.st_mode))
			break;
		if (hops == 40) {   /* the kernel's own limit: a loop of links */
			free(cur);
			errno = ELOOP;
			return -1;
		}
		char *next = link_next(cur);
		free(cur);
		cur = next ? canon_dir(next) : NULL;
		free(next);
	}
	if (!cur)
		return -1;
	free(cur);
	*kind = TARGET_DIRECT;
	return 0;
}

/* A file the rename would replace must be one we may write: a rename needs
 * the directory's permission only, and a file its owner made read-only would
 * be replaced without a word. */
static int dest_writable(const char *path, const char *dest, char *err, size_t errlen)
{
	if (access(dest, W_OK) != 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

bool report_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

FILE *report_open_results(const char *path, const char *who, FILE *err)
{
	FILE *in = fopen(path, "r");
	struct stat st;
	if (!in) {
		fprintf(err, "%s%s: %s\n", who, path, strerror(errno));
		return NULL;
	}
	if (fstat(fileno(in), &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(err, "%s%s: not a regular file (%s); give a results file\n", who, path,
		        S_ISDIR(st.st_mode) ? "a directory" : "a device, pipe or socket");
		fclose(in);
		return NULL;
	}
	return in;
}

long report_getline(char **line, size_t *cap, FILE *in, size_t max)
{
	size_t n = 0;
	for (;;) {
		if (n + 2 > *cap) {
			size_t want = *cap ? 2 * *cap : 256;
			if (want > max + 2)
				want = max + 2;
			char *grown = want > *cap ? realloc(*line, want) : NULL;
			if (!grown)
				return -1;
			*line = grown;
			*cap = want;
		}
		if (n >= max) {
			(*line)[n] = '\0';
			return -2;
		}
		size_t room = *cap - n;
		if (room > max - n + 1)
			room = max - n + 1;
		if (!fgets(*line + n, (int)(room > INT_MAX ? INT_MAX : room), in))
			return ferror(in) ? -1 : (long)n;
		size_t got = strlen(*line + n);   /* a NUL byte ends the text read */
		n += got;
		if (n && (*line)[n - 1] == '\n')
			return (long)n;
		if (got == 0)   /* a NUL at the line's start: no text to grow */
			return (long)n;
	}
}

int report_target_writable(const char *path, char *err, size_t errlen)
{
	char *dest;
	enum target_kind kind;
	int fd;
	if (target_resolve(path, &dest, &kind, &fd) < 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	if (kind == TARGET_FILE)
		rc = dest_writable(path, dest, err, errlen);
	else if (kind == TARGET_DIRECT && access(path, W_OK) != 0) {
		snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		rc = -1;
	}
	free(dest);
	return rc;
}

/* Opens the temporary beside f->dest. -1 with errno. */
static int open_temp(report_file *f)
{
	size_t len = strlen(f->dest) + 48;
	if (!(f->tmp = malloc(len)))
		return -1;
	for (int attempt = 0; attempt < 100; attempt++) {
		/* O_EXCL: never clobber another writer's temporary */
		snprintf(f->tmp, len, "%s.tmp.%ld.%d", f->dest, (long)getpid(), attempt);
		int fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			break;
		if ((f->fp = fdopen(fd, "w")))
			return 0;
		int saved = errno;
		close(fd);
		unlink(f->tmp);
		errno = saved;
		break;
	}
	free(f->tmp);
	f->tmp = NULL;
	return -1;
}

/* Opens a device, FIFO or descriptor in place: our own descriptor `own`
 * (/dev/stdout) is duplicated, after what stdio holds for it, so that the
 * writes follow ours in order; another is opened with O_APPEND, so that a
 * file behind it is written after what it holds, not over it from 0. */
static int open_direct(report_file *f, int own)
{
	if (own == STDOUT_FILENO)
		fflush(stdout);
	else if (own == STDERR_FILENO)
		fflush(stderr);
	int fd = own >= 0 ? fcntl(own, F_DUPFD_CLOEXEC, 0)
	                  : open(f->path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if ((f->fp = fdopen(fd, "a")))
		return 0;
	int saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

static void file_free(report_file *f)
{
	free(f->tmp);
	free(f->dest);
	free(f->path);
	free(f);
}

report_file *report_file_open(const char *path, char *err, size_t errlen)
{
	enum target_kind kind;
	int own;
	report_file *f = calloc(1, sizeof *f);
	if (!f || !(f->path = strdup(path))) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(f);
		return NULL;
	}
	if (target_resolve(path, &f->dest, &kind, &own) < 0) {
		int e = errno;   /* a directory on the way missing: it cannot be created */
		snprintf(err, errlen, "%s: cannot %s: %s", path,
		         e == EISDIR || e == ELOOP ? "write" : "create", strerror(e));
		goto out_free;
	}
	if (kind == TARGET_FILE && dest_writable(path, f->dest, err, errlen) < 0)
		goto out_free;
	if (kind == TARGET_DIRECT ? open_direct(f, own) : open_temp(f)) {
		snprintf(err, errlen, "%s: cannot %s: %s", path,
		         kind == TARGET_DIRECT ? "open" : "create", strerror(errno));
		goto out_free;
	}
	return f;
out_free:
	file_free(f);
	return NULL;
}

FILE *report_file_stream(report_file *f)
{
	return f->fp;
}

const char *report_file_name(const report_file *f)
{
	return f->tmp ? f->tmp : f->path;
}

int report_file_check(report_file *f, char *err, size_t errlen)
{
	/* stdio keeps a flag, not a reason: errno is the failing write's when
	 * nothing failed since (taken as the caller returned from its writes),
	 * and a flush of what is still buffered asks the kernel again */
	int saved = errno;
	bool failed = ferror(f->fp);
	errno = 0;
	if (fflush(f->fp) == 0 && !failed)
		return 0;
	int e = errno ? errno : saved ? saved : EIO;
	snprintf(err, errlen, "%s: write failed: %s", f->path, strerror(e));
	return -1;
}

int report_file_commit(report_file *f, char *err, size_t errlen)
{
	int rc = report_file_check(f, err, errlen);
	if (fclose(f->fp) != 0 && rc == 0) {   /* NFS reports a full disk at close */
		snprintf(err, errlen, "%s: write failed: %s", f->path, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && f->tmp && rename(f->tmp, f->dest) != 0) {
		snprintf(err, errlen, "%s: cannot replace it: %s", f->path, strerror(errno));
		rc = -1;
	}
	if (rc < 0 && f->tmp)
		unlink(f->tmp);
	file_free(f);
	return rc;
}

void report_file_abort(report_file *f)
{
	if (!f)
		return;
	fclose(f->fp);
	if (f->tmp)
		unlink(f->tmp);
	file_free(f);
}
