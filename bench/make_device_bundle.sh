#!/usr/bin/env bash
# Pack what bench/device_check.sh needs on a GPU machine that cannot build
# LAMMPS itself (the lent H100 has no network): LAMMPS (lmp + liblammps), our
# plugin and test binaries, built here for sm_90. Output: .device/bundle
# (ignored by git; carried to the device with the working tree).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
prefix=$(grep -E '^LAMMPS_INSTALL_DIR' "$build/CMakeCache.txt" | cut -d= -f2)
out=.device/bundle
rm -rf "$out" && mkdir -p "$out/bin" "$out/lib" "$out/plugins"
cp "$prefix/bin/lmp" "$out/bin/"
cp -L "$prefix"/lib/liblammps.so.0 "$out/lib/"
ln -sf liblammps.so.0 "$out/lib/liblammps.so"
cp "$build/plugins/reaxffgpuplugin.so" "$out/plugins/"
cp "$build/unittest/puremd_unit_tests" "$build/unittest/lammps_tests" "$out/bin/"
pwd > "$out/source_dir"
strip --strip-unneeded "$out"/bin/* "$out"/plugins/*.so "$out"/lib/*.so.0 2>/dev/null || true
ex=$(git rev-parse --git-path info/exclude); mkdir -p "$(dirname "$ex")"; grep -q '^/.device/' "$ex" 2>/dev/null || echo '/.device/' >> "$ex"
du -sh "$out"
