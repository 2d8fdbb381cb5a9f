#!/usr/bin/env bash
# The fast path, built and run: LAMMPS with its KOKKOS package (Kokkos from a LAMMPS
# release tarball holding lib/kokkos), our plugin built against it into build-kokkos/
# ($BUILD_DIR), then LAMMPS's own HNS input, unedited, under
#   -k on g 1 -sf hybrid gpu kk -pk kokkos neigh half newton on
# (`-k on t 1` on Kokkos's Serial backend). Cached like the other LAMMPS builds.
# Usage: LAMMPS_KOKKOS_TARBALL=/path/to/lammps-<version>.tar.gz scripts/kokkos.sh [--arch=A] [cmake args]
#   A: a CUDA compute capability (90, sm_90 or 9.0), or `serial`. Default: the GPU that
#   nvidia-smi finds (Kokkos builds for one architecture), Serial where there is none.
#   The tarball's LAMMPS version (4Jul2026 or 4Feb2025) is the LAMMPS built; the rest of
#   LAMMPS's tree comes from Debian's source of that version (scripts/get_lammps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
arch=${KOKKOS_ARCH:-}
args=()
for a in "$@"; do
  case "$a" in
    --arch=*) arch=${a#--arch=} ;;
    *) args+=("$a") ;;
  esac
done
tarball=${LAMMPS_KOKKOS_TARBALL:-}
if [ -z "$tarball" ] || [ ! -r "$tarball" ]; then
  echo "scripts/kokkos.sh: set LAMMPS_KOKKOS_TARBALL to a LAMMPS release tarball that holds lib/kokkos" \
    "(LAMMPS 4Jul2026 or 4Feb2025; e.g. ../shared/peer/lammps-kokkos-2026-src.tar.xz)" >&2
  exit 1
fi
# the tarball's LAMMPS version, e.g. "4 Jul 2026" -> 4Jul2026
version=$(tar -xOf "$tarball" --wildcards '*/src/version.h' 2>/dev/null |
  sed -n 's/.*LAMMPS_VERSION "\(.*\)".*/\1/p' | tr -d ' ')
case "$version" in
  4Jul2026 | 4Feb2025) ;;
  *) echo "scripts/kokkos.sh: $tarball holds LAMMPS '${version:-no src/version.h}'; supported: 4Jul2026, 4Feb2025" >&2; exit 1 ;;
esac
if [ -z "$arch" ]; then
  cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .' || true)
  arch=${cc:-serial}
fi
arch=${arch#sm_}; arch=${arch/./}
build=${BUILD_DIR:-build-kokkos}
bash scripts/setup_deps.sh
ksrc=$(bash scripts/get_kokkos.sh "$tarball" | tail -n 1)
cuda=()
if [ "$arch" != serial ]; then
  # the CUDA driver needs code for Kokkos's architecture (the default list has 80 to 90)
  case ";80;86;89;90;" in *";$arch;"*) ;; *) cuda=(-DCMAKE_CUDA_ARCHITECTURES="$arch") ;; esac
fi
echo "=== LAMMPS $version with KOKKOS ($([ "$arch" = serial ] && echo Serial || echo "CUDA sm_$arch")), Kokkos from $tarball, plugin in $build"
# (BUILD_TARGETS and -DREAXFF_CUDA_BUILD_TESTS=ON add the tests: bench/make_device_bundle.sh)
BUILD_DIR=$build BUILD_TARGETS=${BUILD_TARGETS:-reaxffgpuplugin} bash scripts/configure.sh -DLAMMPS_VERSION="$version" \
  -DLAMMPS_KOKKOS_SOURCE="$ksrc" -DLAMMPS_KOKKOS_ARCH="$arch" -DREAXFF_CUDA_REQUIRE_KOKKOS=ON \
  -DREAXFF_CUDA_BUILD_TESTS=OFF "${cuda[@]}" "${args[@]}"
echo "=== built in $(($(date +%s) - t0)) s"
case "$build" in /*) ;; *) build=$PWD/$build ;; esac
if [ "$arch" = serial ]; then kk=(-k on t 1); else kk=(-k on g 1); fi
if [ "$arch" != serial ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "==== built for sm_$arch; no GPU here to run it: on the GPU machine, in examples/HNS:"
  echo "     $build/lmp ${kk[*]} -sf hybrid gpu kk -pk kokkos neigh half newton on -in in.reaxff.hns"
  exit 0
fi
switch=("${kk[@]}" -sf hybrid gpu kk -pk kokkos neigh half newton on)
echo "=== examples/HNS/in.reaxff.hns (LAMMPS's input, unedited): lmp ${switch[*]}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
(cd examples/HNS && "$build/lmp" "${switch[@]}" -in in.reaxff.hns -log none) 2>&1 | tee "$out" || rc=$?
echo
echo "==== reaxff-cuda: what was built ($build/build_summary.txt) ===="
sed 's/^/  /' "$build/build_summary.txt"
grep -q '^ReaxFF/GPU: a KOKKOS style' "$out" && kkused=yes || kkused=no
ran=$(grep -m1 '^ReaxFF/GPU: using the ' "$out" | sed 's/^ReaxFF\/GPU: using the //') || true
echo "==== this run used: ${ran:-no driver (exit $rc)}; reaxff/gpu as a KOKKOS style: $kkused ===="
[ "$kkused" = yes ] || rc=${rc/#0/1}
exit "$rc"
