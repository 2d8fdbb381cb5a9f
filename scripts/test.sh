#!/usr/bin/env bash
# Build everything, then run the whole test suite (ctest): library unit tests
# (finite differences, parsers, QEq), and LAMMPS-level comparisons against
# LAMMPS's own pair_style reaxff on 1, 2 and 4 MPI ranks.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/configure.sh "$@"
cd build
rc=0
ctest --output-on-failure --timeout 1500 || rc=$?
echo "Comparison table (worst differences vs pair_style reaxff):"
grep -h "\[ table \]" Testing/Temporary/LastTest.log | sed 's/^.*\[ table \]/ /' || true
exit $rc
