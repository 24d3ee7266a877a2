#!/bin/sh
# bench/sweep.sh: the speed of `trainsim sweep`: a 500-point sweep of
# 1024-GPU layouts of GPT-3 175B (bench/gpt175b-1024.yaml, tp 8 within the
# node: 5 pipeline depths x 4 micro-batch sizes x 5 global batches x 5 NIC
# speeds) on 2 worker processes, in configurations per second (the analytical
# model Calculon does about 150/s). Then the sweep machinery alone: points
# that the loader refuses at once, so that nothing but parsing, the worker
# pool and the output is timed. Run from the build directory; the source
# directory is $1, or the parent of this script's. JOBS=N: other worker count.
# (tp 1-4 with dp >= 256 is left out: the step model currently spends 10 s to
# minutes on each of those points; see docs/sweeps.md.)
set -u
srcdir=${1:-$(dirname "$0")/..}
jobs=${JOBS:-2}
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

# sweep NAME ARGS...: runs a sweep, prints its rate.
sweep() {
	name=$1
	shift
	t0=$(now_ns)
	"$ts" sweep "$srcdir/bench/gpt175b-1024.yaml" "$@" -j "$jobs" --out "$out/$name.csv" \
		2>"$out/$name.err"
	rc=$?
	t1=$(now_ns)
	rows=$(tail -n +2 "$out/$name.csv" | wc -l)
	sed -n 's/^sweep: [0-9]* points: /  /p' "$out/$name.err"
	awk -v n="$rows" -v ns=$((t1 - t0)) -v j="$jobs" 'BEGIN {
		s = ns / 1e9
		printf "  %d configurations in %.1f s on %d workers: %.2f configurations/s\n", n, s, j, n / s
	}'
	return $rc
}

status=0
echo "== trainsim sweep: 500 layouts of 1024 GPUs (GPT-3 175B) on $jobs workers"
sweep layouts \
	--vary training.pp=1,2,4,8,16 \
	--vary training.micro_batch=1,2,4,8 \
	--vary training.global_batch=1024,2048,3072,4096,6144 \
	--vary cluster.nic.speed=25Gbps,100Gbps,200Gbps,400Gbps,800Gbps || status=1

echo "== the sweep machinery alone: 500 points refused by the loader (tp 3 divides no GPU count)"
sweep machinery --set training.tp=3 \
	--vary training.pp=1,2,4,8,16 \
	--vary training.micro_batch=1,2,4,8 \
	--vary training.global_batch=1024,2048,3072,4096,6144 \
	--vary cluster.nic.speed=25Gbps,100Gbps,200Gbps,400Gbps,800Gbps
exit $status
