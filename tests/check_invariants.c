/* check_invariants.c: properties that hold for every shipped scenario
 * (scenarios/, recursively): the time split sums to the step time; no flow
 * network delivers more bytes than it was given; utilizations lie in 0..1;
 * results are finite; twice the NIC speed or twice the GPU peak never makes a
 * step slower; the same seed gives the same result. INVARIANTS_SCENARIOS=TEXT
 * keeps only the paths that contain TEXT (tests/valgrind.sh: the quick ones). */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "flow.h"
#include "scn_int.h"
#include "step.h"

#define MAX_SCENARIOS 256
#define REL_TOL 1e-9

static char *paths[MAX_SCENARIOS];
static int npaths;

/* ---- flow networks: checked as the step model frees them ----
 * The link flags (-Wl,--wrap=flow_free, tests/fuzz/fuzz.am) route the step
 * model's calls of flow_free here, so every network is checked without a hook
 * in the model. */
void __real_flow_free(flownet *n);
void __wrap_flow_free(flownet *n);
static int nets_checked;
static char flow_violation[256];

void __wrap_flow_free(flownet *n)
{
	if (n) {
		double started = flow_bytes_started(n), delivered = flow_bytes_delivered(n);
		nets_checked++;
		if (!(delivered >= 0 && delivered <= started * (1 + REL_TOL) + 1e-6) &&
		    !flow_violation[0])
			snprintf(flow_violation, sizeof flow_violation,
			         "a flow network delivered %.17g bytes of %.17g started", delivered,
			         started);
	}
	__real_flow_free(n);
}

/* ---- scenarios ---- */

static const char *srcdir(void)
{
	const char *d = getenv("top_srcdir");
	return d && *d ? d : ".";
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_scenarios(const char *dir)
{
	const char *only = getenv("INVARIANTS_SCENARIOS");
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		char path[1024];
		struct stat st;
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			find_scenarios(path);
		else if (l > 5 && !strcmp(e->d_name + l - 5, ".yaml") && npaths < MAX_SCENARIOS &&
		         (!only || strstr(path, only)))
			paths[npaths++] = strdup(path);
	}
	closedir(d);
}

/* Loads path with one optional --set; fails the test on a refusal. */
static void load(const char *path, const char *set, scenario *s)
{
	char *msg = NULL;
	size_t len = 0;
	FILE *err = open_memstream(&msg, &len);
	int rc = scn_load(path, set ? &set : NULL, set ? 1 : 0, s, err, true);
	fclose(err);
	ck_assert_msg(rc == 0, "%s%s%s does not load:\n%s", path, set ? " --set " : "",
	              set ? set : "", msg);
	free(msg);
}

static void run(const char *path, const char *set, step_result *r)
{
	scenario s;
	char err[512] = "";
	load(path, set, &s);
	step_opts o = {.want_timeline = false, .max_events = 0};
	int rc = step_run(&s, &o, r, err, sizeof err);
	ck_assert_msg(rc == 0, "%s%s%s: step_run failed: %s", path, set ? " --set " : "",
	              set ? set : "", err);
	scn_release(&s);
}

/* ---- the invariants ---- */

static void check_split(const char *path, const step_result *r)
{
	double sum = 0;
	for (int k = 0; k < SPLIT__N; k++) {
		ck_assert_msg(isfinite(r->split_s[k]) && r->split_s[k] >= 0,
		              "%s: split %s = %g", path, step_split_name((step_split)k), r->split_s[k]);
		sum += r->split_s[k];
	}
	ck_assert_msg(r->step_time_s > 0 && isfinite(r->step_time_s), "%s: step time %g", path,
	              r->step_time_s);
	ck_assert_msg(fabs(sum - r->step_time_s) <= REL_TOL * r->step_time_s,
	              "%s: the split sums to %.17g s, the step takes %.17g s", path, sum,
	              r->step_time_s);
}

static void check_fraction(const char *path, const char *what, double v)
{
	ck_assert_msg(isfinite(v) && v >= 0 && v <= 1, "%s: %s = %.17g, not in 0..1", path, what, v);
}

static void check_ranges(const char *path, const step_result *r)
{
	check_fraction(path, "mfu", r->mfu);
	check_fraction(path, "hfu", r->hfu);
	check_fraction(path, "gpu_util", r->gpu_util);
	check_fraction(path, "goodput", r->goodput);
	ck_assert_msg(r->mfu <= r->hfu * (1 + REL_TOL), "%s: mfu %g > hfu %g", path, r->mfu,
	              r->hfu);
	const double finite[] = {r->tokens_per_s, r->model_tflops_per_gpu,
		r->hardware_tflops_per_gpu, r->step_p50_s, r->step_p95_s, r->step_p99_s,
		r->dp_bytes_per_gpu, r->dp_allreduce_s, r->data_bytes_per_step, r->time_to_train_s,
		r->checkpoint.bytes, r->checkpoint.write_s, r->checkpoint.stall_s,
		r->memory.total};
	for (size_t i = 0; i < sizeof finite / sizeof finite[0]; i++)
		ck_assert_msg(isfinite(finite[i]) && finite[i] >= 0, "%s: result %zu is %g", path, i,
		              finite[i]);
	ck_assert_msg(r->step_p50_s <= r->step_p95_s * (1 + REL_TOL) &&
	              r->step_p95_s <= r->step_p99_s * (1 + REL_TOL),
	              "%s: percentiles out of order", path);
}

/* Same scenario, same seed: the same numbers and sentences. */
static void check_same(const char *path, const step_result *a, const step_result *b)
{
	ck_assert_msg(a->step_time_s == b->step_time_s, "%s: step %.17g then %.17g", path,
	              a->step_time_s, b->step_time_s);
	ck_assert_msg(!memcmp(a->split_s, b->split_s, sizeof a->split_s), "%s: split differs", path);
	ck_assert_msg(a->step_p50_s == b->step_p50_s && a->step_p99_s == b->step_p99_s &&
	              a->mfu == b->mfu && a->gpu_util == b->gpu_util &&
	              a->goodput == b->goodput && a->events == b->events,
	              "%s: a second run differs", path);
	ck_assert_str_eq(a->bottleneck, b->bottleneck);
	ck_assert_int_eq(a->n_notes, b->n_notes);
	for (int i = 0; i < a->n_notes; i++)
		ck_assert_str_eq(a->notes[i], b->notes[i]);
}

/* Step time with `set` applied is no longer than `base_s`. */
static void check_not_slower(const char *path, const char *set, double base_s)
{
	step_result f;
	run(path, set, &f);
	ck_assert_msg(f.step_time_s <= base_s * (1 + REL_TOL),
	              "%s: --set %s makes the step slower: %.9g s -> %.9g s", path, set, base_s,
	              f.step_time_s);
	step_result_release(&f);
}

START_TEST(invariants_hold)
{
	const char *path = paths[_i];
	step_result a, b;
	scenario s;
	char set[128];
	nets_checked = 0;
	flow_violation[0] = '\0';
	run(path, NULL, &a);
	ck_assert_msg(nets_checked > 0, "%s: no flow network was freed", path);
	ck_assert_msg(!flow_violation[0], "%s: %s", path, flow_violation);
	check_split(path, &a);
	check_ranges(path, &a);
	run(path, NULL, &b);
	check_same(path, &a, &b);
	load(path, NULL, &s);
	snprintf(set, sizeof set, "cluster.nic.speed=%.17gB/s", 2 * s.cluster.nic.speed_Bps);
	check_not_slower(path, set, a.step_time_s);
	snprintf(set, sizeof set, "cluster.gpu.%s=%.17gFLOPS",
	         scn__precision_names[s.training.precision],
	         2 * s.cluster.gpu.peak_flops[s.training.precision]);
	check_not_slower(path, set, a.step_time_s);
	ck_assert_msg(!flow_violation[0], "%s: %s", path, flow_violation);
	scn_release(&s);
	step_result_release(&a);
	step_result_release(&b);
}
END_TEST

int main(void)
{
	char dir[512];
	snprintf(dir, sizeof dir, "%s/scenarios", srcdir());
	find_scenarios(dir);
	if (npaths == 0) {
		fprintf(stderr, "check_invariants: no scenario under %s\n", dir);
		return 1;
	}
	qsort(paths, (size_t)npaths, sizeof *paths, by_name);
	Suite *su = suite_create("invariants");
	TCase *tc = tcase_create("shipped scenarios");
	tcase_set_timeout(tc, 600);   /* per scenario: 4 runs, slower under sanitizers */
	tcase_add_loop_test(tc, invariants_hold, 0, npaths);
	suite_add_tcase(su, tc);
	SRunner *sr = srunner_create(su);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (int i = 0; i < npaths; i++)
		free(paths[i]);
	return failed ? 1 : 0;
}
