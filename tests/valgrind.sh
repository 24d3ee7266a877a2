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
slow=0
# valgrind.sh [NAME...]: only those programs (check_engine ...); default all
if [ $# -gt 0 ]; then progs=$(for n in "$@"; do echo "$top_builddir/tests/$n"; done)
else progs=$(ls "$top_builddir"/tests/check_*); fi
for t in $progs; do
	case $t in *.c|*.o|*.sh|*.log|*.trs) continue ;; esac
	[ -x "$t" ] || continue
	name=$(basename "$t")
	log=$top_builddir/tests/$name.valgrind.log
	# a test that expects a signal or an exit cannot run in one process
	if grep -q -E 'tcase_add_(test_raise_signal|exit_test|loop_test_raise_signal)' \
		"$top_srcdir/tests/$name.c" 2>/dev/null; then CK_FORK=yes; else CK_FORK=no; fi
	export CK_FORK
	valgrind --quiet --error-exitcode=99 --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --track-origins=yes \
		--log-file="$log.%p" "$t" >"$log.out" 2>&1
	rc=$?
	# one log per process (forked tests); an aborting death test's own report
	# ("Process terminating with default action of signal 6") is not an error
	cat "$log".[0-9]* 2>/dev/null | grep -v -E '^==[0-9]+== *$' >"$log"
	rm -f "$log".[0-9]*
	errors=$(grep -c -E 'Invalid (read|write|free)|uninitialised|Mismatched free|overlap|lost in loss record|Syscall param' "$log")
	summary=$(grep -h -E 'Checks: ' "$log.out" | tail -1)
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		echo "ok - $name (CK_FORK=$CK_FORK): $summary"
	elif [ $rc -eq 99 ] || [ "$errors" -gt 0 ]; then
		failed=$((failed + 1))
		echo "FAIL - $name: valgrind found errors (log: $log)"
		head -40 "$log"
	else
		# no valgrind error; a check failed, typically one that times itself
		slow=$((slow + 1))
		echo "ok - $name: no valgrind error, but a check failed under the slowdown: $summary"
		grep -h -E ':[FE]:' "$log.out" | head -5 | sed 's/^/#   /'
	fi
done
echo "$((passed + slow)) passed, $failed failed ($slow with a check that failed only under valgrind's slowdown)"
[ $failed -eq 0 ] && [ $((passed + slow)) -gt 0 ]
