/* main.c: trainsim's entry point: dispatches to a subcommand (cli.h). */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include "config.h"
#include "cli.h"
#include "scn_int.h"   /* scn__edit_distance: "did you mean" */

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct command commands[] = {
	{"run", cmd_run, "run SCENARIO [--set KEY=VALUE]... [--format text|json|csv] [--trace FILE] [--explain] [--max-events N] [--max-memory SIZE] [-q]"},
	{"check", cmd_check, "check SCENARIO [--set KEY=VALUE]... [--show] [-q]   validate; does it fit?"},
	{"explain", cmd_explain, "explain SCENARIO [--set KEY=VALUE]... [--max-events N] [--max-memory SIZE] [-q]   the step in plain words"},
	{"compare", cmd_compare, "compare SCENARIO [SCENARIO_B] [--set KEY=VALUE]... [--with KEY=VALUE]... [--format text|json] [-q]   two runs side by side"},
	{"nccl", cmd_nccl, "nccl SCENARIO [--op OP] [-b MIN] [-e MAX] [-f FACTOR] [-i STEP] [--gpus N] [--algo ALGO] [--proto PROTO] [-g N] [--root R] [--ps-servers N] [--set KEY=VALUE]... [--format text|json] [--max-memory SIZE] [-q]"},
	{"sweep", cmd_sweep, "sweep SCENARIO --vary KEY=V1,V2,... [--vary ...] [--set KEY=VALUE]... [-j N] [--out FILE] [--plot FILE.png] [--resume] [--shard K/N] [--format csv|json] [--max-events N] [-q]"},
	{"merge", cmd_merge, "merge OUT FILE...                        join sweep shards"},
	{"plot", cmd_plot, "plot RESULTS --kind speed|split|timeline|parity [--x KEY] [--series KEY,...] [--from T --to T] -o FILE.png|svg"},
	{"validate", cmd_validate, "validate [PUBLISHED.csv] [--format text|csv] [--only PREFIX[,PREFIX...]] [--show ID]"},
	{"list", cmd_list, "list gpus|nics|topologies"},
};

static void usage(FILE *out)
{
	fprintf(out, "trainsim %s: a discrete-event simulator of distributed training\n\nusage:\n",
		PACKAGE_VERSION);
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(out, "  trainsim %s\n", commands[i].usage);
	fprintf(out, "\n'trainsim COMMAND --help' lists every option of a command.\n"
		"Documentation: README.md, docs/scenario.md, docs/architecture.md\n");
}

/* A command whose output could not be written (a full disk, a closed pipe)
 * fails and says so (`run` says it itself, with the report's own words). */
static int finish(const char *name, int rc)
{
	errno = 0;
	bool flushed = fflush(stdout) == 0;
	int err = errno;
	if ((!flushed || ferror(stdout)) && strcmp(name, "run")) {
		fprintf(stderr, "trainsim %s: the output could not be written%s%s\n", name,
		        err ? ": " : " (a full disk or a closed pipe?)", err ? strerror(err) : "");
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	gsl_set_error_handler_off();
	/* past a file-size limit (ulimit -f) a write fails with EFBIG, which the
	 * writers report and clean up after, instead of the signal killing the
	 * process without a word and leaving its temporary files behind */
	signal(SIGXFSZ, SIG_IGN);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	/* asked for, so their output is the result: one that was not written fails */
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish(argv[1], 0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("trainsim %s\n", PACKAGE_VERSION);
		return finish(argv[1], 0);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish(commands[i].name, commands[i].fn(argc - 1, argv + 1));
	const char *near = NULL;
	size_t best = 3;
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		size_t d = scn__edit_distance(argv[1], commands[i].name);
		if (d < best) {
			best = d;
			near = commands[i].name;
		}
	}
	if (near)
		fprintf(stderr, "trainsim: unknown command '%s'; did you mean '%s'?\n\n", argv[1], near);
	else
		fprintf(stderr, "trainsim: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 2;
}
