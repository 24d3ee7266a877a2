/* extprog.c: fork + execvp + waitpid, with the exit status checked. A pipe
 * closed on exec tells the parent why an exec failed (not installed, not
 * executable), so that "gnuplot is missing" is told apart from "gnuplot
 * failed". (fork+execvp rather than posix_spawnp: <spawn.h> pulls in
 * <sched.h>, which the project's -Imodels resolves to models/sched.h.) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "extprog.h"

/* Waits for the child; returns its status, or -1. */
static int wait_child(pid_t pid)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

int extprog_run(char *const argv[], FILE *err)
{
	int pfd[2];
	if (pipe(pfd) < 0 || fcntl(pfd[1], F_SETFD, FD_CLOEXEC) < 0) {
		fprintf(err, "%s: %s\n", argv[0], strerror(errno));
		return EXTPROG_EFAIL;
	}
	fflush(NULL);   /* the child must not inherit half-written buffers */
	pid_t pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		execvp(argv[0], argv);
		int e = errno;
		(void)!write(pfd[1], &e, sizeof e);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		fprintf(err, "%s: %s\n", argv[0], strerror(errno));
		return EXTPROG_EFAIL;
	}
	int exec_errno = 0;
	ssize_t n;
	while ((n = read(pfd[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	int status = wait_child(pid);
	if (n == (ssize_t)sizeof exec_errno) {
		fprintf(err, "%s: cannot run it (%s)\n", argv[0], strerror(exec_errno));
		return EXTPROG_ENOENT;
	}
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return EXTPROG_OK;
	if (status < 0)
		fprintf(err, "%s: %s\n", argv[0], strerror(errno));
	else if (WIFSIGNALED(status))
		fprintf(err, "%s: killed by signal %d (%s)\n", argv[0], WTERMSIG(status),
		        strsignal(WTERMSIG(status)));
	else
		fprintf(err, "%s: exited with status %d\n", argv[0], WEXITSTATUS(status));
	return EXTPROG_EFAIL;
}
