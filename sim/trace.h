/* trace.h: the simulated step as a Chrome trace (the trace-event JSON that
 * Perfetto and chrome://tracing open): one process per simulated GPU, one
 * thread (track) per stream of that GPU, complete ("X") events in
 * microseconds, and metadata events that name the processes and tracks. */
#ifndef TRAINSIM_TRACE_H
#define TRAINSIM_TRACE_H

#include <stdio.h>
#include "scenario.h"
#include "step.h"

#define TRACE_STREAMS 7      /* step_interval.stream: 0 compute .. 5 checkpoint, 6 dp groups */

/* Name of a stream's track ("compute", "tp", "pp", "dp", "data", "checkpoint"). */
const char *trace_stream_name(int stream);

/* Writes r->timeline to out. Returns 0, or -1 when the result holds no
 * timeline (step_opts.want_timeline was false) or a write failed. */
int trace_write(FILE *out, const scenario *s, const step_result *r);

/* Writes the trace to `path` whole or not at all (report_file). Returns 0, or
 * -1 with a message in err. */
int trace_write_file(const char *path, const scenario *s, const step_result *r,
                     char *err, size_t errlen);

#endif
