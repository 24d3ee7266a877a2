/* extprog.h: runs an external program (gnuplot) from an argv array, never
 * through a shell, so that no file name can be read as a command. */
#ifndef TRAINSIM_EXTPROG_H
#define TRAINSIM_EXTPROG_H

#include <stdio.h>

enum { EXTPROG_OK = 0, EXTPROG_ENOENT = -1, EXTPROG_EFAIL = -2 };

/* Runs argv[0] (looked up in PATH when it has no '/') with argv, waits for
 * it. Its stdout and stderr are ours. Returns EXTPROG_OK when it exited with
 * status 0, EXTPROG_ENOENT when it could not be started (not installed; a
 * message names it), EXTPROG_EFAIL when it failed (status or signal on err). */
int extprog_run(char *const argv[], FILE *err);

#endif
