#!/usr/bin/env bash
# Build everything, then run the whole test suite (ctest) against the default
# LAMMPS (4Jul2026): library unit tests (finite differences, parsers, QEq), and
# LAMMPS-level comparisons against LAMMPS's own pair_style reaxff on 1, 2 and 4
# MPI ranks. Then, against the other LAMMPS release we support (4Feb2025, or
# 4Jul2026 when build/ took -DLAMMPS_VERSION=4Feb2025), in build-lammps-<version>/:
# the plugin's build (configured with -DLAMMPS_SOURCE_DIR, README's way in for a
# LAMMPS tree of one's own), every input of that LAMMPS's examples/reaxff with
# `-sf gpu`, the companion styles (fix reaxff/species and bonds, compute
# reaxff/atom, with the arguments users write), ACKS2, xlmd (restart files),
# fix qeq/rel/reaxff/gpu's registration, on 1 and 2 ranks, and that LAMMPS's
# ReaxFF force-style reference data: what proves the adapters against it.
# OTHER_LAMMPS=none leaves that part out (OTHER_LAMMPS=<version> picks it), as does
# a LAMMPS of your own (-DLAMMPS_SOURCE_DIR=...).
# CI builds the default CUDA architectures (sm_80, 86, 89 and 90 with PTX: the
# README's build), though it has no GPU to run them.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
part() { # the time of each part, for CI's budget
  echo "=== [time] $1: $(($(date +%s) - t0)) s"
  t0=$(date +%s)
}
# LAMMPS_KOKKOS_TARBALL: a LAMMPS release tarball holding lib/kokkos (CI: ../shared/peer's
# 4Jul2026): the LAMMPS of its version, the default's or the other's below, is then built
# with its KOKKOS package (Serial), and the tests add our KOKKOS styles (-k on) through
# the host driver
kokkos_version=""
if [ -n "${LAMMPS_KOKKOS_TARBALL:-}" ] && [ -f "$LAMMPS_KOKKOS_TARBALL" ]; then
  kokkos_version=$(tar -xOf "$LAMMPS_KOKKOS_TARBALL" --wildcards '*/src/version.h' 2>/dev/null |
    sed -n 's/.*LAMMPS_VERSION "\(.*\)".*/\1/p' | tr -d ' ')
  ksrc=$(bash scripts/get_kokkos.sh "$LAMMPS_KOKKOS_TARBALL" | tail -n 1)
fi
default_arg=4Jul2026
for a in "$@"; do
  case "$a" in
    -DLAMMPS_VERSION=*) default_arg=${a#-DLAMMPS_VERSION=} ;;
    -DLAMMPS_SOURCE_DIR=* | -DLAMMPS_INSTALL_DIR=*) default_arg=none ;;
  esac
done
kokkos=()
[ "$kokkos_version" = "$default_arg" ] && kokkos=(-DLAMMPS_KOKKOS_SOURCE="$ksrc")
BUILD_DIR=build bash scripts/configure.sh "$@" "${kokkos[@]}"
part "build (default LAMMPS${kokkos:+, with KOKKOS})"
# ctest -j: the jobs declare the cores they take (PROCESSORS), so 1-rank jobs
# share the cores and a 2- or 4-rank job runs alone.
jobs=$(nproc)
rc=0
(cd build && ctest --output-on-failure --timeout 1500 -j "$jobs") || rc=$?
part "tests (default LAMMPS)"
echo "Comparison table (worst differences vs pair_style reaxff):"
grep -h "\[ table \]" build/Testing/Temporary/LastTest.log | sed 's/^.*\[ table \]/ /' || true

default=$(sed -n 's/^LAMMPS_VERSION:STRING=//p' build/CMakeCache.txt)
case "${OTHER_LAMMPS:-}" in
  "") other=$([ "$default" = 4Feb2025 ] && echo 4Jul2026 || echo 4Feb2025) ;;
  *) other=$OTHER_LAMMPS ;;
esac
# the first part's other settings (e.g. CMAKE_CUDA_ARCHITECTURES) carry over; a
# LAMMPS of the caller's own (-DLAMMPS_SOURCE_DIR/INSTALL_DIR) has no "other release"
pass=()
for a in "$@"; do
  case "$a" in
    -DLAMMPS_SOURCE_DIR=* | -DLAMMPS_INSTALL_DIR=*) other=none ;;
    -DLAMMPS_VERSION=*) ;;
    *) pass+=("$a") ;;
  esac
done
if [ "$other" != none ] && [ "$other" != "$default" ]; then
  dir=build-lammps-$other
  echo "=== LAMMPS $other: the adapters ($dir) ==="
  # through README's way in for a LAMMPS tree of one's own, -DLAMMPS_SOURCE_DIR
  # (built for you): the tree get_lammps.sh fetched, whose cached build it reuses
  src_other=$(bash scripts/get_lammps.sh "$other" | tail -n 1)
  # with KOKKOS (Serial) where the tarball is of this version (see above)
  kokkos=() kokkos_tests=""
  if [ "$kokkos_version" = "$other" ]; then
    kokkos=(-DLAMMPS_KOKKOS_SOURCE="$ksrc")
    kokkos_tests=":Systems/KokkosStyles.*:KokkosSwitch.*:RunStyles.*"
  fi
  BUILD_DIR=$dir BUILD_TARGETS="reaxffgpuplugin lammps_tests test_pair_style reaxff_gpu_yaml" \
    bash scripts/configure.sh "${pass[@]}" -DLAMMPS_VERSION="$other" \
    -DLAMMPS_SOURCE_DIR="$src_other" "${kokkos[@]}"
  part "build (LAMMPS $other)"
  (cd "$dir" && ctest --output-on-failure --timeout 1500 -j "$jobs" -R '^lammps_yaml_') || rc=$?
  # the examples on 1 rank and, but for the water inputs' variants of one
  # system, on 2; what depends on the version's fixes and files (analysis
  # styles, ACKS2, xlmd's restart files, fix efield and the reads of LAMMPS's protected
  # members: lammps_protected.h) on 1 rank
  examples='Inputs/ExamplesReaxff.*:ExamplesReaxffSource.*:CompanionStyles.*:QEqRelInput.RegisteredOnlyWhereLammpsHasIt'
  (cd "$dir" && GTEST_FILTER="$examples:Species.*:AnalysisArguments.*:*Acks2*:Xlmd.*:LammpsProtected.*:*EfieldQEq.*$kokkos_tests:-Xlmd.NveDrift*:EfieldQEq.NveDrift*" \
    ctest --output-on-failure --timeout 1500 -j "$jobs" -R '^lammps_np1(_part[0-9]+)?$') || rc=$?
  table=$(grep -h "\[ table \]" "$dir/Testing/Temporary/LastTest.log" || true)
  (cd "$dir" && GTEST_FILTER="$examples$kokkos_tests:-*water_in_water*" \
    ctest --output-on-failure --timeout 1500 -j "$jobs" -R '^lammps_np2$') || rc=$?
  part "tests (LAMMPS $other)"
  echo "Examples with LAMMPS $other (worst differences vs pair_style reaxff):"
  { echo "$table"; grep -h "\[ table \]" "$dir/Testing/Temporary/LastTest.log" || true; } |
    sed -n 's/^.*\[ table \]/ /p'
fi
exit $rc
