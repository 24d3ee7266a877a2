#!/bin/sh
# check_sweep_parallel.sh: the multi-machine path of docs/sweeps.md, on this
# machine: GNU parallel runs three shards of a sweep as separate processes,
# `trainsim merge` joins them, and the result equals the same sweep run in
# one go. Skipped (exit 77) when GNU parallel is not installed.
set -u
command -v parallel >/dev/null 2>&1 || { echo "GNU parallel is not installed: skipped"; exit 77; }
top_srcdir=$(cd "${top_srcdir:-.}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
ts=${TRAINSIM:-$top_builddir/trainsim}
scn=$top_srcdir/scenarios/dp-100b-10gbe.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99

vary="--vary cluster.nic.speed=10Gbps,25Gbps,100Gbps,400Gbps --vary training.micro_batch=1,2"
# -q: parallel quotes each word itself, so no file name is read by a shell.
parallel --will-cite -q -j 2 "$ts" sweep "$scn" $vary -j 1 --shard {}/3 --out shard{}.csv \
	--resume ::: 1 2 3 2>parallel.err || { cat parallel.err; echo "FAIL: parallel shards"; exit 1; }
"$ts" merge all.csv shard1.csv shard2.csv shard3.csv || { echo "FAIL: merge"; exit 1; }
"$ts" sweep "$scn" $vary -j 2 --out one.csv 2>/dev/null && "$ts" merge ref.csv one.csv ||
	{ echo "FAIL: reference sweep"; exit 1; }
if cmp -s all.csv ref.csv && [ "$(tail -n +2 all.csv | wc -l)" -eq 8 ]; then
	echo "ok: 3 shards under GNU parallel, merged, equal the sweep run in one go"
else
	echo "FAIL: merged shards differ from the single sweep"
	diff all.csv ref.csv | head
	exit 1
fi
