#!/bin/sh
# check_bands.sh: models/val_bands.csv, the table of how far each GPU kind's
# predicted step speed errs that `run` and `compare` print, is what `trainsim
# validate --by-gpu` gives today on tests/validation: a change to the models
# that moves a GPU's median or quartiles by more than 0.3 points, or its
# runs, needs `make validation-bands`. Validating every file takes minutes, so
# this runs in CI (CI=true) or with TRAINSIM_SLOW_TESTS=1, and is skipped
# (77) otherwise.
: "${top_srcdir:=.}" "${top_builddir:=.}"
if [ "${CI:-}" != true ] && [ -z "${TRAINSIM_SLOW_TESTS:-}" ]; then
	echo "skipped: set TRAINSIM_SLOW_TESTS=1 (CI=true does) to check models/val_bands.csv"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_bands.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
"$top_builddir/trainsim" validate "$top_srcdir"/tests/validation/*.csv --by-gpu --format csv \
	> "$tmp/now.csv" || { echo "not ok 1 - validate --by-gpu failed"; exit 1; }
# gpu,model -> runs and the three percentages, compared field by field
if awk -F, 'NR == FNR { if (FNR > 1) want[$1 "," $2] = $0; next }
	FNR > 1 {
		k = $1 "," $2
		if (!(k in want)) { print "new: " $0; bad = 1; next }
		split(want[k], w, ",")
		if (w[3] != $3 || w[4] != $4) { print "runs: " want[k] " -> " $0; bad = 1 }
		for (i = 5; i <= 7; i++)
			if ((w[i] - $i) > 0.3 || ($i - w[i]) > 0.3) { print "moved: " want[k] " -> " $0; bad = 1; break }
		delete want[k]
	}
	END { for (k in want) { print "gone: " want[k]; bad = 1 } exit bad }' \
	"$top_srcdir/models/val_bands.csv" "$tmp/now.csv"
then
	echo "ok 1 - models/val_bands.csv is current"
	echo "1..1"
else
	echo "not ok 1 - models/val_bands.csv is stale: run make validation-bands and commit it"
	echo "1..1"
	exit 1
fi
