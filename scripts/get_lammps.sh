#!/usr/bin/env bash
# Fetch the pinned LAMMPS (4Feb2025, Debian source package 20250204+dfsg.1-2) and
# unpack it into a cache folder outside the repository, keyed by version.
# Prints the unpacked source directory on the last line of stdout.
#
# Debian is the only reachable source of LAMMPS here, so we add a Sources-only
# deb-src entry for trixie; nothing is installed from it.
set -euo pipefail

LAMMPS_DEB_VERSION="${LAMMPS_DEB_VERSION:-20250204+dfsg.1-2}"
LAMMPS_ORIG_SHA256="${LAMMPS_ORIG_SHA256:-}"
CACHE="${REAXFF_CUDA_CACHE:-$HOME/.cache/reaxff-cuda}"
upstream="${LAMMPS_DEB_VERSION%-*}"          # 20250204+dfsg.1
srcdir="$CACHE/lammps-$upstream/src-tree"

if [ -f "$srcdir/src/version.h" ]; then
  echo "$srcdir"
  exit 0
fi

mkdir -p "$CACHE/lammps-$upstream"
cd "$CACHE/lammps-$upstream"

sources_list=/etc/apt/sources.list.d/reaxff-cuda-trixie-src.sources
if [ ! -f "$sources_list" ]; then
  cat > "$sources_list" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  apt-get update -qq >&2
fi

orig="lammps_${upstream}.orig.tar.xz"
if [ ! -f "$orig" ]; then
  apt-get source --download-only --tar-only "lammps=$LAMMPS_DEB_VERSION" >&2
fi
ls lammps_${upstream}.orig.tar.* >/dev/null
orig=$(ls lammps_${upstream}.orig.tar.* | head -n1)

# apt already checked the .dsc signature and the file's checksum against it;
# we also pin the sha256 so a changed archive is noticed.
actual=$(sha256sum "$orig" | cut -d' ' -f1)
pinned_file="$(dirname "$0")/lammps.sha256"
if [ -z "$LAMMPS_ORIG_SHA256" ] && [ -f "$pinned_file" ]; then
  LAMMPS_ORIG_SHA256=$(cut -d' ' -f1 "$pinned_file")
fi
if [ -n "$LAMMPS_ORIG_SHA256" ] && [ "$actual" != "$LAMMPS_ORIG_SHA256" ]; then
  echo "get_lammps.sh: sha256 of $orig is $actual, expected $LAMMPS_ORIG_SHA256" >&2
  exit 1
fi

rm -rf src-tree.tmp && mkdir src-tree.tmp
tar -xf "$orig" -C src-tree.tmp --strip-components=1
mv src-tree.tmp "$srcdir"
echo "$srcdir"
