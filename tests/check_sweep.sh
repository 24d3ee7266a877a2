#!/bin/sh
# check_sweep.sh: `trainsim sweep`, `merge` and `plot` end to end: the NIC
# sweep of the 100B scenario gives five rows and a picture in one command;
# an interrupted sweep, resumed, holds every row exactly once; -j 1, -j 2
# and shards merged give the same content; invalid points are rows; plot
# without gnuplot says so and still leaves the data and the script.
set -u
top_srcdir=$(cd "${top_srcdir:-.}" && pwd)
top_builddir=$(cd "${top_builddir:-.}" && pwd)
ts=${TRAINSIM:-$top_builddir/trainsim}
scn=$top_srcdir/scenarios/dp-100b-10gbe.yaml
speeds=10Gbps,25Gbps,100Gbps,200Gbps,400Gbps

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99
failed=0
pass() { echo "ok: $1"; }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

# Rows of a CSV results file (all lines but the header).
rows() { tail -n +2 "$1"; }
# The indices of a results file, sorted, one per line.
indices() { rows "$1" | cut -d, -f1 | sort -n; }

# 1. Five NIC speeds: five rows, one per index, and a PNG, in one command.
if "$ts" sweep "$scn" --vary cluster.nic.speed=$speeds -j 2 --out nic.csv --plot nic.png \
	2>nic.err; then
	n=$(rows nic.csv | wc -l)
	[ "$n" -eq 5 ] && [ "$(indices nic.csv | tr '\n' ' ')" = "0 1 2 3 4 " ] &&
		pass "NIC sweep: five rows, indices 0-4" || fail "NIC sweep: $n rows"
	head -c 4 nic.png | od -c | grep -q 'P   N   G' && pass "NIC sweep: PNG written" ||
		fail "NIC sweep: no PNG"
	[ -s nic.dat ] && [ -s nic.gp ] && pass "plot: data and script beside the picture" ||
		fail "plot: nic.dat or nic.gp missing"
	grep -q "$(printf '\r')" nic.err && fail "progress bar drawn on a non-terminal" ||
		pass "no progress bar when stderr is not a terminal"
	# Step time falls as the NIC gets faster (x sorted in the data file).
	awk '!/^#/ && NF >= 4 && $1 + 0 > 0 { if (prev != "" && $2 > prev) bad = 1; prev = $2 }
	     END { exit bad }' nic.dat && pass "step time does not grow with NIC speed" ||
		fail "step time grows with NIC speed"
else
	fail "NIC sweep exited $?: $(cat nic.err)"
fi

# 2. Determinism: -j 1, -j 2 and two shards merged give the same rows.
vary="--vary cluster.nic.speed=10Gbps,100Gbps --vary training.micro_batch=1,2,3"
"$ts" sweep "$scn" $vary -j 1 --out j1.csv 2>/dev/null &&
"$ts" sweep "$scn" $vary -j 2 --out j2.csv 2>/dev/null &&
"$ts" sweep "$scn" $vary -j 2 --shard 1/2 --out sh1.csv 2>/dev/null &&
"$ts" sweep "$scn" $vary -j 1 --shard 2/2 --out sh2.csv 2>/dev/null &&
"$ts" merge j1s.csv j1.csv && "$ts" merge j2s.csv j2.csv && "$ts" merge shs.csv sh1.csv sh2.csv ||
	fail "determinism sweeps failed"
if [ -s j1s.csv ] && cmp -s j1s.csv j2s.csv && cmp -s j1s.csv shs.csv; then
	pass "-j 1, -j 2 and shards 1/2 + 2/2 give identical content"
else
	fail "-j or shards change the content"
fi
[ "$(rows j1s.csv | wc -l)" -eq 6 ] && [ "$(rows sh1.csv | wc -l)" -eq 3 ] &&
	pass "shards split the points" || fail "shard sizes"
# The same for JSON Lines.
"$ts" sweep "$scn" $vary -j 1 --format json --out j1.jsonl 2>/dev/null &&
"$ts" sweep "$scn" $vary -j 2 --format json --shard 1/2 --out jsh1.jsonl 2>/dev/null &&
"$ts" sweep "$scn" $vary -j 2 --format json --shard 2/2 --out jsh2.jsonl 2>/dev/null &&
"$ts" merge j1s.jsonl j1.jsonl && "$ts" merge jshs.jsonl jsh1.jsonl jsh2.jsonl &&
	[ "$(wc -l < j1s.jsonl)" -eq 6 ] && cmp -s j1s.jsonl jshs.jsonl &&
	pass "JSON Lines: -j 1 and shards give identical content" || fail "JSON Lines determinism"
# Plain concatenation, then merge, also works (duplicates dropped).
cat sh1.csv sh2.csv sh1.csv > cat.csv
"$ts" merge catm.csv cat.csv 2>/dev/null
cmp -s catm.csv j1s.csv && pass "merge of concatenated shards" || fail "merge of concatenation"

# 3. Interrupted (SIGINT) and resumed: every row exactly once. The points
# must take long enough to interrupt (tens of ms each): a pipeline of 4
# stages x 32 micro-batches, since the pure-DP step is now a few ms (its
# buckets coalesce, docs/step.md), and every point valid, so that the rest
# after the interrupt is not all invalid (a sweep of only invalid points
# exits 1).
big="--set training.tp=8 --set training.pp=4 --set training.global_batch=256
     --vary cluster.nic.speed=10Gbps,25Gbps,40Gbps,50Gbps,100Gbps,200Gbps,400Gbps,800Gbps
     --vary training.micro_batch=1,2,4,8 --vary run.seed=1,2,3,4,5,6,7,8"
total=256
"$ts" sweep "$scn" $big -j 2 --out int.csv 2>int.err &
pid=$!
# Interrupt once a few rows are in (or give up after 30 s).
lines() { if [ -f "$1" ]; then wc -l < "$1"; else echo 0; fi; }
tries=0
while [ "$(lines int.csv)" -lt 4 ] && [ $tries -lt 3000 ] && kill -0 $pid 2>/dev/null; do
	sleep 0.01
	tries=$((tries + 1))
done
kill -INT $pid 2>/dev/null
wait $pid
st=$?
got=$(rows int.csv | wc -l)
if [ $st -eq 130 ] && [ "$got" -lt $total ]; then
	pass "SIGINT stops the sweep (exit 130) after $got of $total rows"
	grep -q -- "--resume" int.err && pass "the interrupted sweep says how to resume" ||
		fail "no resume hint: $(cat int.err)"
else
	fail "interrupt: exit $st with $got of $total rows (too fast to interrupt?)"
fi
# A kill -9 in the middle of a write leaves a half line: resume drops it.
printf '9999,half-writ' >> int.csv
"$ts" sweep "$scn" $big -j 2 --out int.csv 2>/dev/null &&
	fail "an existing file was reused without --resume" ||
	pass "an existing file needs --resume"
# --help says what --out does: a new or empty file, one with rows needs
# --resume (it said 'append rows to FILE', which the refusal above belies)
"$ts" sweep --help >help.txt 2>&1
grep -q 'append rows' help.txt && fail "sweep --help says --out appends" ||
	pass "sweep --help does not promise to append"
grep -q 'refused without --resume' help.txt && pass "sweep --help: a file with rows needs --resume" ||
	fail "sweep --help is silent about the refusal: $(grep -- --out help.txt)"
: >empty.csv
"$ts" sweep "$scn" --vary cluster.nic.speed=10Gbps -j 1 --out empty.csv 2>/dev/null &&
	[ "$(rows empty.csv | wc -l)" -eq 1 ] && pass "an empty --out is written, as --help says" ||
	fail "an empty --out: $(cat empty.csv)"
if "$ts" sweep "$scn" $big -j 2 --out int.csv --resume 2>res.err; then
	dup=$(indices int.csv | uniq -d | wc -l)
	n=$(indices int.csv | uniq | wc -l)
	[ "$dup" -eq 0 ] && [ "$n" -eq $total ] && [ "$(rows int.csv | wc -l)" -eq $total ] &&
		pass "resumed sweep: each of the $total rows exactly once" ||
		fail "resumed sweep: $n distinct of $total, $dup duplicated"
	grep -q 'half-writ' int.csv && fail "the half line survived" || pass "half line dropped"
	grep -q 'dropped a half-written' res.err && pass "resume says it dropped the half line" ||
		fail "resume is silent about the half line"
else
	fail "resume failed: $(cat res.err)"
fi
"$ts" sweep "$scn" $big -j 2 --out int.csv --resume 2>/dev/null &&
	[ "$(rows int.csv | wc -l)" -eq $total ] && pass "resuming a finished sweep adds nothing" ||
	fail "resuming a finished sweep"
# Resuming with another sweep's file is refused.
"$ts" sweep "$scn" --vary cluster.nic.speed=1Gbps,2Gbps --out int.csv --resume 2>/dev/null &&
	fail "resume accepted another sweep's file" || pass "resume refuses another sweep's file"

# 4. Invalid points are rows; a sweep of nothing but invalid points fails.
"$ts" sweep "$scn" --vary training.tp=1,3 -j 1 --out inv.csv 2>inv.err &&
	grep -q '^1,3,invalid,' inv.csv && [ "$(rows inv.csv | wc -l)" -eq 2 ] &&
	pass "an invalid layout is a row with status invalid" || fail "invalid layout row"
# ... and stderr says why, not only the CSV's error column
grep -q "^sweep: the first invalid point, 1 (training.tp=3): .*must divide" inv.err &&
	pass "some points invalid: the first one's reason on stderr" ||
	fail "some points invalid, stderr: $(cat inv.err)"
"$ts" sweep "$scn" --vary training.tp=3,5 --out typo.csv 2>typo.err &&
	fail "a sweep of invalid points succeeded" || {
	grep -q 'every point was invalid' typo.err && pass "all invalid: exit 1 with the reason" ||
		fail "all invalid: $(cat typo.err)"
	# the reason names the point and the option its bad value came from,
	# and is not the row's empty columns ("3502fe179a02ba0b,,,,...--set:")
	"$ts" sweep "$scn" --vary cluster.nic.speed=100GB,200GB --format json --out gb.jsonl \
		2>gb.err
	grep -q "^sweep: every point was invalid; the first, point 0 (cluster.nic.speed=100GB): --vary: cluster.nic.speed: unknown unit 'GB' in '100GB'" \
		gb.err && ! grep -q ',,' gb.err && ! grep -q -- '--set' gb.err &&
		pass "all invalid: the point, --vary and the reason" ||
		fail "all invalid, reason: $(cat gb.err)"
	"$ts" sweep "$scn" --vary cluster.nic.speed=100GB --out gb.csv 2>gb.err
	grep -q "^sweep: every point was invalid; the first, point 0 (cluster.nic.speed=100GB): --vary: cluster.nic.speed: unknown unit" \
		gb.err && ! grep -q ',,' gb.err && pass "all invalid, CSV: the reason alone" ||
		fail "all invalid, CSV reason: $(cat gb.err)"
	# a misspelt key is said before any point runs, and no file is left
	! "$ts" sweep "$scn" --vary cluster.nic.sped=10Gbps,25Gbps --out typo2.csv 2>typo2.err &&
		grep -q "did you mean 'speed'" typo2.err && [ ! -e typo2.csv ] &&
		pass "a misspelt --vary key stops the sweep up front" ||
		fail "misspelt key: $(cat typo2.err)"
}
"$ts" sweep "$scn" --vary cluster.nic.speed=10Gbps --format json -j 1 > one.jsonl 2>/dev/null &&
	grep -q '^{"index":0,"cluster.nic.speed":"10Gbps","status":"' one.jsonl &&
	[ "$(wc -l < one.jsonl)" -eq 1 ] && pass "JSON Lines to stdout" || fail "JSON Lines"

# 5. Plots: split bars; without gnuplot a clear message, data and script kept.
if [ -s nic.csv ]; then
	"$ts" plot nic.csv --kind split -o split.svg 2>/dev/null && grep -q '<svg' split.svg &&
		pass "split plot (SVG)" || fail "split plot"
	TRAINSIM_GNUPLOT=/nonexistent/gnuplot "$ts" plot nic.csv --kind speed -o nogp.png 2>nogp.err
	st=$?
	[ $st -eq 1 ] && grep -q 'gnuplot' nogp.err && [ -s nogp.dat ] && [ ! -e nogp.png ] &&
		pass "no gnuplot: exit 1, a message, the data kept" || fail "no gnuplot: exit $st"
fi
# The sweep's JSON Lines draw as its CSV does (plot refused them), and
# `sweep --format json --plot` draws them at once.
if [ -s nic.csv ] &&
	"$ts" sweep "$scn" --vary cluster.nic.speed=$speeds -j 2 --format json --out nic.jsonl \
		--plot nicj.png 2>nicj.err &&
	"$ts" plot nic.jsonl --kind split -o splitj.svg 2>>nicj.err; then
	# the data after its two comment lines (what it was read from, the redraw)
	tail -n +3 nic.dat > a.dat && tail -n +3 nicj.dat > b.dat && cmp -s a.dat b.dat &&
		tail -n +3 split.dat > a.dat && tail -n +3 splitj.dat > b.dat && cmp -s a.dat b.dat &&
		pass "plot: a sweep's JSON Lines give the data of its CSV (speed, split)" ||
		fail "plot: JSON Lines and CSV give other data"
else
	fail "plot of JSON Lines: $(cat nicj.err)"
fi
# The speed plot's key holds every entry: eight series, the two line styles
# and "does not fit" (a key of six rows fixed drew 12 of 17 entries).
if "$ts" sweep "$scn" --vary cluster.nic.speed=10Gbps,100Gbps --vary training.tp=1,2,4,8 \
	--vary training.zero=0,1 --out key.csv 2>/dev/null &&
	"$ts" plot key.csv --kind speed -o key.svg 2>key.err; then
	missing=$( { sed -n 's/^"\(.*\)"$/\1/p' key.dat
	             printf '%s\n' MFU 'nvidia-smi util' 'does not fit in GPU memory'; } |
		while IFS= read -r title; do
			grep -qF "<text>$title</text>" key.svg || printf '%s; ' "$title"
		done)
	[ "$(grep -c '^"' key.dat)" -eq 8 ] && [ -z "$missing" ] &&
		pass "speed plot: the key holds all 11 entries of 8 series" ||
		fail "speed plot key: missing $missing"
else
	fail "speed plot of 8 series: $(cat key.err)"
fi
# Split bars: 24 labels stand upright, apart and without a warning (at -30
# degrees they ran into each other); 80 are too many to label, and it says so.
many="--vary cluster.nic.speed=10Gbps,25Gbps,100Gbps,200Gbps,400Gbps --vary training.tp=1,2,4,8
      --vary training.zero=0,1,2,3"
"$ts" sweep "$scn" $many --out bars.csv 2>/dev/null
awk -F, 'NR == 1 || ($2 == "10Gbps" || $2 == "100Gbps") && $3 != 8' bars.csv > bars24.csv
if [ "$(rows bars24.csv | wc -l)" -eq 24 ] &&
	"$ts" plot bars24.csv --kind split -o bars24.svg 2>bars24.err; then
	! grep -q 'more than their labels' bars24.err && [ "$(grep -c 'rotate(-90)' bars24.svg)" -eq 24 ] &&
		pass "split plot: 24 bar labels upright, no warning" ||
		fail "split plot of 24 bars: $(cat bars24.err)"
else
	fail "split plot of 24 bars: $(cat bars24.err)"
fi
"$ts" plot bars.csv --kind split -o bars80.png 2>bars80.err &&
	grep -q '^plot: 80 bars, more than their labels can be read under' bars80.err &&
	pass "split plot: 80 bars, a warning" || fail "split plot of 80 bars: $(cat bars80.err)"
# the parity plot of a validation: one block per family, param-source rows left out;
# a sweep's CSV is refused for it
if "$ts" validate "$top_srcdir/tests/validation/published.csv" --only KOR22 --format csv \
	> val.csv 2>val.err; then
	"$ts" plot val.csv --kind parity -o parity.svg 2>par.err && grep -q '<svg' parity.svg &&
		grep -q '^"KOR22"$' parity.dat && grep -q '^"KOR22L"$' parity.dat &&
		pass "parity plot of a validation" || fail "parity plot: $(cat par.err)"
	! "$ts" plot val.csv --kind split -o p3.svg 2>p3.err && grep -q 'kind parity' p3.err &&
		pass "validate's CSV with another kind: the message names parity" ||
		fail "split of a validation: $(cat p3.err)"
	[ -s nic.csv ] && ! "$ts" plot nic.csv --kind parity -o p2.svg 2>p2.err &&
		grep -q 'trainsim validate' p2.err && pass "parity needs validate's CSV" ||
		fail "parity of a sweep: $(cat p2.err)"
else
	fail "validate --format csv for the parity plot: $(cat val.err)"
fi
if "$ts" run "$scn" --trace trace.json >/dev/null 2>&1; then
	"$ts" plot trace.json --kind timeline -o tl.png 2>tl.err && [ -s tl.png ] && [ -s tl.dat ] &&
		pass "timeline plot from a trace" || fail "timeline plot: $(cat tl.err)"
fi

# 6. Another sweep's rows: the same points of another --set are refused by
# --resume and by merge (the sweep fingerprint), a missing shard is said.
if "$ts" sweep "$scn" --vary cluster.nic.speed=$speeds --shard 1/2 --out fa.csv 2>/dev/null &&
	"$ts" sweep "$scn" --vary cluster.nic.speed=$speeds --shard 2/2 --out fb.csv 2>/dev/null &&
	"$ts" sweep "$scn" --vary cluster.nic.speed=$speeds --set training.zero=1 --shard 2/2 \
		--out fc.csv 2>/dev/null; then
	cp fa.csv fr.csv
	! "$ts" sweep "$scn" --vary cluster.nic.speed=$speeds --set training.zero=1 --out fr.csv \
		--resume 2>fr.err && grep -q "sweep fingerprint differs" fr.err &&
		pass "resume refuses the rows of other --set" || fail "resume mixed sweeps: $(cat fr.err)"
	! "$ts" merge fm.csv fa.csv fc.csv 2>fm.err && grep -q "a row of another sweep" fm.err &&
		pass "merge refuses the rows of other --set" || fail "merge mixed sweeps: $(cat fm.err)"
	"$ts" merge fm.csv fa.csv fb.csv 2>fm.err && [ "$(rows fm.csv | wc -l)" -eq 5 ] &&
		pass "merge joins the two shards of one sweep" || fail "merge of one sweep: $(cat fm.err)"
	"$ts" merge fm.csv fb.csv 2>fm.err && grep -q "2 of the points up to 3 are missing" fm.err &&
		pass "merge says a shard is missing" || fail "merge without a shard: $(cat fm.err)"
	# a damaged row in the middle (a crash, an edit) is refused, not copied
	# or counted as done; a file with no rows writes no OUT
	awk -F, 'NR == 3 { print $1 "," $2 "," $3; next } { print }' fa.csv > fd.csv
	! "$ts" merge fdm.csv fd.csv 2>fd.err && grep -q "a damaged row" fd.err && [ ! -e fdm.csv ] &&
		pass "merge refuses a damaged middle row" || fail "merge damaged row: $(cat fd.err)"
	! "$ts" sweep "$scn" --vary cluster.nic.speed=$speeds --shard 1/2 --out fd.csv --resume \
		2>fd.err && grep -q "a damaged row" fd.err &&
		pass "resume refuses a damaged middle row" || fail "resume damaged row: $(cat fd.err)"
	head -1 fa.csv > fh.csv
	! "$ts" merge fhm.csv fh.csv 2>fh.err && grep -q "no rows" fh.err && [ ! -e fhm.csv ] &&
		pass "merge of a header alone writes nothing" || fail "merge header only: $(cat fh.err)"
else
	fail "sweeps for the fingerprint checks"
fi

# 7. A scenario read from a pipe (read once, by the loader) still sweeps.
if mkfifo scn.fifo 2>/dev/null; then
	cat "$scn" > scn.fifo &
	"$ts" sweep scn.fifo --vary cluster.nic.speed=10Gbps,25Gbps --out fifo.csv 2>fifo.err &&
		[ "$(rows fifo.csv | wc -l)" -eq 2 ] && pass "a sweep of a scenario from a pipe" ||
		fail "sweep from a pipe: $(cat fifo.err)"
	wait
fi

echo "$failed failed"
[ $failed -eq 0 ]
