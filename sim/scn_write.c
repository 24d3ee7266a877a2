/* scn_write.c: a scenario written back as normalized YAML, every key in table
 * order with its unit, such that loading the output gives an equal struct.
 * Each number is written in the most readable unit that parses back to the
 * very same double, else in the base unit with all 17 digits. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "scn_int.h"
#include "engine.h"     /* SIM_DEFAULT_MAX_EVENTS */
#include "memest.h"     /* MEMEST_DEFAULT_LIMIT_BYTES */
#include "store.h"
#include "topo.h"
#include "workload.h"

typedef struct nice_unit {
	const char *sfx;
	double mult;
} nice_unit;

static const nice_unit nice_bytes[] = {
	{"PB", 1e15}, {"TB", 1e12}, {"TiB", 1099511627776.0}, {"GB", 1e9}, {"GiB", 1073741824.0},
	{"MB", 1e6}, {"MiB", 1048576.0}, {"KB", 1e3}, {"KiB", 1024.0}, {"B", 1}, {NULL, 0}};
static const nice_unit nice_bw[] = {
	{"TB/s", 1e12}, {"GB/s", 1e9}, {"Gbps", 1e9 / 8}, {"MB/s", 1e6}, {"Mbps", 1e6 / 8},
	{"KB/s", 1e3}, {"B/s", 1}, {NULL, 0}};
static const nice_unit nice_bits[] = { /* line rates read better in bits */
	{"Tbps", 1e12 / 8}, {"Gbps", 1e9 / 8}, {"Mbps", 1e6 / 8}, {"GB/s", 1e9}, {"B/s", 1},
	{NULL, 0}};
static const nice_unit nice_time[] = {
	{"d", 86400}, {"h", 3600}, {"min", 60}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6},
	{"ns", 1e-9}, {NULL, 0}};
static const nice_unit nice_flops[] = {
	{"PFLOPS", 1e15}, {"TFLOPS", 1e12}, {"GFLOPS", 1e9}, {"FLOPS", 1}, {NULL, 0}};
static const nice_unit nice_power[] = {{"kW", 1e3}, {"W", 1}, {NULL, 0}};
static const nice_unit nice_count[] = {
	{"T", 1e12}, {"G", 1e9}, {"M", 1e6}, {"K", 1e3}, {"", 1}, {NULL, 0}};

/* The number x in at most maxdig significant digits, without an exponent
 * where one is not needed ("200", "8.192", "0.02", "1.5e+13"). */
static void fmt_number(char *buf, size_t len, double x, int sig, const char *sfx)
{
	int intdig = x >= 1 ? (int)floor(log10(x)) + 1 : 0;
	if (x >= 1 && x < 1e15)
		snprintf(buf, len, "%.*f%s", sig > intdig ? sig - intdig : 0, x, sfx);
	else
		snprintf(buf, len, "%.*g%s", sig, x, sfx);
}

/* Fewest significant digits (<= maxdig) of v in unit u that parse back to
 * exactly v; 0 if none. */
static int try_unit(char *buf, size_t len, double v, const nice_unit *u, unit_kind k,
                    int maxdig)
{
	double x = v / u->mult;
	for (int p = 1; p <= maxdig; p++) {
		double back;
		fmt_number(buf, len, x, p, u->sfx);
		if (unit_parse(buf, k, &back, NULL, 0) == 0 && back == v)
			return p;
	}
	return 0;
}

/* The first unit of the list (most readable first) that needs at most 3
 * digits; else the shortest text of any unit; else all 17 digits in the
 * smallest unit. */
static void fmt_quantity(char *buf, size_t len, double v, unit_kind k, bool bits)
{
	const nice_unit *t = k == UNIT_BYTES ? nice_bytes : k == UNIT_BANDWIDTH
	                     ? (bits ? nice_bits : nice_bw) : k == UNIT_TIME ? nice_time
	                     : k == UNIT_FLOPS ? nice_flops : k == UNIT_POWER ? nice_power
	                     : nice_count;
	char best[64] = "", cand[64];
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	for (const nice_unit *u = t; u->sfx; u++) {
		if (v / u->mult < 1 && u[1].sfx)
			continue;
		int p = try_unit(cand, sizeof cand, v, u, k, k == UNIT_COUNT ? 17 : 8);
		if (p && p <= 3) {
			snprintf(buf, len, "%s", cand);
			return;
		}
		if (p && (!best[0] || strlen(cand) < strlen(best)))
			snprintf(best, sizeof best, "%s", cand);
	}
	if (!best[0]) {
		const nice_unit *last = t;
		while (last[1].sfx)
			last++;
		if (!try_unit(best, sizeof best, v, last, k, 17))
			snprintf(best, sizeof best, "%.17g%s", v / last->mult, last->sfx);
	}
	snprintf(buf, len, "%s", best);
}

static void write_string(FILE *out, const char *s)
{
	bool plain = s[0] && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                            "0123456789-_.") == strlen(s) && !strchr("-.0123456789", s[0]);
	static const char *const reserved[] = {"true", "false", "null", "yes", "no", "on", "off",
	                                       "True", "False", "Null", "NULL", "TRUE", "FALSE"};
	for (size_t i = 0; plain && i < sizeof reserved / sizeof reserved[0]; i++)
		plain = strcmp(s, reserved[i]) != 0;
	if (plain) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\x%02x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static bool row_bits(const scn_field *f)
{
	return !strcmp(f->key, "speed") || !strcmp(f->key, "frontend") ||
	       !strcmp(f->key, "zone_bandwidth");
}

/* A scalar field's value; false when it holds a value the loader would
 * refuse (a default 0 meaning "not given"), which is then left out. */
static bool write_value(FILE *out, const scn_field *f, const void *base)
{
	const char *p = (const char *)base + f->off;
	char buf[128];
	double v = scn__field_get(f, base);
	if (f->type != F_STRING && f->type != F_BOOL && f->type != F_ENUM && !scn__in_range(f, v))
		return false;
	switch (f->type) {
	case F_INT: fprintf(out, "%d", *(const int *)p); break;
	case F_U64: fprintf(out, "%" PRIu64, *(const uint64_t *)p); break;
	case F_BOOL: fputs(*(const bool *)p ? "true" : "false", out); break;
	case F_ENUM: fputs(f->names[*(const int *)p], out); break;
	case F_STRING: write_string(out, p); break;
	case F_DOUBLE: fmt_quantity(buf, sizeof buf, v, UNIT_COUNT, false); fputs(buf, out); break;
	case F_UNIT: fmt_quantity(buf, sizeof buf, v, f->unit, row_bits(f)); fputs(buf, out); break;
	default: break;
	}
	return true;
}

static bool is(const scn_section *sec, const scn_field *f, const char *sname, const char *key)
{
	return !strcmp(sec->name, sname) && !strcmp(f->key, key);
}

/* What the simulator uses where a key holds its "derive it" value (a 0 or
 * auto), for a comment beside it; "" where the value is what it says (0 =
 * none, never, not asked). */
static void used_value(const scenario *s, const scn_section *sec, const scn_field *f, double v,
                       char *b, size_t n)
{
	const scn_training *t = &s->training;
	char q[64];
	b[0] = '\0';
	if (f->type == F_ENUM ? !!strcmp(f->names[(int)v], "auto") : v != 0)
		return;
	hw_nic nic = s->cluster.nic;
	hw_nic_defaults(&nic, s->cluster.gpus_per_node);
	const char *tr = nic.transport == TRANSPORT_TCP ? "tcp"
	               : nic.transport == TRANSPORT_RDMA ? "rdma" : "gpudirect-tcp";
	if (is(sec, f, "nic", "efficiency") && nic.transport == TRANSPORT_TCP) {
		snprintf(b, n, "0 = tcp's: %.3g with one GPU of a communicator on a node, %.3g with %d",
		         hw_nic_efficiency(&nic, 1), hw_nic_efficiency(&nic, s->cluster.gpus_per_node),
		         s->cluster.gpus_per_node);
	} else if (is(sec, f, "nic", "efficiency")) {
		snprintf(b, n, "0 = %s's: %.3g", tr, nic.efficiency);
	} else if (is(sec, f, "nic", "sockets")) {
		snprintf(b, n, "0 = NCCL's default: 1 (NCCL_SOCKET_NTHREADS x NCCL_NSOCKS_PERTHREAD)%s",
		         nic.transport == TRANSPORT_TCP ? "" : "; only tcp uses sockets");
	} else if (is(sec, f, "nic", "socket_bandwidth")) {
		unit_fmt(q, sizeof q, hw_nic_socket_Bps(&nic), UNIT_BANDWIDTH);
		snprintf(b, n, "0 = %s a socket (NCCL's socket transport, measured)", q);
	} else if (is(sec, f, "nic", "latency")) {
		unit_fmt(q, sizeof q, nic.latency_s, UNIT_TIME);
		snprintf(b, n, "0 = %s's: %s", tr, q);
	} else if (is(sec, f, "intra_node", "bandwidth")) {
		double bw = cluster_spec_intra_Bps(&s->cluster);
		bool shm = hw_intra_shm(&s->cluster.intra, &s->cluster.gpu);
		unit_fmt(q, sizeof q, shm ? hw_pcie_Bps(s->cluster.gpu.pcie_gen > 0
		                                        ? s->cluster.gpu.pcie_gen : 4) : bw,
		         UNIT_BANDWIDTH);
		if (shm) {
			char r[32];
			unit_fmt(r, sizeof r, bw, UNIT_BANDWIDTH);
			snprintf(b, n, "0 = the GPU's: %s, %s through host memory", q, r);
		} else
			snprintf(b, n, "0 = the GPU's: %s", q);
	} else if (is(sec, f, "intra_node", "shm_eff")) {
		snprintf(b, n, "0 = %s's: %.3g of its PCIe link", s->cluster.gpu.name,
		         hw_shm_eff(NULL, &s->cluster.gpu));
	} else if (is(sec, f, "intra_node", "p2p")) {
		snprintf(b, n, "auto = the GPU's: %s", s->cluster.gpu.no_p2p ? "false" : "true");
	} else if (is(sec, f, "fabric", "leaves") && s->cluster.fabric.placement == FABRIC_SPREAD &&
	           s->cluster.fabric.nodes_per_leaf > 0) {
		int npl = s->cluster.fabric.nodes_per_leaf;
		snprintf(b, n, "0 = ceil(nodes / nodes_per_leaf): %d", (s->cluster.nodes + npl - 1) / npl);
	} else if (is(sec, f, "training", "expert_tp")) {
		snprintf(b, n, "0 = tp (%d), for the experts of a mixture of experts", t->tp);
	} else if (is(sec, f, "training", "zero_group")) {
		snprintf(b, n, "0 = every rank that holds the same weights: dp x cp = %d",
		         wl_zero_group(s));
	} else if (is(sec, f, "training", "recompute_layers") && t->recompute == RECOMPUTE_FULL) {
		snprintf(b, n, "0 = every layer");
	} else if (is(sec, f, "training", "optimizer_bytes_per_param")) {
		double w, g, o;
		wl_state_bytes(s, &w, &g, &o);
		snprintf(b, n, "0 = from the precision: %g (weights %g, gradients %g, optimizer %g)",
		         w + g + o, w, g, o);
	} else if (is(sec, f, "training", "attention") && !s->model.custom) {
		snprintf(b, n, "auto = %s here", wl_flash_attention(s) ? "flash" : "unfused");
	} else if (is(sec, f, "grad_reduce", "algorithm")) {
		snprintf(b, n, "auto = NCCL's choice for each size (trainsim run names it)");
	} else if (is(sec, f, "grad_reduce", "collective")) {
		snprintf(b, n, "auto = %s here", scn_grad_rs(s) ? "reduce_scatter" : "all_reduce");
	} else if (is(sec, f, "grad_reduce", "every_micro_batch")) {
		snprintf(b, n, "auto = %s here", wl_grad_every_micro_batch(s) ? "true" : "false");
	} else if (is(sec, f, "checkpoint", "bytes") && !s->model.custom) {
		unit_fmt(q, sizeof q, store_checkpoint_bytes(s), UNIT_BYTES);
		snprintf(b, n, "0 = from the model and optimizer: %s", q);
	} else if (is(sec, f, "run", "max_events")) {
		snprintf(b, n, "0 = %llu", (unsigned long long)SIM_DEFAULT_MAX_EVENTS);
	} else if (is(sec, f, "run", "max_memory")) {
		snprintf(b, n, "0 = %gGiB", MEMEST_DEFAULT_LIMIT_BYTES / 1073741824.0);
	}
}

static void write_scalar(FILE *out, const scn_section *sec, const scn_field *f, const void *base,
                         int ind, const scenario *top)
{
	double v = scn__field_get(f, base);
	if (f->type != F_STRING && f->type != F_BOOL && f->type != F_ENUM && !scn__in_range(f, v))
		return;
	if ((f->flags & FL_NO_EFFECT) && v == 0)
		return; /* left at its default 0, so that reloading does not warn */
	fprintf(out, "%*s%s: ", ind, "", f->key);
	write_value(out, f, base);
	char used[160] = "";
	if (top && f->type != F_STRING && f->type != F_BOOL)
		used_value(top, sec, f, v, used, sizeof used);
	if (used[0])
		fprintf(out, "  # %s", used);
	fputc('\n', out);
}

static void write_section(FILE *out, const scn_section *sec, const void *base, int ind,
                          const void *ref, const scenario *top);

static void write_gpu(FILE *out, const scn_field *f, const hw_gpu *g, int ind)
{
	const hw_gpu *cat = hw_gpu_find(g->name);
	fprintf(out, "%*s%s:", ind, "", f->key);
	if (cat && scn__section_equal(f->sub, cat, g, NULL, 0, "")) {
		fputc(' ', out);
		write_string(out, g->name);
		fputc('\n', out);
		return;
	}
	fputc('\n', out);
	if (cat) {
		fprintf(out, "%*sbase: ", ind + 2, "");
		write_string(out, cat->name);
		fputc('\n', out);
	}
	write_section(out, f->sub, g, ind + 2, cat, NULL);
}

/* One layer per line: "- {name: stem, flops: 118M, params: 9408, ...}". */
static void write_layers(FILE *out, const scn_field *f, const scn_model *m, int ind)
{
	if (!m->custom)
		return;
	fprintf(out, "%*s%s:\n", ind, "", f->key);
	for (int i = 0; i < m->nlayers_custom; i++) {
		const char *sep = "";
		fprintf(out, "%*s- {", ind + 2, "");
		for (size_t r = 0; r < f->sub->nrows; r++) {
			const scn_field *lf = &f->sub->rows[r];
			double v = scn__field_get(lf, &m->custom_layers[i]);
			if (lf->type != F_STRING && !scn__in_range(lf, v))
				continue;
			fprintf(out, "%s%s: ", sep, lf->key);
			write_value(out, lf, &m->custom_layers[i]);
			sep = ", ";
		}
		fputs("}\n", out);
	}
}

static void write_row(FILE *out, const scn_section *sec, const scn_field *f, const void *base,
                      int ind, const scenario *top)
{
	const char *p = (const char *)base + f->off;
	const scn_section *sub = f->sub;
	if (f->type == F_GPUBASE)
		return;
	if (f->type == F_LAYERS) {
		write_layers(out, f, base, ind);
		return;
	}
	if (f->type != F_SECTION) {
		write_scalar(out, sec, f, base, ind, top);
		return;
	}
	if (sub->present_off >= 0 && !*(const bool *)(p + sub->present_off))
		return;
	if (sub->scalar_key && !strcmp(sub->scalar_key, "base")) {
		write_gpu(out, f, (const hw_gpu *)p, ind);
		return;
	}
	const hw_intra *in = (const hw_intra *)p;
	if (sub->scalar_key && !in->bandwidth_Bps && !in->latency_s && in->p2p == P2P_AUTO &&
	    in->bridge < 2 && !in->shm_eff) {
		/* an AMD node's GPUs are joined by Infinity Fabric links, modelled
		 * as a switch: the key's name would read as NVIDIA's NVSwitch */
		bool amd = top && hw_arch_is_amd(top->cluster.gpu.arch) && in->kind == INTRA_NVSWITCH;
		fprintf(out, "%*s%s: %s%s\n", ind, "", f->key, sub->rows[0].names[in->kind],
		        amd ? "   # on this AMD GPU: Infinity Fabric (xGMI) links, modelled as a switch"
		            : "");
		return;
	}
	fprintf(out, "%*s%s:\n", ind, "", f->key);
	write_section(out, sub, p, ind + 2, NULL, top);
}

/* Rows of a section; with `ref`, only those that differ from it. `top` is
 * the whole scenario, for the comments on derived values (NULL: none). */
static void write_section(FILE *out, const scn_section *sec, const void *base, int ind,
                          const void *ref, const scenario *top)
{
	const scn_model *m = base;
	bool is_model = sec->nrows && sec->rows[sec->nrows - 1].type == F_LAYERS;
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		if (is_model && m->custom && (f->flags & FL_TRANSFORMER))
			continue;
		if (ref && scn__section_equal(&(scn_section){sec->name, f, 1, NULL, -1}, ref, base,
		                              NULL, 0, ""))
			continue;
		write_row(out, sec, f, base, ind, top);
	}
}

int scn_write_yaml(const scenario *s, FILE *out)
{
	fprintf(out, "# trainsim scenario, normalized (every key, SI values with units; a comment\n"
	        "# gives the value used where a 0 or auto stands for one derived)\n");
	write_section(out, &scn__root, s, 0, NULL, s);
	return ferror(out) ? -1 : 0;
}
