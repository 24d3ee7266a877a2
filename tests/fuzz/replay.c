/* replay.c: runs every file of tests/fuzz/corpus/ and tests/fuzz/regressions/
 * (or the files and folders given as arguments) through both fuzz targets,
 * without libFuzzer, so that `make check` keeps every input that ever found a
 * bug fixed. Each file runs in a child process with a time limit, so that one
 * crash or hang is reported by name and the others still run. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fuzz.h"

#define REPLAY_TIMEOUT_S 20     /* per file, both targets; sanitizer builds are slow */
#define REPLAY_MAX_BYTES (1u << 20)

typedef struct replay_count {
	int passed, failed;
} replay_count;

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	*data = malloc(REPLAY_MAX_BYTES);
	*size = *data ? fread(*data, 1, REPLAY_MAX_BYTES, f) : 0;
	int bad = !*data || ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

/* The child: both targets on one file; any broken property aborts. */
static void replay_child(const char *path)
{
	uint8_t *data;
	size_t size;
	alarm(REPLAY_TIMEOUT_S);
	if (read_file(path, &data, &size) < 0) {
		fprintf(stderr, "replay: cannot read %s: %s\n", path, strerror(errno));
		_exit(2);
	}
	fuzz_loader_input(data, size);
	fuzz_units_input(data, size);
	fuzz_validate_input(data, size);
	free(data);
	exit(0); /* exit, not _exit: LeakSanitizer runs at exit */
}

static void replay_file(const char *path, replay_count *n)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("replay: fork");
		n->failed++;
		return;
	}
	if (pid == 0)
		replay_child(path);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		n->passed++;
		return;
	}
	n->failed++;
	if (WIFSIGNALED(st))
		printf("FAIL: %s: %s%s\n", path, strsignal(WTERMSIG(st)),
		       WTERMSIG(st) == SIGALRM ? " (over the time limit: a hang?)" : "");
	else
		printf("FAIL: %s: exit status %d\n", path, WEXITSTATUS(st));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or every file under a folder (sorted, so runs are comparable). */
static void replay_path(const char *path, replay_count *n)
{
	struct stat st;
	if (stat(path, &st) < 0) {
		printf("FAIL: %s: %s\n", path, strerror(errno));
		n->failed++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path, n);
		return;
	}
	DIR *d = opendir(path);
	if (!d) {
		printf("FAIL: %s: %s\n", path, strerror(errno));
		n->failed++;
		return;
	}
	char **names = NULL;
	size_t cnt = 0, cap = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "README"))
			continue;
		if (cnt == cap) {
			cap = cap ? 2 * cap : 64;
			char **nn = realloc(names, cap * sizeof *names);
			FUZZ_ASSERT(nn != NULL, "out of memory");
			names = nn;
		}
		size_t len = strlen(path) + strlen(e->d_name) + 2;
		names[cnt] = malloc(len);
		FUZZ_ASSERT(names[cnt] != NULL, "out of memory");
		snprintf(names[cnt++], len, "%s/%s", path, e->d_name);
	}
	closedir(d);
	if (cnt)
		qsort(names, cnt, sizeof *names, by_name);
	for (size_t i = 0; i < cnt; i++) {
		replay_path(names[i], n);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	replay_count n = {0, 0};
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			replay_path(argv[i], &n);
	} else {
		const char *top = getenv("top_srcdir");
		char dir[4096];
		static const char *const sub[] = {"tests/fuzz/corpus", "tests/fuzz/regressions"};
		for (int i = 0; i < 2; i++) {
			snprintf(dir, sizeof dir, "%s/%s", top && *top ? top : ".", sub[i]);
			int before = n.passed + n.failed;
			replay_path(dir, &n);
			printf("replay: %s: %d files\n", sub[i], n.passed + n.failed - before);
		}
	}
	printf("%d passed, %d failed\n", n.passed, n.failed);
	return n.failed || n.passed == 0 ? 1 : 0;
}
