/* cmd_nccl.c: `trainsim nccl`, a virtual nccl-tests. For each size it runs
 * one collective alone on the scenario's cluster (coll_time_isolated) and
 * prints nccl-tests' columns (size count type redop root time algbw busbw,
 * GB = 1e9), or a JSON array. `--op sendrecv` without --gpus is the
 * point-to-point test between GPU 0 and the first GPU of the next node. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cli.h"
#include "coll.h"
#include "json.h"
#include "memest.h"
#include "scn.h"
#include "units.h"

/* The most sizes one table may hold, and the largest size. */
#define NCCL_MAX_ROWS 100000
#define NCCL_MAX_BYTES 1125899906842624.0

#define NCCL_USAGE "usage: trainsim nccl SCENARIO [--op OP] [-b MIN] [-e MAX] [-f FACTOR] " \
	"[-i STEP]\n       [--gpus N] [--algo auto|ring|tree|hierarchical|ps|nvls|nvlstree|collnet] [-g GPUS_PER_THREAD]\n" \
	"       [--proto auto|LL|LL128|Simple] [--root R] [--ps-servers N] [--format text|json] [--set KEY=VALUE]...\n" \
	"       [--max-memory SIZE] [-q]\n" \
	"OP: all_reduce all_gather reduce_scatter all_to_all broadcast reduce sendrecv gather\n" \
	"    scatter\n"

#define NCCL_HELP \
	"  --op OP                 the collective (default all_reduce); nccl-tests' names\n" \
	"                          such as alltoall are accepted too\n" \
	"  -b MIN, -e MAX          the smallest and largest size, with nccl-tests' suffixes\n" \
	"                          (8, 256K, 64M, 8G; powers of 2); default -b 8 -e 8G\n" \
	"  -f FACTOR               multiply the size by FACTOR each row (default 2)\n" \
	"  -i STEP                 or add STEP bytes each row\n" \
	"  --gpus N, -n N          the first N GPUs of the cluster (default: all of them)\n" \
	"  --algo ALGO             force the algorithm (default auto: NCCL's choice)\n" \
	"  --proto PROTO           force the protocol as NCCL_PROTO does: LL, LL128 or\n" \
	"                          Simple (default auto: NCCL's choice)\n" \
	"  -g GPUS_PER_THREAD      nccl-tests' -g: one thread launches that many kernels\n" \
	"  --root R                the root rank of broadcast, reduce, gather and scatter\n" \
	"                          (default 0)\n" \
	"  --ps-servers N          parameter servers of --algo ps (default: the scenario's)\n" \
	"  --format text|json      nccl-tests' columns (default), or a JSON array\n" \
	"  --set KEY=VALUE         override a scenario key by its dotted path (repeatable)\n" \
	"  --max-memory SIZE       refuse a collective whose simulation needs more memory\n" \
	"                          (default run.max_memory, else 4GiB)\n" \
	"  -q, --quiet             print no warnings about the scenario\n" \
	"  -h, --help              this help\n"

#define ELEM_BYTES 4.0   /* nccl-tests' default type: float */

typedef struct nccl_args {
	const char *path;
	const char **sets;
	int nsets;
	int op, algo, proto, gpus, per_thread, root, ps_servers;
	double min_b, max_b, factor, step_b;
	double max_memory_bytes;     /* --max-memory; 0 = run.max_memory or the default */
	bool json, quiet;
} nccl_args;

/* Why a requested algorithm cannot run the collective on these GPUs (the
 * conditions coll_pick checks, in words), or "" when it is another reason. */
static const char *algo_why(coll_algo al, const scn_cluster *c, const coll_req *req)
{
	bool reduce = req->op == COLL_ALL_REDUCE;
	bool nodes = req->n > c->gpus_per_node;
	switch (al) {
	case ALGO_COLLNET:
		if (!c->fabric.sharp || c->nic.transport != TRANSPORT_RDMA)
			return ": CollNet needs switches that reduce (cluster.fabric.sharp: true, "
			       "over transport: rdma)";
		return !nodes ? ": CollNet reduces in the network, between nodes" : "";
	case ALGO_NVLS:
	case ALGO_NVLS_TREE:
		if (c->intra.kind != INTRA_NVSWITCH || c->gpu.nvls_eff <= 0)
			return ": NVLS needs NVSwitches that reduce (NVLink SHARP: an NVSwitch node of "
			       "H100 or later)";
		if (al == ALGO_NVLS && nodes)
			return ": NVLS runs inside one node; across nodes NCCL runs nvlstree";
		if (al == ALGO_NVLS_TREE && !nodes)
			return ": nvlstree joins nodes; inside one node NCCL runs nvls";
		return "";
	case ALGO_TREE:
		return !reduce ? ": NCCL's tree runs all_reduce only" : "";
	default:
		return "";
	}
}

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "trainsim nccl: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", NCCL_USAGE);
	return 2;
}

static int parse_int(const char *v, int lo, int *out)
{
	char *end;
	long x = v ? strtol(v, &end, 10) : 0;
	if (!v || !*v || *end || x < lo || x > 1 << 24)
		return -1;
	*out = (int)x;
	return 0;
}

static int parse_algo(const char *v)
{
	for (int a = 0; a < ALGO__N; a++)
		if (!strcmp(v, coll_algo_name((coll_algo)a)))
			return a;
	return -1;
}

/* One option at argv[*i]; 0 or an exit status. */
static int parse_opt(int argc, char **argv, int *i, nccl_args *a)
{
	const char *o = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	char err[160];
	(*i)++;
	if (!strcmp(o, "--op")) {
		if (!v || (a->op = coll_op_parse(v)) < 0)
			return usage("unknown --op '%s'", v ? v : "");
	} else if (!strcmp(o, "-b") || !strcmp(o, "-e") || !strcmp(o, "-i")) {
		double *dst = o[1] == 'b' ? &a->min_b : o[1] == 'e' ? &a->max_b : &a->step_b;
		if (!v || unit_parse_nccl_size(v, dst, err, sizeof err))
			return usage("%s", v ? err : "a size is missing, as in -b 8 -e 8G");
	} else if (!strcmp(o, "-f")) {
		char *end;
		a->factor = v ? strtod(v, &end) : 0;
		if (!v || *end || !(a->factor > 1) || !isfinite(a->factor))
			return usage("-f takes a factor above 1, as in -f 2%s", "");
	} else if (!strcmp(o, "--gpus") || !strcmp(o, "-n")) {
		if (parse_int(v, 1, &a->gpus))
			return usage("--gpus takes a GPU count, as in --gpus 8%s", "");
	} else if (!strcmp(o, "-g")) {
		if (parse_int(v, 1, &a->per_thread))
			return usage("-g takes GPUs per thread, as in -g 8%s", "");
	} else if (!strcmp(o, "--root")) {
		if (parse_int(v, 0, &a->root))
			return usage("--root takes a rank index, as in --root 0%s", "");
	} else if (!strcmp(o, "--ps-servers")) {
		if (parse_int(v, 1, &a->ps_servers))
			return usage("--ps-servers takes a count, as in --ps-servers 2%s", "");
	} else if (!strcmp(o, "--algo")) {
		if (!v || (a->algo = parse_algo(v)) < 0)
			return usage("--algo takes auto, ring, tree, hierarchical, ps, nvls, nvlstree or collnet "
			             "(got '%s')",
			             v ? v : "");
	} else if (!strcmp(o, "--proto")) {
		if (!v || (strcasecmp(v, "auto") && (a->proto = coll_proto_parse(v)) < 0))
			return usage("--proto takes auto, LL, LL128 or Simple (got '%s')", v ? v : "");
		if (!strcasecmp(v, "auto"))
			a->proto = COLL_PROTO_AUTO;
	} else if (!strcmp(o, "--format")) {
		if (!v || (strcmp(v, "text") && strcmp(v, "json")))
			return usage("--format takes text or json%s", "");
		a->json = !strcmp(v, "json");
	} else if (!strcmp(o, "--max-memory")) {
		if (!v || unit_parse(v, UNIT_BYTES, &a->max_memory_bytes, err, sizeof err) ||
		    !(a->max_memory_bytes > 0))
			return usage("--max-memory needs a size, as in --max-memory 16GiB%s", "");
	} else if (!strcmp(o, "--set")) {
		if (!v || !strchr(v, '='))
			return usage("--set needs KEY=VALUE, as in --set %s", "cluster.nodes=4");
		a->sets[a->nsets++] = v;
	} else {
		(*i)--;
		if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) {
			a->quiet = true;
			return 0;
		}
		static const char *const opts[] = {"--op", "--gpus", "--algo", "--proto", "--root",
			"--ps-servers",
			"--format", "--max-memory", "--set", "--quiet", "--help"};
		const char *near = scn_nearest_name(o, strlen(o), opts,
		                                    (int)(sizeof opts / sizeof opts[0]));
		char what[160];
		snprintf(what, sizeof what, "unknown option '%%s'%s%s%s", near ? "; did you mean '" : "",
		         near ? near : "", near ? "'?" : "");
		return usage(what, o);
	}
	return 0;
}

static int parse_args(int argc, char **argv, nccl_args *a)
{
	*a = (nccl_args){.op = COLL_ALL_REDUCE, .algo = ALGO_AUTO, .per_thread = 1,
	                 .root = -1, .ps_servers = 0, .min_b = 8, .max_b = 8589934592.0, .factor = 2};
	a->sets = calloc((size_t)argc + 1, sizeof *a->sets);
	if (!a->sets)
		return 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(NCCL_USAGE NCCL_HELP, stdout);
			return -1;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			int rc = parse_opt(argc, argv, &i, a);
			if (rc)
				return rc;
		} else if (!a->path) {
			a->path = argv[i];
		} else {
			return usage("one scenario at a time (got a second: '%s')", argv[i]);
		}
	}
	if (!a->path)
		return usage("no scenario given%s", "");
	if (a->max_b < a->min_b)
		return usage("-e must not be below -b%s", "");
	/* sizes stay exact below 2^50 bytes (a double's step to the next size, and
	 * the element count, would not be above 2^53) */
	if (a->max_b > NCCL_MAX_BYTES)
		return usage("-e: at most 1P (2^50 bytes) a collective%s", "");
	if (a->step_b <= 0 && !(a->min_b > 0))
		return usage("-b 0 with -f would stay at 0 bytes: start at 1 byte or more (-b 8), "
		             "or step by bytes (-i 1M)%s", "");
	/* nccl-tests prints every size: refuse a table nobody could read */
	double rows = a->step_b > 0 ? (a->max_b - a->min_b) / a->step_b + 1
	                            : log(a->max_b / a->min_b) / log(a->factor) + 1;
	if (rows > NCCL_MAX_ROWS) {
		char why[160];
		snprintf(why, sizeof why, "these -b, -e and -%s would print %.3g sizes; take a larger "
		         "step (at most %d sizes)", a->step_b > 0 ? "i" : "f", rows, NCCL_MAX_ROWS);
		return usage("%s", why);
	}
	return 0;
}

/* The ranks: the first N GPUs, or for the point-to-point test GPU 0 and the
 * first GPU of the next node. Fills req; returns 0 or an exit status. */
static int pick_ranks(const nccl_args *a, const scenario *s, int *ranks, coll_req *req)
{
	int total = scn_gpus(s), gpn = s->cluster.gpus_per_node;
	/* --ps-servers, else the scenario's grad_reduce.ps_servers (one per node
	 * by default), as a training step with algorithm: ps would run it */
	int per = gpn > 0 ? gpn : 1;
	int spanned = a->gpus > 0 ? (a->gpus + per - 1) / per : s->cluster.nodes;
	int ps = s->training.grad_reduce.ps_servers > 0 ? s->training.grad_reduce.ps_servers
	       : s->cluster.nodes;
	if (ps > spanned)
		ps = spanned;   /* --gpus N: one per node of the N GPUs at most */
	if (a->ps_servers > 0)
		ps = a->ps_servers;
	*req = (coll_req){.op = (coll_op)a->op, .algo = (coll_algo)a->algo, .ranks = ranks,
	                  .root = a->root < 0 ? 0 : a->root, .mult = 1, .ps_servers = ps,
	                  .proto = (coll_proto)a->proto};
	if (a->op == COLL_SENDRECV && !a->gpus) {
		if (total < 2) {
			fprintf(stderr, "%s: sendrecv needs two GPUs, the scenario has one\n", a->path);
			return 1;
		}
		ranks[0] = 0;
		ranks[1] = s->cluster.nodes > 1 ? gpn : 1;
		req->n = 2;
		req->root = 1;
		return 0;
	}
	req->n = a->gpus ? a->gpus : total;
	if (req->n > total) {
		fprintf(stderr, "%s: --gpus %d but the scenario has %d GPUs\n", a->path, req->n, total);
		return 1;
	}
	for (int i = 0; i < req->n; i++)
		ranks[i] = i;
	if (a->op == COLL_SENDRECV)
		req->root = -1;       /* ring shift, as sendrecv_perf */
	if (req->root >= req->n) {
		fprintf(stderr, "%s: --root %d is not one of the %d ranks\n", a->path, req->root, req->n);
		return 1;
	}
	return 0;
}

static bool op_total_array(int op)
{
	return op == COLL_ALL_GATHER || op == COLL_REDUCE_SCATTER || op == COLL_ALL_TO_ALL ||
	       op == COLL_GATHER || op == COLL_SCATTER;
}

static void print_header(const nccl_args *a, const scenario *s, const coll_req *req)
{
	printf("# trainsim nccl (simulated nccl-tests): %s, %d GPUs (%s), %s\n", s->name, req->n,
	       s->cluster.gpu.name, coll_op_name(req->op));
	printf("# nThread 1 nGpus %d minBytes %.0f maxBytes %.0f step: %g(%s) warmup iters: 0 "
	       "iters: 1 validation: 0\n#\n# Using devices\n", a->per_thread, a->min_b, a->max_b,
	       a->step_b > 0 ? a->step_b : a->factor, a->step_b > 0 ? "bytes" : "factor");
	int shown = req->n <= 16 ? req->n : 8;
	for (int i = 0; i < shown; i++)
		printf("#  Rank %3d Group  0 on node %4d device %2d %s\n", i,
		       req->ranks[i] / s->cluster.gpus_per_node,
		       req->ranks[i] % s->cluster.gpus_per_node, s->cluster.gpu.name);
	if (shown < req->n)
		printf("#  ... %d more ranks\n", req->n - shown);
	printf("#\n#%12s %13s %9s %7s %7s %9s %7s %7s %6s  %s\n", "size", "count", "type", "redop",
	       "root", "time", "algbw", "busbw", "#wrong", "algorithm");
	printf("#%12s %13s %9s %7s %7s %9s %7s %7s %6s\n", "(B)", "(elements)", "", "", "", "(us)",
	       "(GB/s)", "(GB/s)", "");
}

static int run_sizes(const nccl_args *a, const scenario *s, coll_req *req, coll_ctx *cc)
{
	json *j = a->json ? json_new(stdout, false) : NULL;
	if (a->json && !j)
		return 1;
	if (j)
		json_arr_begin(j);
	else
		print_header(a, s, req);
	bool rooted = req->op == COLL_BROADCAST || req->op == COLL_REDUCE ||
	              req->op == COLL_GATHER || req->op == COLL_SCATTER;
	bool reduces = req->op == COLL_ALL_REDUCE || req->op == COLL_REDUCE ||
	               req->op == COLL_REDUCE_SCATTER;
	double align = op_total_array(req->op) ? ELEM_BYTES * req->n : ELEM_BYTES;
	double sum_busbw = 0, last_algbw = 0;
	int nsizes = 0, rc = 0;
	char err[512], algo[48];
	for (double b = a->min_b, nb; b <= a->max_b && !rc; b = nb) {
		nb = a->step_b > 0 ? b + a->step_b : b * a->factor;
		if (!(nb > b))
			nb = a->max_b + 1;   /* the last size: a step below b's precision */
		req->bytes = (double)(long long)(b / align) * align;
		/* -g G: one thread launches G kernels per iteration (coll.h) */
		double t = coll_nccl_tests_time(&s->cluster, req, a->per_thread, err, sizeof err);
		if (t < 0) {
			fprintf(stderr, "%s: %s\n", a->path, err);
			rc = 1;
			break;
		}
		double algbw = t > 0 ? req->bytes / t / 1e9 : 0;
		double busbw = algbw * coll_busbw_factor(req->op, req->n);
		coll_describe(cc, req, algo, sizeof algo);
		sum_busbw += busbw;
		last_algbw = algbw;
		nsizes++;
		if (j) {
			json_obj_begin(j);
			json_knum(j, "bytes", req->bytes);
			json_knum(j, "time_us", t * 1e6);
			json_knum(j, "algbw_GBps", algbw);
			json_knum(j, "busbw_GBps", busbw);
			json_kstr(j, "algorithm", algo);
			json_obj_end(j);
		} else {
			printf("%13.0f %13.0f %9s %7s %7d %9.2f %7.2f %7.2f %6s  %s\n", req->bytes,
			       req->bytes / ELEM_BYTES, "float", reduces ? "sum" : "none",
			       rooted ? req->root : -1, t * 1e6, algbw, busbw, "N/A", algo);
		}
	}
	if (j) {
		json_arr_end(j);
		fputc('\n', stdout);
		if (json_free(j))
			rc = 1;
	} else if (!rc) {
		printf("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : %g\n#\n",
		       nsizes ? sum_busbw / nsizes : 0);
		if (req->op == COLL_SENDRECV && req->root > 0)
			printf("# point-to-point GPU %d -> GPU %d: %.2f GB/s = %.1f Gb/s at the largest size\n",
			       req->ranks[0], req->ranks[req->root], last_algbw, last_algbw * 8);
	}
	return rc;
}

int cmd_nccl(int argc, char **argv)
{
	nccl_args a;
	int rc = parse_args(argc, argv, &a);
	if (rc) {
		free(a.sets);
		return rc < 0 ? 0 : rc;
	}
	scenario s;
	int *ranks = NULL;
	sim *sm = NULL;
	flownet *net = NULL;
	cluster *cl = NULL;
	coll_ctx *cc = NULL;
	char err[512] = "";
	if (scn_load_cluster(a.path, a.sets, a.nsets, &s, stderr, a.quiet) != 0) {
		free(a.sets);
		return 1;
	}
	rc = 1;
	ranks = malloc(((size_t)scn_gpus(&s) + 2) * sizeof(int));
	coll_req req;
	if (!ranks) {
		fprintf(stderr, "trainsim nccl: out of memory for %d GPUs\n", scn_gpus(&s));
		goto out;
	}
	if ((rc = pick_ranks(&a, &s, ranks, &req)) != 0)
		goto out;
	rc = 1;
	/* refused before anything big is built: an all_to_all over thousands of
	 * nodes is one flow per node pair and rail */
	double need = 2 * memest_cluster(&s.cluster) +
	              memest_flows(req.algo == ALGO_PS ? memest_ps_flows(req.n, req.ps_servers)
	                           : memest_coll_flows(&s.cluster, req.op, req.n,
	                                               req.n < s.cluster.gpus_per_node
	                                               ? req.n : s.cluster.gpus_per_node));
	char what[96];
	snprintf(what, sizeof what, "%s over %d GPUs", coll_op_name(req.op), req.n);
	if (memest_check(what, need, memest_limit(&s, a.max_memory_bytes), err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s\n", a.path, err);
		goto out;
	}
	/* one cluster for naming the algorithm per size; each size runs alone */
	if (!(sm = sim_new(1, 0)) || !(net = flow_new(sm)) ||
	    !(cl = cluster_build(&s.cluster, net, err, sizeof err)) || !(cc = coll_ctx_new(cl, sm))) {
		fprintf(stderr, "%s: %s\n", a.path, *err ? err : "out of memory");
		goto out;
	}
	if (a.algo != ALGO_AUTO && coll_pick(cc, &req) != (coll_algo)a.algo && !a.quiet)
		fprintf(stderr, "%s: --algo %s cannot run %s here%s; using what NCCL would pick\n",
		        a.path, coll_algo_name((coll_algo)a.algo), coll_op_name(req.op),
		        algo_why((coll_algo)a.algo, &s.cluster, &req));
	if (a.proto != COLL_PROTO_AUTO && !a.quiet) {
		/* the forced protocol where the algorithm runs it; say where not */
		char d[48];
		req.bytes = 1 << 20;
		coll_describe(cc, &req, d, sizeof d);
		const char *p = strchr(d, '/');
		if (p && strcasecmp(p + 1, coll_proto_name((coll_proto)a.proto)))
			fprintf(stderr, "%s: --proto %s cannot run %s here (NCCL runs NVLS and CollNet "
			        "with Simple only); using %s\n", a.path,
			        coll_proto_name((coll_proto)a.proto), coll_op_name(req.op), p + 1);
	}
	rc = run_sizes(&a, &s, &req, cc);
	if (fflush(stdout))
		rc = 1;
out:
	coll_ctx_free(cc);
	cluster_free(cl);
	if (net)
		flow_free(net);
	if (sm)
		sim_free(sm);
	free(ranks);
	free(a.sets);
	scn_release(&s);
	return rc;
}
