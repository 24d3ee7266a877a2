/* check_report.c: the renderers of a hand-made step_result: JSON holds every
 * field of SCENARIO.md and is valid, the text split adds up, CSV header and
 * rows agree, traces have one track per GPU stream, output files are atomic,
 * written through symlinks and into FIFOs and devices in place. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "jsonv.h"
#include "report.h"
#include "validate.h"
#include "trace.h"

static scenario S;
static step_result R;
static step_interval TL[8];

/* A 2-node, 16-GPU data-parallel scenario and a result whose split sums to
 * the step time (2.5 s), filled by hand. */
static void setup(void)
{
	static const double split[SPLIT__N] = {1.5, 0.1, 0.05, 0.15, 0.4, 0.1, 0.05, 0.1, 0.05};
	memset(&S, 0, sizeof S);
	memset(&R, 0, sizeof R);
	S.schema_version = 1;
	snprintf(S.name, sizeof S.name, "test, \"quoted\" scenario");
	snprintf(S.path, sizeof S.path, "test.yaml");
	S.cluster.nodes = 2;
	S.cluster.gpus_per_node = 8;
	snprintf(S.cluster.gpu.name, sizeof S.cluster.gpu.name, "A100-SXM4-80GB");
	S.cluster.gpu.peak_flops[PREC_BF16] = 312e12;
	S.cluster.nic.count = 1;
	S.cluster.nic.speed_Bps = 100e9 / 8;
	S.model.seq_len = 2048;
	S.training.precision = PREC_BF16;
	S.training.global_batch = 64;
	S.training.micro_batch = 2;
	S.training.tp = 1;
	S.training.pp = 1;
	S.training.grad_reduce.overlap = true;
	S.run.steps = 1;
	S.run.seed = 7;

	R.gpus = 16;
	R.nodes = 2;
	R.steps = 1;
	R.step_time_s = 2.5;
	R.tokens_per_s = 64 * 2048 / 2.5;
	R.mfu = 0.42;
	R.hfu = 0.55;
	R.gpu_util = 0.93;
	R.model_tflops_per_gpu = 131.04;
	R.hardware_tflops_per_gpu = 171.6;
	memcpy(R.split_s, split, sizeof split);
	R.memory = (wl_memory){.weights = 14e9, .gradients = 14e9, .optimizer = 84e9,
		.activations = 10e9, .other = 1e9, .total = 123e9, .capacity = 80e9, .fits = false};
	R.dp_bytes_per_gpu = 14e9;
	R.dp_naive_s = 1.12;
	R.dp_allreduce_s = 2.1;
	R.dp_crosses_nodes = true;   /* pure DP over two nodes */
	R.dp_ranks_per_node = 8;     /* ... of 8 GPUs each */
	R.goodput = 1;
	R.events = 12345;
	snprintf(R.bottleneck, sizeof R.bottleneck, "the NICs, during the gradient all-reduce");
	snprintf(R.notes[0], sizeof R.notes[0], "a note, with a comma");
	R.n_notes = 1;
}

static void teardown(void)
{
}

/* Renders with f into a string (caller frees). */
static char *render_json(bool pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	json *j = json_new(f, pretty);
	report_json(j, &S, &R);
	ck_assert_int_eq(json_free(j), 0);
	fclose(f);
	return buf;
}

static jv *parse_or_fail(const char *text)
{
	char err[128];
	jv *v = jv_parse(text, err, sizeof err);
	ck_assert_msg(v != NULL, "invalid JSON (%s): %.400s", err, text);
	return v;
}

static double num(const jv *root, const char *path)
{
	const jv *v = jv_get(root, path);
	ck_assert_msg(v && v->type == JV_NUM, "%s missing or not a number", path);
	return v->num;
}

START_TEST(json_has_contract_fields)
{
	static const char *const numbers[] = {"gpus", "nodes", "step_time_s", "tokens_per_s",
		"mfu", "hfu", "gpu_util", "model_tflops_per_gpu", "hardware_tflops_per_gpu",
		"memory.per_gpu_bytes", "memory.capacity_bytes", "dp_allreduce_s", "dp_naive_s",
		"dp_bytes_per_gpu", "goodput", "events", "memory.weights", "memory.gradients",
		"memory.optimizer", "memory.activations", "dp_collectives_per_step", "dp_latency_s"};
	static const char *const splits[] = {"compute", "tp_comm", "pp_comm", "pp_bubble",
		"dp_comm", "data_stall", "checkpoint", "optimizer", "idle"};
	for (int pretty = 0; pretty < 2; pretty++) {
		char *text = render_json(pretty);
		jv *v = parse_or_fail(text);
		for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
			num(v, numbers[i]);
		ck_assert_str_eq(jv_get(v, "trainsim_version")->str, PACKAGE_VERSION);
		ck_assert_str_eq(jv_get(v, "scenario")->str, S.name);
		ck_assert_str_eq(jv_get(v, "bottleneck")->str, R.bottleneck);
		ck_assert_int_eq(jv_get(v, "memory.fits")->type, JV_BOOL);
		ck_assert(!jv_get(v, "memory.fits")->b);
		ck_assert_int_eq(jv_get(v, "notes")->type, JV_ARR);
		ck_assert_uint_eq(jv_get(v, "notes")->n, 1);
		double sum = 0;
		char path[64];
		for (size_t k = 0; k < SPLIT__N; k++) {
			snprintf(path, sizeof path, "split_s.%s", splits[k]);
			ck_assert_double_eq_tol(num(v, path), R.split_s[k], 1e-12);
			sum += num(v, path);
		}
		ck_assert_uint_eq(jv_get(v, "split_s")->n, SPLIT__N);
		ck_assert_double_eq_tol(sum, num(v, "step_time_s"), 1e-9);
		ck_assert_double_eq_tol(num(v, "step_time_s"), 2.5, 1e-15);
		ck_assert_double_eq_tol(num(v, "mfu"), 0.42, 1e-15);
		ck_assert_double_eq_tol(num(v, "memory.per_gpu_bytes"), 123e9, 1e-3);
		ck_assert_int_eq((int)num(v, "gpus"), 16);
		ck_assert_int_eq((int)num(v, "layout.dp"), 16);
		ck_assert_int_eq((int)num(v, "layout.micro_batches"), 2);
		/* one step, no checkpoint, no failures, no token target: absent */
		ck_assert_ptr_null(jv_get(v, "step_p50_s"));
		ck_assert_ptr_null(jv_get(v, "checkpoint"));
		ck_assert_ptr_null(jv_get(v, "job_mtbf_s"));
		ck_assert_ptr_null(jv_get(v, "goodput_restarts"));
		ck_assert_ptr_null(jv_get(v, "time_to_train_s"));
		jv_free(v);
		free(text);
	}
}
END_TEST

START_TEST(json_optional_fields)
{
	R.steps = 10;
	R.step_p50_s = 2.4;
	R.step_p95_s = 2.7;
	R.step_p99_s = 2.9;
	R.checkpoint = (step_checkpoint){.bytes = 1.6e12, .write_s = 80, .stall_s = 80,
		.every = 500, .amortized_s = 0.16};
	R.job_mtbf_s = 36000;
	R.goodput = 0.91;
	R.best_checkpoint_every = 350;
	R.restart_frac = 0.05;
	R.lost_work_frac = 0.03;
	R.ckpt_frac = 0.01;
	S.run.train_tokens = 300e9;
	R.time_to_train_s = 1e6;
	char *text = render_json(true);
	jv *v = parse_or_fail(text);
	ck_assert_double_eq_tol(num(v, "step_p99_s"), 2.9, 1e-15);
	ck_assert_double_eq_tol(num(v, "step_p50_s"), 2.4, 1e-15);
	ck_assert_double_eq_tol(num(v, "checkpoint.bytes"), 1.6e12, 1);
	ck_assert_double_eq_tol(num(v, "checkpoint.write_s"), 80, 1e-12);
	ck_assert_int_eq((int)num(v, "checkpoint.every"), 500);
	ck_assert_double_eq_tol(num(v, "checkpoint.amortized_s"), 0.16, 1e-15);
	ck_assert_double_eq_tol(num(v, "goodput"), 0.91, 1e-15);
	ck_assert_double_eq_tol(num(v, "job_mtbf_s"), 36000, 1e-9);
	ck_assert_int_eq((int)num(v, "best_checkpoint_every"), 350);
	ck_assert_double_eq_tol(num(v, "goodput_restarts"), 0.05, 1e-15);
	ck_assert_double_eq_tol(num(v, "goodput_lost_work"), 0.03, 1e-15);
	ck_assert_double_eq_tol(num(v, "goodput_checkpoints"), 0.01, 1e-15);
	ck_assert_double_eq_tol(num(v, "time_to_train_s"), 1e6, 1e-6);
	/* GPU-hours of the run; no price, no cost */
	ck_assert_double_eq_tol(num(v, "gpu_hours"), 1e6 * 16 / 3600, 1e-6);
	ck_assert_ptr_null(jv_get(v, "cost"));
	ck_assert_ptr_null(jv_get(v, "cost_per_mtok"));
	jv_free(v);
	free(text);
	/* at 2.5 a GPU-hour: the run's cost, and a million tokens' at the
	 * throughput the failures leave (tokens/s x goodput) */
	S.run.gpu_hour_price = 2.5;
	text = render_json(true);
	v = parse_or_fail(text);
	ck_assert_double_eq_tol(num(v, "cost"), 2.5 * 1e6 * 16 / 3600, 1e-6);
	/* failures on (job_mtbf_s): the failure model charges the checkpoints in
	 * the goodput, so a token costs the step without its checkpoint share */
	double tokens_per_step = R.tokens_per_s * R.step_time_s;
	double per_token = (R.step_time_s - 0.16) / tokens_per_step / 0.91;
	ck_assert_double_eq_tol(num(v, "cost_per_mtok"), 2.5 * 16 / 3600 * 1e6 * per_token, 1e-9);
	jv_free(v);
	free(text);
	/* goodput 0: the run never finishes, so it has no cost */
	R.goodput = 0;
	R.time_to_train_s = 0;
	text = render_json(true);
	v = parse_or_fail(text);
	ck_assert_ptr_null(jv_get(v, "cost_per_mtok"));
	ck_assert_ptr_null(jv_get(v, "gpu_hours"));
	jv_free(v);
	free(text);
}
END_TEST

START_TEST(json_valid_with_nan_and_deterministic)
{
	R.hfu = NAN;
	R.dp_naive_s = INFINITY;
	char *a = render_json(true), *b = render_json(true);
	ck_assert_str_eq(a, b);
	jv *v = parse_or_fail(a);
	ck_assert_int_eq(jv_get(v, "hfu")->type, JV_NULL);
	ck_assert_int_eq(jv_get(v, "dp_naive_s")->type, JV_NULL);
	jv_free(v);
	free(a);
	free(b);
}
END_TEST

static char *render_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	report_opts o = {.wall_s = 0};
	ck_assert_int_eq(report_text(f, &S, &R, &o), 0);
	fclose(f);
	return buf;
}

START_TEST(text_split_rows_sum)
{
	char *text = render_text();
	const char *p = strstr(text, "where the time goes");
	ck_assert_ptr_nonnull(p);
	p = strchr(p, '\n') + 1;
	double sum_v = 0, sum_pct = 0, total_v = -1, total_pct = -1;
	int rows = 0;
	while (*p) {
		const char *eol = strchr(p, '\n');
		char line[256], unit[8];
		double v, pct;
		snprintf(line, sizeof line, "%.*s", (int)(eol - p), p);
		const char *numbers = line + 35;     /* after the key and description */
		ck_assert_int_eq(sscanf(numbers, "%lf %7s %lf", &v, unit, &pct), 3);
		ck_assert_str_eq(unit, "s");
		if (strncmp(line, "  total", 7) == 0) {
			total_v = v;
			total_pct = pct;
			break;
		}
		ck_assert_ptr_nonnull(strchr(line, '|'));
		sum_v += v;
		sum_pct += pct;
		rows++;
		p = eol + 1;
	}
	ck_assert_int_eq(rows, SPLIT__N);
	ck_assert_double_eq_tol(total_v, 2.5, 1e-9);
	ck_assert_double_eq_tol(total_pct, 100.0, 1e-9);
	ck_assert_double_eq_tol(sum_v, total_v, SPLIT__N * 0.0005);
	ck_assert_double_eq_tol(sum_pct, 100.0, SPLIT__N * 0.05);
	/* compute is 60 % of the step: 18 of 30 bar characters */
	const char *row = strstr(text, "  compute ");
	ck_assert_ptr_nonnull(row);
	ck_assert_ptr_nonnull(strstr(row, "|##################            |"));
	free(text);
}
END_TEST

START_TEST(text_shows_misfit_and_ring_factor)
{
	char *text = render_text();
	ck_assert_ptr_nonnull(strstr(text, "DOES NOT FIT"));
	ck_assert_ptr_nonnull(strstr(text, "step time"));   /* times still reported */
	ck_assert_ptr_nonnull(strstr(text, "2(n-1)/n"));
	ck_assert_ptr_nonnull(strstr(text, "ratio                    1.88; a ring over n = 16 gives 2(n-1)/n = 1.88"));
	/* the factor beside 1.88 (1.50 for n = 4) is not "about twice" */
	ck_assert_ptr_nonnull(strstr(text, "2(n-1)/n times the naive figure,\n    nearly twice for large n"));
	ck_assert_ptr_null(strstr(text, "about twice"));
	ck_assert_ptr_nonnull(strstr(text, "nvidia-smi"));
	ck_assert_ptr_nonnull(strstr(text, "bottleneck: the NICs"));
	free(text);
	R.memory.fits = true;
	R.memory.total = 60e9;
	text = render_text();
	ck_assert_ptr_null(strstr(text, "DOES NOT FIT"));
	free(text);
}
END_TEST

/* A layout within 10% of the memory, either way, is one the estimate cannot
 * decide (published runs it puts up to 10% over did run): the memory line and
 * the banner say so, and the JSON's memory.close_to_limit. */
START_TEST(text_memory_close_to_limit)
{
	R.memory.capacity = 85.9e9;
	R.memory.total = 88.7e9;   /* Llama 3 405B without recomputation: 3% over */
	R.memory.fits = false;
	char *text = render_text();
	ck_assert_ptr_nonnull(strstr(text, "DOES NOT FIT (within the estimate's 10 %: it may)"));
	ck_assert_ptr_nonnull(strstr(text, "within the memory estimate's 10 %, which cannot decide it"));
	free(text);
	char *js = render_json(false);
	ck_assert_ptr_nonnull(strstr(js, "\"fits\":false,\"close_to_limit\":true"));
	free(js);
	R.memory.total = 80e9;   /* 7% under: fits, but not surely */
	R.memory.fits = true;
	text = render_text();
	ck_assert_ptr_nonnull(strstr(text, "fits (within the estimate's 10 %: it may not)"));
	free(text);
	R.memory.total = 60e9;
	text = render_text();
	ck_assert_ptr_null(strstr(text, "within the estimate"));
	free(text);
	js = render_json(false);
	ck_assert_ptr_nonnull(strstr(js, "\"close_to_limit\":false"));
	free(js);
}
END_TEST

/* How sure a step time is: the published runs of the GPU kind in the
 * committed table (models/val_bands.csv), in the text and the JSON; a GPU
 * with none says it is not validated. */
START_TEST(validation_band_reported)
{
	const val_band *b = val_band_find("A100-SXM4-80GB", false);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_ge(b->runs, 100);
	ck_assert(b->q1_pct <= b->median_pct && b->median_pct <= b->q3_pct);
	ck_assert_ptr_null(val_band_find("NO-SUCH-GPU", false));
	char *text = render_text();
	char want[96];
	snprintf(want, sizeof want, "median of %d published runs", b->runs);
	ck_assert_ptr_nonnull(strstr(text, "how sure: on the A100-SXM4-80GB (dense models)"));
	ck_assert_ptr_nonnull(strstr(text, want));
	free(text);
	char *js = render_json(false);
	snprintf(want, sizeof want, "\"validation\":{\"gpu\":\"A100-SXM4-80GB\",\"model\":\"dense\","
	         "\"runs\":%d,", b->runs);
	ck_assert_msg(strstr(js, want) != NULL, "%s", js);
	free(js);
	char buf[512];
	scenario s = S;
	snprintf(s.cluster.gpu.name, sizeof s.cluster.gpu.name, "MY-GPU");
	report_band_sentence(&s, buf, sizeof buf);
	ck_assert_str_eq(buf, "no published dense training run on the MY-GPU is in trainsim's "
	                      "validation set: this step time is not validated");
}
END_TEST

/* The tp_comm row holds the expert all-to-all and the context-parallel
 * exchange too: its text label names what is in it (the JSON key stays). */
START_TEST(text_tp_comm_label)
{
	static const struct { int tp, ep, cp; const char *label; } cases[] = {
		{1, 1, 1, "  tp_comm     exposed TP comm   "},
		{8, 1, 1, "  tp_comm     exposed TP comm   "},
		{1, 8, 1, "  tp_comm     exposed EP comm   "},
		{2, 8, 1, "  tp_comm     exposed TP/EP comm   "},
		{1, 1, 4, "  tp_comm     exposed CP comm   "},
		{2, 8, 4, "  tp_comm     exposed TP/EP/CP comm   "}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		S.training.tp = cases[i].tp;
		S.training.ep = cases[i].ep;
		S.training.cp = cases[i].cp;
		char *text = render_text();
		ck_assert_msg(strstr(text, cases[i].label) != NULL, "%s", text);
		free(text);
	}
}
END_TEST

/* The NIC's share of line rate explains the ratio only when the NICs carry
 * the reduction: a DP group inside one node (tp-dp-pp on two nodes) has its
 * naive figure over the intra-node links, and no NIC sentence. */
START_TEST(text_nic_gap_only_across_nodes)
{
	S.cluster.nic.transport = TRANSPORT_TCP;
	R.dp_allreduce_s = 2 * 1.12 * 1.875;   /* twice the ring factor */
	char *text = render_text();
	ck_assert_msg(strstr(text, "the rest: a TCP NIC") != NULL, "%s", text);
	free(text);
	R.dp_crosses_nodes = false;
	text = render_text();
	ck_assert_msg(strstr(text, "the rest:") == NULL, "%s", text);
	ck_assert_msg(strstr(text, "NIC with") == NULL, "%s", text);
	free(text);
}
END_TEST

/* The NIC line counts the GPUs behind one NIC, ceil(gpus_per_node / NICs),
 * not the node's: 8 with one NIC, 2 with four, 1 with eight. TCP's share of
 * line rate falls with the DP group's GPUs on a node (hw.c; 8 here), the same
 * 0.492 for all three, and the sentence says so where a NIC serves fewer;
 * with NCCL's default one socket a connection, the sockets bound it. */
START_TEST(text_nic_gap_gpus_per_nic)
{
	static const struct {
		int nics;
		const char *has, *note;
	} c[] = {
		{1, "the rest: a TCP NIC with 8 GPUs behind it achieves 0.492 of its line rate,", NULL},
		{4, "the rest: each of the node's 4 TCP NICs has 2 GPUs behind it and achieves\n"
		    "    0.492 of its line rate", "GPUs compete for the node's cores"},
		{8, "the rest: each of the node's 8 TCP NICs has 1 GPU behind it and achieves\n"
		    "    0.492 of its line rate", "GPUs compete for the node's cores"},
	};
	S.cluster.nic.transport = TRANSPORT_TCP;
	S.cluster.nic.sockets = 16;   /* the sharing law, not NCCL's sockets, bounds the NIC */
	R.dp_allreduce_s = 2 * 1.12 * 1.875;
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		S.cluster.nic.count = c[i].nics;
		char *text = render_text();
		ck_assert_msg(strstr(text, c[i].has) != NULL, "%d NICs:\n%s", c[i].nics, text);
		ck_assert_msg(c[i].nics == 1 || strstr(text, "8 GPUs behind") == NULL, "%s", text);
		if (c[i].note)
			ck_assert_msg(strstr(text, c[i].note) != NULL, "%s", text);
		ck_assert_msg(strstr(text, "1.88 / 0.492 = 3.81") != NULL, "%s", text);
		free(text);
	}
	/* NCCL's one socket a connection moves less than the NIC: said so */
	S.cluster.nic.sockets = 0;
	S.cluster.nic.count = 1;
	char *capped = render_text();
	ck_assert_msg(strstr(capped, "achieves 0.32 of its line rate\n    (NCCL's sockets through "
			      "it, 1 a connection, move 2 GB/s each),\n") != NULL, "%s", capped);
	free(capped);
	/* RDMA keeps its single-flow share whatever shares the NIC */
	S.cluster.nic.transport = TRANSPORT_RDMA;
	S.cluster.nic.count = 4;
	char *text = render_text();
	ck_assert_msg(strstr(text, "each of the node's 4 RDMA NICs has 2 GPUs behind it and "
			      "achieves\n    0.94 of its line rate,\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "GPUs compete for the node's cores") == NULL, "%s", text);
	free(text);
}
END_TEST

/* TCP's share of line rate falls with the DP group's GPUs on a node, as the
 * collective model takes it (coll.c's ppn), not with the node's: with tp 2 a
 * group has 4 of the node's 8 GPUs, 0.94 / (1 + 0.13 x 3) = 0.68, and the
 * sentence's expected ratio follows. RDMA keeps its share either way. */
START_TEST(text_nic_gap_dp_ranks_per_node)
{
	S.cluster.nic.transport = TRANSPORT_TCP;
	S.cluster.nic.sockets = 16;
	S.training.tp = 2;
	R.dp_ranks_per_node = 4;
	R.dp_allreduce_s = 2 * 1.12 * 1.875;
	char *text = render_text();
	ck_assert_msg(strstr(text, "the rest: a TCP NIC with 8 GPUs behind it achieves 0.676 of its "
			      "line rate\n    (TCP's share falls as a data-parallel group's 4 GPUs "
			      "compete for the node's cores),\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "1.75 / 0.676 = 2.59") != NULL, "%s", text);   /* dp 8 */
	free(text);
	S.cluster.nic.transport = TRANSPORT_RDMA;
	text = render_text();
	ck_assert_msg(strstr(text, "achieves 0.94 of its line rate,\n") != NULL, "%s", text);
	free(text);
}
END_TEST

/* Splits one CSV record (RFC 4180) and returns its field count. */
static int csv_count(const char *line, char fields[][128], int max)
{
	int n = 0;
	const char *p = line;
	for (;;) {
		char *out = n < max ? fields[n] : NULL;
		size_t k = 0;
		if (*p == '"') {
			for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
				if (*p == '"')
					p++;
				if (out && k < 127)
					out[k++] = *p;
			}
			ck_assert_int_eq(*p, '"');
			p++;
		} else {
			for (; *p && *p != ',' && *p != '\n'; p++)
				if (out && k < 127)
					out[k++] = *p;
		}
		if (out)
			out[k] = '\0';
		n++;
		if (*p != ',')
			break;
		p++;
	}
	ck_assert_msg(*p == '\n', "record must end in a newline");
	return n;
}

static char *render_csv(int mode)
{
	static const char *const keys[] = {"cluster.nic.speed", "training.tp"};
	static const char *const vals[] = {"100Gbps", "2"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (mode == 0)
		ck_assert_int_eq(report_csv_header(f, keys, 2), 0);
	else if (mode == 1)
		ck_assert_int_eq(report_csv_row(f, vals, 2, &S, &R), 0);
	else
		ck_assert_int_eq(report_csv_row_error(f, vals, 2, "tp, pp do not divide 16"), 0);
	fclose(f);
	return buf;
}

START_TEST(csv_header_and_rows_agree)
{
	static char h[128][128], r[128][128], e[128][128];
	char *head = render_csv(0), *row = render_csv(1), *err = render_csv(2);
	int nh = csv_count(head, h, 128), nr = csv_count(row, r, 128), ne = csv_count(err, e, 128);
	ck_assert_int_eq(nh, report_csv_columns(2));
	ck_assert_int_eq(nr, nh);
	ck_assert_int_eq(ne, nh);
	ck_assert_str_eq(h[0], "cluster.nic.speed");
	ck_assert_str_eq(h[2], "scenario");
	ck_assert_str_eq(h[nh - 1], "error");
	ck_assert_str_eq(r[0], "100Gbps");
	ck_assert_str_eq(r[2], S.name);            /* quoted: holds a comma and quotes */
	ck_assert_str_eq(r[nh - 1], "");
	ck_assert_str_eq(e[nh - 1], "tp, pp do not divide 16");
	for (int c = 0; c < nh; c++) {
		if (!strcmp(h[c], "step_time_s"))
			ck_assert_double_eq_tol(atof(r[c]), 2.5, 1e-15);
		if (!strcmp(h[c], "memory.fits"))
			ck_assert_str_eq(r[c], "false");
		if (!strcmp(h[c], "step_p50_s"))     /* one step: no percentiles */
			ck_assert_str_eq(r[c], "");
		if (c >= 2 && c < nh - 1)
			ck_assert_str_eq(e[c], "");
	}
	int splits = 0;
	double sum = 0;
	for (int c = 0; c < nh; c++)
		if (!strncmp(h[c], "split_s.", 8)) {
			splits++;
			sum += atof(r[c]);
		}
	ck_assert_int_eq(splits, SPLIT__N);
	ck_assert_double_eq_tol(sum, 2.5, 1e-9);
	free(head);
	free(row);
	free(err);
}
END_TEST

/* Every field the JSON holds (with the optional ones switched on) is a CSV
 * column of the same dotted name, but the notes (a list) and the version. */
static void json_leaves(const jv *v, const char *prefix, char out[][128], int *n, int max)
{
	for (size_t i = 0; i < v->n; i++) {
		char path[128];
		snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", v->keys[i]);
		if (v->items[i]->type == JV_OBJ)
			json_leaves(v->items[i], path, out, n, max);
		else if (v->items[i]->type != JV_ARR && *n < max)
			snprintf(out[(*n)++], 128, "%s", path);
	}
}

START_TEST(csv_holds_every_json_field)
{
	static char h[128][128], leaves[128][128];
	R.steps = 10;
	R.checkpoint = (step_checkpoint){.bytes = 1e12, .write_s = 60, .stall_s = 60, .every = 100,
		.amortized_s = 0.6};
	R.job_mtbf_s = 36000;
	R.best_checkpoint_every = 300;
	S.run.train_tokens = 1e12;
	R.time_to_train_s = 1e6;
	S.run.gpu_hour_price = 2;
	S.training.grad_reduce.compression = COMPRESS_1BIT;
	S.training.grad_reduce.sync = SYNC_ASYNC;
	char *text = render_json(false), *head = render_csv(0);
	jv *v = parse_or_fail(text);
	int n = 0, nh = csv_count(head, h, 128);
	json_leaves(v, "", leaves, &n, 128);
	ck_assert_int_gt(n, 60);
	for (int i = 0; i < n; i++) {
		if (!strcmp(leaves[i], "trainsim_version"))
			continue;
		bool found = false;
		for (int c = 0; c < nh && !found; c++)
			found = !strcmp(h[c], leaves[i]);
		ck_assert_msg(found, "JSON field %s has no CSV column", leaves[i]);
	}
	jv_free(v);
	free(text);
	free(head);
}
END_TEST

/* Exposed DP time beyond the reduction alone is the links shared in the
 * step: the report says so, and names an oversubscribed leaf. */
START_TEST(text_exposed_beyond_alone)
{
	char *text = render_text();
	ck_assert_msg(strstr(text, "more than the reduction alone") == NULL, "%s", text);
	free(text);
	R.dp_allreduce_s = 0.2;            /* exposed 0.4 s */
	S.cluster.fabric.oversubscription = 4;
	text = render_text();
	ck_assert_msg(strstr(text, "more than the reduction alone") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "4:1") != NULL, "%s", text);
	free(text);
}
END_TEST

/* With ZeRO the reduction is a reduce-scatter and a gather of the
 * parameters: the text names both and compares the ratio with
 * (n-1)/n (1 + gathered/reduced), not the all-reduce's 2(n-1)/n. */
START_TEST(text_zero_reduction)
{
	S.training.zero = 1;
	R.dp_gather_bytes_per_gpu = 7e9;                /* bf16 params, fp32 grads */
	R.dp_ideal_factor = 15.0 / 16 * (1 + 7e9 / 14e9);
	R.dp_allreduce_s = R.dp_ideal_factor * 1.12;
	char *text = render_text();
	ck_assert_msg(strstr(text, "parameters gathered      7 GB per GPU (ZeRO 1") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "reduction, alone") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "all-reduce, alone") == NULL, "%s", text);
	ck_assert_msg(strstr(text, "(n-1)/n (1 + 7 GB / 14 GB) = 1.41") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "nearly twice") == NULL, "%s", text);
	free(text);
}
END_TEST

/* Two GPUs: GPU 0 on streams compute, tp and dp; GPU 1 on compute and pp. */
static void timeline(void)
{
	static const step_interval iv[] = {
		{0, 0, SPLIT_COMPUTE, 0.000, 0.001, 0, "fwd", 0},
		{0, 1, SPLIT_TP_COMM, 0.001, 0.0015, 0, "tp all_reduce", 0},
		{0, 0, SPLIT_COMPUTE, 0.0015, 0.003, 0, "bwd", 0},
		{0, 3, SPLIT_DP_COMM, 0.002, 0.004, -1, "dp all_reduce", 3},   /* 3 buckets */
		{1, 0, SPLIT_COMPUTE, 0.001, 0.002, 0, "fwd", 0},
		{1, 2, SPLIT_PP_COMM, 0.002, 0.0025, 0, "", 0},
		{1, 0, SPLIT_COMPUTE, 0.0025, 0.004, 0, "bwd", 0},
	};
	memcpy(TL, iv, sizeof iv);
	R.timeline = TL;
	R.n_timeline = sizeof iv / sizeof iv[0];
	R.timeline_gpus = 2;
}

static const jv *member(const jv *o, const char *key)
{
	return jv_get(o, key);
}

START_TEST(trace_one_track_per_stream)
{
	char *buf = NULL;
	size_t len = 0;
	timeline();
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(trace_write(f, &S, &R), 0);
	fclose(f);
	jv *v = parse_or_fail(buf);
	const jv *ev = jv_get(v, "traceEvents");
	ck_assert_ptr_nonnull(ev);
	int named[2][TRACE_STREAMS + 1] = {{0}}, procs = 0, complete = 0;
	for (size_t i = 0; i < ev->n; i++) {
		const jv *e = ev->items[i];
		const char *ph = member(e, "ph")->str;
		int pid = (int)member(e, "pid")->num, tid = (int)member(e, "tid")->num;
		if (!strcmp(ph, "M") && !strcmp(member(e, "name")->str, "thread_name"))
			named[pid][tid]++;
		if (!strcmp(ph, "M") && !strcmp(member(e, "name")->str, "process_name"))
			procs++;
		if (!strcmp(ph, "X")) {
			complete++;
			ck_assert_int_eq(named[pid][tid], 1);     /* metadata comes first */
			ck_assert(member(e, "dur")->num > 0);
		}
	}
	ck_assert_int_eq(procs, 2);
	ck_assert_int_eq(complete, 7);
	int tracks = 0;
	for (int g = 0; g < 2; g++)
		for (int t = 0; t <= TRACE_STREAMS; t++)
			tracks += named[g][t];
	ck_assert_int_eq(tracks, 5);
	ck_assert_int_eq(named[0][3], 1);
	ck_assert_int_eq(named[1][2], 1);
	ck_assert_int_eq(named[1][1], 0);
	/* microseconds: the dp all-reduce runs 2000..4000 us */
	const jv *dp = ev->items[ev->n - 4];
	ck_assert_str_eq(member(dp, "name")->str, "dp all_reduce");
	ck_assert_double_eq_tol(member(dp, "ts")->num, 2000, 1e-6);
	ck_assert_double_eq_tol(member(dp, "dur")->num, 2000, 1e-6);
	/* it runs three coalesced collectives: said; a single one says nothing */
	ck_assert_double_eq(jv_get(dp, "args.collectives")->num, 3);
	ck_assert_ptr_null(jv_get(ev->items[ev->n - 1], "args.collectives"));
	ck_assert_str_eq(jv_get(v, "otherData.trainsim_version")->str, PACKAGE_VERSION);
	jv_free(v);
	free(buf);
}
END_TEST

static void tmp_path(char *buf, size_t len, const char *name)
{
	const char *dir = getenv("top_builddir");
	snprintf(buf, len, "%s/check_report_%ld_%s", dir ? dir : ".", (long)getpid(), name);
}

static int count_leftovers(const char *path)
{
	char probe[600];
	int n = 0;
	for (int k = 0; k < 4; k++) {
		snprintf(probe, sizeof probe, "%s.tmp.%ld.%d", path, (long)getpid(), k);
		n += access(probe, F_OK) == 0;
	}
	return n;
}

START_TEST(trace_file_is_atomic)
{
	char path[512], err[256], bad[512];
	struct stat st;
	tmp_path(path, sizeof path, "trace.json");
	timeline();
	ck_assert_int_eq(trace_write_file(path, &S, &R, err, sizeof err), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert(st.st_size > 100);
	ck_assert_int_eq(count_leftovers(path), 0);
	/* no timeline: an error, and the earlier file is left as it was */
	R.timeline = NULL;
	R.n_timeline = 0;
	ck_assert_int_eq(trace_write_file(path, &S, &R, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "timeline"));
	struct stat st2;
	ck_assert_int_eq(stat(path, &st2), 0);
	ck_assert_int_eq(st2.st_size, st.st_size);
	unlink(path);
	/* a directory that does not exist */
	timeline();
	tmp_path(bad, sizeof bad, "no/such/dir/trace.json");
	ck_assert_int_eq(trace_write_file(bad, &S, &R, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot create"));
	ck_assert_int_ne(access(bad, F_OK), 0);
}
END_TEST

START_TEST(report_file_abort_leaves_nothing)
{
	char path[512], err[256];
	tmp_path(path, sizeof path, "abort.csv");
	report_file *f = report_file_open(path, err, sizeof err);
	ck_assert_ptr_nonnull(f);
	fputs("half,written\n", report_file_stream(f));
	ck_assert_int_ne(access(path, F_OK), 0);    /* not visible before commit */
	report_file_abort(f);
	ck_assert_int_ne(access(path, F_OK), 0);
	ck_assert_int_eq(count_leftovers(path), 0);
}
END_TEST

/* A fresh directory for one test of the output paths (caller rmdir_all). */
static void tmp_dir(char *buf, size_t len)
{
	const char *dir = getenv("top_builddir");
	snprintf(buf, len, "%s/check_report_%ld_XXXXXX", dir ? dir : ".", (long)getpid());
	ck_assert_ptr_nonnull(mkdtemp(buf));
}

/* Names in dir, "." and ".." aside. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void rm_in(const char *dir, const char *name)
{
	char p[700];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	unlink(p);
}

static void slurp_eq(const char *path, const char *want)
{
	char got[256] = "";
	FILE *f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	size_t n = fread(got, 1, sizeof got - 1, f);
	got[n] = '\0';
	fclose(f);
	ck_assert_str_eq(got, want);
}

/* Writes text into path through a report_file and commits it: 0 or -1. */
static int write_file(const char *path, const char *text, char *err, size_t errlen)
{
	report_file *f = report_file_open(path, err, errlen);
	if (!f)
		return -1;
	fputs(text, report_file_stream(f));
	return report_file_commit(f, err, errlen);
}

/* The rename replaced a symlink with a file, and its target kept the old
 * content: the link is written through and stays a link. */
START_TEST(report_file_writes_through_a_symlink)
{
	char dir[600], link[700], target[700], dangling[700], err[256];
	struct stat st;
	tmp_dir(dir, sizeof dir);
	snprintf(link, sizeof link, "%s/out.csv", dir);
	snprintf(target, sizeof target, "%s/real.csv", dir);
	FILE *t = fopen(target, "w");
	ck_assert_ptr_nonnull(t);
	fputs("old\n", t);
	fclose(t);
	ck_assert_int_eq(symlink("real.csv", link), 0);   /* relative: read from its directory */
	ck_assert_int_eq(write_file(link, "new\n", err, sizeof err), 0);
	ck_assert_int_eq(lstat(link, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	slurp_eq(target, "new\n");
	ck_assert_int_eq(entries(dir), 2);                 /* no temporary beside either */
	/* a link to a name not there yet: the file is made where it points */
	snprintf(dangling, sizeof dangling, "%s/later.csv", dir);
	ck_assert_int_eq(symlink("made.csv", dangling), 0);
	ck_assert_int_eq(write_file(dangling, "made\n", err, sizeof err), 0);
	ck_assert_int_eq(lstat(dangling, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	snprintf(target, sizeof target, "%s/made.csv", dir);
	slurp_eq(target, "made\n");
	ck_assert_int_eq(entries(dir), 4);
	const char *names[] = {"out.csv", "real.csv", "later.csv", "made.csv"};
	for (size_t i = 0; i < 4; i++)
		rm_in(dir, names[i]);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A FIFO (and a device) is written in place: a rename would leave a regular
 * file where it was. */
START_TEST(report_file_writes_a_fifo_in_place)
{
	char dir[600], fifo[700], err[256], got[64] = "";
	struct stat st;
	tmp_dir(dir, sizeof dir);
	snprintf(fifo, sizeof fifo, "%s/pipe", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* a reader first, so that the writer's open does not wait */
	int rd = open(fifo, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(rd, 0);
	report_file *f = report_file_open(fifo, err, sizeof err);
	ck_assert_msg(f != NULL, "%s", err);
	ck_assert_str_eq(report_file_name(f), fifo);       /* no temporary */
	fputs("through the pipe\n", report_file_stream(f));
	ck_assert_int_eq(report_file_commit(f, err, sizeof err), 0);
	ck_assert_int_eq(read(rd, got, sizeof got - 1), 17);
	ck_assert_str_eq(got, "through the pipe\n");
	close(rd);
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	ck_assert_int_eq(entries(dir), 1);
	rm_in(dir, "pipe");
	ck_assert_int_eq(rmdir(dir), 0);
	/* /dev/null: committed only when it is written in place, so that the
	 * check cannot itself replace the device (as root it could) */
	if (access("/dev/null", W_OK) != 0)
		return;
	f = report_file_open("/dev/null", err, sizeof err);
	ck_assert_msg(f != NULL, "%s", err);
	bool in_place = !strcmp(report_file_name(f), "/dev/null");
	if (!in_place)
		report_file_abort(f);
	ck_assert_msg(in_place, "/dev/null would be replaced through %s", report_file_name(f));
	fputs("nothing\n", report_file_stream(f));
	ck_assert_int_eq(report_file_commit(f, err, sizeof err), 0);
	ck_assert_int_eq(stat("/dev/null", &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
}
END_TEST

/* A directory is refused before anything is written (the rename failed only
 * at commit, after the whole file was written beside it). */
START_TEST(report_file_refuses_a_directory)
{
	char dir[600], sub[700], err[256] = "";
	tmp_dir(dir, sizeof dir);
	snprintf(sub, sizeof sub, "%s/out.json", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_ptr_null(report_file_open(sub, err, sizeof err));
	ck_assert_msg(strstr(err, "out.json: cannot write: ") && strstr(err, strerror(EISDIR)), "%s",
	              err);
	ck_assert_int_ne(report_target_writable(sub, err, sizeof err), 0);
	ck_assert_int_eq(entries(dir), 1);
	ck_assert_int_eq(entries(sub), 0);
	ck_assert_int_eq(rmdir(sub), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* A write that fails while the file is filled (ulimit -f here; a full disk
 * alike) says why, and leaves neither a temporary nor a changed file. */
START_TEST(report_file_failed_fill_leaves_nothing)
{
	char dir[600], path[700], err[256] = "";
	tmp_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/big.csv", dir);
	ck_assert_int_eq(write_file(path, "before\n", err, sizeof err), 0);
	struct rlimit old, small = {4096, 4096};
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	if (old.rlim_max != RLIM_INFINITY && old.rlim_max < small.rlim_max)
		small.rlim_max = old.rlim_max;
	small.rlim_cur = small.rlim_max;
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);   /* write() says EFBIG instead */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	report_file *f = report_file_open(path, err, sizeof err);
	ck_assert_msg(f != NULL, "%s", err);
	for (int i = 0; i < 1000; i++)
		fputs("a line of a file larger than the limit\n", report_file_stream(f));
	int rc = report_file_check(f, err, sizeof err);
	report_file_abort(f);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, was);
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(err, "big.csv: write failed: ") && strstr(err, strerror(EFBIG)), "%s",
	              err);
	slurp_eq(path, "before\n");
	ck_assert_int_eq(entries(dir), 1);
	/* commit after the failed writes: refused, the file untouched */
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	signal(SIGXFSZ, SIG_IGN);
	f = report_file_open(path, err, sizeof err);
	ck_assert_msg(f != NULL, "%s", err);
	for (int i = 0; i < 1000; i++)
		fputs("a line of a file larger than the limit\n", report_file_stream(f));
	rc = report_file_commit(f, err, sizeof err);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, was);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_nonnull(strstr(err, strerror(EFBIG)));
	slurp_eq(path, "before\n");
	ck_assert_int_eq(entries(dir), 1);
	rm_in(dir, "big.csv");
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("renderers");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, json_has_contract_fields);
	tcase_add_test(tc, json_optional_fields);
	tcase_add_test(tc, json_valid_with_nan_and_deterministic);
	tcase_add_test(tc, text_split_rows_sum);
	tcase_add_test(tc, text_shows_misfit_and_ring_factor);
	tcase_add_test(tc, text_memory_close_to_limit);
	tcase_add_test(tc, validation_band_reported);
	tcase_add_test(tc, text_tp_comm_label);
	tcase_add_test(tc, text_nic_gap_only_across_nodes);
	tcase_add_test(tc, text_nic_gap_gpus_per_nic);
	tcase_add_test(tc, text_nic_gap_dp_ranks_per_node);
	tcase_add_test(tc, csv_header_and_rows_agree);
	tcase_add_test(tc, csv_holds_every_json_field);
	tcase_add_test(tc, text_zero_reduction);
	tcase_add_test(tc, text_exposed_beyond_alone);
	tcase_add_test(tc, trace_one_track_per_stream);
	tcase_add_test(tc, trace_file_is_atomic);
	tcase_add_test(tc, report_file_abort_leaves_nothing);
	tcase_add_test(tc, report_file_writes_through_a_symlink);
	tcase_add_test(tc, report_file_writes_a_fifo_in_place);
	tcase_add_test(tc, report_file_refuses_a_directory);
	tcase_add_test(tc, report_file_failed_fill_leaves_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
