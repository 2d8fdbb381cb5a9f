#!/usr/bin/env bash
# Fetch a pinned LAMMPS release from its Debian source package and unpack it
# into a cache folder outside the repository, keyed by version. Prints the
# unpacked source directory on the last line of stdout.
# Usage: get_lammps.sh [4Jul2026|4Feb2025]   (default: $LAMMPS_VERSION, else 4Jul2026)
#   4Feb2025: lammps 20250204+dfsg.1-2 from trixie
#   4Jul2026: lammps 20260704+dfsg-2 from sid (its .dsc is not served: only the
#             orig tarball is fetched, and its sha256 is what pins it)
#
# Debian is the only reachable source of LAMMPS here, so we add a Sources-only
# deb-src entry for the release's suite; nothing is installed from it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

version="${1:-${LAMMPS_VERSION:-4Jul2026}}"
case "$version" in
  4Feb2025) deb_version=20250204+dfsg.1-2 suite=trixie ;;
  4Jul2026) deb_version=20260704+dfsg-2 suite=sid ;;
  *)
    echo "get_lammps.sh: unknown LAMMPS version '$version' (4Feb2025 or 4Jul2026)" >&2
    exit 2
    ;;
esac
CACHE="${REAXFF_CUDA_CACHE:-$HOME/.cache/reaxff-cuda}"
upstream="${deb_version%-*}" # 20250204+dfsg.1
srcdir="$CACHE/lammps-$upstream/src-tree"

if [ -f "$srcdir/src/version.h" ]; then
  echo "$srcdir"
  exit 0
fi

mkdir -p "$CACHE/lammps-$upstream"
cd "$CACHE/lammps-$upstream"

sources_list=/etc/apt/sources.list.d/reaxff-cuda-$suite-src.sources
if [ ! -f "$sources_list" ]; then
  cat >"$sources_list" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt-get update -qq >&2
fi

if ! ls lammps_${upstream}.orig.tar.* >/dev/null 2>&1; then
  apt-get source --download-only --tar-only "lammps=$deb_version" >&2
fi
orig=$(ls lammps_${upstream}.orig.tar.* | head -n1)

# The pinned sha256 (scripts/lammps.sha256, one line per tarball) is what
# says the archive is the one we tested; a tarball without a line is refused.
actual=$(sha256sum "$orig" | cut -d' ' -f1)
pinned=$(awk -v f="$(basename "$orig")" '$2 == f {print $1}' "$here/lammps.sha256")
if [ "$actual" != "$pinned" ]; then
  echo "get_lammps.sh: sha256 of $orig is $actual, pinned: ${pinned:-none}" >&2
  exit 1
fi

# 4Feb2025's tarball holds one top folder, 4Jul2026's the tree itself.
strip=0
if tar -tf "$orig" | awk '/^[^\/]+\/src\/version\.h$/ {top = 1} END {exit !top}'; then
  strip=1
fi
rm -rf src-tree.tmp && mkdir src-tree.tmp
tar -xf "$orig" -C src-tree.tmp --strip-components=$strip
mv src-tree.tmp "$srcdir"
echo "$srcdir"
