/* units.c: quantity strings ("200Gbps", "80GiB", "1.5us", "312TFLOPS", "15T")
 * parsed once into SI doubles, and formatted back for humans. Strict on
 * purpose: GB is 1e9 bytes, GiB 2^30, Gbps is bits; a bare number where a
 * unit is needed is an error (only a bare 0 is unit-free by nature). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "units.h"

/* A suffix multiplies by f * 10^p10: decimal prefixes go into the exponent
 * of the number before strtod, so that "4.1G" is exactly 4.1e9 and "600ns"
 * exactly 6e-7 (correctly rounded once), as a user writing them means. */
typedef struct unit_sfx {
	const char *sfx;
	int p10;
	double f;
} unit_sfx;

#define KI 1024.0
#define MI (KI * KI)
#define GI (MI * KI)
#define TI (GI * KI)
#define PI_ (TI * KI)

static const unit_sfx bytes_sfx[] = {
	{"B", 0, 1}, {"KB", 3, 1}, {"kB", 3, 1}, {"MB", 6, 1}, {"GB", 9, 1}, {"TB", 12, 1},
	{"PB", 15, 1}, {"EB", 18, 1}, {"KiB", 0, KI}, {"MiB", 0, MI}, {"GiB", 0, GI}, {"TiB", 0, TI},
	{"PiB", 0, PI_}, {NULL, 0, 0}};

/* Bits per second are divided by 8 (exactly) to give bytes per second;
 * "GbE" is the Ethernet name of the same line rate (10GbE = 10 Gbit/s). */
static const unit_sfx bw_sfx[] = {
	{"B/s", 0, 1}, {"KB/s", 3, 1}, {"kB/s", 3, 1}, {"MB/s", 6, 1}, {"GB/s", 9, 1},
	{"TB/s", 12, 1}, {"PB/s", 15, 1}, {"KiB/s", 0, KI}, {"MiB/s", 0, MI},
	{"GiB/s", 0, GI}, {"TiB/s", 0, TI}, {"bps", 0, 0.125}, {"Kbps", 3, 0.125},
	{"kbps", 3, 0.125}, {"Mbps", 6, 0.125}, {"Gbps", 9, 0.125}, {"Tbps", 12, 0.125},
	{"b/s", 0, 0.125}, {"Kb/s", 3, 0.125}, {"Mb/s", 6, 0.125}, {"Gb/s", 9, 0.125},
	{"Tb/s", 12, 0.125}, {"GbE", 9, 0.125}, {"Gbit/s", 9, 0.125}, {NULL, 0, 0}};

static const unit_sfx time_sfx[] = {
	{"ns", -9, 1}, {"us", -6, 1}, {"\xc2\xb5s", -6, 1}, {"ms", -3, 1}, {"s", 0, 1},
	{"min", 0, 60}, {"h", 0, 3600}, {"d", 0, 86400}, {NULL, 0, 0}};

static const unit_sfx count_sfx[] = {
	{"", 0, 1}, {"K", 3, 1}, {"k", 3, 1}, {"M", 6, 1}, {"G", 9, 1}, {"T", 12, 1},
	{"P", 15, 1}, {"Ki", 0, KI}, {"Mi", 0, MI}, {"Gi", 0, GI}, {"Ti", 0, TI}, {NULL, 0, 0}};

static const unit_sfx flops_sfx[] = {
	{"FLOPS", 0, 1}, {"FLOP/s", 0, 1}, {"GFLOPS", 9, 1}, {"GFLOP/s", 9, 1},
	{"TFLOPS", 12, 1}, {"TFLOP/s", 12, 1}, {"PFLOPS", 15, 1}, {"PFLOP/s", 15, 1},
	{"EFLOPS", 18, 1}, {"EFLOP/s", 18, 1}, {NULL, 0, 0}};

static const unit_sfx power_sfx[] = {
	{"W", 0, 1}, {"kW", 3, 1}, {"KW", 3, 1}, {NULL, 0, 0}};

static const unit_sfx *sfx_table(unit_kind k)
{
	switch (k) {
	case UNIT_BYTES: return bytes_sfx;
	case UNIT_BANDWIDTH: return bw_sfx;
	case UNIT_TIME: return time_sfx;
	case UNIT_FLOPS: return flops_sfx;
	case UNIT_POWER: return power_sfx;
	case UNIT_COUNT: break;
	}
	return count_sfx;
}

static const char *expected(unit_kind k)
{
	switch (k) {
	case UNIT_BYTES: return "expected a size with a unit such as 80GB, 80GiB or 25MB";
	case UNIT_BANDWIDTH: return "expected a bandwidth with a unit such as 200Gbps or 25GB/s";
	case UNIT_TIME: return "expected a time with a unit such as 600ns, 1.5us, 15min or 50000h";
	case UNIT_FLOPS: return "expected a rate with a unit such as 312TFLOPS or 1.2PFLOP/s";
	case UNIT_POWER: return "expected a power with a unit such as 500W or 1.2kW";
	case UNIT_COUNT: break;
	}
	return "expected a number such as 2048, 1.5e13 or 15T";
}

/* Length of the decimal number at s (sign, digits, point, exponent), 0 if
 * none. An 'e' counts as an exponent only when digits follow it. */
static size_t number_len(const char *s)
{
	size_t i = 0, digits = 0;
	if (s[i] == '+' || s[i] == '-')
		i++;
	while (isdigit((unsigned char)s[i]))
		i++, digits++;
	if (s[i] == '.') {
		i++;
		while (isdigit((unsigned char)s[i]))
			i++, digits++;
	}
	if (!digits)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1;
		if (s[j] == '+' || s[j] == '-')
			j++;
		if (isdigit((unsigned char)s[j])) {
			while (isdigit((unsigned char)s[j]))
				j++;
			i = j;
		}
	}
	return i;
}

/* strtod of the decimal number `num` times 10^p10, rounded once: the power
 * is added to the number's own exponent. -1 on overflow. */
static int scaled_strtod(const char *num, int p10, double *v)
{
	char buf[96];
	size_t m = strcspn(num, "eE");
	long e = 0;
	if (num[m]) {
		errno = 0;
		e = strtol(num + m + 1, NULL, 10);
		if (errno == ERANGE || e > 100000 || e < -100000)
			e = e < 0 ? -100000 : 100000;
	}
	snprintf(buf, sizeof buf, "%.*se%ld", (int)m, num, e + p10);
	errno = 0;
	*v = strtod(buf, NULL);
	/* overflow, or a non-zero value too small for a double: refused, not
	 * read as 0 (where 0 means "the default", 1e-310 became full speed) */
	if (errno == ERANGE)
		return -1;
	return isfinite(*v) ? 0 : -1;
}

/* A hint for the classic confusions (bits against bytes, size against rate). */
static const char *confusion(unit_kind k, const char *u)
{
	if (k == UNIT_BYTES && strchr(u, 'b') && !strchr(u, '/'))
		return "'b' is bits and sizes are in bytes (GB = 1e9 bytes, GiB = 2^30 bytes)";
	if (k == UNIT_BYTES && strchr(u, '/'))
		return "that is a rate and a size has no '/s'";
	if (k == UNIT_POWER)   /* "500w", "0.5kw": SI writes watts with a capital W */
		for (const unit_sfx *t = power_sfx; t->sfx; t++)
			if (!strcasecmp(t->sfx, u))
				return "units are case-sensitive: write W or kW (500W, 1.2kW)";
	if (k == UNIT_BANDWIDTH) {
		for (const unit_sfx *t = bytes_sfx; t->sfx; t++)
			if (!strcmp(t->sfx, u))
				return "that is a size and a bandwidth is per second (GB/s or Gbps)";
		if (!strcmp(u, "GBps") || !strcmp(u, "MBps") || !strcmp(u, "TBps"))
			return "write GB/s for bytes per second or Gbps for bits per second";
		if (strlen(u) == 1 && strchr("KkMGT", u[0]))
			return "bits or bytes? write Gbps for bits per second or GB/s for bytes";
		for (const unit_sfx *t = bw_sfx; t->sfx; t++)   /* "gbps": the case is wrong */
			if (!strcasecmp(t->sfx, u) && strchr(t->sfx, 'b') && strchr(u, 'b'))
				return "units are case-sensitive: write Gbps or Mbps (b is bits, B "
				       "bytes)";
	}
	return NULL;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b,
                    unit_kind k)
{
	if (!err || !errlen)
		return;
	char what[160];
	snprintf(what, sizeof what, fmt, a, b);
	snprintf(err, errlen, "%s; %s", what, expected(k));
}

/* A line rate written without its "per second" ("400Gb", "400 Gbit"): the
 * bits-per-second unit it means, or NULL. */
static const char *bits_unit(const char *u)
{
	static const char *const prefix = "KkMGT", *const sfx[] = {"b", "bit", "bits"};
	static const char *const bps[] = {"Kbps", "Kbps", "Mbps", "Gbps", "Tbps"};
	const char *p = u[0] ? strchr(prefix, u[0]) : NULL;
	for (size_t i = 0; p && i < sizeof sfx / sizeof sfx[0]; i++)
		if (!strcmp(u + 1, sfx[i]))
			return bps[p - prefix];
	return NULL;
}

static int unknown_unit(unit_kind kind, const char *num, const char *unit, const char *shown,
                        char *err, size_t errlen)
{
	const char *hint = confusion(kind, unit), *bps = kind == UNIT_BANDWIDTH ? bits_unit(unit)
	                                                                       : NULL;
	if (bps && err && errlen)
		snprintf(err, errlen, "unknown unit '%s' in '%s': a bandwidth is per second (%s); "
		         "did you mean '%s%s'?", unit, shown, expected(kind), num, bps);
	else if (hint && err && errlen)
		snprintf(err, errlen, "unknown unit '%s' in '%s': %s; %s", unit, shown, hint,
		         expected(kind));
	else
		set_err(err, errlen, "unknown unit '%s' in '%s'", unit, shown, kind);
	return -1;
}

/* Strips blanks around text; *len is what remains. */
static const char *trim(const char *text, size_t *len)
{
	while (isspace((unsigned char)*text))
		text++;
	size_t tl = strlen(text);
	while (tl && isspace((unsigned char)text[tl - 1]))
		tl--;
	*len = tl;
	return text;
}

int unit_parse(const char *text, unit_kind kind, double *out, char *err, size_t errlen)
{
	char num[64];
	const unit_sfx *t;
	size_t tl;
	text = trim(text ? text : "", &tl);
	char shown[48];
	snprintf(shown, sizeof shown, "%.*s%s", (int)(tl > 40 ? 40 : tl), text, tl > 40 ? "..." : "");
	if (!tl) {
		set_err(err, errlen, "empty value%s%s", "", "", kind);
		return -1;
	}
	size_t n = number_len(text);
	if (!n || n >= sizeof num) {
		set_err(err, errlen, "'%s' is not a number%s", shown, "", kind);
		return -1;
	}
	memcpy(num, text, n);
	num[n] = '\0';
	const char *u = text + n;
	while (isspace((unsigned char)*u))
		u++;
	size_t ul = tl - (size_t)(u - text);
	char unit[32];
	if (ul >= sizeof unit) {
		set_err(err, errlen, "unknown unit in '%s'%s", shown, "", kind);
		return -1;
	}
	memcpy(unit, u, ul);
	unit[ul] = '\0';
	for (t = sfx_table(kind); t->sfx; t++)
		if (!strcmp(t->sfx, unit))
			break;
	double v;
	if (scaled_strtod(num, t->sfx ? t->p10 : 0, &v) < 0) {
		set_err(err, errlen, "'%s' is out of range%s", shown, "", kind);
		return -1;
	}
	if (num[0] == '-' && v != 0) {
		set_err(err, errlen, "'%s' is negative%s", shown, "", kind);
		return -1;
	}
	if (!ul && kind != UNIT_COUNT) {
		if (v == 0) { /* a bare zero needs no unit */
			*out = 0;
			return 0;
		}
		set_err(err, errlen, "'%s' has no unit%s", shown, "", kind);
		return -1;
	}
	if (!t->sfx)
		return unknown_unit(kind, num, unit, shown, err, errlen);
	double r = v * t->f;
	if (!isfinite(r)) {
		set_err(err, errlen, "'%s' is out of range%s", shown, "", kind);
		return -1;
	}
	*out = r == 0 ? 0 : r; /* no negative zero */
	return 0;
}

int unit_parse_nccl_size(const char *text, double *bytes, char *err, size_t errlen)
{
	static const char ex[] = "expected a size such as 8, 256K, 64M, 8G or 1T (powers of 2)";
	char num[64];
	if (!text)
		text = "";
	size_t n = number_len(text);
	if (!n || n >= sizeof num || text[0] == '-' || text[0] == '+') {
		snprintf(err, errlen, "'%.40s' is not a size; %s", text, ex);
		return -1;
	}
	memcpy(num, text, n);
	num[n] = '\0';
	double v = strtod(num, NULL);
	double mult = 1;
	const char *u = text + n;
	switch (toupper((unsigned char)*u)) {
	case 'K': mult = KI; u++; break;
	case 'M': mult = MI; u++; break;
	case 'G': mult = GI; u++; break;
	case 'T': mult = TI; u++; break;
	case 'P': mult = TI * KI; u++; break;
	default: break;
	}
	if (mult > 1 && *u == 'i' && (u[1] == 'B' || u[1] == 'b'))
		u++;              /* "1GiB": the powers of 2 these sizes are anyway */
	if (*u == 'B' || *u == 'b')
		u++;
	if (*u || !isfinite(v * mult)) {
		snprintf(err, errlen, "'%.40s' is not a size; %s", text, ex);
		return -1;
	}
	/* whole bytes: a step of 1e-20 bytes never moved the loop on */
	if (v * mult != floor(v * mult)) {
		snprintf(err, errlen, "'%.40s' is not a whole number of bytes; %s", text, ex);
		return -1;
	}
	*bytes = v * mult;
	return 0;
}

typedef struct fmt_step {
	double from;     /* used for values >= from */
	double mult;
	const char *name;
} fmt_step;

/* The first step whose threshold v reaches (steps listed from large to small). */
static void fmt_with(char *buf, size_t len, double v, const fmt_step *steps)
{
	const fmt_step *s = steps;
	while (s[1].name && fabs(v) < s->from)
		s++;
	snprintf(buf, len, "%.3g %s", v / s->mult, s->name);
}

void unit_fmt(char *buf, size_t len, double v, unit_kind kind)
{
	static const fmt_step bytes[] = {{1e18, 1e18, "EB"}, {1e15, 1e15, "PB"}, {1e12, 1e12, "TB"}, {1e9, 1e9, "GB"},
	                                 {1e6, 1e6, "MB"}, {1e3, 1e3, "KB"}, {0, 1, "B"},
	                                 {0, 0, NULL}};
	static const fmt_step bw[] = {{1e15, 1e15, "PB/s"}, {1e12, 1e12, "TB/s"}, {1e9, 1e9, "GB/s"}, {1e6, 1e6, "MB/s"},
	                              {1e3, 1e3, "KB/s"}, {0, 1, "B/s"}, {0, 0, NULL}};
	/* minutes from 10 min, hours from 2 h, days from 2 d: "160 s", "90 min" */
	static const fmt_step time[] = {{172800, 86400, "d"}, {7200, 3600, "h"}, {600, 60, "min"},
	                                {1, 1, "s"}, {1e-3, 1e-3, "ms"}, {1e-6, 1e-6, "us"},
	                                {0, 1e-9, "ns"}, {0, 0, NULL}};
	static const fmt_step count[] = {{1e15, 1e15, "P"}, {1e12, 1e12, "T"}, {1e9, 1e9, "G"},
	                                 {1e6, 1e6, "M"}, {1e3, 1e3, "K"}, {0, 1, ""},
	                                 {0, 0, NULL}};
	static const fmt_step flops[] = {{1e18, 1e18, "EFLOP/s"}, {1e15, 1e15, "PFLOP/s"},
	                                 {1e12, 1e12, "TFLOP/s"}, {1e9, 1e9, "GFLOP/s"},
	                                 {0, 1, "FLOP/s"}, {0, 0, NULL}};
	static const fmt_step power[] = {{1e6, 1e6, "MW"}, {1e4, 1e3, "kW"}, {0, 1, "W"},
	                                 {0, 0, NULL}};
	if (!buf || !len)
		return;
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	const fmt_step *t = count;
	switch (kind) {
	case UNIT_BYTES: t = bytes; break;
	case UNIT_BANDWIDTH: t = bw; break;
	case UNIT_TIME: t = time; break;
	case UNIT_FLOPS: t = flops; break;
	case UNIT_POWER: t = power; break;
	case UNIT_COUNT: break;
	}
	if (v == 0) { /* "0 B", "0 s", "0": the base unit (for time: seconds) */
		const fmt_step *s = t;
		while (s[1].name && s->mult != 1)
			s++;
		snprintf(buf, len, "0 %s", s->name);
	} else {
		fmt_with(buf, len, v, t);
	}
	size_t l = strlen(buf);
	if (l && buf[l - 1] == ' ') /* counts have an empty unit */
		buf[l - 1] = '\0';
}
