/* fuzz_common.c: what the fuzz targets share: an in-memory error stream and
 * the check that a refusal is a real message ("file:line:col: what is wrong"),
 * never silence; the round trip of an accepted scenario through its YAML. */
#include <string.h>
#include "fuzz.h"
#include "scn_int.h"

void fuzz_cap_open(fuzz_cap *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	FUZZ_ASSERT(c->f != NULL, "open_memstream failed");
}

char *fuzz_cap_close(fuzz_cap *c)
{
	fclose(c->f);
	c->f = NULL;
	return c->text;
}

/* The length of "name:LINE:COL: " (LINE, COL >= 1) at the start of line, or 0. */
static size_t position_len(const char *line, const char *name)
{
	size_t n = strlen(name);
	int l = 0, c = 0, end = 0;
	if (strncmp(line, name, n) || line[n] != ':')
		return 0;
	if (sscanf(line + n, ":%d:%d: %n", &l, &c, &end) != 2 || end == 0)
		return 0;
	return l >= 1 && c >= 1 ? n + (size_t)end : 0;
}

/* Every line of msg: "NAME:LINE:COL: text", "--set: text" (allow_set) or a
 * closing count; one line per message (no control characters but the final
 * newline). Returns the number of lines that are not warnings. */
static int check_lines(const char *msg, const char *name, int allow_set)
{
	int errors = 0;
	size_t n = strlen(name);
	for (const char *line = msg; *line;) {
		const char *nl = strchr(line, '\n');
		FUZZ_ASSERT(nl != NULL, "message line not ended by a newline: %s", line);
		for (const char *p = line; p < nl; p++)
			FUZZ_ASSERT((unsigned char)*p >= 0x20 && *p != 0x7f,
			            "control character 0x%02x in a message: %.*s", (unsigned char)*p,
			            (int)(nl - line), line);
		size_t text = allow_set && !strncmp(line, "--set: ", 7) ? 7 : position_len(line, name);
		/* the closing lines "NAME: too many errors; ..." and "NAME: 5 errors" */
		int count = 0, end = 0;
		int stop = !strncmp(line, name, n) &&
		           (!strncmp(line + n, ": too many errors", 17) ||
		            (sscanf(line + n, ": %d errors%n", &count, &end) == 1 && end > 0));
		FUZZ_ASSERT(text || stop, "message without 'file:line:col: ': %.*s",
		            (int)(nl - line), line);
		/* a warning reads "warning: PATH: ..."; an error about a key named
		 * 'warning' now reads "error: warning: ..." (older: without "error: ") */
		if (!stop && (strncmp(line + text, "warning: ", 9) ||
		              !strncmp(line + text, "warning: unknown key 'warning'", 30)))
			errors++;
		line = nl + 1;
	}
	return errors;
}

void fuzz_check_message(const char *msg, const char *name, int allow_set)
{
	FUZZ_ASSERT(msg && *msg, "refused without a message");
	FUZZ_ASSERT(check_lines(msg, name, allow_set) > 0, "refused with warnings only:\n%s", msg);
}

void fuzz_check_warnings(const char *msg, const char *name, int allow_set)
{
	if (msg)
		check_lines(msg, name, allow_set);
}

/* Writes s as YAML; returns the text (caller frees). */
static char *write_yaml(const scenario *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	FUZZ_ASSERT(f != NULL, "open_memstream failed");
	FUZZ_ASSERT(scn_write_yaml(s, f) == 0, "scn_write_yaml failed");
	fclose(f);
	return text;
}

/* Field-wise, then byte-wise (as tests/check_loader.c does). */
static void assert_same(const scenario *a, const scenario *b, const char *yaml)
{
	char diff[256] = "";
	FUZZ_ASSERT(scn__section_equal(&scn__root, a, b, diff, sizeof diff, ""),
	            "round trip changed %s; written form:\n%s", diff, yaml);
	FUZZ_ASSERT(a->model.nlayers_custom == b->model.nlayers_custom, "layer count changed");
	if (a->model.nlayers_custom)
		FUZZ_ASSERT(!memcmp(a->model.custom_layers, b->model.custom_layers,
		                    sizeof(scn_layer) * (size_t)a->model.nlayers_custom),
		            "custom layers changed; written form:\n%s", yaml);
	scenario x = *a, y = *b;
	x.model.custom_layers = y.model.custom_layers = NULL;
	memcpy(y.path, x.path, sizeof x.path);
	x.n_warnings = y.n_warnings = 0; /* keys without effect are not written back */
	FUZZ_ASSERT(!memcmp(&x, &y, sizeof x), "structs differ byte-wise; written form:\n%s", yaml);
}

/* Loads text (NUL-terminated) that the writer produced: it must load. */
static void load_written(const char *yaml, scenario *out)
{
	fuzz_cap c;
	fuzz_cap_open(&c);
	int rc = -1;
	scn_doc *d = scn_doc_load_string(yaml, strlen(yaml), "written.yaml", c.f);
	if (d)
		rc = scn_from_doc(d, out, c.f, true);
	scn_doc_free(d);
	char *msg = fuzz_cap_close(&c);
	FUZZ_ASSERT(rc == 0, "the written form does not load:\n%s\n%s", msg, yaml);
	free(msg);
}

void fuzz_round_trip(const scenario *a)
{
	scenario b;
	char *yaml = write_yaml(a);
	load_written(yaml, &b);
	assert_same(a, &b, yaml);
	char *again = write_yaml(&b);
	FUZZ_ASSERT(!strcmp(yaml, again), "writing is not a fixed point:\n%s\n---\n%s", yaml, again);
	free(again);
	free(yaml);
	scn_release(&b);
}
