/* cli.h: the subcommands of the trainsim program. Each takes the arguments
 * after its name (argv[0] is the subcommand) and returns the process exit
 * status: 0 success, 1 bad input or a failed run, 2 usage error. */
#ifndef TRAINSIM_CLI_H
#define TRAINSIM_CLI_H

int cmd_run(int argc, char **argv);       /* cmd_run.c */
int cmd_check(int argc, char **argv);     /* cmd_run.c */
int cmd_list(int argc, char **argv);      /* cmd_run.c */
int cmd_explain(int argc, char **argv);   /* cmd_run.c */
int cmd_nccl(int argc, char **argv);      /* cmd_nccl.c */
int cmd_validate(int argc, char **argv);  /* cmd_validate.c */
int cmd_sweep(int argc, char **argv);     /* cmd_sweep.c */
int cmd_merge(int argc, char **argv);     /* cmd_sweep.c */
int cmd_plot(int argc, char **argv);      /* cmd_plot.c */
int cmd_compare(int argc, char **argv);   /* cmd_compare.c */

#endif
