/* extprog.c: posix_spawnp + waitpid, with the exit status checked. (Not named
 * spawn.c: a spawn.h of ours would hide the system <spawn.h> under -Isim.) */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "extprog.h"

extern char **environ;

int extprog_run(char *const argv[], FILE *err)
{
	pid_t pid;
	fflush(NULL);   /* the child must not inherit half-written buffers */
	int e = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
	if (e == ENOENT || e == EACCES || e == ENOEXEC) {
		fprintf(err, "%s: cannot run it (%s)\n", argv[0], strerror(e));
		return EXTPROG_ENOENT;
	}
	if (e) {
		fprintf(err, "%s: %s\n", argv[0], strerror(e));
		return EXTPROG_EFAIL;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(err, "%s: %s\n", argv[0], strerror(errno));
			return EXTPROG_EFAIL;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return EXTPROG_OK;
	/* glibc's posix_spawnp reports a failed exec as status 127 on old versions. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		fprintf(err, "%s: cannot run it (not found?)\n", argv[0]);
		return EXTPROG_ENOENT;
	}
	if (WIFSIGNALED(status))
		fprintf(err, "%s: killed by signal %d (%s)\n", argv[0], WTERMSIG(status),
		        strsignal(WTERMSIG(status)));
	else
		fprintf(err, "%s: exited with status %d\n", argv[0], WEXITSTATUS(status));
	return EXTPROG_EFAIL;
}
