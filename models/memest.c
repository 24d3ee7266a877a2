/* memest.c: estimates of the simulator's own memory for a scenario, made
 * before anything is allocated, and the refusal message naming the limit.
 * The per-item sizes were measured on this code (RSS and valgrind massif of
 * `trainsim run` and `trainsim nccl` from 8,000 to 10^6 GPUs), growth slack of the
 * doubling arrays included; they are estimates within about a factor 1.5. */
#include <math.h>
#include <stdio.h>
#include "memest.h"
#include "units.h"

/* One link: its record (~100 B, measured 100-101 B per link at 10^4-10^5
 * nodes) and the slack of the doubling array (up to 2x while it grows). */
#define MEMEST_LINK_BYTES 150.0
/* One flow in flight: record, hop block, two link-list entries per hop, the
 * collective's bookkeeping, its end and delivery events, re-plan scratch;
 * measured 360-780 B per flow (all_to_all over 128-512 nodes, rings and
 * trees over 8,000-80,000 ranks). */
#define MEMEST_FLOW_BYTES 500.0

double memest_limit(const scenario *s, double opt_bytes)
{
	if (opt_bytes > 0)
		return opt_bytes;
	return s->run.max_memory_bytes > 0 ? s->run.max_memory_bytes : MEMEST_DEFAULT_LIMIT_BYTES;
}

double memest_cluster(const scn_cluster *c)
{
	double gpn = c->gpus_per_node > 0 ? c->gpus_per_node : 1;
	double nics = c->nic.count > 0 ? c->nic.count : 1;
	/* per node: NVLink (or PCIe) up and down and the GPU-NIC PCIe path per
	 * GPU, NIC up and down, host, storage and cache links, and the fabric's
	 * share (measured: 4 gpn + 2 nics + 2 for single-switch, + 1 for the
	 * fat-tree and rail builders); a mesh has a link per GPU pair, NVLink
	 * bridges one per pair of a bridge group */
	double per_node = 4 * gpn + 2 * nics + 3;
	if (c->intra.kind == INTRA_NVLINK_MESH)
		per_node += gpn * (gpn - 1);
	else if (hw_intra_bridged(&c->intra) && c->gpu.bridge_Bps > 0)
		per_node += gpn * (fmin(c->intra.bridge, gpn) - 1);
	double links = (double)c->nodes * per_node + 64;
	return links * MEMEST_LINK_BYTES;
}

double memest_coll_flows(const scn_cluster *c, coll_op op, int n, int per_node)
{
	if (n <= 1)
		return 0;
	double k = per_node < 1 ? 1 : per_node > n ? n : per_node;
	double nodes = ceil(n / k), nics = c->nic.count > 0 ? c->nic.count : 1;
	double rails = nodes > 1 ? fmin(k, nics) : 1;
	if (op == COLL_ALL_TO_ALL)
		return nodes * (nodes - 1) * rails + (double)n * k;
	if (op == COLL_SENDRECV)
		return (double)n * rails;
	return 4.0 * n * rails;
}

double memest_ps_flows(int n, int ps)
{
	double k = ps < 1 ? 1 : ps > n ? n : ps;
	return n > 1 ? (double)n * k : 0;
}

double memest_flows(double flows)
{
	return flows * MEMEST_FLOW_BYTES;
}

/* Sizes in the unit the user would write: binary when a whole number of
 * GiB or MiB (the default 4 GiB), else SI. */
static void fmt_size(char *b, size_t n, double x)
{
	const double gi = 1024.0 * 1024 * 1024, mi = 1024.0 * 1024;
	if (x >= gi && fmod(x, gi) == 0)
		snprintf(b, n, "%.0f GiB", x / gi);
	else if (x >= mi && x < gi && fmod(x, mi) == 0)
		snprintf(b, n, "%.0f MiB", x / mi);
	else
		unit_fmt(b, n, x, UNIT_BYTES);
}

int memest_check(const char *what, double need_bytes, double limit_bytes, char *err,
                 size_t errlen)
{
	if (!(need_bytes > limit_bytes))
		return 0;
	char a[32], b[32];
	fmt_size(a, sizeof a, need_bytes);
	fmt_size(b, sizeof b, limit_bytes);
	snprintf(err, errlen, "%s needs about %s of memory; the limit is %s (run.max_memory or "
		 "--max-memory)", what, a, b);
	return -1;
}
