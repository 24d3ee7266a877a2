/* plot_colour.c: the one table of the colours of a step's time split, which
 * the split and timeline plots both draw with, so that a category (dp_comm,
 * say) reads alike in every picture a student sets side by side. */
#include "plot.h"
#include "step.h"

/* By step_split: gnuplot 5.4's own first eight linetype colours (`show
 * linetype`), which the timeline has always drawn with, and grey for idle,
 * where gnuplot's ninth would repeat compute's violet. Written out rather
 * than left to gnuplot, so that neither its version nor a user's gnuplotrc
 * changes them. */
static const char *const colours[SPLIT__N] = {
	[SPLIT_COMPUTE] = "#9400d3",      /* dark violet */
	[SPLIT_TP_COMM] = "#009e73",      /* green */
	[SPLIT_PP_COMM] = "#56b4e9",      /* sky blue */
	[SPLIT_PP_BUBBLE] = "#e69f00",    /* orange */
	[SPLIT_DP_COMM] = "#f0e442",      /* yellow */
	[SPLIT_DATA_STALL] = "#0072b2",   /* blue */
	[SPLIT_CHECKPOINT] = "#e51e10",   /* red */
	[SPLIT_OPTIMIZER] = "#000000",    /* black */
	[SPLIT_IDLE] = "#999999",         /* gnuplot's grey60 */
};

void plot_write_colours(FILE *out)
{
	fputs("# The colours of the step's categories, the same in every trainsim plot\n"
	      "# (one table: sim/plot_colour.c): linetype k draws the data's k-th.\n", out);
	for (int k = 0; k < SPLIT__N; k++)
		fprintf(out, "set linetype %d lc rgb \"%s\"   # %s\n", k + 1, colours[k],
		        step_split_name((step_split)k));
}

/* The timeline's phases of a pipeline op (plot_trace.c), after the step's
 * categories: shades of compute's violet, light for the forward, dark for
 * the backward as textbook pipeline diagrams draw them, pink for the
 * recompute that repeats a forward. */
void plot_write_phase_colours(FILE *out)
{
	static const char *const shade[3][2] = {{"#c8a2e8", "forward"}, {"#4b0082", "backward"},
	                                        {"#e377c2", "recompute"}};
	for (int k = 0; k < 3; k++)
		fprintf(out, "set linetype %d lc rgb \"%s\"   # compute: %s\n", SPLIT__N + k + 1,
		        shade[k][0], shade[k][1]);
}
