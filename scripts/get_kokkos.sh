#!/usr/bin/env bash
# Unpack the Kokkos source (lib/kokkos) of a LAMMPS release tarball into the cache,
# keyed by the tarball's sha256, for build_lammps.sh --kokkos (Debian's LAMMPS source
# has no lib/kokkos). Prints the Kokkos source directory on the last line.
# Usage: get_kokkos.sh TARBALL   (e.g. ../shared/peer/lammps-kokkos-src.tar.xz:
# LAMMPS 4Feb2025 with Kokkos 4.5.01, the version that LAMMPS asks for)
set -euo pipefail
tarball=${1:?usage: get_kokkos.sh TARBALL}
CACHE="${REAXFF_CUDA_CACHE:-$HOME/.cache/reaxff-cuda}"
sum=$(sha256sum "$tarball" | cut -c1-12)
dest="$CACHE/kokkos-src-$sum"
if [ ! -f "$dest/.complete" ]; then
  rm -rf "$dest" && mkdir -p "$dest"
  # the tarball's one top folder, whatever its name, then lib/kokkos
  tar -xf "$tarball" -C "$dest" --wildcards '*/lib/kokkos/*'
  top=$(find "$dest" -mindepth 3 -maxdepth 3 -type d -path '*/lib/kokkos' | head -n 1)
  [ -n "$top" ] && [ -f "$top/CMakeLists.txt" ] || { echo "get_kokkos.sh: no lib/kokkos in $tarball" >&2; exit 1; }
  mv "$top" "$dest/kokkos"
  find "$dest" -mindepth 1 -maxdepth 1 ! -name kokkos -exec rm -rf {} +
  touch "$dest/.complete"
fi
echo "$dest/kokkos"
