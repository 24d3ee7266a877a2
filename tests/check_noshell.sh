#!/bin/sh
# check_noshell.sh: no program is started through a shell and no file name
# reaches one. Static: no system(), popen() or "sh -c" in the sources; files are
# created only through report_file (temporary name + rename) or, by design,
# by the sweep's line-atomic --out (docs/sweeps.md). Dynamic: plot output
# names that gnuplot would give to /bin/sh ('|cmd', '<cmd') stay plain files.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }

src="$top_srcdir/sim/*.c $top_srcdir/models/*.c"
# shellcheck disable=SC2086
hits=$(grep -n -E '(^|[^_a-zA-Z])(system|popen) *\(|execl[pe]? *\(|"/bin/sh"|"sh", *"-c"' $src |
	grep -v -E '^[^:]*:[0-9]+: *(/\*|\*)')
if [ -z "$hits" ]; then pass "no system(), popen() or sh -c in sim/ and models/"; else
	fail "a shell is started:"; echo "$hits" | sed 's/^/#   /'
fi
# shellcheck disable=SC2086
hits=$(grep -n -E 'fopen *\([^)]*"[wa]|O_CREAT|[^_a-z]creat *\(' $src |
	grep -v -E '/sim/report\.c:|/sim/cmd_sweep\.c:')
if [ -z "$hits" ]; then pass "output files only through report_file (temporary name + rename)"; else
	fail "a file is created in place, not through report_file:"; echo "$hits" | sed 's/^/#   /'
fi

TS=$top_builddir/trainsim
GP=${TRAINSIM_GNUPLOT:-gnuplot}
if [ ! -x "$TS" ]; then
	echo "skip - plot names: no $TS yet"
elif ! command -v "$GP" >/dev/null 2>&1; then
	echo "skip - plot names: no gnuplot"
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_noshell.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT INT TERM
	if (cd "$tmp" && "$TS" sweep "$top_srcdir/scenarios/teach/dp-slow-ethernet.yaml" \
		--vary cluster.nic.speed=10Gbps,100Gbps -j 1 --out s.csv) >/dev/null 2>&1; then
		for name in '|touch MARK1.png' '<touch MARK2.png' '+.png' '-.png'; do
			(cd "$tmp" && "$TS" plot s.csv --kind speed -o "$name") >/dev/null 2>&1
			if ls "$tmp" | grep -q '^MARK'; then
				fail "plot -o '$name' ran a shell command"; rm -f "$tmp"/MARK*
			elif [ -s "$tmp/$name" ]; then
				pass "plot -o '$name' writes that file, runs nothing"
			else
				fail "plot -o '$name' wrote no picture"
			fi
		done
	else
		fail "the sweep for the plot test failed"
	fi
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
