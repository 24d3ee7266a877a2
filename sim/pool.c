/* pool.c: a pool of forked workers. Each worker has a task pipe (job numbers
 * from the parent) and a result pipe (one line per job back); the parent
 * polls the result pipes and keeps one job in flight per worker, so a
 * worker's death pins down the one job it was running. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <poll.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include "pool.h"

typedef struct worker {
	pid_t pid;            /* 0 = no process in this slot */
	int task_fd;          /* parent writes job numbers */
	int res_fd;           /* parent reads result lines */
	bool busy;
	size_t job;           /* the job in flight when busy */
	char *buf;            /* partial result line */
	size_t len, cap;
} worker;

typedef struct pool {
	const pool_cfg *cfg;
	worker *w;
	int nw;
	const size_t *jobs;
	size_t njobs, next, done;
	bool external_stop;   /* a worker was killed from outside */
	FILE *err;
} pool;

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* 1 = got the whole job number, 0 = end of file, -1 = error. */
static int read_job(int fd, size_t *job)
{
	char *p = (char *)job;
	size_t got = 0;
	while (got < sizeof *job) {
		ssize_t n = read(fd, p + got, sizeof *job - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0 && got == 0 ? 0 : -1;
		got += (size_t)n;
	}
	return 1;
}

/* The worker's life: jobs in, lines out, until the task pipe closes. It
 * leaves with _exit so that it never flushes the parent's stdio buffers. */
static _Noreturn void worker_main(const pool_cfg *c, int task_fd, int res_fd)
{
	size_t job;
	int r;
	while ((r = read_job(task_fd, &job)) == 1) {
		char *line = NULL;
		size_t len = 0;
		if (c->eval(c->eval_ctx, job, &line, &len) < 0)
			_exit(3);
		if (write_full(res_fd, line, len) < 0)
			_exit(4);
		free(line);
	}
	_exit(r == 0 ? 0 : 4);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int worker_start(pool *p, worker *w)
{
	int task[2], res[2];
	if (pipe(task) < 0)
		return -1;
	if (pipe(res) < 0) {
		close(task[0]);
		close(task[1]);
		return -1;
	}
	/* Signals stay blocked across fork until the child has reset their
	 * handlers: a SIGTERM must never run the parent's handler in a worker. */
	sigset_t stop_sigs, old;
	sigemptyset(&stop_sigs);
	sigaddset(&stop_sigs, SIGINT);
	sigaddset(&stop_sigs, SIGTERM);
	sigaddset(&stop_sigs, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop_sigs, &old);
	fflush(NULL);
	pid_t pid = fork();
	if (pid != 0)
		sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		close(task[0]); close(task[1]); close(res[0]); close(res[1]);
		return -1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		for (int i = 0; i < p->nw; i++) {   /* other workers' pipes */
			close_fd(&p->w[i].task_fd);
			close_fd(&p->w[i].res_fd);
		}
		close(task[1]);
		close(res[0]);
		worker_main(p->cfg, task[0], res[1]);
	}
	close(task[0]);
	close(res[1]);
	w->pid = pid;
	w->task_fd = task[1];
	w->res_fd = res[0];
	w->busy = false;
	w->len = 0;
	return 0;
}

/* Gives the worker its next job, if any. */
static int worker_feed(pool *p, worker *w)
{
	if (w->busy || p->next == p->njobs || !w->pid)
		return 0;
	w->job = p->jobs[p->next++];
	w->busy = true;
	if (write_full(w->task_fd, &w->job, sizeof w->job) == 0)
		return 0;
	/* The worker is gone (EPIPE): the job goes back to the queue, and poll
	 * will see the end of its result pipe. */
	w->busy = false;
	p->next--;
	return 0;
}

static bool killed_from_outside(int status)
{
	if (!WIFSIGNALED(status))
		return false;
	int sig = WTERMSIG(status);
	return sig == SIGINT || sig == SIGTERM || sig == SIGKILL || sig == SIGHUP || sig == SIGPIPE;
}

/* The worker closed its result pipe: reap it, report the job it died on. */
static int worker_lost(pool *p, worker *w)
{
	int status = 0;
	while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
		;
	w->pid = 0;
	close_fd(&w->task_fd);
	close_fd(&w->res_fd);
	if (!w->busy)
		return 0;
	w->busy = false;
	if (killed_from_outside(status)) {
		p->external_stop = true;
		return 0;
	}
	char why[160];
	if (WIFSIGNALED(status))
		snprintf(why, sizeof why, "worker killed by signal %d (%s)", WTERMSIG(status),
		         strsignal(WTERMSIG(status)));
	else
		snprintf(why, sizeof why, "worker exited with status %d before finishing",
		         WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	p->done++;
	return p->cfg->sink(p->cfg->sink_ctx, w->job, NULL, 0, why);
}

/* Reads what the worker sent; hands a complete line to the sink. */
static int worker_read(pool *p, worker *w)
{
	if (w->cap - w->len < 4096) {
		size_t cap = w->cap ? 2 * w->cap : 8192;
		char *nb = realloc(w->buf, cap);
		if (!nb)
			return -1;
		w->buf = nb;
		w->cap = cap;
	}
	ssize_t n = read(w->res_fd, w->buf + w->len, w->cap - w->len - 1);   /* 1: the NUL */
	if (n < 0)
		return errno == EINTR ? 0 : -1;
	if (n == 0)
		return worker_lost(p, w);
	w->len += (size_t)n;
	char *nl = memchr(w->buf, '\n', w->len);
	if (!nl)
		return 0;
	size_t linelen = (size_t)(nl - w->buf) + 1;
	w->buf[linelen] = 0;
	if (!w->busy || linelen != w->len) {
		fprintf(p->err, "sweep: a worker sent an unexpected line (a bug)\n");
		return -1;
	}
	w->busy = false;
	w->len = 0;
	p->done++;
	if (p->cfg->sink(p->cfg->sink_ctx, w->job, w->buf, linelen, NULL) < 0)
		return -1;
	if (p->next < p->njobs && !(p->cfg->stop && *p->cfg->stop))
		return worker_feed(p, w);
	close_fd(&w->task_fd);   /* no more jobs: the worker exits on end of file */
	return 0;
}

/* Restarts workers that died while jobs remain. */
static void pool_refill(pool *p)
{
	for (int i = 0; i < p->nw; i++) {
		worker *w = &p->w[i];
		if (w->pid || p->next == p->njobs)
			continue;
		if (worker_start(p, w) == 0)
			worker_feed(p, w);
	}
}

static int pool_alive(const pool *p)
{
	int n = 0;
	for (int i = 0; i < p->nw; i++)
		n += p->w[i].pid != 0;
	return n;
}

/* One round of poll over the live workers' result pipes. */
static int pool_step(pool *p)
{
	struct pollfd fds[p->nw];
	int idx[p->nw], n = 0;
	for (int i = 0; i < p->nw; i++)
		if (p->w[i].pid) {
			fds[n] = (struct pollfd){.fd = p->w[i].res_fd, .events = POLLIN};
			idx[n++] = i;
		}
	/* A timeout bounds the delay of a stop that races with poll. */
	int r = poll(fds, (nfds_t)n, 250);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	for (int k = 0; k < n; k++)
		if (fds[k].revents && worker_read(p, &p->w[idx[k]]) < 0)
			return -1;
	return 0;
}

static void pool_end(pool *p, bool kill_them)
{
	for (int i = 0; i < p->nw; i++) {
		worker *w = &p->w[i];
		close_fd(&w->task_fd);
		if (w->pid && kill_them)
			kill(w->pid, SIGTERM);
	}
	for (int i = 0; i < p->nw; i++) {
		worker *w = &p->w[i];
		if (w->pid)
			while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
				;
		close_fd(&w->res_fd);
		free(w->buf);
	}
	free(p->w);
}

int pool_run(const pool_cfg *cfg, const size_t *jobs, size_t njobs, FILE *err)
{
	pool p = {.cfg = cfg, .jobs = jobs, .njobs = njobs, .err = err};
	if (njobs == 0)
		return POOL_DONE;
	p.nw = cfg->workers < 1 ? 1 : (size_t)cfg->workers > njobs ? (int)njobs : cfg->workers;
	if (!(p.w = calloc((size_t)p.nw, sizeof *p.w)))
		return POOL_ERROR;
	for (int i = 0; i < p.nw; i++)
		p.w[i].task_fd = p.w[i].res_fd = -1;
	/* A worker that dies turns the parent's next write to it into EPIPE
	 * rather than a fatal SIGPIPE. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_pipe;
	sigaction(SIGPIPE, &ign, &old_pipe);
	int rc = POOL_DONE;
	pool_refill(&p);
	if (!pool_alive(&p)) {
		fprintf(err, "sweep: cannot start a worker process: %s\n", strerror(errno));
		rc = POOL_ERROR;
	}
	while (rc == POOL_DONE && p.done < njobs) {
		if ((cfg->stop && *cfg->stop) || p.external_stop) {
			rc = POOL_STOPPED;
			break;
		}
		if (pool_step(&p) < 0) {
			rc = POOL_ERROR;
			break;
		}
		pool_refill(&p);
		if (!pool_alive(&p) && p.done < njobs) {
			fprintf(err, "sweep: no worker process left: %s\n", strerror(errno));
			rc = POOL_ERROR;
			break;
		}
	}
	pool_end(&p, rc != POOL_DONE);
	sigaction(SIGPIPE, &old_pipe, NULL);
	return rc;
}
