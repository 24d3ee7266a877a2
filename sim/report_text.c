/* report_text.c: the report a person reads after `trainsim run`: what was
 * simulated, how fast, how busy, where the time went (a table with bars),
 * memory, the gradient reduction and its 2(n-1)/n factor, reliability. */
#include <math.h>
#include <string.h>
#include "report.h"
#include "scn.h"
#include "topo.h"
#include "units.h"
#include "workload.h"

#define BAR_WIDTH 30

static const char *const intra_names[] = {"nvswitch", "nvlink-mesh", "pcie"};
static const char *const sched_names[] = {"gpipe", "1f1b", "interleaved", "deepspeed"};
static const char *const recompute_names[] = {"none", "selective", "full"};
static const char *const algo_names[] = {"auto", "ring", "tree", "hierarchical", "ps", "nvls",
                                         "collnet"};
static const char *const compress_names[] = {"none", "fp16", "int8", "1bit"};

/* What each category of the split means, in a few words. */
static const char *const split_what[SPLIT__N] = {
	"compute kernels", "exposed TP comm", "exposed PP send/recv", "pipeline bubble",
	"exposed DP gradients", "waiting for data", "checkpoint stall", "optimizer step",
	"other idle",
};

#define NAME(table, i) ((unsigned)(i) < sizeof table / sizeof table[0] ? table[i] : "?")

const char *report_split_what(step_split k)
{
	return NAME(split_what, k);
}

static const char *fmt_time(char *buf, size_t len, double s)
{
	unit_fmt(buf, len, s, UNIT_TIME);
	return buf;
}

static const char *fmt_bytes(char *buf, size_t len, double b)
{
	unit_fmt(buf, len, b, UNIT_BYTES);
	return buf;
}

static const char *fmt_bw(char *buf, size_t len, double Bps)
{
	unit_fmt(buf, len, Bps, UNIT_BANDWIDTH);
	return buf;
}

/* Long durations (time to train, MTBF) read best in hours or days. */
static const char *fmt_long(char *buf, size_t len, double s)
{
	if (s >= 2 * 86400)
		snprintf(buf, len, "%.1f days", s / 86400);
	else if (s >= 2 * 3600)
		snprintf(buf, len, "%.1f h", s / 3600);
	else
		fmt_time(buf, len, s);
	return buf;
}

static void header(FILE *out, const scenario *s, const step_result *r)
{
	const scn_cluster *c = &s->cluster;
	const scn_training *t = &s->training;
	int dp = scn_dp(s);
	int per = (t->micro_batch > 0 ? t->micro_batch : 1) * dp;
	fprintf(out, "%s\n", s->name[0] ? s->name : s->path);
	/* AMD's GPUs join a node by Infinity Fabric links, modelled as a switch */
	bool amd = hw_arch_is_amd(c->gpu.arch);
	/* a GPU whose figures are not the catalog's says so: its numbers are the
	 * user's */
	char gpu[200], keys[160];
	int nov = scn_gpu_overrides(&c->gpu, keys, sizeof keys);
	if (nov > 0)
		snprintf(gpu, sizeof gpu, "%s [%s set here, not the catalog's]", c->gpu.name, keys);
	else if (nov < 0)
		snprintf(gpu, sizeof gpu, "%s [given field by field, not in the catalog]",
			 c->gpu.name);
	else
		snprintf(gpu, sizeof gpu, "%s", c->gpu.name);
	if (c->gpus_per_node > 1)
		fprintf(out, "  cluster   %d node%s x %d %s (%s)", c->nodes, c->nodes == 1 ? "" : "s",
			c->gpus_per_node, gpu, amd && c->intra.kind != INTRA_PCIE
			? "Infinity Fabric" : NAME(intra_names, c->intra.kind));
	else   /* one GPU a node: no link inside it */
		fprintf(out, "  cluster   %d node%s x 1 %s", c->nodes, c->nodes == 1 ? "" : "s", gpu);
	if (hw_intra_bridged(&c->intra) && c->gpus_per_node < 2)
		;   /* one card a node: nothing to bridge */
	else if (hw_intra_bridged(&c->intra) && c->intra.bridge > c->gpus_per_node)
		fprintf(out, ", NVLink bridges joining them (part of a %d-way group)", c->intra.bridge);
	else if (hw_intra_bridged(&c->intra))
		fprintf(out, ", NVLink bridges joining %s", c->intra.bridge == 2 ? "pairs of cards"
		        : c->intra.bridge == 4 ? "cards in fours" : "cards in groups");
	if (c->gpu.power_limit_w > 0 && c->gpu.power_limit_w < c->gpu.tdp_w)
		fprintf(out, ", capped at %g W of %g (compute at %.0f%% of its clock)",
			c->gpu.power_limit_w, c->gpu.tdp_w, 100 * wl_power_clock(&c->gpu));
	if (c->nodes > 1)
		fprintf(out, ", %d x %g Gb/s %s NIC%s per node, %s", c->nic.count,
			c->nic.speed_Bps * 8 / 1e9, hw_transport_name(c->nic.transport),
			c->nic.count == 1 ? "" : "s", topo_name(c->fabric.topology));
	if (scn_cp(s) > 1)
		fprintf(out, "\n  layout    tp %d x cp %d x pp %d x dp %d = %d GPU%s", t->tp, scn_cp(s),
			t->pp, dp, r->gpus, r->gpus == 1 ? "" : "s");
	else
		fprintf(out, "\n  layout    tp %d x pp %d x dp %d = %d GPU%s", t->tp, t->pp, dp,
			r->gpus, r->gpus == 1 ? "" : "s");
	if (s->model.experts > 1)
		fprintf(out, ", ep %d (%d experts, top %d%s)", t->ep, s->model.experts,
		        s->model.top_k > 0 ? s->model.top_k : 2,
		        t->ep_dispatcher == EP_DISPATCH_DEEPEP ? ", DeepEP dispatcher" : "");
	if (t->pp > 1) {
		fprintf(out, ", %s schedule", NAME(sched_names, t->schedule));
		if (t->schedule == SCHED_INTERLEAVED)
			fprintf(out, " (%d virtual stages)", t->virtual_stages);
		if (t->first_stage_layers > 0 || t->last_stage_layers > 0)
			fprintf(out, "; layers on the first stage %d, on the last %d",
			        wl_stage_layers(s, 0), wl_stage_layers(s, t->pp - 1));
		else if (t->embedding_in_split || t->loss_in_split)
			fprintf(out, "; the %s a layer's place",
			        t->embedding_in_split && t->loss_in_split ? "embedding and the loss each take"
			        : t->embedding_in_split ? "embedding takes" : "loss takes");
	}
	if (s->model.custom)
		fprintf(out, "\n  batch     %d samples per step; micro-batch %d, %d per pipeline\n",
			t->global_batch, t->micro_batch, t->global_batch / per > 0 ? t->global_batch / per : 1);
	else
		fprintf(out, "\n  batch     %d sequences of %d tokens per step; micro-batch %d, %d per "
			"pipeline\n", t->global_batch, s->model.seq_len, t->micro_batch,
			t->global_batch / per > 0 ? t->global_batch / per : 1);
	char rc[48];
	if (t->recompute == RECOMPUTE_FULL && t->recompute_layers > 0)
		snprintf(rc, sizeof rc, "full (first %d layers a chunk)", t->recompute_layers);
	else
		snprintf(rc, sizeof rc, "%s", NAME(recompute_names, t->recompute));
	/* auto: what NCCL's choice resolved to, as the DP section names it */
	char algo[32];
	if (t->grad_reduce.algorithm == GRAD_ALGO_AUTO && r->dp_algorithm[0])
		snprintf(algo, sizeof algo, "%s (auto)", r->dp_algorithm);
	else
		snprintf(algo, sizeof algo, "%s", NAME(algo_names, t->grad_reduce.algorithm));
	/* one replica: nothing to reduce, but a GPT's tied embedding behind a
	 * pipeline (step.c: its first and last stages' copies) */
	bool tied = step_tied_embedding(s);
	if (scn_dp_grad(s) <= 1)
		fprintf(out, "  training  %s, recompute %s, ZeRO %d; gradients: one replica%s",
			hw_precision_name(t->precision), rc, t->zero, tied
			? "\n            (only the tied embedding's, all-reduced between the first and "
			  "last stages)" : ", none to reduce");
	else
		fprintf(out, "  training  %s, recompute %s, ZeRO %d; gradients: %s %s, %s%s",
			hw_precision_name(t->precision), rc, t->zero, algo,
			scn_grad_rs(s) ? "reduce-scatter" : "all-reduce",
			t->grad_reduce.overlap ? "overlapped with backward" : "after backward",
			r->dp_syncs_per_step > 1 ? ", every micro-batch" : "");
	if (t->grad_reduce.compression != COMPRESS_NONE)
		fprintf(out, ", %s compression", NAME(compress_names, t->grad_reduce.compression));
	if (t->kernels == KERNELS_EAGER && !s->model.custom)
		fprintf(out, "; eager PyTorch kernels");
	if (t->cross_entropy == CE_FUSED && !s->model.custom)
		fprintf(out, "; fused cross entropy");
	if (t->peft == PEFT_LORA)
		fprintf(out, "; LoRA rank %d, base weights frozen", t->lora_rank);
	/* which attention ran decides memory and much of the time: say it,
	 * and whether it was chosen for the model's generation (auto) */
	static const char *const attn_names[] = {"auto", "flash", "unfused", "flash2", "flash1"};
	if (!s->model.custom)
		fprintf(out, "\n            attention %s%s",
		        !wl_flash_attention(s) ? "unfused"
		        : t->attention == ATTN_AUTO ? "flash" : NAME(attn_names, t->attention),
		        t->attention == ATTN_AUTO ? " (auto)" : "");
	fputc('\n', out);
}

static void memory_warning(FILE *out, const scenario *s, const step_result *r)
{
	const wl_memory *m = &r->memory;
	char need[32], have[32];
	if (m->fits)
		return;
	double x = m->capacity > 0 ? m->total / m->capacity : 0;
	char over[32];
	if (x < 1.1)   /* "1.0x" would read as fitting: say by how much */
		snprintf(over, sizeof over, "%.0f%% over", 100 * (x - 1));
	else
		snprintf(over, sizeof over, "%.1fx over", x);
	fprintf(out, "\n!!! DOES NOT FIT IN MEMORY: %s per GPU needed, the %s has %s (%s).\n",
		fmt_bytes(need, sizeof need, m->total), s->cluster.gpu.name,
		fmt_bytes(have, sizeof have, m->capacity), over);
	if (report_memory_close(m))
		fprintf(out, "!!! That is within the memory estimate's 10 %%, which cannot decide it:\n"
			"!!! layouts of published runs it puts up to 10 %% over did run (docs/workload.md).\n");
	int most = report_gpus_for_state(s, r);
	if (most > 0) {
		char st[32];
		fprintf(out, "!!! No layout fits on these %d GPUs: the weights, gradients and optimizer\n"
			"!!! state alone are %s, which take at least %d %s\n"
			"!!! (optimizer offload to the host is not modelled). The times below are\n"
			"!!! computed as if it fit.\n", scn_gpus(s),
			fmt_bytes(st, sizeof st, report_state_bytes(s)), most, s->cluster.gpu.name);
		return;
	}
	if (report_memory_close(m))
		fprintf(out, "!!! The times below are computed as if it fit; to be sure it does, shard\n"
			"!!! the model more (tp, pp, ZeRO) or recompute some activations.\n");
	else
		fprintf(out, "!!! The times below are computed as if it fit: shard the model (tp, pp, ZeRO)\n"
			"!!! or recompute activations before running this layout for real.\n");
}

static void speed(FILE *out, const scenario *s, const step_result *r)
{
	char a[32], b[32], c[32];
	const char *prec = hw_precision_name(s->training.precision);
	fprintf(out, "\nstep time         %s", fmt_time(a, sizeof a, r->step_time_s));
	if (r->steps > 1)
		fprintf(out, "   (mean of %d steps; p50 %s, p95 %s, p99 %s)", r->steps,
			fmt_time(a, sizeof a, r->step_p50_s), fmt_time(b, sizeof b, r->step_p95_s),
			fmt_time(c, sizeof c, r->step_p99_s));
	if (s->model.custom)   /* a custom workload's tokens_per_s counts samples */
		fprintf(out, "\nthroughput        %.0f samples/s\n", r->tokens_per_s);
	else
		fprintf(out, "\nthroughput        %.0f tokens/s\n", r->tokens_per_s);
	fprintf(out, "MFU               %5.1f %%   model FLOPs / (step time x GPUs x dense %s peak)\n",
		100 * r->mfu, prec);
	fprintf(out, "HFU               %5.1f %%   the same with recomputation counted\n", 100 * r->hfu);
	fprintf(out, "GPU utilization   %5.1f %%   what nvidia-smi shows: some kernel was running,\n"
		"                            communication kernels included; it is not MFU\n",
		100 * r->gpu_util);
	fprintf(out, "TFLOP/s per GPU   %.1f model, %.1f hardware, of %.1f peak (%s dense)\n",
		r->model_tflops_per_gpu, r->hardware_tflops_per_gpu,
		s->cluster.gpu.peak_flops[s->training.precision] / 1e12, prec);
}

/* The unit of the split table, chosen once so the column adds up by eye. */
static void split_unit(double step_s, double *scale, const char **unit)
{
	if (step_s >= 1) {
		*scale = 1;
		*unit = "s";
	} else if (step_s >= 1e-3) {
		*scale = 1e3;
		*unit = "ms";
	} else {
		*scale = 1e6;
		*unit = "us";
	}
}

static void bar(FILE *out, double frac)
{
	int n = (int)lround(frac * BAR_WIDTH);
	n = n < 0 ? 0 : n > BAR_WIDTH ? BAR_WIDTH : n;
	fputc('|', out);
	for (int i = 0; i < BAR_WIDTH; i++)
		fputc(i < n ? '#' : ' ', out);
	fputc('|', out);
}

void report_tp_what(const scenario *s, char *buf, size_t n)
{
	/* tp_comm also holds the expert all-to-all and the context-parallel
	 * exchange: the row names what it holds (at most 21 characters) */
	const scn_training *t = &s->training;
	bool ep = t->ep > 1, cp = scn_cp(s) > 1, tp = t->tp > 1 || !(ep || cp);
	snprintf(buf, n, "exposed %s%s%s%s%s comm", tp ? "TP" : "", tp && ep ? "/" : "",
	         ep ? "EP" : "", (tp || ep) && cp ? "/" : "", cp ? "CP" : "");
}

static void split_table(FILE *out, const scenario *s, const step_result *r)
{
	double scale, total = 0;
	const char *unit;
	split_unit(r->step_time_s, &scale, &unit);
	char tp_what[24];
	report_tp_what(s, tp_what, sizeof tp_what);
	fprintf(out, "\nwhere the time goes (per GPU, averaged over GPUs)\n");
	for (int k = 0; k < SPLIT__N; k++) {
		double v = r->split_s[k];
		double frac = r->step_time_s > 0 ? v / r->step_time_s : 0;
		total += v;
		fprintf(out, "  %-11s %-21s %10.3f %-2s %5.1f %%  ", step_split_name((step_split)k),
			k == SPLIT_TP_COMM ? tp_what : split_what[k], v * scale, unit, 100 * frac);
		bar(out, frac);
		fputc('\n', out);
	}
	fprintf(out, "  %-33s %10.3f %-2s %5.1f %%\n", "total", total * scale, unit,
		r->step_time_s > 0 ? 100 * total / r->step_time_s : 0);
}

static void memory(FILE *out, const scenario *s, const wl_memory *m)
{
	char a[32], b[32], c[32], d[32], e[32], gib[32] = "";
	/* an "80 GB" card holds 80 GiB, 85.9 GB as every other size here reads */
	double g = m->capacity / 1073741824.0;
	if (g >= 1 && fabs(g - round(g)) < 1e-9)
		snprintf(gib, sizeof gib, " (%.0f GiB)", g);
	bool close = report_memory_close(m);
	fprintf(out, "\nmemory per GPU    %s of %s%s: %s\n", fmt_bytes(a, sizeof a, m->total),
		fmt_bytes(b, sizeof b, m->capacity), gib,
		m->fits ? (close ? "fits (within the estimate's 10 %: it may not)" : "fits")
		: close ? "DOES NOT FIT (within the estimate's 10 %: it may)" : "DOES NOT FIT");
	fprintf(out, "  weights %s, gradients %s, optimizer %s, activations %s",
		fmt_bytes(a, sizeof a, m->weights), fmt_bytes(b, sizeof b, m->gradients),
		fmt_bytes(c, sizeof c, m->optimizer), fmt_bytes(d, sizeof d, m->activations));
	fprintf(out, ", other %s\n", fmt_bytes(e, sizeof e, m->other));
}

/* Why the measured ratio exceeds 2(n-1)/n between nodes: the NIC's
 * achievable fraction of line rate. The GPUs behind one NIC are
 * ceil(gpus_per_node / NICs), as the topology shares it (cluster_gpus_per_nic);
 * TCP's fraction falls with the DP group's GPUs on a node (its ppn, as the
 * collective model takes it: hw_nic_efficiency), whose proxy threads compete
 * for the host, not with those on one NIC nor all the node's (tp > 1 leaves
 * gpus_per_node / tp of a group on a node). */
static void nic_gap(FILE *out, const scenario *s, const step_result *r, double factor)
{
	hw_nic nic = s->cluster.nic;
	int g = s->cluster.gpus_per_node, ppn = r->dp_ranks_per_node;
	int nics = nic.count > 0 ? nic.count : 1;
	int per = (g + nics - 1) / nics > 1 ? (g + nics - 1) / nics : 1;
	char note[160] = "";
	/* a DP group inside one node: its naive figure is over the intra-node links */
	if (!r->dp_crosses_nodes || r->dp_naive_s <= 0 || ppn < 1)
		return;
	if (r->dp_naive_zone_Bps > 0) {   /* across zones: the zone link, not the NICs */
		char lat[32];
		if (r->dp_allreduce_s < 1.1 * factor * r->dp_naive_s)
			return;   /* the ring factor explains it */
		fprintf(out, "    the rest: the zone link's %s of latency, paid on every step of the\n"
			"    collective that crosses it\n",
			fmt_time(lat, sizeof lat, s->cluster.fabric.zone_latency_s));
		return;
	}
	hw_nic_defaults(&nic, g);
	double line_eff = hw_nic_efficiency(&nic, ppn);
	/* what the NIC carries for the DP group and its siblings (one beside
	 * each TP rank behind it), each bound by its own sockets over TCP */
	int sib = cluster_spec_nic_siblings(&s->cluster, s->training.tp * scn_cp(s));
	bool own = !strcmp(r->dp_algorithm, "hierarchical") || !strcmp(r->dp_algorithm, "ps");
	double eff = nic.speed_Bps > 0 && !own && cluster_sockets_bind(&s->cluster, ppn, sib)
	             ? sib * hw_nic_comm_Bps(&nic, ppn, sib, s->cluster.gpu.arch,
	                                     s->cluster.gpu.pcie_gen) / nic.speed_Bps
	             : line_eff;
	/* a GPU's PCIe link slower than its NIC: the link's share of the line */
	double pcie = nic.speed_Bps > 0 ? cluster_spec_pcie_below_nic(&s->cluster) : 0;
	bool pcie_binds = pcie > 0 && pcie / nic.speed_Bps < eff;
	if (pcie_binds)
		eff = pcie / nic.speed_Bps;
	double ratio = r->dp_allreduce_s / r->dp_naive_s;
	if (eff <= 0 || ratio < 1.1 * factor)
		return;
	const char *tr = hw_transport_name(nic.transport);
	char lname[32];
	double per_gpu = nics > g ? (double)nics / g : 1;
	if (pcie_binds && per_gpu > 1)
		snprintf(note, sizeof note, "\n    (its GPU's %s, shared by %.3g NICs a GPU, moves %.3g GB/s\n"
			 "    through each, less than a NIC's line)",
			 cluster_spec_gpu_link_name(&s->cluster, lname, sizeof lname), per_gpu, pcie / 1e9);
	else if (pcie_binds)
		snprintf(note, sizeof note, "\n    (its GPU's %s moves %.3g GB/s, less than the NIC's "
			 "line)", cluster_spec_gpu_link_name(&s->cluster, lname, sizeof lname), pcie / 1e9);
	else if (nic.transport == TRANSPORT_TCP && eff < 0.999 * line_eff)
		snprintf(note, sizeof note, "\n    (NCCL's sockets through it, %d a connection, "
			 "move %.3g GB/s each)", hw_nic_sockets(&nic), hw_nic_socket_Bps(&nic) / 1e9);
	else if (nic.transport == TRANSPORT_TCP && ppn != per)
		snprintf(note, sizeof note, ppn == 1 ? "\n    (one GPU of a data-parallel group per "
			 "node: TCP's single-flow share)" : "\n    (TCP's share falls as a data-parallel "
			 "group's %d GPUs compete for the node's cores)", ppn);
	if (nics == 1)
		fprintf(out, "    the rest: %s %s NIC with %d GPU%s behind it achieves %.3g of its "
			"line rate%s,\n", nic.transport == TRANSPORT_RDMA ? "an" : "a", tr, per,
			per == 1 ? "" : "s", eff, note);
	else
		fprintf(out, "    the rest: each of the node's %d %s NICs has %d GPU%s behind it and "
			"achieves\n    %.3g of its line rate%s,\n", nics, tr, per, per == 1 ? "" : "s",
			eff, note);
	fprintf(out, "    so expect about %.2f / %.3g = %.2f; latency and contention add the "
		"remainder\n", factor, eff, factor / eff);
}

static void dp_section(FILE *out, const scenario *s, const step_result *r)
{
	char a[32], b[32], c[32];
	int dp = scn_dp_grad(s), n = report_ring_ranks(s, r);
	double factor = n > 0 ? 2.0 * (n - 1) / n : 0;
	if (dp <= 1 || r->dp_bytes_per_gpu <= 0)
		return;
	char group[32];
	if (scn_cp(s) > 1)
		snprintf(group, sizeof group, "dp %d x cp %d", scn_dp(s), scn_cp(s));
	else
		snprintf(group, sizeof group, "dp %d", dp);
	fprintf(out, "\ndata-parallel gradient reduction (%s, %s)\n", group, r->dp_algorithm[0]
		? r->dp_algorithm : NAME(algo_names, s->training.grad_reduce.algorithm));
	fprintf(out, "  gradient bytes per GPU   %s", fmt_bytes(a, sizeof a, r->dp_bytes_per_gpu));
	if (s->training.grad_reduce.compression != COMPRESS_NONE)
		fprintf(out, " (on the wire, %s compression)",
			NAME(compress_names, s->training.grad_reduce.compression));
	if (r->dp_syncs_per_step > 1)
		fprintf(out, ", reduced %d times per step", r->dp_syncs_per_step);
	if (r->dp_zero_replicas > 1)
		fprintf(out, "\n  ZeRO groups              %d of %d data-parallel ranks: each reduce-scatters "
			"inside,\n                           then the %d groups all-reduce each 1/%d shard",
			r->dp_zero_replicas, r->dp_zero_group, r->dp_zero_replicas, r->dp_zero_group);
	bool zero = r->dp_gather_bytes_per_gpu > 0, rs = scn_grad_rs(s);
	const char *red = rs ? "reduce-scatter" : "all-reduce";
	if (zero)
		fprintf(out, "\n  parameters gathered      %s per GPU (ZeRO %d: %s%s)",
			fmt_bytes(a, sizeof a, r->dp_gather_bytes_per_gpu), s->training.zero,
			s->training.zero >= 3 && r->dp_syncs_per_step <= 1 && r->micro_batches > 1
			? "each layer's gathered for every\n"
			"                           micro-batch's forward and backward, 2m of them"
			: s->training.zero >= 3 ? "each layer's gathered for its forward\n"
			"                           and again for its backward" : rs ?
			"all-gathered back after the reduce-scatter" : "all-gathered back after the "
			"all-reduce", s->training.grad_reduce.compression != COMPRESS_NONE
			? ", not compressed" : "");
	fprintf(out, "\n  %s %s", zero ? "reduction, alone        " : "all-reduce, alone       ",
		fmt_time(a, sizeof a, r->dp_allreduce_s));
	if (zero)
		fprintf(out, " (%s of the gradients + all-gather%s of the parameters)", red,
			s->training.zero >= 3 ? "s" : "");
	if (r->dp_syncs_per_step > 1)
		fprintf(out, " (each of the %d per step)", r->dp_syncs_per_step);
	fputc('\n', out);
	if (r->dp_naive_s > 0 && r->dp_zero_replicas <= 1) {
		fprintf(out, "  naive size / bandwidth   %s   (%s at %s%s)\n",
			fmt_time(a, sizeof a, r->dp_naive_s), fmt_bytes(b, sizeof b, r->dp_bytes_per_gpu),
			fmt_bw(c, sizeof c, r->dp_bytes_per_gpu / r->dp_naive_s),
			r->dp_naive_zone_Bps > 0 ? ", its share of the zone link" : "");
		int ng = r->dp_zero_group > 0 ? r->dp_zero_group : scn_dp_grad(s);
		const char *gathers = s->training.zero >= 3 && r->dp_syncs_per_step <= 1 &&
			r->micro_batches > 1 ? "all-gathers each layer's parameters for every\n"
			"    micro-batch's forward and backward"
			: s->training.zero >= 3 ? "all-gathers each layer's parameters "
			"for its forward\n    and again for its backward" : "all-gathers the updated "
			"parameters";
		if (zero && ng != n) {   /* a hierarchical all-reduce: n nodes; the gather: a ring */
			factor = r->dp_ideal_factor;
			fprintf(out, "  ratio                    %.2f; %d(n-1)/n + (N-1)/N x %s / %s = %.2f\n"
				"    over the reduction's n = %d nodes and the gather's N = %d GPUs:\n"
				"    %s\n"
				"    then %s, (N-1)/N of those again\n",
				r->dp_allreduce_s / r->dp_naive_s, rs ? 1 : 2, fmt_bytes(b, sizeof b,
				r->dp_gather_bytes_per_gpu), fmt_bytes(c, sizeof c, r->dp_bytes_per_gpu), factor,
				n, ng, rs ? "ZeRO reduce-scatters the gradients, every GPU sending (n-1)/n of them,"
				   : "ZeRO 1 all-reduces the gradients whole (only the optimizer state is\n"
				     "    sharded), every GPU sending 2(n-1)/n of them,", gathers);
		} else if (zero) {
			factor = r->dp_ideal_factor;
			fprintf(out, "  ratio                    %.2f; over n = %d, (n-1)/n (%d + %s / %s) = %.2f:\n"
				"    %s\n"
				"    then %s, (n-1)/n of those again\n",
				r->dp_allreduce_s / r->dp_naive_s, n, rs ? 1 : 2, fmt_bytes(b, sizeof b,
				r->dp_gather_bytes_per_gpu), fmt_bytes(c, sizeof c, r->dp_bytes_per_gpu), factor,
				rs ? "ZeRO reduce-scatters the gradients, every GPU sending (n-1)/n of them,"
				   : "ZeRO 1 all-reduces the gradients whole (only the optimizer state is\n"
				     "    sharded), every GPU sending 2(n-1)/n of them,", gathers);
		} else
			fprintf(out, "  ratio                    %.2f; a ring over n = %d gives 2(n-1)/n = %.2f:\n"
				"    a ring all-reduce is a reduce-scatter then an all-gather, and in each half\n"
				"    every GPU sends (n-1)/n of the buffer: 2(n-1)/n times the naive figure,\n"
				"    nearly twice for large n\n",
				r->dp_allreduce_s / r->dp_naive_s, n, factor);
		if (!strncmp(r->dp_algorithm, "nvls", 4))
			fprintf(out, "    %s reduces in the NVSwitch instead (NVLink SHARP): each GPU sends\n"
				"    about (1 + 1/n) of the buffer through it%s\n", r->dp_algorithm,
				strcmp(r->dp_algorithm, "nvlstree") ? "" : ", and a tree joins the nodes");
		else if (!strcmp(r->dp_algorithm, "collnet"))
			fprintf(out, "    collnet reduces in the switches instead (InfiniBand SHARP): each NIC\n"
				"    sends its slice of the buffer once and receives the sum once\n");
		nic_gap(out, s, r, factor);
	}
	if (r->dp_collectives_per_step > 0 && r->dp_latency_s > 0)
		fprintf(out, "  collectives per step     %.0f, paying %s of NCCL latency\n",
			r->dp_collectives_per_step, fmt_time(a, sizeof a, r->dp_latency_s));
	fprintf(out, "  exposed in the step      %s%s\n", fmt_time(a, sizeof a, r->split_s[SPLIT_DP_COMM]),
		s->training.grad_reduce.overlap ? " (the rest hides behind the backward pass)" : "");
	/* exposed beyond the reduction alone: in the step its links are shared */
	if (r->split_s[SPLIT_DP_COMM] > 1.2 * r->dp_allreduce_s * (r->dp_syncs_per_step > 1
	    ? r->dp_syncs_per_step : 1) && r->dp_allreduce_s > 0) {
		char up[64] = "";
		if (s->cluster.fabric.oversubscription > 1 && s->cluster.nodes > 1)
			snprintf(up, sizeof up, ", here through leaf uplinks %g:1 oversubscribed",
				 s->cluster.fabric.oversubscription);
		char text[320];
		snprintf(text, sizeof text, "more than the reduction alone: in the step the other "
			 "groups' reductions%s share its links%s", s->training.pp > 1 ||
			 s->training.tp > 1 ? " (every stage and TP rank has its own)" : "", up);
		report_wrap(out, 4, 4, text);
	}

}

static void reliability(FILE *out, const scenario *s, const step_result *r)
{
	char a[32], b[32], c[32], d[32];
	const step_checkpoint *k = &r->checkpoint;
	if (k->every > 0)
		fprintf(out, "\ncheckpoint        every %d steps: %s on storage in %s, %s stall (%s) = %s per step\n",
			k->every, fmt_bytes(a, sizeof a, k->bytes), fmt_time(b, sizeof b, k->write_s),
			fmt_time(c, sizeof c, k->stall_s),
			s->training.checkpoint.mode != CKPT_ASYNC ? "sync"
			: k->async_fallback ? "async asked, written sync: host memory too small" : "async",
			fmt_time(d, sizeof d, k->stall_s / k->every));
	if (k->local_every > 0)
		fprintf(out, "%slocal checkpoint  every %d steps: %s a GPU to its node's drive%s, "
			"written in %s, %s stall%s = %s per step\n", k->every > 0 ? "" : "\n",
			k->local_every, fmt_bytes(a, sizeof a, k->local_bytes_per_gpu),
			k->local_copies > 2 ? " and its peers'" : k->local_copies > 1 ? " and a peer's" : "",
			fmt_time(b, sizeof b, k->local_write_s), fmt_time(c, sizeof c, k->local_stall_s),
			s->training.checkpoint.mode != CKPT_ASYNC ? " (sync)" : k->local_async_fallback
			? " (async asked, written sync: host memory too small)" : " (async)",
			fmt_time(d, sizeof d, k->local_stall_s / k->local_every));
	if (r->job_mtbf_s > 0) {
		fprintf(out, "failures          a failure every %s on this job; goodput %.1f %%",
			fmt_long(a, sizeof a, r->job_mtbf_s), 100 * r->goodput);
		/* the interval is of work: steps without the checkpoints' share */
		double work_step = r->step_time_s - k->amortized_s;
		if (r->best_local_checkpoint_every > 0)
			fprintf(out, "; best local checkpoint interval %d step%s (%s)",
				r->best_local_checkpoint_every,
				r->best_local_checkpoint_every == 1 ? "" : "s",
				fmt_long(b, sizeof b, r->best_local_checkpoint_every * work_step));
		if (r->best_checkpoint_every > 0)
			fprintf(out, "; best checkpoint interval %d step%s (%s)%s",
				r->best_checkpoint_every, r->best_checkpoint_every == 1 ? "" : "s",
				fmt_long(b, sizeof b, r->best_checkpoint_every * work_step),
				r->best_checkpoint_every == 1 &&
				s->training.checkpoint.mode == CKPT_ASYNC ? " (an async write that ends within "
				"a step stalls almost nothing)" : "");
		fputc('\n', out);
	}
	report_cost cost = report_run_cost(s, r);
	if (s->run.train_tokens > 0) {
		unit_fmt(b, sizeof b, s->run.train_tokens, UNIT_COUNT);
		unit_fmt(c, sizeof c, cost.gpu_hours, UNIT_COUNT);
		if (r->time_to_train_s > 0)
			fprintf(out, "time to train     %s for %s %s, %s GPU-hours\n",
				fmt_long(a, sizeof a, r->time_to_train_s), b,
				s->model.custom ? "samples" : "tokens", c);
		else
			fprintf(out, k->every > 0 ? "time to train     never: failures come faster "
				"than the work between checkpoints is saved (goodput %.1f %%)\n"
				: "time to train     never: with no checkpoints every failure restarts the "
				"run, and failures come faster than it can finish (goodput %.1f %%); set "
				"training.checkpoint.every\n", 100 * r->goodput);
	}
	if (cost.per_mtok > 0) {
		fprintf(out, "cost              %.3g per million tokens at %.3g per GPU-hour",
			cost.per_mtok, s->run.gpu_hour_price);
		if (cost.cost > 0) {
			unit_fmt(b, sizeof b, cost.cost, UNIT_COUNT);
			fprintf(out, "; %s for the whole run", b);
		}
		fputc('\n', out);
	}
	if (s->training.grad_reduce.sync == SYNC_ASYNC && r->async_speedup > 0)
		fprintf(out, "asynchronous DP   %.2fx faster than synchronous, gradients %d step%s stale\n",
			r->async_speedup, r->staleness, r->staleness == 1 ? "" : "s");
}

static void verdict(FILE *out, const step_result *r, const report_opts *o)
{
	char line[sizeof r->bottleneck + 16];
	snprintf(line, sizeof line, "bottleneck: %s", r->bottleneck[0] ? r->bottleneck : "none found");
	fputc('\n', out);
	report_wrap(out, 0, 2, line);
	for (int i = 0; i < r->n_notes && i < STEP_MAX_NOTES; i++) {
		snprintf(line, sizeof line, "note: %s", r->notes[i]);
		report_wrap(out, 0, 2, line);
	}
	if (o && o->wall_s > 0)
		fprintf(out, "\n(simulated %llu events in %.3f s)\n", (unsigned long long)r->events,
			o->wall_s);
}

int report_text(FILE *out, const scenario *s, const step_result *r, const report_opts *o)
{
	header(out, s, r);
	memory_warning(out, s, r);
	speed(out, s, r);
	split_table(out, s, r);
	memory(out, s, &r->memory);
	char band[512], line[540];
	report_band_sentence(s, band, sizeof band);
	snprintf(line, sizeof line, "how sure: %s", band);
	fputc('\n', out);
	report_wrap(out, 0, 2, line);
	dp_section(out, s, r);
	reliability(out, s, r);
	verdict(out, r, o);
	return ferror(out) ? -1 : 0;
}
