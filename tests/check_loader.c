/* check_loader.c: the scenario loader. Every tests/good and scenarios/ file
 * loads and round-trips through scn_write_yaml to an identical struct; every
 * tests/bad file fails with the exact "file:line:col: message" first line
 * listed in tests/bad/EXPECTED; the tests/good files together set every key
 * of the schema, and docs/scenario.md lists each in its section; --set
 * overrides; defaults; limits. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "scn_int.h"

static const char *srcdir(void)
{
	const char *d = getenv("top_srcdir");
	return d && *d ? d : ".";
}

/* Runs fn with a memory stream as its error stream; returns what was written
 * (caller frees). */
typedef struct captured {
	char *text;
	size_t len;
	FILE *f;
} captured;

static void cap_open(captured *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	ck_assert_ptr_nonnull(c->f);
}

static char *cap_close(captured *c)
{
	fclose(c->f);
	return c->text;
}

static int load_path(const char *path, const char *const *sets, int n, scenario *s, char **msg)
{
	captured c;
	cap_open(&c);
	int rc = scn_load(path, sets, n, s, c.f, false);
	char *t = cap_close(&c);
	if (msg)
		*msg = t;
	else
		free(t);
	return rc;
}

static int load_text(const char *text, const char *const *sets, int n, scenario *s, char **msg)
{
	captured c;
	cap_open(&c);
	int rc = -1;
	scn_doc *d = scn_doc_load_string(text, strlen(text), "t.yaml", c.f);
	if (d) {
		rc = 0;
		for (int i = 0; i < n && rc == 0; i++)
			rc = scn_doc_set(d, sets[i], c.f);
		if (rc == 0)
			rc = scn_from_doc(d, s, c.f, false);
		scn_doc_free(d);
	}
	char *t = cap_close(&c);
	if (msg)
		*msg = t;
	else
		free(t);
	return rc;
}

/* Field-wise first (to name a difference), then byte-wise: memcmp catches a
 * field that the tables forgot (neither written nor compared). */
static void assert_same(const scenario *a, const scenario *b, const char *what)
{
	char diff[256] = "";
	ck_assert_msg(scn__section_equal(&scn__root, a, b, diff, sizeof diff, ""),
	              "%s: round trip changed %s", what, diff);
	scenario x = *a, y = *b;
	ck_assert_int_eq(x.model.nlayers_custom, y.model.nlayers_custom);
	if (x.model.nlayers_custom)
		ck_assert(!memcmp(x.model.custom_layers, y.model.custom_layers,
		                  sizeof(scn_layer) * (size_t)x.model.nlayers_custom));
	x.model.custom_layers = y.model.custom_layers = NULL;
	memcpy(y.path, x.path, sizeof x.path);
	ck_assert_msg(!memcmp(&x, &y, sizeof x), "%s: structs differ byte-wise", what);
}

static void round_trip(const char *path)
{
	scenario a, b;
	char *msg, *yaml = NULL;
	size_t len = 0;
	ck_assert_msg(load_path(path, NULL, 0, &a, &msg) == 0, "%s does not load:\n%s", path, msg);
	free(msg);
	FILE *f = open_memstream(&yaml, &len);
	ck_assert_int_eq(scn_write_yaml(&a, f), 0);
	fclose(f);
	ck_assert_msg(load_text(yaml, NULL, 0, &b, &msg) == 0, "%s: written form does not load:"
	              "\n%s\n%s", path, msg, yaml);
	free(msg);
	assert_same(&a, &b, path);
	/* writing again gives the same text: the normal form is a fixed point */
	char *yaml2 = NULL;
	f = open_memstream(&yaml2, &len);
	scn_write_yaml(&b, f);
	fclose(f);
	ck_assert_str_eq(yaml, yaml2);
	free(yaml);
	free(yaml2);
	scn_release(&a);
	scn_release(&b);
}

/* Round-trips every .yaml under srcdir/sub, subdirectories included. */
static int round_trip_dir(const char *sub)
{
	char dir[512], path[1024];
	snprintf(dir, sizeof dir, "%s/%s", srcdir(), sub);
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
			n += round_trip_dir(path);
			continue;
		}
		if (l < 6 || strcmp(e->d_name + l - 5, ".yaml"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		round_trip(path);
		n++;
	}
	closedir(d);
	return n;
}

START_TEST(good_files_round_trip)
{
	ck_assert_int_ge(round_trip_dir("tests/good"), 9);
}
END_TEST

/* Every key of the schema is set in some tests/good file, so that the round
 * trip above exercises its reading and writing (a docs audit found 28 keys
 * no file set). Appends the dotted paths no document holds to `missing`. */
static void keys_unset(const scn_section *sec, const char *prefix, scn_doc *const *docs, int nd,
		       char *missing, size_t cap)
{
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		char path[256];
		snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", f->key);
		if (f->type == F_SECTION) {
			keys_unset(f->sub, path, docs, nd, missing, cap);
			continue;
		}
		bool set = false;
		for (int k = 0; k < nd && !set; k++)
			set = scn__doc_path(docs[k], path) != NULL;
		if (!set && strlen(missing) + strlen(path) + 2 < cap) {
			strcat(missing, " ");
			strcat(missing, path);
		}
	}
}

START_TEST(good_files_set_every_key)
{
	char dir[512], path[1024];
	snprintf(dir, sizeof dir, "%s/tests/good", srcdir());
	DIR *d = opendir(dir);
	ck_assert_msg(d != NULL, "cannot open %s", dir);
	scn_doc *docs[64];
	int nd = 0;
	for (struct dirent *e; (e = readdir(d)) && nd < 64;) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".yaml"))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		docs[nd] = scn_doc_load_file(path, stderr);
		ck_assert_msg(docs[nd] != NULL, "%s does not parse", path);
		nd++;
	}
	closedir(d);
	char missing[4096] = "";
	keys_unset(&scn__root, "", docs, nd, missing, sizeof missing);
	for (int k = 0; k < nd; k++)
		scn_doc_free(docs[k]);
	ck_assert_msg(missing[0] == '\0', "keys no tests/good file sets:%s", missing);
}
END_TEST

/* The text of docs/scenario.md from the heading that names a section ("##
 * `training`", "### `training.data`"; "## Top level" for the root) to the
 * next heading; NULL when there is none. Points into doc. */
static const char *doc_section(const char *doc, const char *path, size_t *len)
{
	char want[160];
	if (*path)
		snprintf(want, sizeof want, "# `%s`\n", path);
	else
		snprintf(want, sizeof want, "## Top level\n");
	const char *h = strstr(doc, want);
	if (!h)
		return NULL;
	const char *end = strstr(h + strlen(want), "\n#");
	*len = end ? (size_t)(end - h) : strlen(h);
	return h;
}

/* Appends to `missing` every key of the schema that its section's table in
 * docs/scenario.md does not list ("| `key` |"): users read the keys there. */
static void keys_undocumented(const scn_section *sec, const char *prefix, const char *doc,
			      char *missing, size_t cap)
{
	size_t len = 0;
	const char *text = doc_section(doc, prefix, &len);
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		char path[256], row[128];
		snprintf(path, sizeof path, "%s%s%s", prefix, *prefix ? "." : "", f->key);
		if (f->type == F_SECTION) {
			keys_undocumented(f->sub, path, doc, missing, cap);
			continue;
		}
		/* a row of its own, or one of a row's keys ("| `fp32`, `tf32` |") */
		static const char *const forms[] = {"| `%s` |", "| `%s`, ", ", `%s`, ", ", `%s` |"};
		bool listed = false;
		for (size_t k = 0; k < 4 && text && !listed; k++) {
			snprintf(row, sizeof row, forms[k], f->key);
			const char *hit = strstr(text, row);
			listed = hit && hit < text + len;
		}
		if (!listed && strlen(missing) + strlen(path) + 2 < cap) {
			strcat(missing, " ");
			strcat(missing, path);
		}
	}
}

START_TEST(scenario_md_lists_every_key)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/docs/scenario.md", srcdir());
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	static char doc[1 << 18];
	size_t n = fread(doc, 1, sizeof doc - 1, f);
	fclose(f);
	ck_assert_uint_lt(n, sizeof doc - 1);
	doc[n] = '\0';
	char missing[4096] = "";
	keys_undocumented(&scn__root, "", doc, missing, sizeof missing);
	ck_assert_msg(missing[0] == '\0', "keys docs/scenario.md does not list in their section:%s",
		      missing);
}
END_TEST

START_TEST(shipped_scenarios_round_trip)
{
	ck_assert_int_ge(round_trip_dir("scenarios"), 11);  /* teach/ included */
}
END_TEST

/* tests/bad/EXPECTED: file<TAB>line:col<TAB>substring of the first message.
 * Each line is checked, and every .yaml of the directory must be listed. */
START_TEST(bad_corpus)
{
	char path[1024], line[1024];
	snprintf(path, sizeof path, "%s/tests/bad/EXPECTED", srcdir());
	FILE *f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	int n = 0;
	char listed[8192] = "";
	while (fgets(line, sizeof line, f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, "\n")] = '\0';
		char *file = strtok(line, "\t"), *lc = strtok(NULL, "\t"), *want = strtok(NULL, "");
		ck_assert_msg(file && lc && want, "bad EXPECTED line %d", n + 1);
		snprintf(path, sizeof path, "%s/tests/bad/%s", srcdir(), file);
		strncat(listed, file, sizeof listed - strlen(listed) - 2);
		strcat(listed, "\n");
		scenario s;
		char *msg;
		ck_assert_msg(load_path(path, NULL, 0, &s, &msg) == -1, "%s loaded", file);
		char prefix[1100];
		snprintf(prefix, sizeof prefix, "%s:%s: ", path, lc);
		char *nl = strchr(msg, '\n');
		ck_assert_msg(nl != NULL, "%s: no message", file);
		*nl = '\0';
		ck_assert_msg(!strncmp(msg, prefix, strlen(prefix)), "%s: first line '%s' does not "
		              "start with '%s'", file, msg, prefix);
		ck_assert_msg(strstr(msg + strlen(prefix), want), "%s: '%s' lacks '%s'", file, msg,
		              want);
		free(msg);
		n++;
	}
	fclose(f);
	ck_assert_int_ge(n, 40);
	snprintf(path, sizeof path, "%s/tests/bad", srcdir());
	DIR *d = opendir(path);
	ck_assert_ptr_nonnull(d);
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l < 6 || strcmp(e->d_name + l - 5, ".yaml"))
			continue;
		char key[300];
		snprintf(key, sizeof key, "%s\n", e->d_name);
		ck_assert_msg(strstr(listed, key), "%s is not in tests/bad/EXPECTED", e->d_name);
	}
	closedir(d);
}
END_TEST

static const char base_yaml[] =
	"cluster: {nodes: 4, gpu: A100-SXM4-80GB}\n"
	"model: {layers: 24, hidden: 2048, heads: 16, seq_len: 2048}\n"
	"training:\n  global_batch: 64\n";

START_TEST(defaults_and_derived)
{
	scenario s;
	ck_assert_int_eq(load_text(base_yaml, NULL, 0, &s, NULL), 0);
	ck_assert_int_eq(s.schema_version, 1);
	ck_assert_int_eq(s.cluster.gpus_per_node, 8);
	ck_assert_str_eq(s.cluster.gpu.name, "A100-SXM4-80GB");
	ck_assert_double_eq(s.cluster.gpu.peak_flops[PREC_BF16], 312e12);
	ck_assert_int_eq(s.cluster.intra.kind, INTRA_NVSWITCH);
	ck_assert_int_eq(s.cluster.nic.count, 8);           /* = gpus_per_node */
	ck_assert_double_eq(s.cluster.nic.speed_Bps, 25e9);  /* 200Gbps */
	ck_assert_int_eq(s.cluster.nic.transport, TRANSPORT_RDMA);
	ck_assert_int_eq(s.cluster.fabric.topology, TOPO_SINGLE_SWITCH);
	ck_assert_double_eq(s.cluster.fabric.oversubscription, 1);
	ck_assert_double_eq_tol(s.cluster.fabric.switch_latency_s, 600e-9, 1e-20);
	ck_assert_double_eq(s.cluster.storage.bandwidth_Bps, 100e9);
	ck_assert_double_eq(s.cluster.storage.latency_s, 1e-3);
	ck_assert_double_eq(s.cluster.storage.frontend_Bps, 12.5e9);
	ck_assert(!s.cluster.cache.present);
	ck_assert_int_eq(s.model.kv_heads, 16);
	ck_assert_int_eq(s.model.ffn_hidden, 4 * 2048);
	ck_assert_int_eq(s.model.vocab, 51200);
	ck_assert_int_eq(s.training.precision, PREC_BF16);
	ck_assert_int_eq(s.training.micro_batch, 1);
	ck_assert_int_eq(s.training.tp, 1);
	ck_assert_int_eq(s.training.pp, 1);
	ck_assert_int_eq(s.training.dp, 32);                 /* 32 GPUs / (1*1) */
	ck_assert_int_eq(s.training.schedule, SCHED_1F1B);
	ck_assert_int_eq(s.training.virtual_stages, 1);
	ck_assert_int_eq(s.training.recompute, RECOMPUTE_NONE);
	ck_assert_int_eq(s.training.zero, 0);
	ck_assert_int_eq(s.training.grad_reduce.algorithm, GRAD_ALGO_AUTO);
	ck_assert_double_eq(s.training.grad_reduce.bucket_bytes, 25e6);
	ck_assert(s.training.grad_reduce.overlap);
	ck_assert_int_eq(s.training.grad_reduce.dtype, PREC_FP32);
	ck_assert_int_eq(s.training.grad_reduce.compression, COMPRESS_NONE);
	ck_assert_int_eq(s.training.grad_reduce.ps_servers, 4);
	ck_assert_int_eq(s.training.data.source, DATA_MEMORY);
	ck_assert_double_eq(s.training.data.sample_bytes, 2048 * 2);
	ck_assert_int_eq(s.training.checkpoint.every, 0);
	ck_assert_double_eq(s.training.failures.restart_s, 900);
	ck_assert_int_eq(s.run.steps, 1);
	ck_assert_uint_eq(s.run.seed, 1);
	ck_assert_double_eq(s.run.variability.straggler_slowdown, 1);
	ck_assert_int_eq(s.n_warnings, 0);
	scn_release(&s);
}
END_TEST

START_TEST(default_yaml_values)
{
	char path[1024];
	scenario s;
	snprintf(path, sizeof path, "%s/scenarios/default.yaml", srcdir());
	ck_assert_int_eq(load_path(path, NULL, 0, &s, NULL), 0);
	ck_assert_int_eq(scn_gpus(&s), 32);
	ck_assert_int_eq(s.cluster.nic.count, 1);
	ck_assert_double_eq(s.cluster.nic.speed_Bps, 12.5e9);
	ck_assert_int_eq(s.training.grad_reduce.dtype, PREC_FP16);
	ck_assert_int_eq(s.training.dp, 32);
	/* ~100e9 parameters: 12 L h^2 + V h */
	double p = 12.0 * s.model.layers * s.model.hidden * s.model.hidden +
	           (double)s.model.vocab * s.model.hidden;
	ck_assert_double_eq_tol(p, 100e9, 2e9);
	scn_release(&s);
	const char *ten[] = {"cluster.nic.speed=10GbE"};
	ck_assert_int_eq(load_path(path, ten, 1, &s, NULL), 0);
	ck_assert_double_eq(s.cluster.nic.speed_Bps, 1.25e9);
	scn_release(&s);
}
END_TEST

START_TEST(set_overrides)
{
	scenario s;
	char *msg;
	const char *sets[] = {
		"cluster.nic.speed=100Gbps",            /* new nested section */
		"training.grad_reduce.algorithm=tree",
		"training.tp=2", "training.global_batch=128",
		"cluster.gpu.bf16=400TFLOPS",           /* a name becomes {base: name, ...} */
		"cluster.intra_node={kind: nvswitch, bandwidth: 250GB/s}",
		"name=swept 'run'"};
	ck_assert_int_eq(load_text(base_yaml, sets, 7, &s, &msg), 0);
	free(msg);
	ck_assert_double_eq(s.cluster.nic.speed_Bps, 12.5e9);
	ck_assert_int_eq(s.training.grad_reduce.algorithm, GRAD_ALGO_TREE);
	ck_assert_int_eq(s.training.dp, 16);
	ck_assert_double_eq(s.cluster.gpu.peak_flops[PREC_BF16], 400e12);
	ck_assert_double_eq(s.cluster.gpu.hbm_bytes, 80 * 1073741824.0);  /* from the base */
	ck_assert_str_eq(s.cluster.gpu.name, "A100-SXM4-80GB");
	ck_assert_double_eq(s.cluster.intra.bandwidth_Bps, 250e9);
	ck_assert_str_eq(s.name, "swept 'run'");
	scn_release(&s);
}
END_TEST

/* The names users write for a transport: InfiniBand, RoCE and EFA are RDMA;
 * Google's TCPX and TCPXO are GPUDirect over TCP. */
START_TEST(transport_names)
{
	static const struct { const char *set; hw_transport want; } cases[] = {
		{"cluster.nic.transport=infiniband", TRANSPORT_RDMA},
		{"cluster.nic.transport=RoCE", TRANSPORT_RDMA},
		{"cluster.nic.transport=efa", TRANSPORT_RDMA},
		{"cluster.nic.transport=tcp", TRANSPORT_TCP},
		{"cluster.nic.transport=gpudirect-tcp", TRANSPORT_GDTCP},
		{"cluster.nic.transport=tcpx", TRANSPORT_GDTCP},
		{"cluster.nic.transport=GPUDirect-TCPXO", TRANSPORT_GDTCP},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		scenario s;
		char *msg;
		const char *sets[] = {cases[i].set};
		ck_assert_msg(load_text(base_yaml, sets, 1, &s, &msg) == 0, "%s: %s", cases[i].set,
		              msg);
		free(msg);
		ck_assert_msg(s.cluster.nic.transport == cases[i].want, "%s", cases[i].set);
		scn_release(&s);
	}
}
END_TEST

/* A --set error: the first line of the message. */
static void set_fails(const char *assignment, const char *want)
{
	scenario s;
	char *msg;
	const char *sets[] = {assignment};
	ck_assert_int_eq(load_text(base_yaml, sets, 1, &s, &msg), -1);
	ck_assert_msg(strstr(msg, want), "--set %s: '%s' lacks '%s'", assignment, msg, want);
	ck_assert_msg(!strncmp(msg, "--set: ", 7), "'%s' does not start with --set:", msg);
	free(msg);
}

/* The base scenario loads with `first` (when not NULL) and `assignment` set. */
static void set_loads(const char *first, const char *assignment)
{
	scenario s;
	char *msg;
	const char *sets[] = {first ? first : assignment, assignment};
	ck_assert_msg(load_text(base_yaml, sets, first ? 2 : 1, &s, &msg) == 0, "%s: %s",
	              assignment, msg);
	free(msg);
	scn_release(&s);
}

START_TEST(set_errors)
{
	set_fails("training.micro_bach=2",
	          "--set: training.micro_bach: unknown key 'micro_bach' in training; did you mean "
	          "'micro_batch'?");
	set_fails("clustr.nodes=2", "unknown key 'clustr' in the top level; did you mean 'cluster'?");
	/* a section's key at the top level: where it belongs */
	set_fails("micro_batch=2", "unknown key 'micro_batch' in the top level; it belongs under a "
	          "section: 'training.micro_batch'");
	set_fails("speed=100Gbps", "it belongs under a section: 'cluster.nic.speed'");
	set_fails("cluster.nic.speed=200", "--set: cluster.nic.speed: '200' has no unit; expected "
	          "a bandwidth with a unit such as 200Gbps or 25GB/s");
	set_fails("training.tp=two", "--set: training.tp: 'two' is not a number; expected an "
	          "integer in 1..1000000");
	set_fails("training.tp=0", "expected an integer in 1..1000000, not '0'");
	set_fails("training.tp=3", "--set: training.tp: tp*pp (=3) must divide the GPU count 32");
	set_fails("training.schedule=zigzag", "'zigzag' is not one of gpipe|1f1b|interleaved|deepspeed");
	set_fails("training.overlap=true", "unknown key 'overlap' in training");
	/* a key of another section, below the top level too: where it belongs */
	set_fails("training.overlap=true", "; it belongs under another section: "
	          "'training.grad_reduce.overlap'");
	set_fails("training.compression=int8", "unknown key 'compression' in training; it belongs "
	          "under another section: 'training.grad_reduce.compression'");
	set_fails("cluster.oversubscription=2", "it belongs under another section: "
	          "'cluster.fabric.oversubscription'");
	set_fails("cluster.precision=fp16", "it belongs under another section: 'training.precision'");
	/* other tools' names: trainsim's key, not the nearest spelling ('fsdp'
	 * gave 'did you mean dp', 'gpus' 'did you mean gpu') */
	set_fails("training.fsdp=true", "unknown key 'fsdp' in training; did you mean 'zero: 3'");
	set_fails("cluster.gpus=64", "did you mean 'cluster.nodes' and 'cluster.gpus_per_node'?");
	set_fails("training.gradient_accumulation_steps=4", "set 'training.global_batch'");
	set_fails("training.grad_accum=4", "set 'training.global_batch'");
	set_fails("training.activation_checkpointing=true", "did you mean 'recompute: full'");
	set_fails("model.num_layers=4", "did you mean 'model.layers'?");
	set_fails("training.batch_size=8", "did you mean 'training.global_batch'");
	set_fails("training.checkpoint.interval=100", "did you mean 'every' (steps between "
	          "checkpoints)?");
	set_fails("cluster.nic.bandwidth=100Gbps", "did you mean 'speed'");
	/* a time where steps are counted: said, with the conversion */
	set_fails("training.checkpoint.every=30min", "--set: training.checkpoint.every: '30min' is "
	          "a time, and this key counts steps: write the number of steps, 1800 s / the step "
	          "time");
	set_fails("run.steps=1h", "'1h' is a time, and this key counts steps");
	/* several values for one --set: the sweep that runs them */
	set_fails("cluster.nic.speed=100Gbps,200Gbps", "(to run each of these values: trainsim "
	          "sweep SCENARIO --vary cluster.nic.speed=100Gbps,200Gbps)");
	/* a real key's alias does not shadow it elsewhere: bandwidth is storage's */
	set_loads(NULL, "cluster.storage.bandwidth=10GB/s");
	set_fails("nodes", "is not KEY=VALUE");
	set_fails("=4", "is not KEY=VALUE");
	set_fails("cluster..nodes=4", "is not KEY=VALUE");
	set_fails("cluster.nodes=", "no value after '='");
	set_fails("cluster.nodes=[1,", "YAML syntax error");
	set_fails("cluster.nodes=[1, 2]", "--set: cluster.nodes: expected a single value, not a list");
	/* a duplicate inside a flow mapping: in the value, not at the file's top */
	set_fails("training.grad_reduce={bucket: 10MB, bucket: 20MB}",
	          "--set: training.grad_reduce: the value: duplicate key 'bucket'; keep one");
	set_fails("cluster.nodes.x=1", "'cluster.nodes' is a single value and has no key 'x'");
	set_fails("model.custom.0.flops=1G", "'model.custom' has no item 0 to change");
	set_fails("model.custom.x=1", "'model.custom' is a list; give an index");
	set_fails("name.x=1", "'name' is a single value");
	set_fails("cluster.gpu=R100", "unknown GPU 'R100'");
}
END_TEST

/* An override given by sweep's --vary is named so in every message about
 * it: those of the override itself and those of mapping the document. */
START_TEST(set_by_names_the_option)
{
	static const struct { const char *set, *want; } cases[] = {
		{"cluster.nic.speed=100GB", "--vary: cluster.nic.speed: unknown unit 'GB' in '100GB'"},
		{"training.tp=3", "--vary: training.tp: tp*pp (=3) must divide the GPU count 32"},
		{"cluster.nick.speed=1Gbps", "--vary: cluster.nick.speed: unknown key 'nick'"},
		{"cluster.nodes=[1,", "--vary: cluster.nodes: "},
		{"nodes", "--vary: 'nodes' is not KEY=VALUE with a dotted key; e.g. --vary "},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		captured c;
		scenario s;
		cap_open(&c);
		scn_doc *d = scn_doc_load_string(base_yaml, strlen(base_yaml), "t.yaml", c.f);
		ck_assert_ptr_nonnull(d);
		int rc = scn_doc_set_by(d, cases[i].set, "--vary", c.f);
		if (rc == 0)
			rc = scn_from_doc(d, &s, c.f, false);
		scn_doc_free(d);
		char *msg = cap_close(&c);
		ck_assert_int_eq(rc, -1);
		ck_assert_msg(!strncmp(msg, cases[i].want, strlen(cases[i].want)),
		              "%s: '%s' does not start with '%s'", cases[i].set, msg, cases[i].want);
		ck_assert_msg(!strstr(msg, "--set"), "%s: '%s' says --set", cases[i].set, msg);
		free(msg);
	}
}
END_TEST

/* Bandwidths have floors: a link of 1e-12 Gbps made a step of 1e16 s, in
 * which a double lost the seconds of compute (the report's compute time
 * changed). Each bandwidth refuses a value below its floor, and 0 only
 * where 0 means "none" or "the default". */
START_TEST(bandwidth_floors)
{
	static const struct { const char *set, *want; } refused[] = {
		{"cluster.nic.speed=1e-12Gbps", "expected a bandwidth in 125 KB/s..10 TB/s"},
		{"cluster.nic.speed=0", "expected a bandwidth in 125 KB/s..10 TB/s, not '0'"},
		{"cluster.fabric.zone_bandwidth=1e-30Gbps", "in 125 KB/s..10 TB/s"},
		{"cluster.storage.bandwidth=100B/s", "in 125 KB/s..1 PB/s"},
		{"cluster.storage.frontend=1Kbps", "in 125 KB/s..10 TB/s"},
		{"cluster.storage.per_client=1bps", "0 or a bandwidth in 125 KB/s..1 PB/s"},
		{"cluster.local_cache.bandwidth=1KB/s", "in 125 KB/s..1 PB/s"},
		{"cluster.intra_node.bandwidth=1KB/s", "0 or a bandwidth in 125 KB/s..1 PB/s"},
		{"cluster.gpu.hbm_bandwidth=1MB/s", "in 1 GB/s..1 PB/s"},
		{"cluster.gpu.nvlink=1MB/s", "0 or a bandwidth in 1 GB/s..1 PB/s"},
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		set_fails(refused[i].set, refused[i].want);
	static const char *const taken[] = {"cluster.nic.speed=1Mbps", "cluster.nic.speed=10TB/s",
		"cluster.storage.per_client=0", "cluster.intra_node.bandwidth=0",
		"cluster.gpu.nvlink=0", "cluster.gpu.hbm_bandwidth=1GB/s"};
	for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
		set_loads("cluster.intra_node=pcie", taken[i]);
}
END_TEST

/* Rates and efficiencies that divide a time have floors as the bandwidths
 * do: a peak of 1e-300 FLOP/s or an efficiency of 2.3e-308 scheduled an
 * event past the largest double (the engine's assertion aborted the run). */
START_TEST(rate_floors)
{
	static const struct { const char *set, *want; } refused[] = {
		{"cluster.gpu.bf16=1e-300FLOPS", "0 or a rate in 1 GFLOP/s.."},
		{"cluster.gpu.gemm_eff=2.3e-308", "expected a number in 0.001..1"},
		{"cluster.gpu.hbm_eff=1e-300", "expected a number in 0.001..1"},
		{"cluster.gpu.nvlink_eff=1e-9", "0 or a number in 0.001..1"},
		{"cluster.nic.efficiency=2.3e-308", "0 or a number in 0.001..1"},
		{"training.grad_reduce.bucket=1e-30B", "a size in 1024 B.."},
		/* a power limit: below the rating (A100 SXM4: 400 W), above the static
		 * draw (107 W of it) */
		{"cluster.gpu.power_limit=500W", "is above the A100-SXM4-80GB's rated 400 W"},
		{"cluster.gpu.power_limit=100W", "leaves the A100-SXM4-80GB almost no clock"},
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		set_fails(refused[i].set, refused[i].want);
	static const char *const taken[] = {"cluster.gpu.fp8=0", "cluster.gpu.gemm_eff=0.001",
		"cluster.nic.efficiency=0", "training.grad_reduce.bucket=1KiB"};
	for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++)
		set_loads(NULL, taken[i]);
}
END_TEST

/* The bound a range message states after `after` ("..", "<= ", " in "),
 * read back as a quantity of the field's kind; false when absent. */
static bool stated_bound(const scn_field *f, const char *msg, const char *after, double *v)
{
	const char *p = strstr(msg, after);
	if (!p)
		return false;
	p += strlen(after);
	char text[64];
	size_t n = strcspn(p, ",.\n");
	if (p[n] == '.' && p[n + 1] != '.')   /* a decimal point, not ".." */
		n += 1 + strcspn(p + n + 1, ",.\n");
	if (strncmp(p + n, "..", 2) && strstr(p, " and ") && strstr(p, " and ") < p + n)
		n = (size_t)(strstr(p, " and ") - p);
	snprintf(text, sizeof text, "%.*s", (int)n, p);
	return unit_parse(text, f->type == F_UNIT ? f->unit : UNIT_COUNT, v, NULL, 0) == 0;
}

/* Sets `path` to v (written in the field's base unit) and checks that the
 * refusal states both bounds, and that they are the bounds applied. */
static void out_of_range(const scn_field *f, const char *path, double v)
{
	static const char *const base[] = {"B", "B/s", "s", "", "FLOP/s", "W"};
	char set[256], *msg;
	scenario s;
	snprintf(set, sizeof set, "%s=%.17g%s", path, v, f->type == F_UNIT ? base[f->unit] : "");
	const char *sets[] = {set};
	ck_assert_msg(load_text(base_yaml, sets, 1, &s, &msg) == -1, "--set %s loaded", set);
	double lo, hi;
	bool has_lo = stated_bound(f, msg, " in ", &lo) || stated_bound(f, msg, " > ", &lo);
	bool has_hi = stated_bound(f, msg, "..", &hi) || stated_bound(f, msg, "<= ", &hi);
	ck_assert_msg(has_lo && lo == f->min, "--set %s: '%s' does not state the lower bound %.17g",
	              set, msg, f->min);
	ck_assert_msg(has_hi && hi == f->max, "--set %s: '%s' does not state the upper bound %.17g",
	              set, msg, f->max);
	bool zero_ok = (f->flags & FL_ZERO_OK) || (f->min == 0 && !(f->flags & FL_GT_MIN));
	ck_assert_msg(zero_ok == (strstr(msg, "0 or ") || strstr(msg, " in 0..") ||
	                          strstr(msg, " in 0 ") != NULL),
	              "--set %s: '%s' misstates whether 0 is allowed", set, msg);
	free(msg);
}

/* Every bounded number of the schema, under `sec` at `prefix`. */
static int check_ranges(const scn_section *sec, const char *prefix)
{
	int n = 0;
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		char path[256];
		snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", f->key);
		if (f->type == F_SECTION) {
			n += check_ranges(f->sub, path);
			continue;
		}
		if ((f->type != F_INT && f->type != F_U64 && f->type != F_DOUBLE &&
		     f->type != F_UNIT) || f->min == f->max)
			continue;
		out_of_range(f, path, f->max * 10 + 10);           /* above */
		if (f->min > 0)
			out_of_range(f, path, f->min / 2);           /* below (an int: not whole) */
		else if (f->flags & FL_GT_MIN && !(f->flags & FL_ZERO_OK))
			out_of_range(f, path, 0);
		n++;
	}
	return n;
}

/* A value refused as too large, too small, or as 0, reads the range that
 * refused it: both bounds, and "0 or" / "in 0.." exactly when 0 is taken
 * ("81Tbps" used to read "expected a bandwidth > 0 B/s"). */
START_TEST(range_messages_state_both_bounds)
{
	ck_assert_int_ge(check_ranges(&scn__root, ""), 80);
	set_fails("cluster.nic.speed=81Tbps", "--set: cluster.nic.speed: expected a bandwidth "
	          "in 125 KB/s..10 TB/s, not '81Tbps'");
	set_fails("run.train_tokens=-5", "expected a number in 0..1e+18, not '-5'");
	set_fails("run.seed=1e20", "expected an integer in 0..18446744073709551615, not '1e20'");
	set_fails("cluster.gpu.hbm=2EB", "expected a size > 0 B and <= 1 EB, not '2EB'");
	set_fails("training.failures.gpu_mtbf=1e13s", "expected a time in 0 s..1e+12 s");
}
END_TEST

START_TEST(set_on_list_item_and_clone)
{
	static const char custom[] =
		"cluster: {nodes: 1, gpu: A100}\n"
		"model:\n  custom:\n    - {name: a, flops: 1G, params: 10, activations: 1KB}\n"
		"    - {name: b, flops: 2G, params: 20, activations: 2KB, output: 500B}\n"
		"training: {global_batch: 8}\n";
	captured c;
	cap_open(&c);
	scn_doc *d = scn_doc_load_string(custom, sizeof custom - 1, "c.yaml", c.f);
	ck_assert_ptr_nonnull(d);
	scn_doc *d2 = scn_doc_clone(d);
	ck_assert_ptr_nonnull(d2);
	ck_assert_int_eq(scn_doc_set(d2, "model.custom.1.flops=5G", c.f), 0);
	ck_assert_int_eq(scn_doc_set(d2, "model.custom.0={name: z, flops: 7G}", c.f), 0);
	ck_assert_int_eq(scn_doc_set(d2, "model.custom.2={name: q, flops: 1}", c.f), -1);
	scenario s1, s2;
	ck_assert_int_eq(scn_from_doc(d, &s1, c.f, false), 0);
	ck_assert_int_eq(scn_from_doc(d2, &s2, c.f, false), 0);
	ck_assert(s1.model.custom && s2.model.custom);
	ck_assert_int_eq(s1.model.nlayers_custom, 2);
	ck_assert_int_eq(s1.model.layers, 2);
	ck_assert_int_eq(s1.model.seq_len, 1);
	ck_assert_double_eq(s1.model.custom_layers[1].fwd_flops, 2e9);  /* the original is untouched */
	ck_assert_double_eq(s2.model.custom_layers[1].fwd_flops, 5e9);
	ck_assert_str_eq(s2.model.custom_layers[0].name, "z");
	ck_assert_double_eq(s2.model.custom_layers[0].act_bytes, 0);
	ck_assert_double_eq(s1.model.custom_layers[0].act_bytes, 1000);
	ck_assert_double_eq(s1.model.custom_layers[0].out_bytes, 0);
	ck_assert_double_eq(s1.model.custom_layers[1].out_bytes, 500);
	scn_release(&s1);
	scn_release(&s2);
	scn_doc_free(d);
	scn_doc_free(d2);
	free(cap_close(&c));
}
END_TEST

START_TEST(reports_every_error_up_to_20)
{
	char text[4096] = "cluster:\n  nodes: 1\n  gpu: A100\n";
	for (int i = 0; i < 25; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "  bogus_%02d: 1\n", i);
	scenario s;
	char *msg;
	ck_assert_int_eq(load_text(text, NULL, 0, &s, &msg), -1);
	int lines = 0;
	for (char *p = msg; (p = strchr(p, '\n')); p++)
		lines++;
	ck_assert_int_eq(lines, 21);   /* 20 errors and "too many errors" */
	ck_assert_ptr_nonnull(strstr(msg, "t.yaml:4:3: cluster.bogus_00: unknown key 'bogus_00'"));
	ck_assert_ptr_nonnull(strstr(msg, "t.yaml: too many errors; stopped after 20"));
	ck_assert_ptr_null(strstr(msg, "bogus_20"));
	free(msg);
}
END_TEST

/* An error about a key named 'warning' must not read like a warning. */
START_TEST(key_named_warning_is_an_error)
{
	scenario s;
	char *msg;
	ck_assert_int_eq(load_text("warning: 1\ncluster: {nodes: 1, gpu: A100}\n", NULL, 0, &s,
	                           &msg), -1);
	ck_assert_ptr_nonnull(strstr(msg, "t.yaml:1:1: error: warning: unknown key 'warning'"));
	free(msg);
}
END_TEST

START_TEST(several_errors_in_one_file)
{
	static const char text[] =
		"cluster: {nodes: 0, gpu: A100, nic: {speed: 25}}\n"
		"model: {layers: 24, hidden: 2048, heads: 16, seq_len: 2048}\n"
		"training: {global_batch: 64, micro_bach: 2}\n";
	scenario s;
	char *msg;
	ck_assert_int_eq(load_text(text, NULL, 0, &s, &msg), -1);
	ck_assert_str_eq(msg,
		"t.yaml:1:18: cluster.nodes: expected an integer in 1..1000000, not '0'\n"
		"t.yaml:1:45: cluster.nic.speed: '25' has no unit; expected a bandwidth with a unit "
		"such as 200Gbps or 25GB/s\n"
		"t.yaml:3:30: training.micro_bach: unknown key 'micro_bach' in training; did you mean "
		"'micro_batch'?\n"
		"t.yaml: 3 errors\n");
	free(msg);
}
END_TEST

START_TEST(warnings_counted)
{
	const char *sets[] = {"training.virtual_stages=2", "training.sequence_parallel=true"};
	scenario s;
	char *msg;
	ck_assert_int_eq(load_text(base_yaml, sets, 2, &s, &msg), 0);
	ck_assert_int_eq(s.n_warnings, 2);
	ck_assert_ptr_nonnull(strstr(msg, "--set: warning: training.virtual_stages: has no effect "
	                             "unless schedule is interleaved"));
	free(msg);
	scn_release(&s);
	captured c;
	cap_open(&c);
	scn_doc *d = scn_doc_load_string(base_yaml, sizeof base_yaml - 1, "t.yaml", c.f);
	scn_doc_set(d, sets[0], c.f);
	ck_assert_int_eq(scn_from_doc(d, &s, c.f, true), 0);   /* quiet */
	ck_assert_int_eq(s.n_warnings, 1);
	scn_doc_free(d);
	msg = cap_close(&c);
	ck_assert_str_eq(msg, "");
	free(msg);
}
END_TEST

/* One or two --set assignments, and the warning they give (NULL: none). */
typedef struct warn_case {
	const char *a, *b, *said;
} warn_case;

static void warns_as(const warn_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *sets[] = {cases[i].a, cases[i].b};
		scenario s;
		char *msg;
		ck_assert_int_eq(load_text(base_yaml, sets, cases[i].b ? 2 : 1, &s, &msg), 0);
		ck_assert_msg(s.n_warnings == (cases[i].said ? 1 : 0), "%s: %s", cases[i].a, msg);
		if (cases[i].said)
			ck_assert_msg(strstr(msg, cases[i].said) != NULL, "%s: %s", cases[i].a, msg);
		free(msg);
		scn_release(&s);
	}
}

/* A sliding window warns where it does nothing: without a window, as long as
 * the sequence, on unfused attention; silent on the flash kernels. */
START_TEST(sliding_window_warnings)
{
	static const warn_case cases[] = {
		{"model.sliding_window=512", NULL, "saves nothing on unfused attention"},
		{"model.global_every=2", NULL, "has no effect without model.sliding_window"},
		{"model.sliding_window=4096", NULL, "is not shorter than seq_len"},
		{"model.sliding_window=512", "training.attention=flash", NULL}};
	warns_as(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

/* Fabric keys warn where their topology ignores them: oversubscription on
 * one switch or on a fat-tree whose 4 nodes sit under one leaf (of 16),
 * zone keys off the zones topology; defaults (as a normalized scenario
 * writes every key) stay silent. */
START_TEST(fabric_warnings)
{
	static const warn_case cases[] = {
		{"cluster.fabric.oversubscription=4:1", NULL, "has no effect with topology single-switch"},
		{"cluster.fabric.oversubscription=4:1", "cluster.fabric.topology=fat-tree",
		 "the job's 4 nodes sit under one leaf (nodes_per_leaf 16)"},
		{"cluster.fabric={topology: fat-tree, nodes_per_leaf: 2, oversubscription: 4}",
		 NULL, NULL},
		{"cluster.fabric={topology: fat-tree, placement: spread, leaves: 2}",
		 "cluster.fabric.oversubscription=4:1", NULL},
		{"cluster.fabric={topology: fat-tree, placement: spread}",
		 "cluster.fabric.oversubscription=4:1", "sit under one leaf"},
		{"cluster.fabric.background_load=0.5", "cluster.fabric.topology=fat-tree",
		 "sit under one leaf"},
		{"cluster.fabric.oversubscription=4:1", "cluster.fabric.topology=rail-optimized", NULL},
		{"cluster.fabric.zones=2", NULL, "has no effect unless topology is zones"},
		{"cluster.fabric.zone_bandwidth=10Gbps", NULL, "has no effect unless topology is zones"},
		{"cluster.fabric.zone_latency=1ms", NULL, NULL},
		{"cluster.fabric.zones=1", NULL, NULL}};
	warns_as(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

/* Stragglers warn where they cannot show: 1% of 32 GPUs expects 0.32 slow
 * GPU (72% of seeds draw none), a fraction without a slowdown or the other
 * way round slows nothing; 5% of 32 is 1.6 and silent. */
START_TEST(straggler_warnings)
{
	static const warn_case cases[] = {
		{"run.variability.straggler_fraction=0.01", "run.variability.straggler_slowdown=1.2",
		 "0.01 of 32 GPUs is 0.32 GPU"},
		{"run.variability.straggler_fraction=0.01", "run.variability.straggler_slowdown=1.2",
		 "72% of seeds draw none"},
		{"run.variability.straggler_fraction=0.05", "run.variability.straggler_slowdown=1.2", NULL},
		{"run.variability.straggler_fraction=0.05", NULL, "without straggler_slowdown above 1"},
		{"run.variability.straggler_slowdown=1.5", NULL, "without straggler_fraction above 0"}};
	warns_as(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

/* Each key flagged "no effect yet" in the tables warns once when given. */
static void no_effect_rows(const scn_section *sec, const char *path, int *n)
{
	for (size_t i = 0; i < sec->nrows; i++) {
		const scn_field *f = &sec->rows[i];
		char p[256], set[300];
		snprintf(p, sizeof p, "%s%s%s", path, path[0] ? "." : "", f->key);
		if (f->type == F_SECTION) {
			no_effect_rows(f->sub, p, n);
			continue;
		}
		if (!(f->flags & FL_NO_EFFECT))
			continue;
		snprintf(set, sizeof set, "%s=%s", p, f->type == F_BOOL ? "true"
		         : (f->flags & FL_ZERO_OK) || f->min == 0 ? "0" : "1");
		const char *sets[] = {set};
		scenario s;
		char *msg;
		ck_assert_msg(load_text(base_yaml, sets, 1, &s, &msg) == 0, "%s: %s", set, msg);
		ck_assert_int_eq(s.n_warnings, 1);
		ck_assert_ptr_nonnull(strstr(msg, "accepted but not modelled yet"));
		free(msg);
		scn_release(&s);
		(*n)++;
	}
}

START_TEST(no_effect_keys_warn)
{
	int n = 0;
	no_effect_rows(&scn__root, "", &n);
	ck_assert_int_ge(n, 0); /* the list shrinks as models land */
}
END_TEST

/* Keys that once warned "no effect" and are modelled now: no warning. */
START_TEST(modelled_keys_do_not_warn)
{
	const char *keys[] = {"run.variability.link_cv=0.1", "run.max_memory=16GiB"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		scenario s;
		char *msg;
		ck_assert_msg(load_text(base_yaml, &keys[i], 1, &s, &msg) == 0, "%s: %s", keys[i], msg);
		ck_assert_msg(s.n_warnings == 0, "%s: %s", keys[i], msg);
		ck_assert_ptr_null(strstr(msg, "not modelled"));
		free(msg);
		scn_release(&s);
	}
}
END_TEST

/* Limits that would need huge files: built here. */
START_TEST(limits)
{
	scenario s;
	char *msg;
	size_t n = 1000001, len = 2 * n + 16;
	char *big = malloc(len);
	strcpy(big, "a: [");
	char *p = big + 4;
	for (size_t i = 0; i < n; i++) {
		*p++ = '1';
		*p++ = ',';
	}
	strcpy(p - 1, "]\n");
	ck_assert_int_eq(load_text(big, NULL, 0, &s, &msg), -1);
	ck_assert_ptr_nonnull(strstr(msg, "more than 1000000 YAML nodes"));
	free(msg);
	memset(big, 'x', 70000);
	memcpy(big, "name: ", 6);
	big[70000] = '\0';
	ck_assert_int_eq(load_text(big, NULL, 0, &s, &msg), -1);
	ck_assert_str_eq(msg, "t.yaml:1:7: a value longer than 65536 bytes; a scenario needs "
	                      "short values\n");
	free(msg);
	free(big);
}
END_TEST

START_TEST(missing_file)
{
	scenario s;
	char *msg;
	ck_assert_int_eq(load_path("/nonexistent/x.yaml", NULL, 0, &s, &msg), -1);
	ck_assert_ptr_nonnull(strstr(msg, "/nonexistent/x.yaml: cannot open: "));
	free(msg);
}
END_TEST

START_TEST(edit_distance)
{
	ck_assert_uint_eq(scn__edit_distance("micro_bach", "micro_batch"), 1);
	ck_assert_uint_eq(scn__edit_distance("tp", "pt"), 1);
	ck_assert_uint_eq(scn__edit_distance("", "abc"), 3);
	ck_assert_uint_eq(scn__edit_distance("kitten", "sitting"), 3);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("loader");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, good_files_round_trip);
	tcase_add_test(tc, good_files_set_every_key);
	tcase_add_test(tc, scenario_md_lists_every_key);
	tcase_add_test(tc, shipped_scenarios_round_trip);
	tcase_add_test(tc, bad_corpus);
	tcase_add_test(tc, defaults_and_derived);
	tcase_add_test(tc, default_yaml_values);
	tcase_add_test(tc, set_overrides);
	tcase_add_test(tc, transport_names);
	tcase_add_test(tc, set_errors);
	tcase_add_test(tc, range_messages_state_both_bounds);
	tcase_add_test(tc, bandwidth_floors);
	tcase_add_test(tc, rate_floors);
	tcase_add_test(tc, set_by_names_the_option);
	tcase_add_test(tc, set_on_list_item_and_clone);
	tcase_add_test(tc, reports_every_error_up_to_20);
	tcase_add_test(tc, several_errors_in_one_file);
	tcase_add_test(tc, warnings_counted);
	tcase_add_test(tc, sliding_window_warnings);
	tcase_add_test(tc, fabric_warnings);
	tcase_add_test(tc, straggler_warnings);
	tcase_add_test(tc, key_named_warning_is_an_error);
	tcase_add_test(tc, no_effect_keys_warn);
	tcase_add_test(tc, modelled_keys_do_not_warn);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, edit_distance);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
