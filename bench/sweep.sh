#!/bin/sh
# bench/sweep.sh: the speed of `trainsim sweep`: a 500-point sweep of
# 1024-GPU layouts of GPT-3 175B (bench/gpt175b-1024.yaml, tp 8 within the
# node: 5 pipeline depths x 4 micro-batch sizes x 5 global batches x 5 NIC
# speeds) on 2 worker processes, in configurations per second (the analytical
# model Calculon does about 150/s); then 144 data-parallel-heavy layouts of
# the same 1024 GPUs (tp 1-4 x pp 1-2: dp 128-1024), the ones each bucket's own
# collective over every DP rank made too slow to sweep before coalescing
# (docs/step.md); then the sweep machinery alone: points that the loader
# refuses at once, so that nothing but parsing, the worker pool and the
# output is timed. Run from the build directory; the source directory is $1,
# or the parent of this script's. JOBS=N: other worker count. POINTS=N: run
# about N of the 500 layouts (every (500/N)th, by --shard 1/(500/N)) and as
# large a share of the 144, for a quick figure (bench/run uses POINTS=100).
set -u
srcdir=${1:-$(dirname "$0")/..}
jobs=${JOBS:-2}
points=${POINTS:-500}
stride=$((500 / (points > 0 ? points : 1)))
[ "$stride" -ge 1 ] || stride=1
shard=""
[ "$stride" -gt 1 ] && shard="--shard 1/$stride"
ts=${TRAINSIM:-./trainsim}
[ -x "$ts" ] || { echo "$ts not built: skipping the sweep benchmark"; exit 0; }

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

now_ns() {
	t=$(date +%s%N 2>/dev/null)
	case "$t" in
	*N*|"") echo "$(date +%s)000000000" ;;
	*) echo "$t" ;;
	esac
}

# CPU seconds (user + system) of the finished children of this shell, from
# the second line of the `times` builtin ("0m1.50s 0m0.02s"), which must run
# in this shell, not in a $(...) subshell: FILE receives it.
cpu_children() {
	times >"$1"
	sed -n 2p "$1" | awk '{
		s = 0
		for (i = 1; i <= 2; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] }
		printf "%.3f", s
	}'
}

# sweep NAME ARGS...: runs a sweep, prints its rate: by the wall clock, and
# by the CPU its workers used (the rate on $jobs cores of its own; this
# machine is often shared).
sweep() {
	name=$1
	shift
	t0=$(now_ns)
	cpu_children "$out/times" >"$out/c0"
	"$ts" sweep "$srcdir/bench/gpt175b-1024.yaml" "$@" -j "$jobs" --out "$out/$name.csv" \
		2>"$out/$name.err"
	rc=$?
	t1=$(now_ns)
	cpu_children "$out/times" >"$out/c1"
	c0=$(cat "$out/c0")
	c1=$(cat "$out/c1")
	# a sweep of nothing but invalid points leaves no file: its summary counts them
	if [ -f "$out/$name.csv" ]; then
		rows=$(tail -n +2 "$out/$name.csv" | wc -l)
	else
		rows=$(sed -n 's/^sweep: \([0-9]*\) points:.*/\1/p' "$out/$name.err")
	fi
	sed -n 's/^sweep: [0-9]* points: /  /p' "$out/$name.err"
	awk -v n="$rows" -v ns=$((t1 - t0)) -v j="$jobs" -v c0="$c0" -v c1="$c1" 'BEGIN {
		s = ns / 1e9
		cpu = c1 - c0
		printf "  %d configurations in %.1f s on %d workers: %.2f configurations/s\n", n, s, j, n / s
		if (cpu >= 0.1)
			printf "  %.1f CPU s: %.2f configurations/s on %d cores of its own\n", cpu, n / (cpu / j), j
	}'
	return $rc
}

status=0
of="500"
[ "$stride" -gt 1 ] && of="every ${stride}th of 500"
echo "== trainsim sweep: $of layouts of 1024 GPUs (GPT-3 175B) on $jobs workers"
# shellcheck disable=SC2086
sweep layouts $shard \
	--vary training.pp=1,2,4,8,16 \
	--vary training.micro_batch=1,2,4,8 \
	--vary training.global_batch=1024,2048,3072,4096,6144 \
	--vary cluster.nic.speed=25Gbps,100Gbps,200Gbps,400Gbps,800Gbps || status=1

of="144"
[ "$stride" -gt 1 ] && of="every ${stride}th of 144"
echo "== $of data-parallel-heavy layouts of the same 1024 GPUs (tp 1-4, pp 1-2: dp 128-1024)"
# shellcheck disable=SC2086
sweep dpheavy $shard \
	--vary training.tp=1,2,4 \
	--vary training.pp=1,2 \
	--vary training.micro_batch=1,2,4 \
	--vary training.global_batch=2048,4096 \
	--vary cluster.nic.speed=25Gbps,100Gbps,400Gbps,800Gbps || status=1

echo "== the sweep machinery alone: 500 points refused by the loader (tp 3 divides no GPU count)"
sweep machinery --set training.tp=3 \
	--vary training.pp=1,2,4,8,16 \
	--vary training.micro_batch=1,2,4,8 \
	--vary training.global_batch=1024,2048,3072,4096,6144 \
	--vary cluster.nic.speed=25Gbps,100Gbps,200Gbps,400Gbps,800Gbps
exit $status
