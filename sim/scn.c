/* scn.c: the scenario's documented defaults (docs/scenario.md), its release,
 * and scn_load: read the file, apply --set overrides, map and check. Sources:
 * "cm" is ../shared/reference/cost-models.md; UNVERIFIED marks an unchecked default. */
#include <stdlib.h>
#include <string.h>
#include "scn_int.h"

void scn_defaults(scenario *s)
{
	memset(s, 0, sizeof *s); /* also zeroes padding, so that equal scenarios memcmp equal */
	s->schema_version = 1;
	scn_cluster *c = &s->cluster;
	c->nodes = 1;
	c->gpus_per_node = 8;                    /* DGX/HGX nodes */
	c->intra.kind = INTRA_NVSWITCH;          /* bandwidth, latency 0: from the GPU */
	c->nic.count = 8;                        /* = gpus_per_node unless given */
	c->nic.speed_Bps = 200e9 / 8;            /* DGX A100: 8 x 200 Gb/s HDR, 1:1 (cm 1.6, UNVERIFIED there) */
	c->nic.transport = TRANSPORT_RDMA;
	c->fabric.topology = TOPO_SINGLE_SWITCH;
	c->fabric.nodes_per_leaf = 16;
	c->fabric.oversubscription = 1;
	c->fabric.switch_latency_s = 600e-9;    /* SCENARIO.md's example value; UNVERIFIED */
	c->fabric.zones = 1;
	c->fabric.zone_latency_s = SCN_ZONE_LATENCY_S;
	c->fabric.placement = FABRIC_PACKED;    /* consecutive nodes fill a leaf */
	c->fabric.leaves = 0;                   /* spread: ceil(nodes / nodes_per_leaf) */
	c->fabric.background_load = 0;          /* the job alone on its leaf uplinks */
	c->storage.bandwidth_Bps = 100e9;       /* SCENARIO.md's example; UNVERIFIED */
	c->storage.latency_s = 1e-3;            /* idem */
	c->storage.network = STORAGE_NET_FRONTEND;
	c->storage.frontend_Bps = 100e9 / 8;    /* a 100GbE frontend port; UNVERIFIED */
	c->cache.bandwidth_Bps = 8e9;           /* SCENARIO.md; NVMe Gen4 5-7 GB/s per drive (cm 5, UNVERIFIED) */
	c->cache.capacity_bytes = 30e12;        /* DGX H100: 8 x 3.84 TB NVMe; UNVERIFIED */
	c->host_memory_bytes = 1024.0 * 1024 * 1024 * 1024; /* DGX A100: 1 TB of DDR4; UNVERIFIED */
	s->model.vocab = 51200;                 /* GPT-2 BPE padded (Megatron) */
	s->model.experts = 1;                   /* dense */
	s->model.top_k = 1;                     /* 2 when experts > 1 and none is given */
	scn_training *t = &s->training;
	t->precision = PREC_BF16;
	t->micro_batch = 1;
	t->tp = 1;
	t->cp = 1;
	t->ep = 1;
	t->expert_imbalance = 1;                /* a perfectly balanced router */
	t->pp = 1;
	t->schedule = SCHED_1F1B;
	t->virtual_stages = 1;
	t->lora_rank = 16;
	t->recompute = RECOMPUTE_NONE;
	t->placement = PLACE_TP_PP_DP;
	t->pp_scatter_gather = true;
	t->grad_reduce.algorithm = GRAD_ALGO_AUTO;
	t->grad_reduce.bucket_bytes = 25e6;     /* PyTorch DDP's bucket_cap_mb = 25 */
	t->grad_reduce.overlap = true;
	t->grad_reduce.dtype = PREC_FP32;       /* Megatron reduces fp32 main grads */
	t->grad_reduce.compression = COMPRESS_NONE;
	t->grad_reduce.sync = SYNC_SYNC;
	t->data.source = DATA_MEMORY;
	t->data.prefetch = 2;
	t->checkpoint.mode = CKPT_SYNC;
	t->checkpoint.content = CKPT_FULL;
	t->checkpoint.snapshot_overhead_s = SCN_SNAPSHOT_OVERHEAD_S;
	t->checkpoint.local_copies = SCN_LOCAL_COPIES;
	t->failures.restart_s = 15 * 60;
	t->failures.reload = true;
	s->run.steps = 1;
	s->run.seed = 1;
	s->run.variability.straggler_slowdown = 1;
}

void scn_release(scenario *s)
{
	if (!s)
		return;
	free(s->model.custom_layers);
	s->model.custom_layers = NULL;
	s->model.nlayers_custom = 0;
	s->model.custom = false;
}

/* The overrides, as a title or a trace names the run by them. */
static void note_sets(scenario *s, const char *const *sets, int nsets)
{
	size_t cap = sizeof s->sets, n = 0;
	s->sets[0] = '\0';
	for (int i = 0; i < nsets; i++) {
		size_t len = strlen(sets[i]);
		if (n + (n > 0) + len + 4 > cap) {   /* room for " ..." */
			snprintf(s->sets + n, cap - n, "%s...", n ? " " : "");
			return;
		}
		n += (size_t)snprintf(s->sets + n, cap - n, "%s%s", n ? " " : "", sets[i]);
	}
}

static int load(const char *path, const char *const *sets, int nsets, scenario *out, FILE *err,
                bool quiet, bool cluster_only)
{
	int rc = -1;
	scn_defaults(out);
	scn_doc *d = scn_doc_load_file(path, err);
	if (!d)
		return -1;
	for (int i = 0; i < nsets; i++)
		if (scn_doc_set(d, sets[i], err) < 0)
			goto out_free_doc;
	rc = cluster_only ? scn_from_doc_cluster(d, out, err, quiet)
	                  : scn_from_doc(d, out, err, quiet);
	if (rc == 0)
		note_sets(out, sets, nsets);
out_free_doc:
	scn_doc_free(d);
	return rc;
}

int scn_load(const char *path, const char *const *sets, int nsets, scenario *out, FILE *err,
             bool quiet)
{
	return load(path, sets, nsets, out, err, quiet, false);
}

int scn_load_cluster(const char *path, const char *const *sets, int nsets, scenario *out,
                     FILE *err, bool quiet)
{
	return load(path, sets, nsets, out, err, quiet, true);
}

/* The first line of a loader message, from after its "name:line:col: ". */
static void first_message(const char *text, char *err, size_t errlen)
{
	const char *m = text;
	for (int colons = 0; colons < 3 && *m && *m != '\n'; m++)
		if (*m == ':')
			colons++;
	while (*m == ' ')
		m++;
	if (!*m || *m == '\n')
		m = text;   /* not positioned: the whole line */
	size_t len = strcspn(m, "\n");
	snprintf(err, errlen, "%.*s", (int)len, m);
}

int scn_check_built(const scenario *s, char *err, size_t errlen)
{
	char *yaml = NULL, *msg = NULL;
	size_t ylen = 0, mlen = 0;
	FILE *y = open_memstream(&yaml, &ylen);
	FILE *m = open_memstream(&msg, &mlen);
	int rc = -1;
	if (!y || !m || scn_write_yaml(s, y) < 0 || fflush(y)) {
		snprintf(err, errlen, "cannot write the scenario as YAML");
		goto out;
	}
	scn_doc *d = scn_doc_load_string(yaml, ylen, "built", m);
	scenario t;
	rc = d ? scn_from_doc(d, &t, m, true) : -1;
	if (d) {
		scn_release(&t);
		scn_doc_free(d);
	}
	fflush(m);
	if (rc < 0)
		first_message(msg && *msg ? msg : "the written scenario does not load", err, errlen);
out:
	if (y)
		fclose(y);
	if (m)
		fclose(m);
	free(yaml);
	free(msg);
	return rc;
}
