/* check_sweep.c: the pure logic of sweeps (plan, shards, rows, resume,
 * merge), the worker pool, spawning programs, the JSON reader and the data
 * files of the plots. The end-to-end command tests are in check_sweep.sh. */
#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "sweep.h"
#include "pool.h"
#include "extprog.h"
#include "jsonr.h"
#include "plot.h"

static FILE *quiet(void)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

/* A scratch file with the given content; the name is static storage. */
static const char *scratch(const char *name, const char *content)
{
	static char path[8][256];
	static int k;
	char *p = path[k++ % 8];
	snprintf(p, 256, "%s/check_sweep_%ld_%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
	         (long)getpid(), name);
	if (content) {
		FILE *f = fopen(p, "w");
		ck_assert_ptr_nonnull(f);
		fputs(content, f);
		fclose(f);
	}
	return p;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* ---- plan ---- */

START_TEST(plan_cross_product_order)
{
	sweep_plan *p = sweep_plan_new();
	ck_assert_int_eq(sweep_plan_add(p, "a=1,2,3", quiet()), 0);
	ck_assert_int_eq(sweep_plan_add(p, "b.c=x,y", quiet()), 0);
	ck_assert_uint_eq(sweep_plan_npoints(p), 6);
	ck_assert_uint_eq(sweep_plan_naxes(p), 2);
	ck_assert_str_eq(sweep_plan_key(p, 1), "b.c");
	/* First --vary outermost, last fastest. */
	const char *want[6][2] = {{"1", "x"}, {"1", "y"}, {"2", "x"}, {"2", "y"}, {"3", "x"}, {"3", "y"}};
	for (size_t i = 0; i < 6; i++) {
		ck_assert_str_eq(sweep_plan_value(p, i, 0), want[i][0]);
		ck_assert_str_eq(sweep_plan_value(p, i, 1), want[i][1]);
	}
	ck_assert_ptr_null(sweep_plan_value(p, 6, 0));
	sweep_plan_free(p);
}
END_TEST

START_TEST(plan_brackets_keep_commas)
{
	sweep_plan *p = sweep_plan_new();
	ck_assert_int_eq(sweep_plan_add(p, "k=[1,2],[3,4],{a: 1, b: 2},'x,y'", quiet()), 0);
	ck_assert_uint_eq(sweep_plan_npoints(p), 4);
	ck_assert_str_eq(sweep_plan_value(p, 0, 0), "[1,2]");
	ck_assert_str_eq(sweep_plan_value(p, 1, 0), "[3,4]");
	ck_assert_str_eq(sweep_plan_value(p, 2, 0), "{a: 1, b: 2}");
	ck_assert_str_eq(sweep_plan_value(p, 3, 0), "'x,y'");
	sweep_plan_free(p);
}
END_TEST

START_TEST(plan_errors)
{
	const char *bad[] = {"novalue", "=1,2", "a=", "a=1,,2", "a=1,", "a=[1,2", "a=1]", "a=\"x",
	                     "a=x\ny"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sweep_plan *p = sweep_plan_new();
		ck_assert_msg(sweep_plan_add(p, bad[i], quiet()) < 0, "accepted %s", bad[i]);
		ck_assert_uint_eq(sweep_plan_npoints(p), 1);
		sweep_plan_free(p);
	}
	sweep_plan *p = sweep_plan_new();
	ck_assert_int_eq(sweep_plan_add(p, "a=1,2", quiet()), 0);
	ck_assert_int_lt(sweep_plan_add(p, "a=3", quiet()), 0);          /* varied twice */
	/* 10^8 points: refused up front, the plan unchanged. */
	char big[2200] = "b=0";
	for (int v = 1; v < 500; v++)
		snprintf(big + strlen(big), sizeof big - strlen(big), ",%d", v);
	ck_assert_int_eq(sweep_plan_add(p, big, quiet()), 0);
	big[0] = 'c';
	ck_assert_int_eq(sweep_plan_add(p, big, quiet()), 0);
	ck_assert_uint_eq(sweep_plan_npoints(p), 500000);
	big[0] = 'd';
	ck_assert_int_lt(sweep_plan_add(p, big, quiet()), 0);
	ck_assert_uint_eq(sweep_plan_npoints(p), 500000);
	sweep_plan_free(p);
}
END_TEST

/* ---- shards ---- */

START_TEST(shard_parse)
{
	sweep_shard s;
	ck_assert_int_eq(sweep_shard_parse("2/8", &s, quiet()), 0);
	ck_assert_uint_eq(s.k, 2);
	ck_assert_uint_eq(s.n, 8);
	ck_assert_int_eq(sweep_shard_parse("1/1", &s, quiet()), 0);
	const char *bad[] = {"0/2", "3/2", "1/0", "a/b", "1/2x", "-1/2", "1/-2", "1", "/2", "1/",
	                     "99999999999999999999/2"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(sweep_shard_parse(bad[i], &s, quiet()) < 0, "accepted %s", bad[i]);
}
END_TEST

START_TEST(shards_partition_the_points)
{
	for (unsigned n = 1; n <= 5; n++)
		for (size_t i = 0; i < 100; i++) {
			int owners = 0;
			for (unsigned k = 1; k <= n; k++)
				owners += sweep_shard_has(&(sweep_shard){k, n}, i);
			ck_assert_int_eq(owners, 1);
		}
	/* Round robin: consecutive points go to different shards. */
	ck_assert(sweep_shard_has(&(sweep_shard){1, 2}, 0));
	ck_assert(sweep_shard_has(&(sweep_shard){2, 2}, 1));
	ck_assert(sweep_shard_has(&(sweep_shard){1, 2}, 2));
}
END_TEST

/* ---- rows ---- */

START_TEST(line_index)
{
	size_t i = 99;
	ck_assert(sweep_line_index("12,a,b\n", 7, &i));
	ck_assert_uint_eq(i, 12);
	ck_assert(sweep_line_index("{\"index\":7,\"a\":1}\n", 18, &i));
	ck_assert_uint_eq(i, 7);
	ck_assert(!sweep_line_index("index,a\n", 8, &i));
	ck_assert(!sweep_line_index("12\n", 3, &i));
	ck_assert(!sweep_line_index("\n", 1, &i));
	ck_assert(!sweep_line_index("99999999999999999999999,x\n", 26, &i));
	ck_assert(!sweep_line_index("{\"other\":7,\"a\":1}\n", 18, &i));
}
END_TEST

/* The reason of an invalid row, as the summary line quotes it: the last
 * field, not the sweep id and the empty report columns before it (the
 * summary used to print "3502fe179a02ba0b,,,,,,...--set: ..."), with CSV
 * quotes and JSON escapes undone. */
START_TEST(row_error)
{
	char b[64];
	static const char csv[] = "0,100GB,invalid,3502fe179a02ba0b,,,,,--vary: speed: bad\n";
	ck_assert(sweep_row_error(csv, strlen(csv), SWEEP_CSV, b, sizeof b));
	ck_assert_str_eq(b, "--vary: speed: bad");
	static const char quoted[] = "1,\"a,b\",invalid,id,,,\"x: 'a,b' is \"\"wrong\"\"\"\n";
	ck_assert(sweep_row_error(quoted, strlen(quoted), SWEEP_CSV, b, sizeof b));
	ck_assert_str_eq(b, "x: 'a,b' is \"wrong\"");
	static const char jrow[] = "{\"index\":0,\"status\":\"invalid\",\"sweep\":\"id\","
	                           "\"error\":\"--vary: x: \\\"q\\\" \\u00e9\"}\n";
	ck_assert(sweep_row_error(jrow, strlen(jrow), SWEEP_JSON, b, sizeof b));
	ck_assert_str_eq(b, "--vary: x: \"q\" \xc3\xa9");
	static const char ok[] = "2,1,ok,id,1.5,\n";
	ck_assert(!sweep_row_error(ok, strlen(ok), SWEEP_CSV, b, sizeof b));
	ck_assert(!sweep_row_error("{\"index\":2}\n", 12, SWEEP_JSON, b, sizeof b));
	ck_assert(sweep_row_error(csv, strlen(csv), SWEEP_CSV, b, 6));   /* cut, terminated */
	ck_assert_str_eq(b, "--var");
}
END_TEST

static sweep_plan *plan_ab(void)
{
	sweep_plan *p = sweep_plan_new();
	ck_assert_int_eq(sweep_plan_add(p, "a=1,2,3", quiet()), 0);
	ck_assert_int_eq(sweep_plan_add(p, "b=x,\"y,z\"", quiet()), 0);
	return p;
}

START_TEST(row_prefix_and_values)
{
	sweep_plan *p = plan_ab();
	char *pre = sweep_row_prefix(p, SWEEP_CSV, 3);
	ck_assert_str_eq(pre, "3,2,\"\"\"y,z\"\"\"");   /* the value "y,z" with its quotes, quoted */
	free(pre);
	pre = sweep_row_prefix(p, SWEEP_JSON, 4);
	ck_assert_str_eq(pre, "{\"index\":4,\"a\":3,\"b\":\"x\"");
	free(pre);
	const char *names[5], *vals[5];
	char idx[24];
	ck_assert_int_eq(sweep_csv_names(p, names), 5);
	ck_assert_str_eq(names[0], "index");
	ck_assert_str_eq(names[2], "b");
	ck_assert_str_eq(names[3], "status");
	ck_assert_str_eq(names[4], "sweep");
	sweep_plan_set_id(p, "0123456789abcdef");
	ck_assert_int_eq(sweep_csv_values(p, 5, "ok", idx, vals), 5);
	ck_assert_str_eq(vals[0], "5");
	ck_assert_str_eq(vals[1], "3");
	ck_assert_str_eq(vals[3], "ok");
	ck_assert_str_eq(vals[4], "0123456789abcdef");
	sweep_plan_free(p);
}
END_TEST

/* ---- resume ---- */

static sweep_plan *plan_speed(void)
{
	sweep_plan *p = sweep_plan_new();
	ck_assert_int_eq(sweep_plan_add(p, "cluster.nic.speed=10Gbps,25Gbps,100Gbps", quiet()), 0);
	return p;
}

START_TEST(resume_marks_rows_and_drops_half_line)
{
	sweep_plan *p = plan_speed();
	const char *head = "index,cluster.nic.speed,status,x\n";
	const char *path = scratch("resume.csv", "index,cluster.nic.speed,status,x\n"
	                           "2,100Gbps,ok,1\n0,10Gbps,ok,3\n1,25Gb");
	int fd = open(path, O_RDWR | O_APPEND);
	bool done[3] = {0};
	ck_assert_int_eq(sweep_resume_scan(fd, path, p, SWEEP_CSV, head, done, quiet()), 2);
	ck_assert(done[0] && !done[1] && done[2]);
	close(fd);
	char *text = slurp(path);
	ck_assert_str_eq(text, "index,cluster.nic.speed,status,x\n2,100Gbps,ok,1\n0,10Gbps,ok,3\n");
	free(text);
	unlink(path);
	sweep_plan_free(p);
}
END_TEST

START_TEST(resume_refuses_other_sweeps)
{
	sweep_plan *p = plan_speed();
	const char *head = "index,cluster.nic.speed,status,x\n";
	const char *cases[] = {
		"index,cluster.nic.count,status,x\n",                        /* other header */
		"index,cluster.nic.speed,status,x\n1,100Gbps,ok,1\n",         /* other values */
		"index,cluster.nic.speed,status,x\n7,10Gbps,ok,1\n",          /* beyond the plan */
		"index,cluster.nic.speed,status,x\ngarbage\n",
		"{\"index\":0,\"cluster.nic.speed\":\"10Gbps\",\"status\":\"ok\"}\n",
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *path = scratch("other.csv", cases[i]);
		int fd = open(path, O_RDWR | O_APPEND);
		bool done[3] = {0};
		ck_assert_msg(sweep_resume_scan(fd, path, p, SWEEP_CSV, head, done, quiet()) < 0,
		              "accepted case %zu", i);
		close(fd);
		unlink(path);
	}
	/* An empty file is a fresh start. */
	const char *path = scratch("empty.csv", "");
	int fd = open(path, O_RDWR | O_APPEND);
	bool done[3] = {0};
	ck_assert_int_eq(sweep_resume_scan(fd, path, p, SWEEP_CSV, head, done, quiet()), 0);
	close(fd);
	unlink(path);
	sweep_plan_free(p);
}
END_TEST

START_TEST(resume_json_lines)
{
	sweep_plan *p = plan_speed();
	const char *path = scratch("resume.jsonl",
	        "{\"index\":1,\"cluster.nic.speed\":\"25Gbps\",\"status\":\"ok\"}\n"
	        "{\"index\":0,\"cluster.nic.speed\":\"10Gbps\",\"sta");
	int fd = open(path, O_RDWR | O_APPEND);
	bool done[3] = {0};
	ck_assert_int_eq(sweep_resume_scan(fd, path, p, SWEEP_JSON, "", done, quiet()), 1);
	ck_assert(!done[0] && done[1] && !done[2]);
	/* with a fingerprint to match, a row without one (an older file) is refused */
	sweep_plan_set_id(p, "0123456789abcdef");
	memset(done, 0, sizeof done);
	ck_assert_int_eq(sweep_resume_scan(fd, path, p, SWEEP_JSON, "", done, quiet()), -1);
	close(fd);
	unlink(path);
	sweep_plan_free(p);
}
END_TEST

/* ---- merge ---- */

START_TEST(merge_sorts_dedups_and_drops_half_lines)
{
	const char *a = scratch("a.csv", "index,k,status\n2,z,ok\n0,x,ok\n");
	const char *b = scratch("b.csv", "index,k,status\n1,y,ok\n2,z,ok\n3,w,o");
	const char *out = scratch("merged.csv", NULL);
	const char *in[] = {a, b};
	ck_assert_int_eq(sweep_merge(out, in, 2, quiet()), 0);
	char *text = slurp(out);
	ck_assert_str_eq(text, "index,k,status\n0,x,ok\n1,y,ok\n2,z,ok\n");
	free(text);
	/* Merging its own output again changes nothing. */
	const char *again[] = {out, a};
	ck_assert_int_eq(sweep_merge(out, again, 2, quiet()), 0);
	text = slurp(out);
	ck_assert_str_eq(text, "index,k,status\n0,x,ok\n1,y,ok\n2,z,ok\n");
	free(text);
	unlink(a);
	unlink(b);
	unlink(out);
}
END_TEST

START_TEST(merge_refuses_conflicts)
{
	const char *a = scratch("a.csv", "index,k,status\n0,x,ok\n");
	const char *b = scratch("b.csv", "index,k,status\n0,x,invalid\n");
	const char *c = scratch("c.csv", "index,other,status\n1,x,ok\n");
	const char *d = scratch("d.jsonl", "{\"index\":1,\"k\":\"y\"}\n");
	const char *out = scratch("merged.csv", NULL);
	unlink(out);
	const char *ab[] = {a, b}, *ac[] = {a, c}, *ad[] = {a, d}, *missing[] = {a, "/nonexistent"};
	ck_assert_int_lt(sweep_merge(out, ab, 2, quiet()), 0);
	ck_assert_int_lt(sweep_merge(out, ac, 2, quiet()), 0);
	ck_assert_int_lt(sweep_merge(out, ad, 2, quiet()), 0);
	ck_assert_int_lt(sweep_merge(out, missing, 2, quiet()), 0);
	ck_assert_int_ne(access(out, F_OK), 0);      /* nothing half-written appeared */
	unlink(a);
	unlink(b);
	unlink(c);
	unlink(d);
}
END_TEST

START_TEST(merge_json_lines)
{
	const char *a = scratch("a.jsonl", "{\"index\":1,\"k\":\"y\"}\n");
	const char *b = scratch("b.jsonl", "{\"index\":0,\"k\":\"x\"}\n{\"index\":1,\"k\":\"y\"}\n");
	const char *out = scratch("merged.jsonl", NULL);
	const char *in[] = {a, b};
	ck_assert_int_eq(sweep_merge(out, in, 2, quiet()), 0);
	char *text = slurp(out);
	ck_assert_str_eq(text, "{\"index\":0,\"k\":\"x\"}\n{\"index\":1,\"k\":\"y\"}\n");
	free(text);
	unlink(a);
	unlink(b);
	unlink(out);
}
END_TEST

/* ---- pool ---- */

typedef struct collect {
	char *rows[64];
	char *died[64];
	int seen[64];
	int n, stop_after;
	volatile sig_atomic_t stop;
} collect;

static int eval_square(void *ctx, size_t job, char **line, size_t *len)
{
	if (job == 13)
		return -1;                       /* a worker that fails */
	if (job == 21) {                     /* a worker that crashes (an assert) */
		setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
		abort();
	}
	if (!(*line = malloc(48)))
		return -1;
	*len = (size_t)snprintf(*line, 48, "%zu,%zu\n", job, job * job);
	return 0;
}

static int sink_collect(void *ctx, size_t job, const char *line, size_t len, const char *died)
{
	collect *c = ctx;
	c->seen[job]++;
	c->n++;
	if (line)
		c->rows[job] = strndup(line, len);
	else
		c->died[job] = strdup(died);
	if (c->stop_after && c->n >= c->stop_after)
		c->stop = 1;
	return 0;
}

static void run_pool(int workers, collect *c, size_t njobs)
{
	size_t jobs[64];
	for (size_t i = 0; i < njobs; i++)
		jobs[i] = i;
	pool_cfg cfg = {.workers = workers, .eval = eval_square, .sink = sink_collect, .sink_ctx = c,
	                .stop = &c->stop};
	int rc = pool_run(&cfg, jobs, njobs, quiet());
	ck_assert_int_eq(rc, c->stop_after ? POOL_STOPPED : POOL_DONE);
	/* Every worker was reaped. */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}

static void collect_free(collect *c)
{
	for (int i = 0; i < 64; i++) {
		free(c->rows[i]);
		free(c->died[i]);
	}
}

START_TEST(pool_every_job_once_any_worker_count)
{
	collect one = {0}, three = {0};
	run_pool(1, &one, 40);
	run_pool(3, &three, 40);
	for (int i = 0; i < 40; i++) {
		ck_assert_int_eq(one.seen[i], 1);
		ck_assert_int_eq(three.seen[i], 1);
		if (i == 13 || i == 21) {
			ck_assert_ptr_nonnull(one.died[i]);
			ck_assert_ptr_nonnull(three.died[i]);
			ck_assert_ptr_null(three.rows[i]);
			continue;
		}
		char want[32];
		snprintf(want, sizeof want, "%d,%d\n", i, i * i);
		ck_assert_str_eq(one.rows[i], want);
		ck_assert_str_eq(three.rows[i], want);
	}
	ck_assert_ptr_nonnull(strstr(three.died[13], "status 3"));
	ck_assert_ptr_nonnull(strstr(three.died[21], "signal"));
	collect_free(&one);
	collect_free(&three);
}
END_TEST

START_TEST(pool_stops_when_asked)
{
	collect c = {.stop_after = 5};
	run_pool(2, &c, 60);
	ck_assert_int_ge(c.n, 5);
	ck_assert_int_lt(c.n, 60);
	for (int i = 0; i < 60; i++)
		ck_assert_int_le(c.seen[i], 1);
	collect_free(&c);
}
END_TEST

START_TEST(pool_no_jobs)
{
	pool_cfg cfg = {.workers = 4, .eval = eval_square, .sink = sink_collect};
	ck_assert_int_eq(pool_run(&cfg, NULL, 0, quiet()), POOL_DONE);
}
END_TEST

/* ---- spawn ---- */

START_TEST(spawn_status)
{
	char *ok[] = {"true", NULL}, *fail[] = {"false", NULL};
	char *missing[] = {"/nonexistent/trainsim-no-such-program", NULL};
	ck_assert_int_eq(extprog_run(ok, quiet()), EXTPROG_OK);
	ck_assert_int_eq(extprog_run(fail, quiet()), EXTPROG_EFAIL);
	ck_assert_int_eq(extprog_run(missing, quiet()), EXTPROG_ENOENT);
	/* Arguments are passed as they are: no shell sees them. */
	const char *mark = scratch("spawn-mark", NULL);
	unlink(mark);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "x; touch %s", mark);
	char *test[] = {"test", cmd, "=", cmd, NULL};
	ck_assert_int_eq(extprog_run(test, quiet()), EXTPROG_OK);
	ck_assert_int_ne(access(mark, F_OK), 0);
}
END_TEST

/* ---- JSON reader ---- */

START_TEST(jsonr_values)
{
	const char *text = "{\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\\"y\\u00e9\\ud83d\\ude00\\n\","
	                   " \"o\": {\"k\": 0.25}, \"a\": 2}";
	jsonr *v = jsonr_parse(text, strlen(text), "t", quiet());
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(jsonr_type_of(v), JSONR_OBJ);
	ck_assert_uint_eq(jsonr_len(v), 4);
	const jsonr *a = jsonr_get(v, "a");              /* the first of a duplicated key */
	ck_assert_uint_eq(jsonr_len(a), 5);
	ck_assert_double_eq(jsonr_num(jsonr_at(a, 1), 0), -2500);
	ck_assert(jsonr_bool(jsonr_at(a, 2), false));
	ck_assert_int_eq(jsonr_type_of(jsonr_at(a, 4)), JSONR_NULL);
	ck_assert_ptr_null(jsonr_at(a, 5));
	ck_assert_str_eq(jsonr_str(jsonr_get(v, "s")), "x\"y\xc3\xa9\xf0\x9f\x98\x80\n");
	ck_assert_double_eq(jsonr_num(jsonr_get(jsonr_get(v, "o"), "k"), 0), 0.25);
	ck_assert_str_eq(jsonr_key_at(v, 2), "o");
	ck_assert_double_eq(jsonr_num(jsonr_get(v, "missing"), 7), 7);
	jsonr_free(v);
}
END_TEST

START_TEST(jsonr_rejects)
{
	const char *bad[] = {"", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "NaN", "[1 2]",
	                     "\"a\tb\"", "\"\\x\"", "\"\\ud800\"", "{\"a\" 1}", "[1] x", "tru",
	                     "{a:1}", "\"abc"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		jsonr *v = jsonr_parse(bad[i], strlen(bad[i]), "t", quiet());
		ck_assert_msg(v == NULL, "accepted <%s>", bad[i]);
	}
	char deep[300];
	memset(deep, '[', 200);   /* deeper than JSONR_MAX_DEPTH: refused, not recursed */
	deep[200] = 0;
	ck_assert_ptr_null(jsonr_parse(deep, 200, "deep", quiet()));
}
END_TEST

/* ---- plots ---- */

static const char *results_csv =
	"index,cluster.nic.speed,training.tp,status,step_time_s,mfu,gpu_util,split_s.compute,"
	"split_s.dp_comm,split_s.idle,error\n"
	"3,100Gbps,8,ok,1.5,0.4,0.9,1,0.5,0,\n"
	"0,10Gbps,4,ok,4,0.1,0.5,1,3,0,\n"
	"1,10Gbps,8,no_fit,3,0.15,0.6,1,2,0,\n"
	"2,100Gbps,4,invalid,,,,,,,\"bad, layout\"\n";

START_TEST(plot_table_reads_results)
{
	const char *path = scratch("results.csv", results_csv);
	plot_table *t = plot_table_load(path, quiet());
	ck_assert_ptr_nonnull(t);
	ck_assert_uint_eq(plot_table_nrows(t), 4);
	ck_assert_uint_eq(plot_table_ncols(t), 11);
	size_t kf, nk;
	plot_table_keys(t, &kf, &nk);
	ck_assert_uint_eq(kf, 1);
	ck_assert_uint_eq(nk, 2);
	ck_assert_str_eq(plot_table_cell(t, 0, 0), "0");              /* sorted by index */
	ck_assert_str_eq(plot_table_cell(t, 3, 1), "100Gbps");
	ck_assert_str_eq(plot_table_cell(t, 2, 10), "bad, layout");
	ck_assert_int_eq(plot_table_find(t, "mfu"), 5);
	plot_table_free(t);
	const char *notcsv = scratch("notcsv.csv", "{\"index\":0}\n");
	ck_assert_ptr_null(plot_table_load(notcsv, quiet()));
	unlink(notcsv);
	unlink(path);
}
END_TEST

/* results_csv as `sweep --format json` writes it: the report's objects
 * nested, numbers as numbers, an invalid point with its error alone. */
static const char *results_jsonl =
	"{\"index\":3,\"cluster.nic.speed\":\"100Gbps\",\"training.tp\":8,\"status\":\"ok\","
	"\"step_time_s\":1.5,\"mfu\":0.4,\"gpu_util\":0.9,\"split_s\":{\"compute\":1,\"dp_comm\":0.5,"
	"\"idle\":0},\"memory\":{\"fits\":true},\"notes\":[\"a list: no column\"],\"x\":null}\n"
	"{\"index\":0,\"cluster.nic.speed\":\"10Gbps\",\"training.tp\":4,\"status\":\"ok\","
	"\"step_time_s\":4,\"mfu\":0.1,\"gpu_util\":0.5,\"split_s\":{\"compute\":1,\"dp_comm\":3,"
	"\"idle\":0},\"memory\":{\"fits\":true},\"notes\":[]}\n"
	"{\"index\":1,\"cluster.nic.speed\":\"10Gbps\",\"training.tp\":8,\"status\":\"no_fit\","
	"\"step_time_s\":3,\"mfu\":0.15,\"gpu_util\":0.6,\"split_s\":{\"compute\":1,\"dp_comm\":2,"
	"\"idle\":0},\"memory\":{\"fits\":false},\"notes\":[]}\n"
	"{\"index\":2,\"cluster.nic.speed\":\"100Gbps\",\"training.tp\":4,\"status\":\"invalid\","
	"\"error\":\"bad, layout\"}\n";

/* A plot's data from a results file (kind "split", else speed). */
static char *plot_data_of(const char *name, const char *text, const char *kind)
{
	const char *path = scratch(name, text);
	plot_table *t = plot_table_load(path, quiet());
	ck_assert_ptr_nonnull(t);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	plot_axis axis;
	ck_assert_int_eq(strcmp(kind, "split") ? plot_write_speed(t, NULL, NULL, mem, &axis, quiet())
	                                       : plot_write_split((const plot_table *const *)&t, 1, false, mem, quiet()), 0);
	fclose(mem);
	plot_table_free(t);
	unlink(path);
	return buf;
}

/* The JSON Lines of a sweep are read into the cells its CSV has (plot said
 * "not the CSV of a trainsim sweep"), so every plot draws them alike. */
START_TEST(plot_table_reads_json_lines)
{
	const char *cpath = scratch("results.csv", results_csv);
	const char *jpath = scratch("results.jsonl", results_jsonl);
	plot_table *c = plot_table_load(cpath, quiet()), *j = plot_table_load(jpath, quiet());
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(j);
	ck_assert_uint_eq(plot_table_nrows(j), 4);
	size_t kf, nk;
	plot_table_keys(j, &kf, &nk);
	ck_assert_uint_eq(kf, 1);
	ck_assert_uint_eq(nk, 2);
	for (size_t col = 0; col < plot_table_ncols(c); col++) {
		int k = plot_table_find(j, plot_table_colname(c, col));
		ck_assert_msg(k >= 0, "no column %s", plot_table_colname(c, col));
		for (size_t r = 0; r < 4; r++)
			ck_assert_str_eq(plot_table_cell(j, r, (size_t)k), plot_table_cell(c, r, col));
	}
	ck_assert_str_eq(plot_table_cell(j, 1, (size_t)plot_table_find(j, "memory.fits")), "false");
	ck_assert_str_eq(plot_table_cell(j, 0, (size_t)plot_table_find(j, "x")), "");
	ck_assert_int_lt(plot_table_find(j, "notes"), 0);
	plot_table_free(c);
	plot_table_free(j);
	unlink(cpath);
	unlink(jpath);
	const char *kinds[] = {"split", "speed"};
	for (int i = 0; i < 2; i++) {
		char *a = plot_data_of("results.csv", results_csv, kinds[i]);
		char *b = plot_data_of("results.jsonl", results_jsonl, kinds[i]);
		ck_assert_str_eq(a, b);
		free(a);
		free(b);
	}
	/* refused, saying where: a line that is not JSON, one that is not a
	 * point, a trace */
	static const struct { const char *text, *says; } bad[] = {
		{"{\"index\":0,\"status\":\"ok\"}\n{\"index\":1,\"status\":\"ok\",}\n",
		 "bad.jsonl:2:26: expected a key"},
		{"{\"index\":0,\"status\":\"ok\"}\n{\"status\":\"ok\",\"index\":1}\n",
		 "bad.jsonl:2: not a point"},
		{"{\"index\":-1,\"status\":\"ok\"}\n", "bad.jsonl:1: not a point"},
		{"{\"index\":0.5,\"status\":\"ok\"}\n", "bad.jsonl:1: not a point"},
		{"{\"index\":0}\n", "bad.jsonl:1: not a point"},
		{"{\"traceEvents\":[]}\n", "--kind timeline"},
		{"{\n  \"index\": 0\n}\n", "`trainsim run --format csv`"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *path = scratch("bad.jsonl", bad[i].text);
		char *msg = NULL;
		size_t len = 0;
		FILE *err = open_memstream(&msg, &len);
		ck_assert_ptr_null(plot_table_load(path, err));
		fclose(err);
		ck_assert_msg(strstr(msg, bad[i].says), "%s: '%s', not '%s'", bad[i].text, msg,
		              bad[i].says);
		free(msg);
		unlink(path);
	}
}
END_TEST

START_TEST(plot_speed_data)
{
	const char *path = scratch("results.csv", results_csv);
	plot_table *t = plot_table_load(path, quiet());
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	plot_axis axis;
	ck_assert_int_eq(plot_write_speed(t, NULL, NULL, mem, &axis, quiet()), 0);
	fclose(mem);
	/* Series tp=4 (first seen) then tp=8; the invalid row is left out;
	 * bandwidths in Gb/s on a log axis. */
	ck_assert_str_eq(buf, "\"tp=4\"\n10 4 0.1 0.5 \"10Gbps\" 1\n\n\n"
	                      "\"tp=8\"\n10 3 0.15 0.6 \"10Gbps\" 0\n100 1.5 0.4 0.9 \"100Gbps\" 1\n");
	ck_assert_str_eq(axis.label, "NIC speed (Gb/s)");
	ck_assert(axis.log);
	free(buf);
	buf = NULL;
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_speed(t, "training.tp", "", mem, &axis, quiet()), 0);
	fclose(mem);
	ck_assert_str_eq(buf, "\"all points\"\n4 4 0.1 0.5 \"4\" 1\n8 3 0.15 0.6 \"8\" 0\n"
	                      "8 1.5 0.4 0.9 \"8\" 1\n");
	ck_assert(!axis.log);
	free(buf);
	ck_assert_int_lt(plot_write_speed(t, "nope", NULL, quiet(), &axis, quiet()), 0);
	plot_table_free(t);
	unlink(path);
}
END_TEST

/* The title of the speed plot's single series for a scenario name, the key
 * swept over values. */
static char *single_title_of(const char *name, const char *key, const char *values)
{
	char csv[1024], *buf = NULL;
	size_t len = 0, n = 0;
	n += (size_t)snprintf(csv + n, sizeof csv - n,
	                      "index,%s,status,scenario,step_time_s,mfu,gpu_util\n", key);
	char v[256];
	snprintf(v, sizeof v, "%s", values);
	int i = 0;
	for (char *save = NULL, *x = strtok_r(v, " ", &save); x; x = strtok_r(NULL, " ", &save))
		n += (size_t)snprintf(csv + n, sizeof csv - n, "%d,%s,ok,\"%s\",1,0.5,0.9\n", i++, x,
		                      name);
	const char *path = scratch("single.csv", csv);
	plot_table *t = plot_table_load(path, quiet());
	ck_assert_ptr_nonnull(t);
	FILE *mem = open_memstream(&buf, &len);
	plot_axis axis;
	ck_assert_int_eq(plot_write_speed(t, NULL, NULL, mem, &axis, quiet()), 0);
	fclose(mem);
	plot_table_free(t);
	unlink(path);
	*strchr(buf + 1, '"') = 0;
	memmove(buf, buf + 1, strlen(buf));
	return buf;
}

/* A single series spans the swept values: its title leaves out the parts of
 * the scenario's name that state one (the name says the base scenario's). */
START_TEST(plot_speed_single_title)
{
	static const char nic[] = "cluster.nic.speed", tp[] = "training.tp",
		mb[] = "training.micro_batch", gpn[] = "cluster.gpus_per_node", nodes[] = "cluster.nodes";
	static const struct { const char *name, *key, *values, *title; } cases[] = {
		{"100B GPT, data-parallel on 4 x 8 A100, 10GbE", nic, "10Gbps 25Gbps 400Gbps",
		 "100B GPT, data-parallel on 4 x 8 A100"},
		{"100B GPT, data-parallel on 4 x 8 A100, 10GbE", nic, "25Gbps 100Gbps",
		 "100B GPT, data-parallel on 4 x 8 A100"},
		{"7B on 10 Gb/s (TCP), 80GB GPUs", nic, "10Gbps 25Gbps", "80GB GPUs"},
		{"A100 cluster, 200Gbps", nic, "10Gbps", "A100 cluster"},
		{"GPT-3 on H100", nic, "10Gbps 100Gbps", "GPT-3 on H100"},
		{"400Gbps", nic, "10Gbps", "all points"},
		/* a number counts the key's only when named with it */
		{"100B GPT, data-parallel on 4 x 8 A100, 100GbE", tp, "1 2 4",
		 "100B GPT, data-parallel on 4 x 8 A100, 100GbE"},
		{"70B, tp 8, 400G IB", tp, "2 4 8", "70B, 400G IB"},
		{"70B, TP8 PP2, 400G IB", tp, "2 4 8", "70B, 400G IB"},
		{"70B, micro-batch 4, 400G IB", mb, "1 2 4", "70B, 400G IB"},
		{"70B, 8 GPUs per node", gpn, "4 8", "70B"},
		{"70B on 8 TPUs-equivalent, 2 node-local SSDs", tp, "2 8",
		 "70B on 8 TPUs-equivalent, 2 node-local SSDs"},
		{"70B, 16 nodes, 2 node-local SSDs", nodes, "8 16", "70B, 2 node-local SSDs"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *title = single_title_of(cases[i].name, cases[i].key, cases[i].values);
		ck_assert_msg(!strcmp(title, cases[i].title), "%s over %s: '%s', expected '%s'",
		              cases[i].name, cases[i].values, title, cases[i].title);
		free(title);
	}
}
END_TEST

START_TEST(plot_split_data)
{
	const char *path = scratch("results.csv", results_csv);
	plot_table *t = plot_table_load(path, quiet());
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_split((const plot_table *const *)&t, 1, false, mem, quiet()), 0);
	fclose(mem);
	/* every category in its fixed place (its colour); those the results
	 * lack, and split_s.idle, zero everywhere, untitled */
	ck_assert_str_eq(buf, "configuration compute \"\" \"\" \"\" dp_comm \"\" \"\" \"\" \"\"\n"
	                      "\"speed=10Gbps tp=4\" 1 0 0 0 3 0 0 0 0\n"
	                      "\"speed=10Gbps tp=8 (no fit)\" 1 0 0 0 2 0 0 0 0\n"
	                      "\"speed=100Gbps tp=8\" 1 0 0 0 0.5 0 0 0 0\n");
	free(buf);
	plot_table_free(t);
	unlink(path);
}
END_TEST

/* Several results side by side (the teaching scenarios' `run --format csv`
 * rows, a sweep of another scenario): each table's rows in turn, each bar
 * named by its scenario first; a category one table lacks is 0 in its rows
 * and shown when another has it; --percent writes each row as shares. */
START_TEST(plot_split_several)
{
	const char *a = scratch("a.csv", "index,status,scenario,split_s.compute,split_s.dp_comm\n"
	                                 "0,ok,Teach: DP,1,3\n");
	const char *b = scratch("b.csv", "index,training.pp,status,scenario,split_s.compute,"
	                                 "split_s.pp_bubble\n0,2,ok,Teach: PP,3,1\n1,4,ok,Teach: PP,2,2\n");
	plot_table *t[2] = {plot_table_load(a, quiet()), plot_table_load(b, quiet())};
	ck_assert(t[0] && t[1]);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_split((const plot_table *const *)t, 2, false, mem, quiet()), 0);
	fclose(mem);
	ck_assert_str_eq(buf, "configuration compute \"\" \"\" pp_bubble dp_comm \"\" \"\" \"\" \"\"\n"
	                      "\"Teach: DP\" 1 0 0 0 3 0 0 0 0\n"
	                      "\"Teach: PP: 2\" 3 0 0 1 0 0 0 0 0\n"
	                      "\"Teach: PP: 4\" 2 0 0 2 0 0 0 0 0\n");
	free(buf);
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_split((const plot_table *const *)t, 2, true, mem, quiet()), 0);
	fclose(mem);
	ck_assert_ptr_nonnull(strstr(buf, "\"Teach: DP\" 25 0 0 0 75 0 0 0 0\n"
	                                  "\"Teach: PP: 2\" 75 0 0 25 0 0 0 0 0\n"
	                                  "\"Teach: PP: 4\" 50 0 0 50 0 0 0 0 0\n"));
	free(buf);
	/* one scenario's title each: none shared */
	char title[64];
	plot_table_title(t[1], title, sizeof title);
	ck_assert_str_eq(title, "Teach: PP");
	plot_table_free(t[0]);
	plot_table_free(t[1]);
	unlink(a);
	unlink(b);
}
END_TEST

/* The header of the split data of a results table. */
static char *split_header(const char *csv)
{
	const char *path = scratch("split.csv", csv);
	plot_table *t = plot_table_load(path, quiet());
	ck_assert_ptr_nonnull(t);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_split((const plot_table *const *)&t, 1, false, mem, quiet()), 0);
	fclose(mem);
	plot_table_free(t);
	unlink(path);
	*strchr(buf, '\n') = '\0';
	return buf;
}

/* dp_comm keeps its column (so its colour) whichever other categories a
 * sweep has: it was the second column of a DP sweep and the third of a TP
 * one, green in one picture and light blue in the other. A category of a
 * later version follows the step's nine; the colours are one per category. */
START_TEST(plot_split_categories_keep_their_place)
{
	char *dp = split_header("index,cluster.nic.speed,status,split_s.compute,split_s.tp_comm,"
	                        "split_s.dp_comm,split_s.optimizer\n0,10Gbps,ok,1,0,7,0.1\n");
	char *tp = split_header("index,training.tp,status,split_s.compute,split_s.tp_comm,"
	                        "split_s.dp_comm,split_s.optimizer,split_s.new_thing\n"
	                        "0,8,ok,1,2,0.5,0.1,0.2\n");
	ck_assert_str_eq(dp, "configuration compute \"\" \"\" \"\" dp_comm \"\" \"\" optimizer \"\"");
	ck_assert_str_eq(tp, "configuration compute tp_comm \"\" \"\" dp_comm \"\" \"\" optimizer \"\" "
	                     "new_thing");
	free(dp);
	free(tp);
	char *gp = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&gp, &len);
	plot_write_colours(mem);
	fclose(mem);
	/* linetype 5 is the fifth column, dp_comm, and no colour is used twice */
	ck_assert_ptr_nonnull(strstr(gp, "set linetype 5 lc rgb \"#f0e442\"   # dp_comm\n"));
	ck_assert_ptr_nonnull(strstr(gp, "set linetype 9 lc rgb \"#999999\"   # idle\n"));
	char seen[9][8];
	int n = 0;
	for (const char *a = gp; n < 9 && (a = strstr(a, "rgb \"")); a += 5) {
		snprintf(seen[n], sizeof seen[n], "%.7s", a + 5);
		for (int i = 0; i < n; i++)
			ck_assert_str_ne(seen[i], seen[n]);
		n++;
	}
	ck_assert_int_eq(n, 9);
	free(gp);
}
END_TEST

/* A pipeline's ops: forwards, backwards and recomputes in blocks of their
 * own after the step's categories; a backward's pieces and the recomputes
 * between them labelled once, by micro-batch, centred on the whole op; an
 * op too narrow for its number left unlabelled; the title from otherData. */
START_TEST(plot_timeline_phases)
{
	const char *path = scratch("phases.json",
	        "{\"traceEvents\":["
	        "{\"name\":\"F3\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":0,\"dur\":400},"
	        "{\"name\":\"R3\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":400,\"dur\":100},"
	        "{\"name\":\"B3\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":500,\"dur\":200},"
	        "{\"name\":\"R3\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":700,\"dur\":100},"
	        "{\"name\":\"B3\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":800,\"dur\":200},"
	        "{\"name\":\"F12.c1\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":1000,\"dur\":5},"
	        "{\"name\":\"optimizer\",\"cat\":\"optimizer\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":1005,\"dur\":95}"
	        "],\"otherData\":{\"scenario\":\"Teach: it's 8 stages\",\"set\":\"training.pp=4\"}}");
	char *buf = NULL, title[128];
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_timeline(path, 0, 0, mem, quiet(), title, sizeof title), 0);
	fclose(mem);
	ck_assert_str_eq(title, "Teach: it's 8 stages; set training.pp=4");
	ck_assert_ptr_nonnull(strstr(buf, "\"compute: forward\"\n0 0.0004 0 \"pid 0 tid 0\"\n"
	                                  "0.001 0.001005 0 "));
	ck_assert_ptr_nonnull(strstr(buf, "\"compute: backward\"\n0.0005 0.0007 0 "));
	ck_assert_ptr_nonnull(strstr(buf, "\"compute: recompute\"\n0.0004 0.0005 0 "));
	ck_assert_ptr_nonnull(strstr(buf, "\"optimizer\"\n0.001005 0.0011 0 "));
	/* F3 over 0-0.4 ms, the backward of 3 (its recomputes with it) over
	 * 0.4-1 ms; F12 (5 us of 1.1 ms) too narrow */
	const char *labels = strstr(buf, "\"labels\"\n");
	ck_assert_ptr_nonnull(labels);
	ck_assert_str_eq(labels, "\"labels\"\n0.0002 0.0002 0 \"3\"\n0.0007 0.0007 0 \"3\"\n");
	free(buf);
	unlink(path);
}
END_TEST

START_TEST(plot_timeline_data)
{
	const char *path = scratch("trace.json",
	        "{\"traceEvents\":["
	        "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"GPU 1\"}},"
	        "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":3,\"args\":{\"name\":\"dp\"}},"
	        "{\"name\":\"fwd\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":1,\"tid\":0,\"ts\":1000,\"dur\":500},"
	        "{\"name\":\"ar\",\"cat\":\"dp_comm\",\"ph\":\"X\",\"pid\":1,\"tid\":3,\"ts\":1500,\"dur\":250},"
	        "{\"name\":\"fwd\",\"cat\":\"compute\",\"ph\":\"X\",\"pid\":0,\"tid\":0,\"ts\":1200,\"dur\":100}"
	        "]}");
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_timeline(path, 0, 0, mem, quiet(), NULL, 0), 0);
	fclose(mem);
	/* every category in its fixed place (its colour), an absent one untitled
	 * with a point off the rows; times from the step's start at 0 */
	ck_assert_str_eq(buf, "\"compute\"\n0.001 0.0015 1 \"GPU 1 tid 0\"\n0.0012 0.0013 0 "
	                      "\"pid 0 tid 0\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"dp_comm\"\n0.0015 0.00175 2 \"GPU 1 dp\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      /* the three phases of compute ops, then the labels */
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"labels\"\n0 0 -1 \"\"\n");
	free(buf);
	/* a window (1.4 to 1.6 ms): events clipped to it, those outside left out,
	 * a category with none there untitled; a window with nothing refused */
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_timeline(path, 0.0014, 0.0016, mem, quiet(), NULL, 0), 0);
	fclose(mem);
	ck_assert_str_eq(buf, "\"compute\"\n0.0014 0.0015 1 \"GPU 1 tid 0\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"dp_comm\"\n0.0015 0.0016 2 \"GPU 1 dp\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"\"\nNaN NaN -1 \"\"\n"
	                      "\n\n\"\"\nNaN NaN -1 \"\"\n\n\n\"labels\"\n0.0014 0.0014 -1 \"\"\n");
	free(buf);
	ck_assert_int_lt(plot_write_timeline(path, 0.002, 0, quiet(), quiet(), NULL, 0), 0);
	/* a foreign trace that names every event: 24 categories of their own
	 * after the step's nine and the three phases, the rest one "other"
	 * block, every event written once (it was events x categories: 80,000
	 * names ran past 300 s), then the labels (none: no pipeline op) */
	size_t cap = 64 + 40 * 100, n = 0;
	char *many = malloc(cap);
	n += (size_t)snprintf(many + n, cap - n, "{\"traceEvents\":[");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(many + n, cap - n, "%s{\"name\":\"n%02d\",\"ph\":\"X\","
		                      "\"pid\":0,\"tid\":0,\"ts\":%d,\"dur\":1}", i ? "," : "", i, i);
	snprintf(many + n, cap - n, "]}");
	const char *mpath = scratch("many.json", many);
	free(many);
	mem = open_memstream(&buf, &len);
	ck_assert_int_eq(plot_write_timeline(mpath, 0, 0, mem, quiet(), NULL, 0), 0);
	fclose(mem);
	int blocks = 0, rows = 0;
	for (const char *c = buf; *c; c++)
		if (*c == '\n' && c[1] == '"')
			blocks++;
		else if (*c == '\n' && isdigit((unsigned char)c[1]))
			rows++;
	ck_assert_int_eq(blocks + (buf[0] == '"'), 9 + 3 + 24 + 1 + 1);
	ck_assert_int_eq(rows, 40 + 1);
	ck_assert_ptr_nonnull(strstr(buf, "\"n23\"\n"));
	ck_assert_ptr_null(strstr(buf, "\"n24\"\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\"other\"\n"));
	free(buf);
	unlink(mpath);
	const char *empty = scratch("empty.json", "{\"traceEvents\":[]}");
	ck_assert_int_lt(plot_write_timeline(empty, 0, 0, quiet(), quiet(), NULL, 0), 0);
	const char *notrace = scratch("notrace.json", "{\"step_time_s\":1}");
	ck_assert_int_lt(plot_write_timeline(notrace, 0, 0, quiet(), quiet(), NULL, 0), 0);
	unlink(path);
	unlink(empty);
	unlink(notrace);
}
END_TEST

START_TEST(plot_scripts_embedded)
{
	const char *kinds[] = {"speed", "split", "timeline"};
	for (int i = 0; i < 3; i++) {
		const char *s = plot_script(kinds[i]);
		ck_assert_ptr_nonnull(s);
		ck_assert_ptr_nonnull(strstr(s, "ARG1"));
		ck_assert_ptr_nonnull(strstr(s, "set output ARG2"));
	}
	ck_assert_ptr_null(plot_script("pie"));
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *t = tcase_create("plan");
	tcase_add_test(t, plan_cross_product_order);
	tcase_add_test(t, plan_brackets_keep_commas);
	tcase_add_test(t, plan_errors);
	tcase_add_test(t, shard_parse);
	tcase_add_test(t, shards_partition_the_points);
	tcase_add_test(t, line_index);
	tcase_add_test(t, row_error);
	tcase_add_test(t, row_prefix_and_values);
	suite_add_tcase(s, t);
	t = tcase_create("files");
	tcase_add_test(t, resume_marks_rows_and_drops_half_line);
	tcase_add_test(t, resume_refuses_other_sweeps);
	tcase_add_test(t, resume_json_lines);
	tcase_add_test(t, merge_sorts_dedups_and_drops_half_lines);
	tcase_add_test(t, merge_refuses_conflicts);
	tcase_add_test(t, merge_json_lines);
	suite_add_tcase(s, t);
	t = tcase_create("processes");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, pool_every_job_once_any_worker_count);
	tcase_add_test(t, pool_stops_when_asked);
	tcase_add_test(t, pool_no_jobs);
	tcase_add_test(t, spawn_status);
	suite_add_tcase(s, t);
	t = tcase_create("plots");
	tcase_add_test(t, jsonr_values);
	tcase_add_test(t, jsonr_rejects);
	tcase_add_test(t, plot_table_reads_results);
	tcase_add_test(t, plot_table_reads_json_lines);
	tcase_add_test(t, plot_speed_data);
	tcase_add_test(t, plot_speed_single_title);
	tcase_add_test(t, plot_split_data);
	tcase_add_test(t, plot_split_categories_keep_their_place);
	tcase_add_test(t, plot_timeline_data);
	tcase_add_test(t, plot_timeline_phases);
	tcase_add_test(t, plot_split_several);
	tcase_add_test(t, plot_scripts_embedded);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(suite());
	srunner_run_all(r, CK_NORMAL);
	int failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
