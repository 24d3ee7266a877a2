#!/bin/sh
# check_cli.sh: the trainsim command line as a user scripts it: exit codes,
# usage errors, --set, bad files reported as file:line:col, valid and
# byte-identical JSON for one seed, CSV, atomic --trace, explain, list;
# the counts docs/robustness.md cites.
# Run by `make check` (top_srcdir/top_builddir come from the harness).
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
TS=$top_builddir/trainsim
[ -x "$TS" ] || { echo "no $TS: build it first"; exit 99; }

SCN=$top_srcdir/scenarios/default.yaml
[ -f "$SCN" ] || SCN=$top_srcdir/scenarios/teach/dp-slow-ethernet.yaml

tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	sed 's/^/#   /' "$tmp/err" 2>/dev/null | head -20
}

# expect STATUS DESCRIPTION COMMAND...: runs COMMAND, stdout in $tmp/out,
# stderr in $tmp/err, and checks its exit status.
expect() {
	want=$1 desc=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$desc"; else not_ok "$desc (exit $rc, want $want)"; fi
}

# has FILE PATTERN DESCRIPTION: fixed-string search.
has() {
	if grep -F -q -- "$2" "$1"; then ok "$3"; else not_ok "$3 (no '$2' in $(basename "$1"))"; fi
}

# lacks FILE PATTERN DESCRIPTION: the fixed string must not be there.
lacks() {
	if grep -F -q -- "$2" "$1"; then not_ok "$3 ('$2' in $(basename "$1"))"; else ok "$3"; fi
}

# expect_matches_ratio: the report in $tmp/out expects ('so expect about X')
# within 5% of the reduction's simulated ratio to its naive figure.
expect_matches_ratio() {
	ratio=$(sed -n 's/^  ratio *\([0-9.]*\);.*/\1/p' "$tmp/out")
	expect_x=$(sed -n 's/.*so expect about [0-9.]* \/ [0-9.]* = \([0-9.]*\);.*/\1/p' "$tmp/out")
	if [ -n "$ratio" ] && [ -n "$expect_x" ] &&
		awk -v a="$ratio" -v b="$expect_x" 'BEGIN { d = a - b; exit !(d < 0.05 * a && -d < 0.05 * a) }'
	then ok "... expects $expect_x, within 5% of the simulated ratio $ratio"
	else not_ok "... expects '$expect_x', not within 5% of the simulated ratio '$ratio'"; fi
}

if command -v python3 >/dev/null 2>&1; then PY=python3; else PY=; fi

# json_check FILE DESCRIPTION: strict parse; every SCENARIO.md field present;
# the split sums to the step time. Without python3 the C tests cover JSON.
json_check() {
	if [ -z "$PY" ]; then ok "$2 # SKIP no python3"; return; fi
	if $PY - "$1" >"$tmp/err" 2>&1 <<'EOF'
import json, math, sys
def no_const(c): raise ValueError("non-standard constant " + c)
r = json.load(open(sys.argv[1]), parse_constant=no_const)
need = ["trainsim_version", "scenario", "gpus", "nodes", "step_time_s", "tokens_per_s",
        "mfu", "hfu", "gpu_util", "model_tflops_per_gpu", "hardware_tflops_per_gpu",
        "split_s", "memory", "bottleneck"]
missing = [k for k in need if k not in r]
split = ["compute", "tp_comm", "pp_comm", "pp_bubble", "dp_comm", "data_stall",
         "checkpoint", "optimizer", "idle"]
missing += ["split_s." + k for k in split if k not in r["split_s"]]
missing += ["memory." + k for k in ("per_gpu_bytes", "capacity_bytes", "fits")
            if k not in r["memory"]]
assert not missing, "missing: %s" % missing
total = sum(r["split_s"][k] for k in split)
assert math.isclose(total, r["step_time_s"], rel_tol=1e-6), (total, r["step_time_s"])
assert r["step_time_s"] > 0 and 0 <= r["mfu"] <= 1 and 0 <= r["gpu_util"] <= 1
assert isinstance(r["memory"]["fits"], bool)
EOF
	then ok "$2"; else not_ok "$2"; fi
}

# --- usage errors: exit 2 with the usage line
expect 2 "no command" "$TS"
expect 2 "run without a scenario" "$TS" run
has "$tmp/err" "usage: trainsim run SCENARIO" "the usage line is printed"
expect 2 "unknown format" "$TS" run "$SCN" --format xml
expect 2 "unknown option" "$TS" run "$SCN" --frobnicate
expect 2 "a misspelt option" "$TS" run "$SCN" --sett cluster.nodes=2
has "$tmp/err" "unknown option '--sett'; did you mean '--set'?" "a misspelt option gets a suggestion"
expect 2 "a misspelt sweep option" "$TS" sweep "$SCN" --varry cluster.nodes=2
has "$tmp/err" "did you mean '--vary'?" "... in sweep too"
expect 2 "--set without =" "$TS" run "$SCN" --set cluster.nodes
expect 2 "two scenarios" "$TS" run "$SCN" "$SCN"
expect 2 "--max-events not a number" "$TS" run "$SCN" --max-events lots
expect 2 "list what" "$TS" list
expect 2 "list something unknown" "$TS" list fruit

# --- what a user writes that is nearly right: accepted, or refused with the fix
expect 0 "transport: infiniband is rdma" "$TS" check "$SCN" --set cluster.nic.transport=InfiniBand
expect 0 "oversubscription written 4:1" "$TS" check "$SCN" --set cluster.fabric.oversubscription=4:1
expect 1 "a bandwidth of 400G" "$TS" check "$SCN" --set cluster.nic.speed=400G
has "$tmp/err" "bits or bytes? write Gbps" "400G: asks bits or bytes"
expect 1 "a bandwidth of 400gbps" "$TS" check "$SCN" --set cluster.nic.speed=400gbps
has "$tmp/err" "units are case-sensitive: write Gbps" "400gbps: the case"
expect 1 "params 7B" "$TS" check "$SCN" --set model.params=7B
has "$tmp/err" "write billions as 7G or 7e9" "7B: how to write billions"
mkdir "$tmp/adir.yaml"
expect 1 "a directory for a scenario" "$TS" check "$tmp/adir.yaml"
has "$tmp/err" "it is a directory" "a directory is named as one"
expect 2 "a misspelt command" "$TS" runn "$SCN"
has "$tmp/err" "did you mean 'run'?" "a misspelt command gets a suggestion"

# at 128K tokens a sequence MFU's full-matrix count overstates causal attention: said
expect 0 "a long-context run" "$TS" run "$top_srcdir/scenarios/whatif/long-context.yaml"
has "$tmp/out" "MFU and HFU count the full attention matrix" "the MFU convention is said where it matters"
expect 0 "a 2K-token run" "$TS" run "$top_srcdir/scenarios/dgx-a100.yaml"
if grep -q "count the full attention matrix" "$tmp/out"; then not_ok "no MFU note at 2K tokens"; else ok "no MFU note at 2K tokens"; fi

# --- check and list
expect 0 "check the default scenario" "$TS" check "$SCN"
if grep -E -q "^$SCN: ok \([0-9]+ GPUs, [0-9]+ x [0-9]+ x [0-9]+\)$" "$tmp/out"; then
	ok "check prints 'SCENARIO: ok (N GPUs, tp x pp x dp)'"
else
	not_ok "check output: $(cat "$tmp/out")"
fi
has "$tmp/out" "  memory per GPU: " "check gives the memory verdict"
has "$tmp/out" "DOES NOT FIT" "... and says when a valid layout does not fit"
expect 0 "check --show" "$TS" check "$SCN" --show --set cluster.nic.speed=400Gbps
has "$tmp/out" "zone_latency: " "check --show writes every key, defaults filled"
has "$tmp/out" "speed: 400Gbps" "check --show applies --set"
cp "$tmp/out" "$tmp/shown.yaml"
expect 0 "the shown scenario loads back" "$TS" check "$tmp/shown.yaml"
# a 0 or auto that stands for a derived value says the value used, in a
# comment that keeps the YAML loadable (nic.efficiency: 0 read as 0%)
expect 0 "check --show, dgx-h100" "$TS" check "$top_srcdir/scenarios/dgx-h100.yaml" --show
cp "$tmp/out" "$tmp/shown2.yaml"
has "$tmp/shown2.yaml" "    efficiency: 0  # 0 = rdma's: 0.94" "check --show: the NIC efficiency used"
has "$tmp/shown2.yaml" "  zero_group: 0  # 0 = every rank that holds the same weights: dp x cp = 8" \
	"check --show: the ZeRO group used"
has "$tmp/shown2.yaml" "  optimizer_bytes_per_param: 0  # 0 = from the precision: 18" \
	"check --show: the bytes per parameter used"
has "$tmp/shown2.yaml" "    collective: auto  # auto = all_reduce here" "check --show: auto resolved"
lacks "$tmp/shown2.yaml" "  zero: 0  #" "check --show: no comment on a 0 that means what it says"
expect 0 "the commented scenario loads back" "$TS" check "$tmp/shown2.yaml"
expect 0 "run, the commented scenario" "$TS" run "$tmp/shown2.yaml" -q --format json
cp "$tmp/out" "$tmp/shown2.json"
expect 0 "run, the scenario itself" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" -q --format json
if cmp -s "$tmp/out" "$tmp/shown2.json"; then ok "the commented scenario runs the same"
else not_ok "the commented scenario runs differently"; fi
expect 0 "run dgx-h100" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml"
has "$tmp/out" "gradients: nvls (auto) all-reduce" "run: the training line names what auto chose"
for f in "$top_srcdir"/scenarios/teach/*.yaml; do
	expect 0 "check $(basename "$f")" "$TS" check -q "$f"
done
expect 0 "list gpus" "$TS" list gpus
has "$tmp/out" "A100" "the GPU catalog names the A100"
# the GEMM efficiency the model holds a GPU to, beside the catalog's MAMF:
# the H100 under its power cap holds less than its best-shape figure
if awk '$1 == "H100-SXM5-80GB" { exit !($8 == "0.803" && $9 + 0 < 0.803 && $9 + 0 > 0.6) }' \
	"$tmp/out"; then
	ok "list gpus: H100 MAMF 0.803 and a lower held GEMM efficiency"
else
	not_ok "list gpus H100 row: $(grep '^H100-SXM5-80GB' "$tmp/out")"
fi
# the table and the loader agree: a V100 has an fp16 peak and no bf16 one
# (the table showed its fp16 peak under bf16, which the loader refuses)
if awk 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
	$1 == "V100-SXM2-32GB" { exit !($col["fp16"] == "125.0" && $col["bf16"] == "-") }' "$tmp/out"
then ok "list gpus: V100 fp16 125.0, bf16 -"
else not_ok "list gpus V100 row: $(head -1 "$tmp/out"; grep '^V100-SXM2-32GB' "$tmp/out")"; fi
expect 1 "bf16 on a V100" "$TS" check "$SCN" --set cluster.gpu=V100 --set training.precision=bf16
expect 0 "fp16 on a V100" "$TS" check "$SCN" --set cluster.gpu=V100 --set training.precision=fp16
expect 0 "list nics" "$TS" list nics
expect 0 "list topologies" "$TS" list topologies
has "$tmp/out" "fat-tree" "fat-tree is a topology"

# --- run: text, JSON, CSV
expect 0 "run, text" "$TS" run "$SCN"
has "$tmp/out" "where the time goes" "text report has the time split"
has "$tmp/out" "nvidia-smi" "text report says what nvidia-smi shows"
has "$tmp/out" "bottleneck:" "text report names the bottleneck"
expect 0 "run, json" "$TS" run "$SCN" --format json -q
cp "$tmp/out" "$tmp/a.json"
json_check "$tmp/a.json" "JSON parses and has every SCENARIO.md field"
expect 0 "run, json, again" "$TS" run "$SCN" --format json -q
if cmp -s "$tmp/a.json" "$tmp/out"; then ok "same seed: byte-identical JSON"
else not_ok "same seed: JSON differs"; fi
expect 0 "run, csv" "$TS" run "$SCN" --format csv -q
if [ "$(wc -l <"$tmp/out")" -eq 2 ]; then ok "CSV: header and one row"
else not_ok "CSV has $(wc -l <"$tmp/out") lines"; fi
if [ -n "$PY" ]; then
	if $PY -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1]))); assert len(r)==2 and len(r[0])==len(r[1]) and r[0][-1]=="error", r[0]' "$tmp/out" 2>"$tmp/err"
	then ok "CSV header and row have as many columns"; else not_ok "CSV columns"; fi
fi
# run's CSV is the row a sweep of the scenario without --vary writes (index,
# status, sweep first), so that plot reads it
cp "$tmp/out" "$tmp/one.csv"
head -1 "$tmp/one.csv" | grep -q '^index,status,sweep,scenario,gpus,' &&
	sed -n 2p "$tmp/one.csv" | grep -q '^0,no_fit,[0-9a-f]\{16\},"' &&
	ok "CSV: index, status and sweep first" || not_ok "CSV leading columns: $(head -c 80 "$tmp/one.csv")"
expect 0 "sweep without --vary" "$TS" sweep "$SCN" --out "$tmp/one_sweep.csv"
if cmp -s "$tmp/one.csv" "$tmp/one_sweep.csv"; then ok "run's CSV is the sweep's row, byte for byte"
else not_ok "run's CSV differs from the sweep's row"; fi
if command -v "${TRAINSIM_GNUPLOT:-gnuplot}" >/dev/null 2>&1; then
	expect 0 "plot --kind split of run's CSV" "$TS" plot "$tmp/one.csv" --kind split -o "$tmp/one.svg"
fi

# --- --set: overrides with the loader's validation
expect 0 "--set cluster.nodes=2" "$TS" run "$SCN" --set cluster.nodes=2 --format json -q
has "$tmp/out" '"nodes": 2' "--set changed the node count"
expect 0 "--set=KEY=VALUE form" "$TS" run "$SCN" --set=run.seed=2 --format json -q
expect 1 "--set with a bad unit" "$TS" run "$SCN" --set cluster.nic.speed=fast
has "$tmp/err" "speed" "the bad --set names its key"
expect 1 "--set of an unknown key" "$TS" run "$SCN" --set cluster.nick.speed=100Gbps
# a value refused for its size says which bound it passed
expect 1 "--set a NIC of 81 Tbps" "$TS" run "$SCN" --set cluster.nic.speed=81Tbps
has "$tmp/err" "in 125 KB/s..10 TB/s, not '81Tbps'" "81 Tbps: the upper bound is named"
# a link of 1e-12 Gbps gave a step of 1e16 s and a wrong compute time
expect 1 "--set a NIC of 1e-12 Gbps" "$TS" run "$SCN" --set cluster.nic.speed=1e-12Gbps
has "$tmp/err" "expected a bandwidth in 125 KB/s..10 TB/s, not '1e-12Gbps'" \
	"1e-12 Gbps: refused below the floor"
expect 1 "--set train_tokens=-5" "$TS" run "$SCN" --set run.train_tokens=-5
has "$tmp/err" "expected a number in 0..1e+18, not '-5'" "train_tokens -5: 0 is in the range"

# --- bad files: file:line:col, exit 1
expect 1 "a file that does not exist" "$TS" run "$tmp/missing.yaml"
has "$tmp/err" "missing.yaml" "the message names the file"
cp "$SCN" "$tmp/unknown.yaml"
printf '\nbogus_key: 1\n' >>"$tmp/unknown.yaml"
line=$(wc -l <"$tmp/unknown.yaml" | tr -d ' ')
expect 1 "an unknown top-level key" "$TS" run "$tmp/unknown.yaml"
has "$tmp/err" "$tmp/unknown.yaml:$line:1:" "unknown key reported at file:line:col"
printf 'schema_version: 1\nname: broken\ncluster: {nodes: 2\n' >"$tmp/syntax.yaml"
expect 1 "a YAML syntax error" "$TS" check "$tmp/syntax.yaml"
if grep -E -q "syntax.yaml:[0-9]+:[0-9]+:" "$tmp/err"; then ok "syntax error at file:line:col"
else not_ok "syntax error location"; fi

# --- --trace: valid JSON, atomic
expect 0 "run --trace" "$TS" run "$SCN" -q --trace "$tmp/trace.json"
if [ -s "$tmp/trace.json" ]; then ok "trace written"; else not_ok "no trace file"; fi
if [ -n "$PY" ]; then
	if $PY - "$tmp/trace.json" 2>"$tmp/err" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
named = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
used = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "X"}
assert used and used == named, (sorted(used), sorted(named))
assert all(e["dur"] >= 0 for e in ev if e["ph"] == "X")
EOF
	then ok "trace: valid JSON, one named track per GPU stream"; else not_ok "trace content"; fi
fi
# a DP event that runs coalesced buckets says how many (the report counted
# 8096 collectives a step where the trace showed 4 'allreduce' events)
if [ -n "$PY" ]; then
	"$TS" run "$SCN" -q --format json >"$tmp/a_dp.json" 2>/dev/null
	if $PY - "$tmp/trace.json" "$tmp/a_dp.json" 2>"$tmp/err" <<'EOF'
import json, sys
t, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ev = [e for e in t["traceEvents"] if e["ph"] == "X" and e["cat"] == "dp_comm"
      and e["name"].split(" ")[0] in ("allreduce", "reduce_scatter", "all_gather")]
n = sum(e["args"].get("collectives", 1) for e in ev)
assert n == r["dp_collectives_per_step"], (n, r["dp_collectives_per_step"])
assert any(e["name"].startswith("allreduce x") for e in ev), [e["name"] for e in ev]
EOF
	then ok "trace: the DP events' collectives add up to the report's per step"
	else not_ok "trace: DP collectives"; fi
fi
if ls "$tmp" | grep -q '\.tmp\.'; then not_ok "a temporary file was left behind"
else ok "no temporary left behind"; fi
expect 1 "--trace into a missing directory" "$TS" run "$SCN" -q --trace "$tmp/nodir/t.json"
if [ -e "$tmp/nodir/t.json" ]; then not_ok "half-written trace"; else ok "no trace on failure"; fi
# a symlink is written through and stays a link; a directory is refused
mkdir "$tmp/links" && ln -s real.json "$tmp/links/t.json"
expect 0 "--trace into a symlink" "$TS" run "$SCN" -q --trace "$tmp/links/t.json"
if [ -L "$tmp/links/t.json" ] && cmp -s "$tmp/links/real.json" "$tmp/trace.json"; then
	ok "--trace: the link stays a link, its target holds the trace"
else not_ok "--trace replaced the link: $(ls -l "$tmp/links" | tr '\n' ' ')"; fi
mkdir "$tmp/tdir"
expect 1 "--trace naming a directory" "$TS" run "$SCN" -q --trace "$tmp/tdir"
has "$tmp/err" "tdir: cannot write: Is a directory" "--trace into a directory: the reason"
if [ -d "$tmp/tdir" ] && [ -z "$(ls "$tmp/tdir")" ]; then ok "--trace into a directory: nothing left"
else not_ok "--trace into a directory left $(ls "$tmp/tdir")"; fi
# /dev/stdout is written in place, in order with the report (it was a
# temporary in /dev: 'cannot create: Permission denied', or as root a
# regular file where /dev/stdout was)
if [ -n "$PY" ] && [ -L /dev/stdout ]; then
	"$TS" run "$SCN" -q --format json --trace /dev/stdout >"$tmp/both.json" 2>"$tmp/err"
	if $PY - "$tmp/both.json" 2>>"$tmp/err" <<'EOF'
import json, sys
s = open(sys.argv[1]).read()
d = json.JSONDecoder()
trace, end = d.raw_decode(s)
report, _ = d.raw_decode(s[end:].lstrip())
assert "traceEvents" in trace and "step_time_s" in report
EOF
	then ok "--trace /dev/stdout: the trace, then the report"
	else not_ok "--trace /dev/stdout"; fi
fi
# a window of the timeline: its data holds only that window; bad windows refused
expect 2 "plot --from on a split" "$TS" plot "$tmp/trace.json" --kind split --from 1s -o "$tmp/w.png"
has "$tmp/err" "--from and --to window a timeline" "--from: a timeline option"
expect 2 "plot --from without a unit" "$TS" plot "$tmp/trace.json" --kind timeline --from 3 \
	-o "$tmp/w.png"
expect 2 "plot --to before --from" "$TS" plot "$tmp/trace.json" --kind timeline --from 2ms \
	--to 1ms -o "$tmp/w.png"
# plot's three files appear together or not at all; a directory is refused
# before any work (it showed only after gnuplot, and left .dat and .gp)
mkdir -p "$tmp/pdir/x.png"
expect 1 "plot -o naming a directory" "$TS" plot "$tmp/trace.json" --kind timeline \
	-o "$tmp/pdir/x.png"
has "$tmp/err" "x.png: cannot write: Is a directory" "plot -o a directory: the reason"
if [ "$(ls "$tmp/pdir")" = x.png ]; then ok "plot -o a directory: nothing written"
else not_ok "plot -o a directory left: $(ls "$tmp/pdir" | tr '\n' ' ')"; fi
mkdir "$tmp/pfail"
expect 1 "plot with a gnuplot that fails" env TRAINSIM_GNUPLOT=false "$TS" plot \
	"$tmp/trace.json" --kind timeline -o "$tmp/pfail/x.png"
if [ -z "$(ls "$tmp/pfail")" ]; then ok "plot: gnuplot failed, no .dat or .gp left"
else not_ok "plot: gnuplot failed, left: $(ls "$tmp/pfail" | tr '\n' ' ')"; fi
if command -v gnuplot >/dev/null 2>&1 || [ -n "${TRAINSIM_GNUPLOT:-}" ]; then
	expect 0 "plot a window of the timeline" "$TS" plot "$tmp/trace.json" --kind timeline \
		--from 1ms --to 2ms -o "$tmp/w.png"
	if awk '$1 + 0 == $1 && $3 >= 0 && ($1 < 0.001 - 1e-12 || $2 > 0.002 + 1e-12) { bad = 1 }
	        END { exit bad }' "$tmp/w.dat"; then ok "window: every event within 1-2 ms"
	else not_ok "window: an event outside 1-2 ms"; fi
	# a window below 100 us reaches gnuplot as 1e-05, which its range takes
	expect 0 "plot a microsecond window" "$TS" plot "$tmp/trace.json" --kind timeline \
		--from 10us --to 50us -o "$tmp/w2.png"
fi
# --- plot: several pictures side by side
pc=$tmp/pictures
mkdir "$pc"
DPS=$top_srcdir/scenarios/teach/dp-slow-ethernet.yaml
expect 0 "a DP sweep to plot" "$TS" sweep "$DPS" --vary cluster.nic.speed=10Gbps,100Gbps \
	--out "$pc/dp.csv"
expect 0 "a TP sweep to plot" "$TS" sweep "$top_srcdir/scenarios/dgx-h100.yaml" \
	--vary training.tp=1,8 --out "$pc/tp.csv"
# two plots of one kind in one directory leave a script each, named after
# its picture (both wrote split.gp, the second over the first's script)
expect 1 "plot without gnuplot: DP bars" env TRAINSIM_GNUPLOT=/nonexistent "$TS" plot \
	"$pc/dp.csv" --kind split -o "$pc/dp.png"
has "$tmp/err" "gnuplot -c $pc/dp.gp $pc/dp.dat $pc/dp.png" "... the script is named after the picture"
expect 1 "plot without gnuplot: TP bars" env TRAINSIM_GNUPLOT=/nonexistent "$TS" plot \
	"$pc/tp.csv" --kind split -o "$pc/tp.svg"
if [ -s "$pc/dp.gp" ] && [ -s "$pc/tp.gp" ] && [ ! -e "$pc/split.gp" ]; then
	ok "two split plots in one directory: two scripts, dp.gp and tp.gp"
else not_ok "two split plots in one directory left: $(ls "$pc" | tr '\n' ' ')"; fi
if command -v gnuplot >/dev/null 2>&1 && [ -z "${TRAINSIM_GNUPLOT:-}" ]; then
	expect 0 "plot DP bars (PNG)" "$TS" plot "$pc/dp.csv" --kind split -o "$pc/dp.png"
	expect 0 "plot TP bars (SVG)" "$TS" plot "$pc/tp.csv" --kind split -o "$pc/tp.svg"
	# each picture is redrawn by hand, the same, by the command its .dat gives
	cp "$pc/dp.png" "$pc/dp0.png" && cp "$pc/tp.svg" "$pc/tp0.svg"
	if (cd "$pc" && sh -c "$(sed -n 's/^# redraw: //p' dp.dat)" &&
		sh -c "$(sed -n 's/^# redraw: //p' tp.dat)") >/dev/null 2>"$tmp/err" &&
		cmp -s "$pc/dp.png" "$pc/dp0.png" && cmp -s "$pc/tp.svg" "$pc/tp0.svg"
	then ok "each plot redraws by hand from its own script (PNG and SVG)"
	else not_ok "a plot redrawn by hand from its script differs"; fi
	# one colour per category in every split and timeline picture: dp_comm
	# was green in the DP sweep's bars, light blue in the TP sweep's and
	# yellow in the timeline (the bars took colours in the order present)
	expect 0 "plot DP bars (SVG)" "$TS" plot "$pc/dp.csv" --kind split -o "$pc/dp.svg"
	expect 0 "a trace of the DP scenario" "$TS" run "$DPS" -q --trace "$pc/dp.json"
	expect 0 "plot its timeline (SVG)" "$TS" plot "$pc/dp.json" --kind timeline -o "$pc/tl.svg"
	# key_colour SVG CATEGORY: the fill of the category's key entry
	key_colour() {
		awk -v t="<title>$2</title>" 'index($0, t) { on = 1 }
			on && match($0, /rgb\([^)]*\)/) { print substr($0, RSTART, RLENGTH); exit }' "$1"
	}
	for cat in compute dp_comm optimizer; do
		a=$(key_colour "$pc/dp.svg" $cat) b=$(key_colour "$pc/tp.svg" $cat)
		c=$(key_colour "$pc/tl.svg" $cat)
		[ $cat = compute ] && c=$a   # the timeline draws compute by phase (below)
		if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" = "$c" ]; then
			ok "plot: $cat is $a in both sweeps' bars and in the timeline"
		else not_ok "plot: $cat is '$a' in DP bars, '$b' in TP bars, '$c' in the timeline"; fi
	done
	# the timeline's compute by phase: forward and backward in two shades
	f=$(key_colour "$pc/tl.svg" "compute: forward") b=$(key_colour "$pc/tl.svg" "compute: backward")
	if [ -n "$f" ] && [ -n "$b" ] && [ "$f" != "$b" ]; then
		ok "plot: the timeline draws forwards ($f) and backwards ($b) apart"
	else not_ok "plot: the timeline's forwards '$f', backwards '$b'"; fi
	# several results side by side, as shares of each step
	expect 0 "plot two scenarios' rows side by side (--percent)" \
		"$TS" plot "$pc/dp.csv" "$pc/tp.csv" --kind split --percent -o "$pc/both.png"
	expect 2 "plot: several results for a speed plot are refused" \
		"$TS" plot "$pc/dp.csv" "$pc/tp.csv" --kind speed -o "$pc/both2.png"
fi

# --- the teaching set shows what scenarios/README.md promises
# teach FILE KEY [COND]: KEY is the largest loss of the split; COND is a
# Python condition on the report r, its split s and step time t.
teach() {
	f=$top_srcdir/scenarios/teach/$1
	if [ -z "$PY" ]; then ok "teach $1 # SKIP no python3"; return; fi
	"$TS" run "$f" --format json -q >"$tmp/teach.json" 2>"$tmp/err" || { not_ok "run $1"; return; }
	if $PY - "$tmp/teach.json" "$2" "${3:-True}" >"$tmp/err" 2>&1 <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
t, s = r["step_time_s"], r["split_s"]
loss = max((k for k in s if k != "compute"), key=lambda k: s[k])
assert loss == sys.argv[2], "largest loss is %s, not %s: %s" % (loss, sys.argv[2], s)
assert eval(sys.argv[3]), sys.argv[3]
EOF
	then ok "teach $1: $2 is the largest loss"; else not_ok "teach $1"; fi
}
teach dp-slow-ethernet.yaml dp_comm 's["dp_comm"] > s["compute"] and r["gpu_util"] > r["mfu"] + 0.3'
teach pipeline-bubble.yaml pp_bubble 'abs(s["pp_bubble"] / t - 7 / 11) < 0.1'
teach tp-across-nodes.yaml tp_comm 's["tp_comm"] / t > 0.2'
teach storage-bound.yaml data_stall 's["data_stall"] / t > 0.5'
teach straggler.yaml idle \
	'abs(s["idle"] / s["compute"] - 0.25) < 0.05 and r["gpu_util"] > 0.99 and r["mfu"] < 0.4'
teach checkpoint-storm.yaml checkpoint \
	'r["best_checkpoint_every"] > r["checkpoint"]["every"] and r["goodput"] < 1'
tp=$top_srcdir/scenarios/teach/tp-across-nodes.yaml
"$TS" run "$tp" --format csv -q >"$tmp/tp16.csv" 2>/dev/null
"$TS" run "$tp" --format csv -q --set training.tp=8 --set training.pp=2 >"$tmp/tp8.csv" 2>/dev/null
if [ -n "$PY" ]; then
	if $PY -c 'import csv, sys
a, b = (next(csv.DictReader(open(f))) for f in sys.argv[1:3])
assert float(b["step_time_s"]) < float(a["step_time_s"]), (a["step_time_s"], b["step_time_s"])' \
		"$tmp/tp16.csv" "$tmp/tp8.csv" 2>"$tmp/err"
	then ok "teach: tp 8 inside the node beats tp 16 across nodes"; else not_ok "teach: tp 8 vs 16"; fi
fi

# --- limits: absurd inputs are refused at once, with a message naming the limit
# quick STATUS DESCRIPTION COMMAND...: expect, within 30 s where timeout exists.
if command -v timeout >/dev/null 2>&1; then TO="timeout 30"; else TO=; fi
quick() { want=$1 desc=$2; shift 2; expect "$want" "$desc" $TO "$@"; }
expect 2 "--max-memory not a size" "$TS" run "$SCN" --max-memory lots
quick 1 "--max-memory below the need" "$TS" run "$SCN" --max-memory 1kB -q
has "$tmp/err" "of memory; the limit is 1 KB (run.max_memory or --max-memory)" \
	"the memory refusal names the limit"
quick 1 "run.max_memory below the need" "$TS" run "$SCN" --set run.max_memory=2kB -q
has "$tmp/err" "needs about" "run.max_memory is a real limit"
quick 0 "--max-memory above the need" "$TS" run "$SCN" --max-memory 1GiB -q
expect 0 "run.max_memory does not warn" "$TS" check "$SCN" --set run.max_memory=8GiB
if grep -q "not modelled" "$tmp/err"; then not_ok "run.max_memory warns"; else ok "no warning"; fi
quick 1 "10^9 GPUs" "$TS" run "$SCN" --set cluster.nodes=1000000 --set cluster.gpus_per_node=1000
has "$tmp/err" "exceeds the limit of 1,000,000 GPUs" "10^9 GPUs: the GPU limit is named"
quick 1 "10^12 samples per step" "$TS" run "$SCN" --set training.global_batch=1000000000000
has "$tmp/err" "1..1000000000" "10^12 samples: the range is named"
quick 1 "10^9 micro-batches" "$TS" run "$SCN" --set training.global_batch=1000000000
has "$tmp/err" "exceeds the limit of 500000" "10^9 micro-batches: the limit is named"
# the trace named as the scenario itself would replace it: refused, the
# scenario intact (a fuzzing review's find)
cp "$SCN" "$tmp/self.yaml"
expect 2 "run --trace onto its own scenario is refused" "$TS" run "$tmp/self.yaml" --trace "$tmp/self.yaml"
has "$tmp/err" "is the scenario itself" "run --trace onto its scenario: said why"
if cmp -s "$SCN" "$tmp/self.yaml"; then ok "the scenario is left as it was"; else not_ok "the scenario was overwritten"; fi
# messages a fuzzing review found unclear: the loader's own form of a list
# element is accepted by --set; -1 is said not to be an index; empty names
expect 0 "--set accepts model.custom[1].flops, the loader's form" "$TS" run \
	"$top_srcdir/scenarios/custom-resnet50.yaml" -q --set 'model.custom[1].flops=1G'
expect 1 "--set model.custom.-1" "$TS" run "$top_srcdir/scenarios/custom-resnet50.yaml" \
	--set 'model.custom.-1.flops=1G'
has "$tmp/err" "'-1' is not an index of the list 'model.custom'" "--set -1: not an index"
expect 2 "merge ''" "$TS" merge '' "$tmp/none.csv"
has "$tmp/err" "OUT needs a file name" "merge '': says a name is needed"
expect 2 "validate --only ''" "$TS" validate "$top_srcdir/tests/validation/published.csv" --only ''
has "$tmp/err" "--only needs an id prefix" "validate --only '': says a prefix is needed"
printf '{"traceEvents":[{"ph":"X","ts":1,"dur":-5,"pid":0,"tid":0,"name":"a"}]}' > "$tmp/neg.json"
expect 1 "plot: an event of negative duration" "$TS" plot "$tmp/neg.json" --kind timeline -o "$tmp/neg.png"
has "$tmp/err" "event 0 of traceEvents has a time no step has" "plot: the event is named"
# past a file-size limit a write fails and says so (EFBIG), no signal death
# and no temporary left behind
( ulimit -f 1; "$TS" run "$SCN" --trace "$tmp/fsz.json" >"$tmp/out" 2>"$tmp/err" ); rc=$?
if [ "$rc" -eq 1 ]; then ok "ulimit -f: run --trace exits 1"; else not_ok "ulimit -f: exit $rc, want 1"; fi
has "$tmp/err" "File too large" "ulimit -f: the reason is said"
if ls "$tmp"/fsz.json* >/dev/null 2>&1; then not_ok "ulimit -f: a file left behind"; else ok "ulimit -f: nothing left behind"; fi
quick 1 "10^6 GPUs in one DP group" "$TS" run "$SCN" --set cluster.nodes=125000 \
	--set cluster.nic.count=8 --set training.global_batch=1000000 --set model.layers=2 \
	--set model.hidden=1024 --set model.heads=8
has "$tmp/err" "the limit is 4 GiB (run.max_memory or --max-memory)" "10^6 GPUs: memory limit"
cat >"$tmp/a2a.yaml" <<'EOF'
schema_version: 1
name: 16K GPUs on 1 Mbps NICs
cluster:
  nodes: 2048
  gpus_per_node: 8
  gpu: H100-SXM5-80GB
  nic: {count: 8, speed: 1Mbps}
  fabric: {topology: fat-tree, nodes_per_leaf: 16}
model: {layers: 2, hidden: 1024, heads: 8, seq_len: 1024, vocab: 51200}
training: {global_batch: 16384, micro_batch: 1}
EOF
quick 1 "all_to_all over 16K GPUs on 1 Mbps NICs" "$TS" nccl "$tmp/a2a.yaml" --op all_to_all \
	-b 1G -e 1G
has "$tmp/err" "all_to_all over 16384 GPUs needs about" "the all_to_all is refused up front"
has "$tmp/err" "the limit is 4 GiB (run.max_memory or --max-memory)" "... naming the limit"
expect 2 "nccl --max-memory not a size" "$TS" nccl "$tmp/a2a.yaml" --max-memory x
# sizes that would never end: refused up front, not printed forever
quick 2 "nccl -b 0 with a factor" "$TS" nccl "$SCN" -b 0 -e 1K
has "$tmp/err" "-b 0 with -f would stay at 0 bytes" "-b 0: why it is refused"
quick 2 "nccl -i 1 up to 8G" "$TS" nccl "$SCN" -b 1 -e 8G -i 1
has "$tmp/err" "would print 8.59e+09 sizes" "-i 1: how many sizes it would print"
quick 2 "nccl sizes beyond 2^50 bytes" "$TS" nccl "$SCN" -b 65536T -e 65536T -i 1
has "$tmp/err" "at most 1P (2^50 bytes)" "sizes where a double stops counting are refused"
quick 0 "nccl -b 0 stepping by bytes" "$TS" nccl "$SCN" -b 0 -e 1K -i 256
quick 0 "nccl sizes in GiB" "$TS" nccl "$SCN" -b 1GiB -e 1GiB
has "$tmp/out" "1073741824" "-b 1GiB is 2^30 bytes"
# "8k" tokens: 8000 as written (k = 10^3), with a warning naming 8192 and 8Ki
expect 0 "seq_len 8k loads" "$TS" check "$SCN" --set model.seq_len=8k
has "$tmp/err" "'8k' is 8000 tokens (k is 1000); a context of 8192 is written 8192 or 8Ki" \
	"seq_len 8k: the warning says what was read and how to write 8192"
expect 0 "seq_len 8Ki loads" "$TS" check "$SCN" --set model.seq_len=8Ki
lacks "$tmp/err" "tokens (k is 1000)" "seq_len 8Ki: no warning"
# the header says which attention ran and that auto chose it: a 2020-22 GPT on
# A100 unfused, the same model on an MI355X (a GPU of the FlashAttention era) fused
expect 0 "run: attention in the header (A100 GPT)" "$TS" run "$SCN"
has "$tmp/out" "attention unfused (auto)" "an A100 GPT runs unfused attention, said so"
expect 0 "run: attention in the header (MI355X)" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set cluster.gpu=MI355X
has "$tmp/out" "attention flash (auto)" "an MI355X runs flash attention by default"
has "$tmp/out" "8 MI355X (Infinity Fabric)" "an AMD node is joined by Infinity Fabric, said so"
expect 0 "run: a custom workload's batch" "$TS" run "$top_srcdir/scenarios/custom-resnet50.yaml"
has "$tmp/out" "samples per step" "a custom workload counts samples, not 1-token sequences"
has "$tmp/out" "samples/s" "a custom workload's throughput is in samples"
expect 0 "run: a custom workload's run length" "$TS" run "$top_srcdir/scenarios/custom-resnet50.yaml" \
	--set run.train_tokens=1e9 --set model.seq_len=4
has "$tmp/out" "for 1 G samples" "a custom workload's run is counted in samples, whatever seq_len"
expect 0 "run: async checkpoints falling back to sync" "$TS" run \
	"$top_srcdir/scenarios/ckpt-every1000-frontend.yaml" --set cluster.host_memory=64GB \
	--set cluster.storage.frontend=3.5Gbps --set training.checkpoint.every=10
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "fall back to synchronous writes (host memory too small" \
	"a fallback's bottleneck asks for host memory, not async checkpoints"
expect 0 "run: DeepSeek-V3's all-to-all" "$TS" run "$top_srcdir/scenarios/deepseek-v3-h100.yaml"
lacks "$tmp/out" "(placement tp-dp-pp" "ep 64 spans nodes at any placement: no placement advice"
# expert_imbalance needs several expert-parallel ranks to make one GPU busier
expect 0 "expert_imbalance with ep 1" "$TS" run "$top_srcdir/scenarios/mixtral-8x7b.yaml" \
	--set training.ep=1 --set training.expert_imbalance=3 --format json
has "$tmp/err" "has no effect with ep 1 (every GPU runs every expert's tokens)" \
	"expert_imbalance with ep 1 warns"
cp "$tmp/out" "$tmp/imb3.json"
expect 0 "the same with a balanced router" "$TS" run "$top_srcdir/scenarios/mixtral-8x7b.yaml" \
	--set training.ep=1 --format json -q
grep -o '"step_time_s": [0-9.e+-]*' "$tmp/imb3.json" >"$tmp/imb3.t"
grep -o '"step_time_s": [0-9.e+-]*' "$tmp/out" >"$tmp/imb1.t"
if [ -s "$tmp/imb1.t" ] && cmp -s "$tmp/imb3.t" "$tmp/imb1.t"; then
	ok "expert_imbalance with ep 1 leaves the step time"
else
	not_ok "expert_imbalance with ep 1 leaves the step time"
fi
# a local cache's hit rate: one pass of the data is training.data.dataset when
# given, else run.train_tokens' samples (1T tokens do not fit the NVMe cache here)
nv=$top_srcdir/scenarios/storage-nfs-vs-nvme-nvme.yaml
expect 0 "cache: the run's tokens as one pass" "$TS" run "$nv" --set run.train_tokens=1T -q \
	--format json
grep -o '"step_time_s": [0-9.e+-]*' "$tmp/out" >"$tmp/cache1.t"
expect 0 "cache: a 1 TB data set given" "$TS" run "$nv" --set run.train_tokens=1T -q \
	--set training.data.dataset=1TB --format json
grep -o '"step_time_s": [0-9.e+-]*' "$tmp/out" >"$tmp/cache2.t"
expect 0 "cache: no run length" "$TS" run "$nv" -q --format json
grep -o '"step_time_s": [0-9.e+-]*' "$tmp/out" >"$tmp/cache0.t"
if [ -s "$tmp/cache0.t" ] && cmp -s "$tmp/cache0.t" "$tmp/cache2.t" && ! cmp -s "$tmp/cache0.t" "$tmp/cache1.t"; then
	ok "training.data.dataset decouples the cache from run.train_tokens"
else
	not_ok "training.data.dataset decouples the cache from run.train_tokens"
fi
# nccl uses the cluster alone: a training layout that no longer fits the GPU
# count (3 nodes: 24 GPUs, global batch 4096) does not stop it, a bad cluster does
quick 0 "nccl ignores the training layout" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set cluster.nodes=3 -b 1M -e 1M
has "$tmp/out" "1048576" "nccl on 3 nodes prints its row"
quick 0 "nccl ignores the training's precision" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set cluster.gpu=A100 --set training.precision=fp8 -b 1M -e 1M
quick 1 "nccl refuses more than a million GPUs" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set cluster.nodes=2000 --set cluster.gpus_per_node=1024 -b 1M -e 1M
has "$tmp/err" "exceeds the limit of 1,000,000 GPUs" "nccl names the GPU limit"
quick 1 "tp x pp past 2^31 is refused, not a crash" "$TS" check "$SCN" \
	--set training.tp=65536 --set training.pp=65536
quick 1 "nccl still checks the cluster" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set cluster.nic.count=99 -b 1M -e 1M
has "$tmp/err" "cluster.nic.count" "nccl names the bad cluster key"

# --- explain
expect 0 "explain" "$TS" explain "$SCN"
has "$tmp/out" "nvidia-smi" "explain contrasts nvidia-smi and MFU"
has "$tmp/out" "What to try next" "explain suggests a next step"
# n = 4 gives 1.50: the heading says the factor, not "about twice"
has "$tmp/out" "Why the gradient all-reduce takes 2(n-1)/n times size/bandwidth" \
	"explain: the all-reduce's heading names 2(n-1)/n"
lacks "$tmp/out" "about twice" "explain: no 'about twice' beside 1.50"
# the default layout does not fit: the first advice is to make it fit
has "$tmp/out" "first make it fit" "explain of a layout that does not fit starts with memory"
has "$tmp/out" "both: ZeRO-3 and full recomputation" "... and tries ZeRO-3 with full recomputation"
has "$tmp/out" "it fits (" "... saying which change makes it fit"
# Llama 2 70B at tp 8 x pp 2 on 64 H100 without ZeRO: 1.27x the memory, and
# with sequence parallelism 1.05x, which printed as 'still 1.0x'
cat >"$tmp/l70.yaml" <<'EOF2'
name: Llama 2 70B on 64 H100
cluster: {nodes: 8, gpu: H100, nic: {count: 8, speed: 400Gbps}, fabric: {topology: fat-tree}}
model: {layers: 80, hidden: 8192, heads: 64, kv_heads: 8, ffn_hidden: 28672, vocab: 32000,
        gated_mlp: true, seq_len: 4096}
training: {precision: bf16, global_batch: 512, micro_batch: 1, tp: 8, pp: 2}
EOF2
expect 0 "explain, 70B a little over the memory" "$TS" explain "$tmp/l70.yaml"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "This layout needs 1.27x the GPU's memory" "explain: the need in two decimals"
has "$tmp/flat" "still 1.05x the GPU's memory" "explain: 1.05x is not rounded to 1.0x"
lacks "$tmp/flat" "still 1.0x" "explain: no layout that does not fit reads as 1.0x"
# sequence parallelism exposes more TP time than the all-reduces it replaces
# (an unhidden all-gather in the backward; NVLS all-reduces on H100): said
has "$tmp/flat" "0.96x the tokens/s (slower: each all-reduce becomes a reduce-scatter" \
	"explain: why sequence parallelism comes out slower"
has "$tmp/flat" "faster per byte (NVLS) than the ring pair" "... NVLS on an H100 node"
expect 0 "run with sequence parallelism on H100" "$TS" run "$tmp/l70.yaml" \
	--set training.sequence_parallel=true --set training.zero=1
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "note: Sequence parallelism: each TP all-reduce becomes a reduce-scatter" \
	"run: a note on what sequence parallelism costs"
has "$tmp/flat" "(NVLS), faster per byte than the ring pair" "... naming NVLS on H100"
expect 0 "run with sequence parallelism on A100" "$TS" run "$tmp/l70.yaml" \
	--set training.sequence_parallel=true --set training.zero=1 --set cluster.gpu=A100
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "note: Sequence parallelism:" "... and on A100"
lacks "$tmp/flat" "NVLS" "... where no NVLS is named"
expect 0 "explain with a GPU-hour price" "$TS" explain "$SCN" --set run.gpu_hour_price=2.5
has "$tmp/out" "per GPU-hour a million tokens costs" "explain prices a million tokens"
has "$tmp/out" "pays for GPUs that" "explain prices the idle share"
expect 0 "explain on H100" "$TS" explain "$top_srcdir/scenarios/dgx-h100.yaml"
has "$tmp/out" "power limit" "explain: a Hopper GEMM holds less than its best shape"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "NCCL runs this reduction as NVLS, not as a ring: the NVSwitch adds" \
	"explain: what NVLS does instead of a ring"
lacks "$tmp/flat" "as a nvls" "explain: no 'as a nvls'"
# the latency of the buckets in the report's unit (it said 1969 ms beside 1.97 s)
expect 0 "explain, the default scenario's buckets" "$TS" explain "$SCN"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "(8096 collectives now pay 1.97 s of latency)" "explain: latency as the report gives it"
# a one-node variant that cannot hold the expert group: said in words, not as
# a loader error
expect 0 "explain, MoE with the expert group across nodes" "$TS" explain \
	"$top_srcdir/scenarios/mixtral-8x7b.yaml" --set training.placement=tp-pp-dp
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "too few for the expert-parallel group (ep 8)" "explain 5c: why no one-node variant"
lacks "$tmp/flat" "could not be simulated: training.ep" "explain 5c: no raw loader error"
expect 0 "explain, TP over a whole node" "$TS" explain "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set training.tp=8 --set training.sequence_parallel=true
has "$tmp/out" "--set training.tp=4 --set training.pp=2" "explain tries half the TP, twice the PP"
L3F="$top_srcdir/scenarios/llama3-405b-failures.yaml"
expect 0 "explain, interleaved pipeline" "$TS" explain "$L3F"
has "$tmp/out" "(p-1)/(v*m+p-1) = 19" "explain: the textbook bubble counts the virtual stages"
expect 0 "explain, frequent failures" "$TS" explain "$L3F" \
	--set training.failures.gpu_mtbf=5000h --set training.failures.restart=30min
has "$tmp/out" "restarts take 8" "explain: where the time outside goodput goes"
expect 0 "run, frequent failures" "$TS" run "$L3F" \
	--set training.failures.gpu_mtbf=5000h --set training.failures.restart=30min
has "$tmp/out" "bottleneck: Failures:" "failures that outweigh the step are the bottleneck"
expect 0 "explain, a fine-grained MoE" "$TS" explain "$top_srcdir/scenarios/qwen3-30b-a3b-b200.yaml"
has "$tmp/out" "Unless the CPU cannot keep up" "explain: short MoE layers may be host-bound"
has "$tmp/out" "training.ep_overlap=true" "explain tries overlapping the expert all-to-all"
expect 0 "run, a fine-grained MoE" "$TS" run "$top_srcdir/scenarios/qwen3-30b-a3b-b200.yaml"
has "$tmp/out" "note: MoE: the step comes to" "the report notes host-bound MoE layers"
expect 0 "run, the same at micro-batch 4" "$TS" run "$top_srcdir/scenarios/qwen3-30b-a3b-b200.yaml" \
	--set training.micro_batch=4
lacks "$tmp/out" "note: MoE:" "no host note once the layers are long"
expect 0 "run with tokens and a price" "$TS" run "$SCN" --set run.train_tokens=1T \
	--set run.gpu_hour_price=2.5
has "$tmp/out" "GPU-hours" "the report gives the run's GPU-hours"
has "$tmp/out" "for the whole run" "the report gives the run's cost"
expect 0 "run --explain" "$TS" run "$SCN" --explain -q
has "$tmp/out" "Busy is not the same as useful" "run --explain appends the account"

# DP inside one node of two (tp-dp-pp puts each stage's 8 GPUs on one node):
# every sentence about the gradient all-reduce names the PCIe links, no NIC
dpn=$top_srcdir/scenarios/teach/dp-slow-ethernet.yaml
set -- --set cluster.nodes=2 --set training.pp=2 --set training.placement=tp-dp-pp \
	--set cluster.intra_node.kind=pcie --set cluster.intra_node.bandwidth=1GB/s \
	--set training.global_batch=512
expect 0 "explain, DP group inside a node of two" "$TS" explain "$dpn" "$@"
has "$tmp/out" "The links inside the node (PCIe)" "... the PCIe links are what is saturated"
lacks "$tmp/out" "The network between nodes" "... not the network between nodes"
lacks "$tmp/out" "hierarchical" "... no hierarchical all-reduce to save a node crossing"
lacks "$tmp/out" "buy NICs" "... no faster NICs for a reduction they do not carry"
expect 0 "run, DP group inside a node of two" "$TS" run "$dpn" "$@"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "over the intra-node links (PCIe" "... the bottleneck names the PCIe links"
lacks "$tmp/flat" "through each NIC" "... and no NIC"
set --

# Each pipeline inside one node of two (tp 1 x pp 8 x dp 2 placed tp-pp-dp):
# activations cross NVLink only, so no sentence sends them through a NIC
ppn=$top_srcdir/scenarios/teach/pipeline-bubble.yaml
set -- --set cluster.nodes=2 --set training.pp=8 --set training.placement=tp-pp-dp \
	--set cluster.intra_node.bandwidth=0.5GB/s --set training.global_batch=64 \
	--set training.schedule=1f1b
expect 0 "explain, each pipeline inside a node of two" "$TS" explain "$ppn" "$@"
has "$tmp/out" "The links between pipeline stages" "... the pipeline transfers are what is saturated"
lacks "$tmp/out" "buy NICs" "... no faster NICs for transfers they do not carry"
expect 0 "run, each pipeline inside a node of two" "$TS" run "$ppn" "$@"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "on the wire (the intra-node links, NVLink" "... the bottleneck names the NVLink links"
lacks "$tmp/flat" "between nodes" "... and no NIC between nodes"
set --

# The pipeline bubble and the pipeline transfers as the two largest losses,
# in either order: explain lists each pipeline fix once
# count FILE PATTERN: occurrences of the fixed string in FILE (lines joined)
count() { tr '\n' ' ' <"$1" | tr -s ' ' | grep -o -F -- "$2" | wc -l | tr -d ' '; }
for first in bubble transfers; do
	# a small vocabulary: the tied embedding's all-reduce would cross the slow links too
	if [ "$first" = bubble ]; then
		set -- --set cluster.intra_node.bandwidth=0.5GB/s --set model.vocab=1024
	else
		set -- --set cluster.nodes=2 --set training.pp=8 --set training.placement=tp-pp-dp \
			--set cluster.intra_node.bandwidth=1GB/s --set training.global_batch=64 \
			--set training.schedule=1f1b --set model.vocab=1024
	fi
	expect 0 "explain, pipeline $first first" "$TS" explain "$ppn" "$@"
	has "$tmp/out" "exposed pipeline send/receive" "... the transfers are a large loss"
	for fx in "- double the global batch" "- interleave the pipeline"; do
		c=$(count "$tmp/out" "$fx")
		if [ "$c" -eq 1 ]; then ok "... '$fx' listed once"
		else not_ok "... '$fx' listed $c times, want once"; fi
	done
done
set --

# A Llama-3-70B layout on 32 DGX H100 (tp 8, pp 4 interleaved, dp 8): explain's
# step d gives the bus bandwidth the report's reduction alone reaches (the bytes
# each GPU sends over 'reduction, alone'), not the NIC's rate; with ZeRO 1 and
# without (an all-reduce: bus bandwidth 2(n-1)/n of the algorithm bandwidth)
set -- --set cluster.nodes=32 --set model.layers=80 --set model.hidden=8192 \
	--set model.heads=64 --set model.kv_heads=8 --set model.ffn_hidden=28672 \
	--set model.vocab=128256 --set model.seq_len=8192 --set model.gated_mlp=true \
	--set training.global_batch=512 --set training.tp=8 --set training.pp=4 \
	--set training.schedule=interleaved --set training.virtual_stages=5 \
	--set training.sequence_parallel=true
# num KEY FILE: a number of the JSON report
num() { sed -n 's/.*"'"$1"'": *\([0-9.e+-]*\).*/\1/p' "$2" | head -1; }
for z in 1 0; do
	expect 0 "run, Llama-3-70B on 256 H100, ZeRO $z" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" \
		"$@" --set training.zero=$z --format json
	cp "$tmp/out" "$tmp/json"
	expect 0 "explain, the same" "$TS" explain "$top_srcdir/scenarios/dgx-h100.yaml" "$@" \
		--set training.zero=$z
	# the first bus bandwidth of step d, in GB/s
	got=$(tr '\n' ' ' <"$tmp/out" | tr -s ' ' | sed -n 's/.* d\. [CA][a-z-]* bandwidth//p' |
		grep -o 'bus bandwidth \(of \)\{0,1\}[0-9.]* [MGT]B/s' | head -1 | sed 's/.* \([0-9.]*\) \([MGT]\)B\/s/\1 \2/')
	want=$(awk -v w="$(num dp_wire_bytes_per_gpu "$tmp/json")" -v t="$(num dp_allreduce_s "$tmp/json")" \
		'BEGIN { if (t > 0) printf "%.4g", w / t / 1e9 }')
	if [ -n "$got" ] && [ -n "$want" ] && awk -v g="$got" -v w="$want" 'BEGIN {
		split(g, x, " "); v = x[1] * (x[2] == "M" ? 1e-3 : x[2] == "T" ? 1e3 : 1)
		d = v - w; exit !(d < 0.03 * w && -d < 0.03 * w) }'
	then ok "... step d's bus bandwidth ($got""B/s) is the report's wire bytes over the reduction alone ($want GB/s)"
	else not_ok "... step d's bus bandwidth '$got""B/s', the report's wire bytes over the reduction alone '$want' GB/s"; fi
done
set --

# TCP with tp 2: a data-parallel group holds 4 of a node's 8 GPUs, and the
# text report's NIC share (hence its 'expect about X') is the one the
# simulated all-reduce runs at, so X and the measured ratio agree
expect 0 "run, TCP DP with tp 2" "$TS" run "$top_srcdir/scenarios/dp-100b-10gbe.yaml" \
	--set training.tp=2
has "$tmp/out" "achieves 0.676 of its line rate" "... TCP's share for 4 GPUs of a group per node"
expect_matches_ratio

# --- docs/scenario.md's first example (Megatron's 145.6B on 1536 A100) loads and fits
awk '/^```yaml$/ { on = 1; next } on && /^```/ { exit } on' "$top_srcdir/docs/scenario.md" \
	>"$tmp/doc_example.yaml"
expect 0 "docs/scenario.md's first example loads" "$TS" check "$tmp/doc_example.yaml"
has "$tmp/out" "of 85.9 GB, fits" "... and fits, as Megatron ran it"

# --- README's worked example is the real output, line for line (less the wall time)
awk '/^\$ \.\/trainsim run scenarios\/dp-100b-10gbe.yaml$/ { on = 1; next }
     on && /^```/ { exit } on' "$top_srcdir/README.md" | grep -v '^(simulated ' >"$tmp/readme"
"$TS" run "$top_srcdir/scenarios/dp-100b-10gbe.yaml" | grep -v '^(simulated ' >"$tmp/real"
if [ -s "$tmp/readme" ] && cmp -s "$tmp/readme" "$tmp/real"; then
	ok "README's worked example is what run prints"
else
	diff "$tmp/readme" "$tmp/real" >"$tmp/err"
	not_ok "README's worked example differs from run's output"
fi

# --- docs/robustness.md: the counts it cites are the tree's
rob=$top_srcdir/docs/robustness.md
# same NUMBER WANT DESCRIPTION
same() { if [ "$1" = "$2" ]; then ok "$3 ($2)"; else not_ok "$3 (the page says '$1', the tree has $2)"; fi; }
progs=$(cat "$top_srcdir"/*/*.am "$top_srcdir"/tests/fuzz/*.am | tr -d '\\' |
	sed -n 's/^check_PROGRAMS *+= *//p' | tr ' \t' '\n\n' | grep -c '^tests/check_')
same "$(sed -n 's/.*the \([0-9]*\) Check programs.*/\1/p' "$rob")" "$progs" \
	"robustness.md: the Check programs valgrind runs"
bad=$(ls "$top_srcdir"/tests/bad/*.yaml | wc -l | tr -d ' ')
same "$(sed -n 's/.*(`tests\/bad\/`, \([0-9]*\) files).*/\1/p' "$rob")" "$bad" \
	"robustness.md: the files of tests/bad"
same "$(sed -n '/^## Bad scenario files/,/^## Limits of the loader/p' "$rob" |
	awk -F'|' '$3 ~ /^ *[0-9]+ *$/ { n += $3 } END { print n + 0 }')" "$bad" \
	"robustness.md: the classes of bad files add up"
for c in loader units; do
	same "$(awk -F'|' -v c="corpus/$c" 'index($2, c) { gsub(/ /, "", $3); print $3 }' "$rob")" \
		"$(ls "$top_srcdir/tests/fuzz/corpus/$c" | wc -l | tr -d ' ')" "robustness.md: corpus/$c"
done
same "$(awk -F'|' '$2 ~ /^ *regressions:/ { gsub(/ /, "", $3); print $3 }' "$rob")" \
	"$(ls "$top_srcdir/tests/fuzz/regressions" | wc -l | tr -d ' ')" "robustness.md: regressions"

# validate --show: the scenario a published row becomes loads and runs as is
PUB=$top_srcdir/tests/validation/published.csv
expect 0 "validate --show prints a row's scenario" "$TS" validate "$PUB" --show KOR22-004
cp "$tmp/out" "$tmp/row.yaml"
has "$tmp/row.yaml" "sequence_parallel: true" "validate --show: the row's SP"
expect 0 "the shown scenario loads" "$TS" check "$tmp/row.yaml"
expect 0 "validate --show: a row not simulated says why" "$TS" validate "$PUB" --show MEG20-003
has "$tmp/out" "not simulated: the baseline" "validate --show: the reason"
expect 1 "validate --show: an unknown id" "$TS" validate "$PUB" --show NO-SUCH-ROW
expect 0 "validate --show: an id in lower case" "$TS" validate "$PUB" --show kor22-004
has "$tmp/out" "# KOR22-004 (line" "validate --show: the id matched without regard to case"
# a benchmark row: a file trainsim nccl takes, and the command to run
expect 0 "validate --show: an nccl-tests row" "$TS" validate "$PUB" --show NCCL-AZ-010
cp "$tmp/out" "$tmp/coll.yaml"
has "$tmp/coll.yaml" "trainsim nccl FILE --op all_reduce -b 268435456 -e 268435456 -g 8" \
	"validate --show: the nccl command of a benchmark row"
expect 0 "the shown benchmark scenario runs in trainsim nccl" "$TS" nccl "$tmp/coll.yaml" \
	--op all_reduce -b 268435456 -e 268435456 -g 8

# an async checkpoint written slower than its interval: the note parts the
# snapshot from the wait for the previous write
expect 0 "async checkpoint slower than its interval" "$TS" run \
	"$top_srcdir/scenarios/ckpt-every100-shared.yaml" --set training.checkpoint.mode=async \
	--set training.checkpoint.every=1 --set cluster.storage.bandwidth=10GB/s
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "for the previous write to finish" \
	"async checkpoint: the wait for the previous write is named"

# the other interval is its own sentence, per step (it read 'over the shared
# training NICs it would cost 56.8 ms per step, and every 500 steps 5.68 ms.')
expect 0 "a sync checkpoint every 50 steps" "$TS" run "$L3F"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "per step. Every 500 steps instead, it would cost 5.68 ms per step." \
	"checkpoint note: the other interval's cost per step, in a sentence of its own"

# nccl sizes are whole bytes: a step below a size's precision looped forever
expect 2 "nccl -i 1e-20 is refused" "$TS" nccl "$SCN" --op all_reduce -b 8 -e 8 -i 1e-20
has "$tmp/err" "not a whole number of bytes" "nccl: a fractional size says why"
expect 2 "nccl -f inf is refused" "$TS" nccl "$SCN" --op all_reduce -f inf

# output that cannot be written fails and says so (a full disk: /dev/full);
# --help, --version and run --help exited 0
if [ -w /dev/full ]; then
	for c in "list gpus" "explain $SCN" "nccl $SCN --op all_reduce -b 8 -e 8" "--help" \
		"--version" "run --help"; do
		# shellcheck disable=SC2086
		"$TS" $c >/dev/full 2>"$tmp/err"
		rc=$?
		if [ "$rc" -eq 1 ] && grep -q "could not be written" "$tmp/err"; then
			ok "${c%% *} to a full disk: exit 1 and a message"
		else
			not_ok "${c%% *} to a full disk (exit $rc)"
		fi
	done
	# a sweep whose header cannot be written said nothing
	expect 1 "sweep to a full disk" sh -c '"$0" sweep "$1" >/dev/full' "$TS" "$SCN"
	has "$tmp/err" "sweep: stdout: writing the header failed: " "sweep to a full disk: the reason"
fi

# asked-for help is not a usage error: stdout and 0, for every command
for c in run check explain nccl sweep merge plot validate list; do
	expect 0 "$c --help exits 0" "$TS" $c --help
done
expect 2 "validate with an unknown option is a usage error" "$TS" validate --bogus
# 'trainsim --help' promises that 'COMMAND --help' lists every option: each
# option of a usage line has a line of its own (run, check, explain, nccl,
# validate and list printed the usage line alone)
for c in run check explain nccl sweep plot validate; do
	"$TS" $c --help >"$tmp/help" 2>&1
	missing=
	for o in $(awk 'NR == 1 || /^   +\[/' "$tmp/help" | grep -o -E -- '(^|[ [])--?[a-z][a-z-]*' |
		tr -d ' ['); do
		awk '/^  -/ { print substr($0, 1, 26) }' "$tmp/help" | grep -q -E -- "(^| )$o([ ,=]|\$)" ||
			missing="$missing $o"
	done
	if [ -z "$missing" ] && [ "$(grep -c '^  -' "$tmp/help")" -ge 2 ]; then
		ok "$c --help: a line for each option"
	else not_ok "$c --help: no line for$missing"; fi
done
"$TS" list --help >"$tmp/help"
if grep -q '^  gpus ' "$tmp/help" && grep -q '^  nics ' "$tmp/help" &&
	grep -q '^  topologies ' "$tmp/help"; then ok "list --help: a line for each list"
else not_ok "list --help: $(cat "$tmp/help")"; fi
# --set messages name the key: a key called 'warning' reads as an error, an
# index off the end of a list gives the path
expect 1 "--set warning=1 is refused" "$TS" check "$SCN" --set warning=1
has "$tmp/err" "--set: error: warning: unknown key" "--set: a key named warning reads as an error"
expect 1 "--set: an index off the list" "$TS" check "$top_srcdir/scenarios/custom-resnet50.yaml" \
	--set model.custom.99.flops=2G
has "$tmp/err" "--set: model.custom.99: '99' is not an index" "--set: the index error names the key"
# the CSV carries the MoE host-bound flag the JSON has
expect 0 "a MoE scenario as CSV" "$TS" run "$top_srcdir/scenarios/mixtral-8x7b.yaml" --format csv -q
head -1 "$tmp/out" | tr ',' '\n' >"$tmp/cols"
has "$tmp/cols" "moe_host_bound" "CSV: moe_host_bound column"
has "$tmp/cols" "moe_layer_mb_s" "CSV: moe_layer_mb_s column"
# ZeRO-1 over an all-reduce: the report says what runs
expect 0 "zero 1 with collective: all_reduce" "$TS" run "$SCN" --set training.zero=1 \
	--set training.grad_reduce.collective=all_reduce
has "$tmp/out" "ZeRO 1; gradients: hierarchical all-reduce" "all_reduce: the training line"
has "$tmp/out" "all-reduce of the gradients + all-gather of the parameters" \
	"all_reduce: the reduction's parts"
# explain's fixes that need a reduce-scatter (ZeRO-3, HSDP) set it back to auto
expect 0 "explain, zero 1 with collective: all_reduce" "$TS" explain "$SCN" --set training.zero=1 \
	--set training.grad_reduce.collective=all_reduce --set training.precision=bf16
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "training.zero=3 --set training.grad_reduce.collective=auto" \
	"explain: the ZeRO-3 fix resets the collective"
lacks "$tmp/flat" "could not be simulated" "explain: every fix of an all-reduced ZeRO-1 runs"
has "$tmp/flat" "all_reduce_perf and all_gather_perf" "explain: step (d) names the all-reduce"
expect 1 "collective: reduce_scatter with zero 0 is refused" "$TS" check "$SCN" \
	--set training.grad_reduce.collective=reduce_scatter
has "$tmp/err" "use zero: 1 or more" "reduce_scatter with zero 0: what would be right"

# GeForce boxes joined by a fast NIC: the ring's copies through host memory
# inside each node, not the NIC, hold the reduction; the report says so and
# explain proposes the copy engines there too
G2="$top_srcdir/scenarios/whatif/geforce-p2p.yaml"
G2S="--set cluster.gpu=RTX-4090 --set cluster.nodes=2 --set cluster.gpus_per_node=4
	--set cluster.nic.speed=400Gbps --set cluster.nic.transport=rdma --set training.zero=0"
# shellcheck disable=SC2086
expect 0 "run, 2 GeForce boxes on 400G RDMA" "$TS" run "$G2" $G2S
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "go through host memory (NCCL's SHM transport, 2.24 GB/s" \
	"... the bottleneck names the copies through host memory"
lacks "$tmp/flat" "a faster NIC" "... and does not ask for a faster NIC"
# shellcheck disable=SC2086
expect 0 "explain, 2 GeForce boxes on 400G RDMA" "$TS" explain "$G2" $G2S
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "--set cluster.intra_node.shm_eff=0.412" "... explain proposes the copy engines"

# NCCL's sockets: one a connection moves 2 GB/s, so NCCL's own ring over TCP
# on 100 and 200 GbE is the same; 16 (NCCL_SOCKET_NTHREADS=4
# NCCL_NSOCKS_PERTHREAD=4) bring the wire back; a hierarchical scheme's rings
# are communicators of their own, with sockets of their own
DP10="$top_srcdir/scenarios/dp-100b-10gbe.yaml"
t100=$("$TS" run "$DP10" --set cluster.nic.speed=100Gbps --set training.grad_reduce.algorithm=ring \
	--format csv -q | tail -1 | cut -d, -f11)
t200=$("$TS" run "$DP10" --set cluster.nic.speed=200Gbps --set training.grad_reduce.algorithm=ring \
	--format csv -q | tail -1 | cut -d, -f11)
if [ -n "$t100" ] && [ "$t100" = "$t200" ]; then ok "TCP: NCCL's ring on 100 and 200 GbE moves the same through its sockets"
else not_ok "TCP: NCCL's ring on 100 and 200 GbE differs through its default sockets"; fi
expect 0 "run, 100 GbE TCP ring with 16 sockets" "$TS" run "$DP10" --set cluster.nic.speed=100Gbps \
	--set training.grad_reduce.algorithm=ring --set cluster.nic.sockets=16
has "$tmp/out" "step time         75 s" "... 16 sockets: 75 s (docs/whatif.md section 1)"
expect 0 "run, 200 GbE TCP hierarchical" "$TS" run "$DP10" --set cluster.nic.speed=200Gbps
has "$tmp/out" "step time         35.1 s" "... eight communicators: the wire's step (docs/whatif.md section 1)"
expect 0 "explain, 100 GbE TCP ring" "$TS" explain "$DP10" --set cluster.nic.speed=100Gbps \
	--set training.grad_reduce.algorithm=ring
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "(--set cluster.nic.sockets=16)" "... explain proposes more sockets"
expect 0 "explain, 100 GbE TCP hierarchical" "$TS" explain "$DP10" --set cluster.nic.speed=100Gbps
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
lacks "$tmp/flat" "cluster.nic.sockets=16" "... but not where each ring has sockets of its own"
# an all-to-all's peers each have a connection of their own: sockets barely matter
a2a1=$("$TS" nccl "$top_srcdir/scenarios/a100-100gbe-tcp.yaml" --op all_to_all -b 1G -e 1G -q \
	--gpus 16 --set cluster.nic.speed=200Gbps | awk '$1 == 1073741824 { print $8 }')
a2a64=$("$TS" nccl "$top_srcdir/scenarios/a100-100gbe-tcp.yaml" --op all_to_all -b 1G -e 1G -q \
	--gpus 16 --set cluster.nic.speed=200Gbps --set cluster.nic.sockets=64 |
	awk '$1 == 1073741824 { print $8 }')
if [ -n "$a2a1" ] && [ -n "$a2a64" ] && awk -v a="$a2a1" -v b="$a2a64" 'BEGIN { exit !(a > 0.9 * b) }'
then ok "TCP all_to_all: per-peer sockets ($a2a1 vs $a2a64 GB/s with 64)"
else not_ok "TCP all_to_all: one ring's sockets shared by every peer ('$a2a1' vs '$a2a64')"; fi
# a DP group beside each of 4 TP ranks: four communicators, each with its own
# sockets, share the NIC's wire; no sockets lever, and the expected ratio holds
expect 0 "run, TCP ring DP beside 4 TP ranks" "$TS" run "$DP10" --set cluster.nic.speed=100Gbps \
	--set training.grad_reduce.algorithm=ring --set training.tp=4
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
lacks "$tmp/flat" "more of NCCL's sockets" "... the sockets are no lever for four sibling rings"
expect_matches_ratio
# a tree's edges are connections of their own: over TCP it is not held to
# one ring's sockets
tr_ring=$("$TS" nccl "$top_srcdir/scenarios/a100-100gbe-tcp.yaml" --op all_reduce -b 1G -e 1G -q \
	--algo ring | awk '$1 == 1073741824 { print $8 }')
tr_tree=$("$TS" nccl "$top_srcdir/scenarios/a100-100gbe-tcp.yaml" --op all_reduce -b 1G -e 1G -q \
	--algo tree | awk '$1 == 1073741824 { print $8 }')
if [ -n "$tr_ring" ] && [ -n "$tr_tree" ] && awk -v a="$tr_tree" -v b="$tr_ring" 'BEGIN { exit !(a > 1.5 * b) }'
then ok "TCP tree: its edges' sockets ($tr_tree GB/s against the ring's $tr_ring)"
else not_ok "TCP tree: held to a ring's sockets ('$tr_tree' against '$tr_ring')"; fi
# NCCL_PROTO as --proto: LL halves a large all-reduce; what cannot run it warns
expect 0 "nccl --proto LL" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" -b 256M -e 256M --proto LL
has "$tmp/out" "ring/LL" "... the last column names the forced protocol"
expect 0 "nccl --algo nvls --proto LL" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" -b 1M -e 1M \
	--algo nvls --proto LL
has "$tmp/err" "--proto LL cannot run all_reduce here" "... warns that NVLS runs Simple only"
expect 2 "nccl --proto with a wrong name" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" --proto LL256
has "$tmp/err" "--proto takes auto, LL, LL128 or Simple" "... names the protocols"
expect 0 "nccl: TCP never beats RDMA on one flow" "$TS" nccl "$SCN" --op sendrecv -b 1G -e 1G -q \
	--set cluster.nic.speed=400Gbps --set cluster.nic.transport=tcp
tcp_bw=$(awk '$1 == 1073741824 { print $8 }' "$tmp/out")
"$TS" nccl "$SCN" --op sendrecv -b 1G -e 1G -q --set cluster.nic.speed=400Gbps \
	--set cluster.nic.transport=rdma >"$tmp/rdma" 2>/dev/null
rdma_bw=$(awk '$1 == 1073741824 { print $8 }' "$tmp/rdma")
if [ -n "$tcp_bw" ] && [ -n "$rdma_bw" ] && awk -v t="$tcp_bw" -v r="$rdma_bw" 'BEGIN { exit !(t < r) }'
then ok "... sendrecv over TCP $tcp_bw GB/s < RDMA $rdma_bw GB/s"
else not_ok "... sendrecv over TCP '$tcp_bw' not below RDMA '$rdma_bw'"; fi

# a sweep whose every point is invalid leaves no file a corrected rerun trips on
rm -f "$tmp/allbad.csv"
expect 1 "sweep: every point invalid" "$TS" sweep "$SCN" --vary cluster.nic.speed=100GB \
	--out "$tmp/allbad.csv"
if [ ! -e "$tmp/allbad.csv" ]; then ok "... its --out file is removed"
else not_ok "... its --out file is left behind"; fi
expect 0 "sweep: the corrected rerun" "$TS" sweep "$SCN" --vary cluster.nic.speed=100Gbps \
	--out "$tmp/allbad.csv"
# ... but a shard's file stays: merge reads every shard's
rm -f "$tmp/shbad.csv"
expect 1 "sweep: a shard of invalid points" "$TS" sweep "$SCN" --vary cluster.nic.speed=100GB,200GB \
	--shard 1/2 --out "$tmp/shbad.csv"
if [ -s "$tmp/shbad.csv" ]; then ok "... its shard file is kept for merge"
else not_ok "... its shard file was removed"; fi
# other tools' names get trainsim's key
for pair in "training.dtype=bf16:training.precision" "training.zero_stage=1:training.zero" \
	"model.d_model=4096:model.hidden" "model.sequence_length=4096:model.seq_len" \
	"training.tensor_parallel=2:training.tp" "model.n_heads=32:model.heads"; do
	expect 1 "--set ${pair%%:*} is refused" "$TS" check "$SCN" --set "${pair%%:*}"
	has "$tmp/err" "did you mean '${pair#*:}'" "... and points at ${pair#*:}"
done
# --algo that cannot run says why
expect 0 "nccl --algo collnet without SHARP" "$TS" nccl "$SCN" --algo collnet -b 1G -e 1G
has "$tmp/err" "CollNet needs switches that reduce (cluster.fabric.sharp: true" "... and says why"

# a million-token sequence: MFU counts the full attention matrix, so the
# compute-bound sentence says so instead of asking for larger micro-batches
expect 0 "run, a 1M-token sequence" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" \
	--set model.seq_len=1Mi --set training.cp=8 --set training.global_batch=1
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "counts their full matrix where causal kernels compute half" \
	"... the bottleneck explains the MFU above the GEMMs'"
lacks "$tmp/flat" "larger micro-batches would raise it" "... and asks for no larger micro-batches"

# waiting for the heavier last stage (its logits over 128K tokens): explain
# tries a layer fewer there
cat >"$tmp/l70.yaml" <<'YAML'
schema_version: 1
name: Llama-3-70B on 64 H100
cluster: {nodes: 8, gpu: H100-SXM5-80GB, nic: {count: 8, speed: 400Gbps}}
model: {layers: 80, hidden: 8192, heads: 64, kv_heads: 8, ffn_hidden: 28672, vocab: 128256,
        gated_mlp: true, seq_len: 8192}
training: {precision: bf16, global_batch: 1024, micro_batch: 1, tp: 4, pp: 8,
           sequence_parallel: true, zero: 1}
YAML
expect 0 "explain, a pipeline waiting for its last stage" "$TS" explain "$tmp/l70.yaml"
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "training.last_stage_layers=9" "... explain tries a layer fewer on the last stage"

# nccl-tests' gather and scatter: the root column, the whole array a size
expect 0 "nccl: gather" "$TS" nccl "$top_srcdir/scenarios/a100-hdr-ib-4node.yaml" --op gather \
	-b 1G -e 1G -q --root 3
has "$tmp/out" "float    none       3" "... gather prints its root"
ga_bw=$(awk '$1 == 1073741824 { print $8 }' "$tmp/out")
if [ -n "$ga_bw" ] && awk -v g="$ga_bw" 'BEGIN { exit !(g > 25 && g < 35) }'
then ok "... gather across 4 nodes held by the root's HDR NIC ($ga_bw GB/s busbw)"
else not_ok "... gather busbw '$ga_bw' not the root NIC's share"; fi
expect 0 "nccl: scatter" "$TS" nccl "$top_srcdir/scenarios/dgx-h100.yaml" --op scatter -q

# a NIC faster than its GPU's PCIe link: explain and the report expect the
# link's rate, not the NIC's line
cat >"$tmp/a100x400.yaml" <<'YAML'
schema_version: 1
name: A100 DP over 400G
cluster: {nodes: 4, gpu: A100-SXM4-40GB, nic: {count: 8, speed: 400Gbps}}
model: {layers: 32, hidden: 4096, heads: 32, seq_len: 2048}
training: {precision: bf16, global_batch: 64, micro_batch: 2, tp: 1, pp: 1, zero: 0}
YAML
expect 0 "explain, 400G NICs behind A100s" "$TS" explain "$tmp/a100x400.yaml" -q
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "should move about 27.3 GB/s from GPU memory" "... the point-to-point check expects the PCIe link"
expect 0 "run, 400G NICs behind A100s" "$TS" run "$tmp/a100x400.yaml" -q
has "$tmp/out" "PCIe Gen4 link moves 27.3 GB/s" "... the reduction's expected ratio names the PCIe link"
has "$tmp/out" "so expect about 1.94 / 0.545 = 3.55" "... and expects its share of the line"
expect 0 "list nics: the PCIe bound" "$TS" list nics
has "$tmp/out" "from GPU memory a NIC moves at most its GPU's PCIe x16 link" "... list nics says it"
# a job whose states outgrow its GPUs: no layout fits, said so
cat >"$tmp/l70a100.yaml" <<'YAML'
schema_version: 1
name: Llama-3-70B on A100-40GB
cluster: {nodes: 2, gpu: A100-SXM4-40GB, nic: {count: 8, speed: 200Gbps}}
model: {layers: 80, hidden: 8192, heads: 64, kv_heads: 8, ffn_hidden: 28672, vocab: 128256,
        gated_mlp: true, seq_len: 8192}
training: {precision: bf16, global_batch: 64, micro_batch: 1, tp: 1, pp: 1, zero: 3,
           recompute: full}
YAML
expect 0 "run, states beyond 16 GPUs" "$TS" run "$tmp/l70a100.yaml" -q
has "$tmp/out" "No layout fits on these 16 GPUs" "... no layout fits, said so"
has "$tmp/out" "at least 31 A100-SXM4-40GB" "... and how many GPUs would hold the states"
expect 0 "explain, 32 GPUs that barely hold the states" "$TS" explain "$tmp/l70a100.yaml" -q \
	--set cluster.nodes=4
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "add model parallelism (tp, pp) to them" "... explain asks for what the file lacks"
lacks "$tmp/flat" "combine them (ZeRO-3 with full recomputation" "... not for ZeRO-3 and recompute it has"
has "$tmp/flat" "take 39.7 GB of each GPU's 42.9 GB" "... and says how little the states leave"

# the new-user review's lesser findings
expect 0 "explain, storage-bound" "$TS" explain "$top_srcdir/scenarios/teach/storage-bound.yaml" -q
lacks "$tmp/out" "fuse the loss" "... no fused loss where the data stall hides what it saves"
expect 0 "run, stragglers" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" -q \
	--set run.steps=4 --set run.variability.straggler_fraction=0.25 \
	--set run.variability.straggler_slowdown=2
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "stragglers (25% of the GPUs, 2x slower) hold every reduction" \
	"... idle blamed on the stragglers"
lacks "$tmp/flat" "also hold the embedding" "... not on the embedding's stages"
expect 0 "run, half a percent of jitter on a pipeline" "$TS" run \
	"$top_srcdir/scenarios/teach/pipeline-bubble.yaml" -q --set run.steps=3 \
	--set run.variability.compute_cv=0.005 --set training.global_batch=64
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "the first and last stages also hold the embedding" "... the stages' balance, not the jitter"
expect 3 "check --fit: a layout that does not fit" "$TS" check "$tmp/l70a100.yaml" --fit
expect 0 "check without --fit: valid is 0" "$TS" check "$tmp/l70a100.yaml"
expect 3 "check --fit --show: the YAML, and the gate's answer" "$TS" check "$tmp/l70a100.yaml" \
	--fit --show
expect 0 "run, ZeRO-3 behind a pipeline" "$TS" run "$tmp/l70a100.yaml" -q --set training.pp=2 \
	--set cluster.gpu=H100-SXM5-80GB
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "holds its stage's whole gradients" "... the note says why its gradients are whole"
expect 0 "run, one replica of a GPT on 8 stages" "$TS" run \
	"$top_srcdir/scenarios/teach/pipeline-bubble.yaml" -q
has "$tmp/out" "(only the tied embedding's, all-reduced between the first and last stages)" \
	"... its header says which gradients are reduced"
"$TS" run "$top_srcdir/scenarios/teach/storage-bound.yaml" --set training.data.cache_warm=true \
	>/dev/null 2>"$tmp/err"
has "$tmp/err" "training.data.cache_warm: has no effect unless training.data.source is local_cache" \
	"cache_warm without the cache: warned"

# keys set to what changes nothing here are warned about, each at its place
cat >"$tmp/noeffect.yaml" <<'YAML'
cluster: {nodes: 2, gpu: A100-SXM4-80GB}
model: {layers: 24, hidden: 2048, heads: 16, seq_len: 2048}
training:
  global_batch: 64
  checkpoint: {every: 100, mode: sync, snapshot_overhead: 2s, local_copies: 1}
  failures: {reload: false}
YAML
expect 0 "check: keys without effect" "$TS" check "$tmp/noeffect.yaml"
has "$tmp/err" "noeffect.yaml:5:59: warning: training.checkpoint.snapshot_overhead: has no effect unless training.checkpoint.mode is async" "... snapshot_overhead with sync writes"
has "$tmp/err" "training.checkpoint.local_copies: has no effect without training.checkpoint.local_every" "... local_copies without local checkpoints"
has "$tmp/err" "training.failures.reload: has no effect without failures" "... reload without failures"
expect 0 "check: weights-only checkpoints with failures" "$TS" check "$tmp/noeffect.yaml" \
	--set training.checkpoint.content=weights --set training.failures.gpu_mtbf=1000h
has "$tmp/err" "weights holds no optimizer state" "... a restart from it cannot resume the optimizer"
# RoCE and EFA are read as RDMA: said where it is written, and once per value in a sweep
expect 0 "check: transport roce" "$TS" check "$SCN" --set cluster.nic.transport=roce
has "$tmp/err" "'roce' is read as rdma" "... says RoCE runs InfiniBand's model"
expect 1 "check: transport roce-v3" "$TS" check "$SCN" --set cluster.nic.transport=roce-v3
has "$tmp/err" "(also infiniband, ib, roce" "... the error lists the other names"
expect 0 "sweep: ib against roce" "$TS" sweep "$SCN" --vary cluster.nic.transport=ib,roce --out "$tmp/ibroce.csv"
has "$tmp/err" "sweep: --vary cluster.nic.transport=roce: warning: cluster.nic.transport: 'roce' is read as rdma" "... the sweep says why the rows agree"
expect 0 "sweep -q" "$TS" sweep "$SCN" --vary cluster.nic.transport=ib,roce --out "$tmp/ibroce2.csv" -q
lacks "$tmp/err" "warning" "... -q leaves the warning out"
# AMD's GPUs get AMD's tools in explain's diagnosis path
expect 0 "explain on MI300X" "$TS" explain "$top_srcdir/scenarios/dgx-h100.yaml" -q \
	--set cluster.gpu=MI300X --set cluster.intra_node=nvlink-mesh
has "$tmp/out" "amd-smi" "... utilization from amd-smi"
lacks "$tmp/out" "nccl-tests" "... rccl-tests, not nccl-tests"
# a purchase that buys nothing is no advice: a 70B on 4 x 8 H100 with 400G NICs,
# whose exposed time is tensor-parallel, gets no faster NICs proposed
cat >"$tmp/tpbound.yaml" <<'YAML'
cluster: {nodes: 4, gpus_per_node: 8, gpu: H100-SXM5-80GB, nic: {count: 8, speed: 400Gbps}}
model: {layers: 80, hidden: 8192, heads: 64, kv_heads: 8, ffn_hidden: 28672, seq_len: 8192,
        vocab: 128256, gated_mlp: true}
training: {global_batch: 64, micro_batch: 1, tp: 8, pp: 4, zero: 1, recompute: selective,
           sequence_parallel: true}
YAML
expect 0 "explain: a TP-bound 70B on 400G NICs" "$TS" explain "$tmp/tpbound.yaml" -q
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
lacks "$tmp/flat" "1.00x the tokens/s" "... proposes nothing that gains nothing"
# a GPU figure set by the user is marked as theirs in the header and the JSON
expect 0 "run with a GPU figure overridden" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" -q \
	--set cluster.gpu.gemm_eff=0.5
has "$tmp/out" "H100-SXM5-80GB [gemm_eff set here, not the catalog's]" "... the header says whose it is"
expect 0 "... and as JSON" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" -q --format json \
	--set cluster.gpu.gemm_eff=0.5
has "$tmp/out" '"gpu_overrides": "gemm_eff"' "... gpu_overrides names it"
expect 0 "run with the catalog's GPU" "$TS" run "$top_srcdir/scenarios/dgx-h100.yaml" -q --format json
lacks "$tmp/out" "gpu_overrides" "... has no gpu_overrides"
# compare: a scenario against itself with a key changed, or against another
expect 0 "compare --with" "$TS" compare "$top_srcdir/scenarios/dp-100b-100gbe.yaml" \
	--with cluster.nic.speed=400Gbps -q
has "$tmp/out" "B  $top_srcdir/scenarios/dp-100b-100gbe.yaml --with cluster.nic.speed=400Gbps" \
	"... B's label names the change"
has "$tmp/out" "exposed DP gradients" "... the split's categories side by side"
if awk '$1 == "step" && $2 == "time" { a = $3; b = $5; exit !(b < a / 2) }' "$tmp/out"
then ok "... a 4x faster NIC more than halves this DP-bound step"
else not_ok "... step time row: $(grep '^  step time' "$tmp/out")"; fi
expect 0 "compare two files, JSON" "$TS" compare "$top_srcdir/scenarios/ckpt-every100-shared.yaml" \
	"$top_srcdir/scenarios/ckpt-every100-frontend.yaml" --format json -q
has "$tmp/out" '"b_over_a": {' "... JSON holds the ratios"
has "$tmp/out" '"b": {' "... and B's whole report"
expect 2 "compare with nothing to compare" "$TS" compare "$SCN"
has "$tmp/err" "nothing to compare" "... says what is missing"
expect 1 "compare with a bad --with" "$TS" compare "$SCN" --with cluster.nodes=0
has "$tmp/err" "--with: cluster.nodes:" "... the message names --with"
# a restart reads the checkpoint back from storage: slow storage, long restarts
expect 0 "run, failures with 5 GB/s storage" "$TS" run "$top_srcdir/scenarios/llama3-405b-failures.yaml" \
	-q --set cluster.storage.bandwidth=5GB/s --set training.failures.reload=true
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "s of it reading the checkpoint back" "... the failures note says what the reload costs"
expect 0 "run, async checkpoint" "$TS" run "$top_srcdir/scenarios/llama3-405b-failures.yaml" -q \
	--set training.checkpoint.mode=async --format json
stall=$(tr ',{}' '\n\n\n' <"$tmp/out" | sed -n 's/^ *"stall_s": *//p' | head -1)
if [ -n "$stall" ] && awk -v x="$stall" 'BEGIN { exit !(x >= 0.59) }'
then ok "... the async stall holds the snapshot's overhead ($stall s)"
else not_ok "... the async stall '$stall' lacks the snapshot's overhead"; fi
has "$tmp/out" '"load_s":' "... the JSON gives the checkpoint's reload"
has "$tmp/out" '"restart_s":' "... and one restart's length"

# a faster NIC than the GPU's PCIe link: explain says the link binds then
expect 0 "explain, 800G NICs behind H100s" "$TS" explain "$DP10" -q \
	--set cluster.nic.speed=400Gbps --set cluster.nic.transport=rdma \
	--set cluster.gpu=H100-SXM5-80GB
tr '\n' ' ' <"$tmp/out" | tr -s ' ' >"$tmp/flat"
has "$tmp/flat" "buy the fastest NICs (800 Gb/s, 2x), of which each moves from GPU memory only 55.4 GB/s, its share of its GPU's PCIe Gen5 link" \
	"... the faster NIC's PCIe bound is said"

# --- what hardening reviews found: inputs a command would destroy or choke on
hd=$tmp/harden
mkdir -p "$hd"
printf 'index,status,split_s.compute\n0,ok,1\n' > "$hd/q.dat"
expect 2 "plot: a results file its own .dat would replace" "$TS" plot "$hd/q.dat" --kind split -o "$hd/q.png"
has "$tmp/err" "is the data file (.dat) that -o" "... names what would be replaced"
has "$hd/q.dat" "0,ok,1" "... and the results are kept"
expect 2 "sweep: --out that --plot's .dat would replace" "$TS" sweep "$DPS" \
	--vary run.seed=1,2 --out "$hd/r.dat" --plot "$hd/r.png" -q
has "$tmp/err" "name the results otherwise" "... refused before any point runs"
printf 'precious data without a newline' > "$hd/prec.csv"
expect 1 "sweep --resume on a one-line file that is not a sweep's" "$TS" sweep "$DPS" \
	--vary run.seed=1,2 --out "$hd/prec.csv" --resume -q
has "$hd/prec.csv" "precious data" "... leaves it as it was"
expect 1 "plot /dev/zero is refused (not a regular file)" "$TS" plot /dev/zero --kind split -o "$hd/z.png"
expect 1 "merge /dev/zero is refused" "$TS" merge "$hd/m.csv" /dev/zero
head -c 1100000 /dev/zero | tr '\0' 'a' > "$hd/long.csv"
expect 1 "plot: a line of 1.1 MB is not a sweep's row" "$TS" plot "$hd/long.csv" --kind split -o "$hd/l.png"
has "$tmp/err" "a line longer than" "... says so"
cat > "$hd/wide.yaml" <<'EOF2'
schema_version: 1
cluster: {nodes: 2048, gpus_per_node: 8, gpu: H100-SXM5-80GB, nic: {speed: 400Gbps, count: 8}}
model: {layers: 2, hidden: 1024, heads: 8, seq_len: 1024, vocab: 1000}
training: {global_batch: 16384, micro_batch: 1}
EOF2
expect 1 "a parameter server over 16K GPUs is refused by its memory (n^2 flows)" \
	"$TS" run "$hd/wide.yaml" -q --set training.grad_reduce.algorithm=ps
has "$tmp/err" "needs about" "... before it is built"
expect 1 "nccl --algo ps over 16K GPUs likewise" "$TS" nccl "$hd/wide.yaml" --algo ps -b 1M -e 1M
printf '{"traceEvents":[{"ph":"X","name":"a","cat":"c","pid":0,"tid":0,"ts":"5","dur":1}]}' > "$hd/ts.json"
expect 1 "plot: a trace whose ts is a string" "$TS" plot "$hd/ts.json" --kind timeline -o "$hd/ts.png"
has "$tmp/err" "its ts is not a number" "... names the field"
expect 2 "validate: an option without its value says so" "$TS" validate --only
has "$tmp/err" "--only needs a value" "... names the option"

echo "1..$n"
[ "$failed" -eq 0 ]
