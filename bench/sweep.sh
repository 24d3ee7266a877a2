#!/bin/sh
# bench/sweep.sh: the speed of `trainsim sweep`: a 500-point sweep of
# 1024-GPU layouts (bench/gpt175b-1024.yaml: 4 tp x 5 pp x 5 global batches
# x 5 NIC speeds) on 2 worker processes, reported in configurations per
# second (the analytical model Calculon does about 150/s). Run from the build
# directory; the source directory is $1, or the parent of this script's.
# JOBS=N changes the number of workers.
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

echo "== trainsim sweep: 500 layouts of 1024 GPUs on $jobs workers"
t0=$(now_ns)
"$ts" sweep "$srcdir/bench/gpt175b-1024.yaml" \
	--vary training.tp=1,2,4,8 \
	--vary training.pp=1,2,4,8,16 \
	--vary training.global_batch=1024,2048,3072,4096,6144 \
	--vary cluster.nic.speed=25Gbps,100Gbps,200Gbps,400Gbps,800Gbps \
	-j "$jobs" --out "$out/sweep.csv" 2>"$out/err"
status=$?
t1=$(now_ns)
rows=$(tail -n +2 "$out/sweep.csv" | wc -l)
tail -n 1 "$out/err"
awk -v n="$rows" -v ns=$((t1 - t0)) -v j="$jobs" 'BEGIN {
	s = ns / 1e9
	printf "%d configurations in %.1f s on %d workers: %.1f configurations/s\n", n, s, j, n / s
}'
exit $status
