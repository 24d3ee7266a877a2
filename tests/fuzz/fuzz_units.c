/* fuzz_units.c: libFuzzer target for the unit parsers and --set. The input is
 * parsed as a quantity of every kind and as an nccl-tests size (accepted:
 * finite; refused: a message), formatted back, and applied as a --set
 * assignment to a fixed scenario that must then map or refuse with a message. */
#include <math.h>
#include <string.h>
#include "fuzz.h"
#include "scn_int.h"

#define NAME "base.yaml"
#define MAX_INPUT 4096   /* longer assignments test nothing new, only slow */

/* A scenario that sets most sections, so that --set replaces as well as adds. */
static const char base_yaml[] =
	"schema_version: 1\n"
	"name: fuzz base\n"
	"cluster:\n"
	"  nodes: 16\n"
	"  gpus_per_node: 8\n"
	"  gpu: H100-SXM5-80GB\n"
	"  intra_node: nvswitch\n"
	"  nic: {count: 8, speed: 400Gbps, transport: rdma}\n"
	"  fabric: {topology: fat-tree, nodes_per_leaf: 4, oversubscription: 2, switch_latency: 600ns}\n"
	"  storage: {bandwidth: 50GB/s, latency: 2ms, per_client: 2GB/s, network: frontend, frontend: 100Gbps}\n"
	"  local_cache: {bandwidth: 6GB/s, capacity: 15TB}\n"
	"  host_memory: 2TB\n"
	"model:\n"
	"  layers: 32\n"
	"  hidden: 4096\n"
	"  heads: 32\n"
	"  kv_heads: 8\n"
	"  seq_len: 4096\n"
	"  vocab: 128256\n"
	"  gated_mlp: true\n"
	"training:\n"
	"  precision: bf16\n"
	"  global_batch: 256\n"
	"  micro_batch: 1\n"
	"  tp: 4\n"
	"  pp: 2\n"
	"  schedule: 1f1b\n"
	"  recompute: selective\n"
	"  zero: 1\n"
	"  grad_reduce: {algorithm: ring, bucket: 25MB, overlap: true}\n"
	"  data: {source: local_cache, sample_bytes: 16KiB, prefetch: 2}\n"
	"  checkpoint: {every: 1000, mode: async, content: full}\n"
	"  failures: {gpu_mtbf: 50000h, restart: 15min}\n"
	"run:\n"
	"  steps: 2\n"
	"  seed: 7\n"
	"  variability: {compute_cv: 0.02, link_cv: 0.01}\n";

static scn_doc *base_doc(void)
{
	static scn_doc *doc;
	if (!doc) {
		fuzz_cap c;
		fuzz_cap_open(&c);
		doc = scn_doc_load_string(base_yaml, sizeof base_yaml - 1, NAME, c.f);
		char *msg = fuzz_cap_close(&c);
		FUZZ_ASSERT(doc != NULL, "the base scenario does not load:\n%s", msg);
		free(msg);
	}
	return doc;
}

static void parse_every_kind(const char *s)
{
	char err[256], buf[64];
	double v;
	for (int k = UNIT_BYTES; k <= UNIT_FLOPS; k++) {
		err[0] = '\0';
		if (unit_parse(s, (unit_kind)k, &v, err, sizeof err) == 0) {
			FUZZ_ASSERT(isfinite(v), "unit_parse('%s', %d) accepted %g", s, k, v);
			unit_fmt(buf, sizeof buf, v, (unit_kind)k);
			FUZZ_ASSERT(memchr(buf, '\0', sizeof buf) != NULL, "unit_fmt overflow");
		} else {
			FUZZ_ASSERT(err[0] != '\0', "unit_parse('%s', %d) refused silently", s, k);
		}
	}
	err[0] = '\0';
	if (unit_parse_nccl_size(s, &v, err, sizeof err) == 0)
		FUZZ_ASSERT(isfinite(v) && v >= 0, "unit_parse_nccl_size('%s') accepted %g", s, v);
	else
		FUZZ_ASSERT(err[0] != '\0', "unit_parse_nccl_size('%s') refused silently", s);
}

/* unit_fmt on the input's first 8 bytes as a double: NaN, inf, subnormals. */
static void format_raw(const uint8_t *data, size_t size)
{
	double v;
	char buf[16];
	if (size < sizeof v)
		return;
	memcpy(&v, data, sizeof v);
	for (int k = UNIT_BYTES; k <= UNIT_FLOPS; k++) {
		unit_fmt(buf, sizeof buf, v, (unit_kind)k);
		FUZZ_ASSERT(memchr(buf, '\0', sizeof buf) != NULL, "unit_fmt overflow");
	}
}

static void apply_set(const char *assignment)
{
	fuzz_cap c;
	scenario s;
	scn_doc *d = scn_doc_clone(base_doc());
	FUZZ_ASSERT(d != NULL, "scn_doc_clone failed");
	fuzz_cap_open(&c);
	int rc = scn_doc_set(d, assignment, c.f);
	char *msg = fuzz_cap_close(&c);
	if (rc < 0) {
		fuzz_check_message(msg, NAME, 1);
		FUZZ_ASSERT(!strncmp(msg, "--set: ", 7), "--set refused without '--set: ': '%s'", msg);
		free(msg);
		scn_doc_free(d);
		return;
	}
	free(msg);
	fuzz_cap_open(&c);
	rc = scn_from_doc(d, &s, c.f, false);
	msg = fuzz_cap_close(&c);
	if (rc < 0) {
		fuzz_check_message(msg, NAME, 1);
	} else {
		fuzz_check_warnings(msg, NAME, 1);
		fuzz_round_trip(&s);
	}
	free(msg);
	scn_release(&s);
	scn_doc_free(d);
}

int fuzz_units_input(const uint8_t *data, size_t size)
{
	if (size > MAX_INPUT)
		return 0;
	char *s = malloc(size + 1); /* exact size: ASan sees a read past the NUL */
	FUZZ_ASSERT(s != NULL, "out of memory");
	memcpy(s, data, size);
	s[size] = '\0';
	parse_every_kind(s);
	format_raw(data, size);
	apply_set(s);
	free(s);
	return 0;
}

#ifndef FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_units_input(data, size);
}
#endif
