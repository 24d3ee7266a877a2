/* trace.c: step_result.timeline as Chrome trace-event JSON, through the one
 * JSON emitter. Tracks are declared by metadata events for exactly the
 * (GPU, stream) pairs that carry intervals, so every track has content. */
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "json.h"
#include "report.h"
#include "trace.h"

static const char *const stream_names[TRACE_STREAMS] = {
	"compute", "tp", "pp", "dp", "data", "checkpoint", "dp groups",
};

const char *trace_stream_name(int stream)
{
	return stream >= 0 && stream < TRACE_STREAMS ? stream_names[stream] : "other";
}

/* Streams outside 0..TRACE_STREAMS-1 share one "other" track. */
static int track_of(const step_interval *iv)
{
	return iv->stream >= 0 && iv->stream < TRACE_STREAMS ? iv->stream : TRACE_STREAMS;
}

static int gpu_count(const step_result *r)
{
	int n = r->timeline_gpus;
	for (size_t i = 0; i < r->n_timeline; i++)
		if (r->timeline[i].gpu >= n)
			n = r->timeline[i].gpu + 1;
	return n;
}

static void meta(json *j, const char *what, int pid, int tid, const char *key, const char *s,
                 int sort)
{
	json_obj_begin(j);
	json_kstr(j, "name", what);
	json_kstr(j, "ph", "M");
	json_kint(j, "pid", pid);
	json_kint(j, "tid", tid);
	json_key(j, "args");
	json_obj_begin(j);
	if (s)
		json_kstr(j, key, s);
	else
		json_kint(j, key, sort);
	json_obj_end(j);
	json_obj_end(j);
}

static void tracks(json *j, const bool *used, int gpus)
{
	char name[32];
	for (int g = 0; g < gpus; g++) {
		bool any = false;
		for (int t = 0; t <= TRACE_STREAMS; t++)
			any |= used[g * (TRACE_STREAMS + 1) + t];
		if (!any)
			continue;
		/* one simulated GPU per pipeline stage stands for the stage's GPUs:
		 * named by its stage, not as a rank it is not */
		if (gpus > 1)
			snprintf(name, sizeof name, "stage %d", g);
		else
			snprintf(name, sizeof name, "GPU 0");
		meta(j, "process_name", g, 0, "name", name, 0);
		meta(j, "process_sort_index", g, 0, "sort_index", NULL, g);
		for (int t = 0; t <= TRACE_STREAMS; t++) {
			if (!used[g * (TRACE_STREAMS + 1) + t])
				continue;
			meta(j, "thread_name", g, t, "name", trace_stream_name(t), 0);
			meta(j, "thread_sort_index", g, t, "sort_index", NULL, t);
		}
	}
}

static void event(json *j, const step_interval *iv)
{
	const char *cat = step_split_name(iv->cat);
	json_obj_begin(j);
	json_kstr(j, "name", iv->label[0] ? iv->label : cat);
	json_kstr(j, "cat", cat);
	json_kstr(j, "ph", "X");
	json_kint(j, "pid", iv->gpu);
	json_kint(j, "tid", track_of(iv));
	json_knum(j, "ts", iv->t0 * 1e6);
	json_knum(j, "dur", (iv->t1 - iv->t0) * 1e6);
	json_key(j, "args");
	json_obj_begin(j);
	json_kstr(j, "category", cat);
	if (iv->mb >= 0)
		json_kint(j, "micro_batch", iv->mb);
	if (iv->collectives > 1)
		json_kint(j, "collectives", iv->collectives);
	json_obj_end(j);
	json_obj_end(j);
}

static void other_data(json *j, const scenario *s, const step_result *r)
{
	json_key(j, "otherData");
	json_obj_begin(j);
	json_kstr(j, "trainsim_version", PACKAGE_VERSION);
	json_kstr(j, "scenario", s->name);
	if (s->sets[0])   /* the --set overrides the run was made with */
		json_kstr(j, "set", s->sets);
	json_kint(j, "gpus", r->gpus);
	json_kint(j, "simulated_gpus", gpu_count(r));
	json_knum(j, "step_time_s", r->step_time_s);
	json_obj_end(j);
}

int trace_write(FILE *out, const scenario *s, const step_result *r)
{
	if (!r->timeline || r->n_timeline == 0)
		return -1;
	int gpus = gpu_count(r);
	bool *used = calloc((size_t)gpus * (TRACE_STREAMS + 1), sizeof *used);
	json *j = used ? json_new(out, false) : NULL;
	if (!j) {
		free(used);
		return -1;
	}
	for (size_t i = 0; i < r->n_timeline; i++)
		if (r->timeline[i].gpu >= 0)
			used[r->timeline[i].gpu * (TRACE_STREAMS + 1) + track_of(&r->timeline[i])] = true;
	json_obj_begin(j);
	json_kstr(j, "displayTimeUnit", "ms");
	other_data(j, s, r);
	json_key(j, "traceEvents");
	json_arr_begin(j);
	tracks(j, used, gpus);
	for (size_t i = 0; i < r->n_timeline; i++)
		if (r->timeline[i].gpu >= 0)
			event(j, &r->timeline[i]);
	json_arr_end(j);
	json_obj_end(j);
	free(used);
	int rc = json_free(j);
	fputc('\n', out);
	return rc < 0 || ferror(out) ? -1 : 0;
}

int trace_write_file(const char *path, const scenario *s, const step_result *r,
                     char *err, size_t errlen)
{
	if (!r->timeline || r->n_timeline == 0) {
		snprintf(err, errlen, "%s: the simulation recorded no timeline", path);
		return -1;
	}
	report_file *f = report_file_open(path, err, errlen);
	if (!f)
		return -1;
	if (trace_write(report_file_stream(f), s, r) != 0) {
		/* a write failed (a full disk, ulimit -f): the check says why */
		if (report_file_check(f, err, errlen) == 0)
			snprintf(err, errlen, "%s: write failed", path);
		report_file_abort(f);
		return -1;
	}
	return report_file_commit(f, err, errlen);
}
