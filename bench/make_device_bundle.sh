#!/usr/bin/env bash
# Pack what bench/device_check.sh needs on a GPU machine that cannot build
# LAMMPS itself (the lent H100 has no network): LAMMPS (lmp + liblammps), our
# plugin and test binaries, built here for sm_90, LAMMPS's examples/reaxff and
# pair-style harness with its ReaxFF YAML files, and optionally a LAMMPS with its
# own GPU package. Output: .device/bundle, or $BUNDLE_DIR (under .device/: ignored
# by git; carried to the device with the working tree).
# Usage: bench/make_device_bundle.sh [build-dir] [gpu-package-lammps-prefix]
# A KOKKOS bundle (our styles under -k on and reaxff/kk of the same binary, both paths
# measured from one bundle by device_check.sh bench): the build folder of
#   LAMMPS_KOKKOS_TARBALL=... BUILD_DIR=build-kk BUILD_TARGETS="reaxffgpuplugin lammps_tests
#   puremd_unit_tests" scripts/kokkos.sh --arch=90 -DREAXFF_CUDA_BUILD_TESTS=ON
#   -DCMAKE_CUDA_ARCHITECTURES=90
# (Kokkos is then inside liblammps: nothing more to copy).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
prefix=$(grep -E '^LAMMPS_INSTALL_DIR' "$build/CMakeCache.txt" | cut -d= -f2)
out=${BUNDLE_DIR:-.device/bundle}
rm -rf "$out" && mkdir -p "$out/bin" "$out/lib" "$out/plugins"
cp "$prefix/bin/lmp" "$out/bin/"
cp -L "$prefix"/lib/liblammps.so.0 "$out/lib/"
# a LAMMPS with KOKKOS built as shared libraries: Kokkos's own
for k in "$prefix"/lib/libkokkos*.so*; do [ -e "$k" ] && cp -P "$k" "$out/lib/"; done
ln -sf liblammps.so.0 "$out/lib/liblammps.so"
cp "$build/plugins/reaxffgpuplugin.so" "$out/plugins/"
cp "$build/unittest/lammps_tests" "$out/bin/"
# (a build of the adapters' targets alone, scripts/test.sh's second LAMMPS, has none)
[ -x "$build/unittest/puremd_unit_tests" ] && cp "$build/unittest/puremd_unit_tests" "$out/bin/"
# the bandwidth and FP64 probe behind device_check.sh floors
nvcc=$(grep -E '^CMAKE_CUDA_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)
[ -x "$nvcc" ] && "$nvcc" -O3 -std=c++17 -arch=sm_90 bench/floor_probe.cu -o "$out/bin/floor_probe"
pwd > "$out/source_dir"
# the build folder, relative to the source: the test binaries load the plugin from its plugins/
realpath --relative-to=. "$build" > "$out/build_dir"
# LAMMPS's examples/reaxff, which the examples test reads at the path it was
# built with (links into potentials/ followed)
# (EXAMPLES_SRC: another source tree of the same version, for a LAMMPS source without
# examples, such as ../shared/peer's KOKKOS tree)
src=$(grep -E '^LAMMPS_SOURCE_DIR' "$build/CMakeCache.txt" | cut -d= -f2)
cp -rL "${EXAMPLES_SRC:-$src}/examples/reaxff" "$out/examples-reaxff"
echo "$src/examples/reaxff" > "$out/examples_dir"
# LAMMPS's pair-style harness and our driver-cuda copies of its ReaxFF YAML files
# (device_check.sh yaml), with the input files (the harness's -d folder) and force
# fields (LAMMPS_POTENTIALS) those name, and libyaml, which the device may lack
fs=$build/unittest/force_styles
if [ -x "$fs/test_pair_style" ]; then
  mkdir -p "$out/force-styles/tests" "$out/force-styles/potentials"
  cp "$fs/test_pair_style" "$out/bin/"
  cp -L "$(ldd "$fs/test_pair_style" | awk '/libyaml/ {print $3}')" "$out/lib/"
  cp "$fs"/cuda/*.yaml "$out/force-styles/"
  for f in $(awk '/^input_file:/ {print $2}' "$fs"/cuda/*.yaml) \
    $(grep -ohE '[$][{]input_dir[}]/[^ ]+' "$fs"/cuda/*.yaml | sed 's|.*/||'); do
    cp "$src/unittest/force-styles/tests/$f" "$out/force-styles/tests/"
  done
  for f in $(awk '/^pair_coeff:/ {p = 1; next} p && /^ / {print $3; next} {p = 0}' "$fs"/cuda/*.yaml); do
    cp -L "$src/potentials/$f" "$out/force-styles/potentials/"
  done
fi
# LAMMPS built with its own GPU package (the install prefix that
# scripts/build_lammps.sh --gpu-package printed), when given: device_check.sh gpupkg
gpu_prefix=${2:-}
if [ -n "$gpu_prefix" ]; then
  mkdir -p "$out/gpupkg/bin" "$out/gpupkg/lib"
  cp "$gpu_prefix/bin/lmp" "$out/gpupkg/bin/"
  cp -L "$gpu_prefix"/lib/liblammps.so.0 "$out/gpupkg/lib/"
  strip --strip-unneeded "$out"/gpupkg/bin/lmp "$out"/gpupkg/lib/*.so.0 2>/dev/null || true
fi
strip --strip-unneeded "$out"/bin/* "$out"/plugins/*.so "$out"/lib/*.so.* 2>/dev/null || true
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"; grep -q '^/.device/' "$ex" 2>/dev/null || echo '/.device/' >> "$ex"
du -sh "$out"
# PACK=1: also $out.tar.xz, for the device tool's 64 MiB carry (the plugin and the
# unit tests hold machine code for four GPU architectures: ~35 MB each, ~2.5 MB packed);
# unpack on the device with tar -xJf
if [ "${PACK:-0}" = 1 ]; then
  tar -C "$(dirname "$out")" -cf - "$(basename "$out")" | xz -T0 -6 >"$out.tar.xz"
  du -sh "$out.tar.xz"
fi
