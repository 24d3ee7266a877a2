/* units.h: unit strings parsed once into SI doubles. GB = 1e9 B, GiB = 2^30 B,
 * Gbps = 1e9 bit/s; bandwidths come out in bytes/s, times in seconds. */
#ifndef TRAINSIM_UNITS_H
#define TRAINSIM_UNITS_H

#include <stddef.h>

typedef enum { UNIT_BYTES, UNIT_BANDWIDTH, UNIT_TIME, UNIT_COUNT, UNIT_FLOPS, UNIT_POWER } unit_kind;
/* UNIT_FLOPS: "312TFLOPS" or "312TFLOP/s" -> FLOP/s. UNIT_POWER: "500W",
 * "1.2kW" -> watts. */

/* Parses `text` as a quantity of `kind` into *out (SI: bytes, bytes/s,
 * seconds; UNIT_COUNT: a plain number with optional K/M/G/T decimal or
 * Ki/Mi/Gi binary suffix). Returns 0, or -1 with a message in err (what is
 * wrong and an example of the right form). Rejects NaN, infinities and
 * trailing garbage; a bare number where a unit is needed is an error. */
int unit_parse(const char *text, unit_kind kind, double *out, char *err, size_t errlen);

/* nccl-tests sizes: "8", "256K", "64M", "8G" (powers of two), "1.5G" allowed. */
int unit_parse_nccl_size(const char *text, double *bytes, char *err, size_t errlen);

/* Formats a quantity for humans ("1.25 GB/s", "160 s", "3.2 ms", "200 GB"). */
void unit_fmt(char *buf, size_t len, double v, unit_kind kind);

#endif
