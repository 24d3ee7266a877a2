/* spawn.h: runs an external program (gnuplot) from an argv array, never
 * through a shell, so that no file name can be read as a command. */
#ifndef TRAINSIM_SPAWN_H
#define TRAINSIM_SPAWN_H

#include <stdio.h>

enum { SPAWN_OK = 0, SPAWN_ENOENT = -1, SPAWN_EFAIL = -2 };

/* Runs argv[0] (looked up in PATH when it has no '/') with argv, waits for
 * it. Its stdout and stderr are ours. Returns SPAWN_OK when it exited with
 * status 0, SPAWN_ENOENT when it could not be started (not installed; a
 * message names it), SPAWN_EFAIL when it failed (status or signal on err). */
int spawn_run(char *const argv[], FILE *err);

#endif
