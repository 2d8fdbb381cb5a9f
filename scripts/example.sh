#!/usr/bin/env bash
# Build everything, then run the HNS example with pair_style reaxff/gpu; the
# last lines say which drivers were built and which one ran.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/configure.sh "$@"
build=${BUILD_DIR:-build}
case "$build" in /*) ;; *) build=$PWD/$build ;; esac
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
(cd examples/HNS && "$build/lmp" -in in.reaxff_gpu.hns -log none) 2>&1 | tee "$out" || rc=$?
echo
echo "==== reaxff-cuda: drivers built ($build/build_summary.txt) ===="
sed 's/^/  /' "$build/build_summary.txt" 2>/dev/null || echo "  (no build_summary.txt: configure again)"
ran=$(grep -m1 '^ReaxFF/GPU: using the ' "$out" | sed 's/^ReaxFF\/GPU: using the //') || true
if [ -n "$ran" ]; then
  echo "==== this run used: the $ran ===="
else
  echo "==== this run used: no driver (the run stopped before pair_style reaxff/gpu started; exit $rc) ===="
fi
exit "$rc"
