#!/bin/sh
# valgrind.sh: runs every Check test program of the build under valgrind
# (memcheck, full leak check, CK_FORK=no so that the tests run in the process
# valgrind watches; a program with a death test keeps CK_FORK=yes, valgrind
# follows its children); any invalid access or leak fails. `make valgrind`
# runs it after building the tests; slow (check_invariants runs only the
# teaching scenarios here), so not part of `make check`.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
export top_srcdir top_builddir
command -v valgrind >/dev/null 2>&1 || { echo "valgrind.sh: valgrind is not installed"; exit 77; }
# valgrind is 20-50x slower than the budgets the tests set for themselves
CK_DEFAULT_TIMEOUT=3600
CK_TIMEOUT_MULTIPLIER=100
INVARIANTS_SCENARIOS=${INVARIANTS_SCENARIOS:-teach/}   # 50x of a minute is too long
export CK_DEFAULT_TIMEOUT CK_TIMEOUT_MULTIPLIER INVARIANTS_SCENARIOS

passed=0
failed=0
for t in "$top_builddir"/tests/check_*; do
	case $t in *.c|*.o|*.sh|*.log|*.trs) continue ;; esac
	[ -x "$t" ] || continue
	name=$(basename "$t")
	log=$top_builddir/tests/$name.valgrind.log
	# a test that expects a signal or an exit cannot run in one process
	if grep -q -E 'tcase_add_(test_raise_signal|exit_test|loop_test_raise_signal)' \
		"$top_srcdir/tests/$name.c" 2>/dev/null; then CK_FORK=yes; else CK_FORK=no; fi
	export CK_FORK
	if valgrind --quiet --error-exitcode=1 --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --track-origins=yes \
		--log-file="$log" "$t" >"$log.out" 2>&1; then
		passed=$((passed + 1))
		echo "ok - $name (CK_FORK=$CK_FORK): $(grep -h -E 'Checks: ' "$log.out" | tail -1)"
	else
		failed=$((failed + 1))
		echo "FAIL - $name (valgrind log: $log)"
		head -40 "$log"
		tail -5 "$log.out"
	fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]
