#!/bin/sh
# setup.sh: from a fresh Debian 12 machine to a built trainsim.
#   ./setup.sh          install dependencies, build, run the default scenario
#   ./setup.sh --test   install dependencies, build, run the whole test suite
# Uses sudo for apt-get when not root. Safe to run again.
set -eu
cd "$(dirname "$0")"

mode=run
case "${1:-}" in
	--test) mode=test ;;
	--build) mode=build ;;
	"") ;;
	*) echo "usage: ./setup.sh [--test|--build]" >&2; exit 2 ;;
esac

pkgs="build-essential autoconf automake pkg-config libgsl-dev libyaml-dev check gnuplot-nox"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing"
	if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi

[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
[ -f Makefile ] && [ Makefile -nt configure ] || ./configure --quiet
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs"

case $mode in
	run)
		echo
		./trainsim run scenarios/default.yaml
		;;
	test)
		status=0
		make -j"$jobs" check || status=$?
		for f in tests/*.log; do
			[ "$f" = tests/test-suite.log ] && continue
			grep -h -E '^[0-9]+%: Checks: |^Checks: ' "$f" | sed "s|^|$f: |" || true
		done
		[ $status -eq 0 ] || cat tests/test-suite.log 2>/dev/null || true
		exit $status
		;;
esac
