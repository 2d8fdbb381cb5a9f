#!/usr/bin/env bash
# Fetch a pinned LAMMPS release and unpack it into a cache folder outside the
# repository, keyed by version. Prints the unpacked source directory on the last
# line of stdout; what it tries, and why an attempt failed, goes to stderr.
# Needs no root and writes nothing outside the cache folder
# ($REAXFF_CUDA_CACHE, default ~/.cache/reaxff-cuda).
# Usage: get_lammps.sh [4Jul2026|4Feb2025]   (default: $LAMMPS_VERSION, else 4Jul2026)
#        get_lammps.sh --manifest DIR        (the source manifest of a LAMMPS tree, see below)
#   4Feb2025: lammps 20250204+dfsg.1-2 from trixie
#   4Jul2026: lammps 20260704+dfsg-2 from sid
#
# What pins the source is Debian's orig tarball of that upload: its sha256 in
# scripts/lammps.sha256 (one line per tarball; a tarball without a line is refused).
# Where it comes from, in this order, until one passes the check:
#   1. pool: Debian's pool, $LAMMPS_DEBIAN_MIRROR/pool/main/l/lammps/<orig tarball>
#      (default mirror http://deb.debian.org/debian), with curl, wget or python3
#   2. apt: apt-get source --download-only --tar-only (where apt-get is), its state kept
#      under $CACHE/apt/<suite> (its own deb-src list for the release's suite, lists and
#      cache: nothing under /etc or /var/lib/apt is written; no root)
#   3. snapshot: snapshot.debian.org, which keeps every file Debian published, by its sha1:
#      the orig tarball outlives the upload's time in sid (the sha256 still checks it)
#   4. release: LAMMPS's own release tarball of the same version (download.lammps.org, then
#      GitHub's patch_<version> and stable_<version> tags): not Debian's bytes, so
#      it is checked by the sha256 of its source manifest (--manifest) pinned in
#      scripts/lammps-tree.sha256
# LAMMPS_FETCH="pool apt snapshot release" picks and orders them (e.g. to skip
# sources a cluster cannot reach). LAMMPS_TARBALL=/path/to/tarball uses a tarball
# you brought instead, and nothing else (no network): Debian's orig tarball
# (sha256) or LAMMPS's (manifest).
# Or skip all this: configure with -DLAMMPS_SOURCE_DIR=/path/to/lammps (README).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
log() { echo "get_lammps.sh: $*" >&2; }

# The source manifest: "sha256  path" of every file the build and tests read
# (LAMMPS's cmake/, src/, unittest/, examples/reaxff/, potentials/, and lib/gpu/
# for build_lammps.sh --gpu-package), symlinks by their target, sorted by path;
# hidden files (.gitignore, .clang-format, ...) left out, as release tarballs
# and Debian's repack differ there. Its own sha256 stands for the tree.
manifest_dirs=(cmake src unittest examples/reaxff potentials lib/gpu)
manifest() { # DIR: prints the manifest of the LAMMPS tree in DIR
  (
    cd "$1"
    for d in "${manifest_dirs[@]}"; do
      [ -d "$d" ] || { echo "$1 has no $d/" >&2; exit 1; }
    done
    {
      find "${manifest_dirs[@]}" -name '.*' -prune -o -type f -print0 | xargs -0 -r sha256sum --
      find "${manifest_dirs[@]}" -name '.*' -prune -o -type l -printf 'symlink->%l  %p\n'
    } | LC_ALL=C sort -k2
  )
}
if [ "${1:-}" = --manifest ]; then
  [ -n "${2:-}" ] || { echo "usage: get_lammps.sh --manifest DIR" >&2; exit 2; }
  m=$(manifest "$2")
  printf '%s\n' "$m"
  echo "$(printf '%s\n' "$m" | sha256sum | cut -d' ' -f1)  manifest"
  exit 0
fi

version="${1:-${LAMMPS_VERSION:-4Jul2026}}"
# sha1: snapshot.debian.org serves a file by its sha1 (only to find it; the
# sha256 pin checks it). Both computed from the tarballs we pinned.
case "$version" in
  4Feb2025) deb_version=20250204+dfsg.1-2 suite=trixie sha1=4609ece0638fc4df4de5072f53fb25c155602ae9 ;;
  4Jul2026) deb_version=20260704+dfsg-2 suite=sid sha1=78e61fe03d63d6f2db3c0cf8065f6f1a8bd6add9 ;;
  *)
    echo "get_lammps.sh: unknown LAMMPS version '$version' (4Feb2025 or 4Jul2026)" >&2
    exit 2
    ;;
esac
CACHE="${REAXFF_CUDA_CACHE:-$HOME/.cache/reaxff-cuda}"
mirror="${LAMMPS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
mirror="${mirror%/}"
snapshot="${LAMMPS_SNAPSHOT_URL:-https://snapshot.debian.org}"
upstream="${deb_version%-*}" # 20250204+dfsg.1
srcdir="$CACHE/lammps-$upstream/src-tree"

if [ -f "$srcdir/src/version.h" ]; then
  echo "$srcdir"
  exit 0
fi

# the pins: Debian's orig tarball (name and sha256), and the source manifest
orig=$(awk -v p="lammps_${upstream}.orig.tar." 'index($2, p) == 1 {print $2}' "$here/lammps.sha256")
pinned=$(awk -v f="$orig" '$2 == f {print $1}' "$here/lammps.sha256")
tree_pinned=$(awk -v v="$version" '$1 !~ /^#/ && $2 == v {print $1}' "$here/lammps-tree.sha256")
if [ -z "$orig" ] || [ -z "$pinned" ] || [ -z "$tree_pinned" ]; then
  log "no pin for LAMMPS $version in scripts/lammps.sha256 or scripts/lammps-tree.sha256"
  exit 1
fi

# (a relative LAMMPS_TARBALL is taken from where we were started)
case "${LAMMPS_TARBALL:-}" in "" | /*) ;; *) LAMMPS_TARBALL=$PWD/$LAMMPS_TARBALL ;; esac
mkdir -p "$CACHE/lammps-$upstream"
cd "$CACHE/lammps-$upstream"
tmp="tmp.$$"
trap 'rm -rf "$tmp"' EXIT
rm -rf "$tmp" && mkdir "$tmp"

# download URL FILE: sets `why` when it fails
download() {
  local url=$1 out=$2 err
  if command -v curl >/dev/null; then
    err=$(curl -fsSL --connect-timeout 20 --speed-limit 1024 --speed-time 60 -o "$out" "$url" 2>&1) && return 0
  elif command -v wget >/dev/null; then
    err=$(wget -nv --timeout=20 --tries=2 -O "$out" "$url" 2>&1) && return 0
  elif command -v python3 >/dev/null; then
    err=$(python3 - "$url" "$out" 2>&1 <<'PY'
import shutil, sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=20) as r, open(sys.argv[2], "wb") as f:
        shutil.copyfileobj(r, f)
except Exception as e:
    sys.exit(f"python3 urllib: {e}")
PY
    ) && return 0
  else
    why="no curl, wget or python3 to download with"
    return 1
  fi
  why=$(printf '%s' "$err" | tr '\n' ' ' | sed 's/ *$//')
  why=${why:-download failed}
  return 1
}

# 4Feb2025's tarball holds one top folder, 4Jul2026's the tree itself
# (GitHub's and LAMMPS's tarballs one top folder too).
unpack() { # TARBALL DEST
  local strip=0
  if tar -tf "$1" | awk '/^[^\/]+\/src\/version\.h$/ {top = 1} END {exit !top}'; then
    strip=1
  fi
  rm -rf "$2" && mkdir "$2" && tar -xf "$1" -C "$2" --strip-components=$strip
}

# Move an unpacked, checked tree into place, print it and stop.
install_tree() { # DIR
  if ! mv -T "$1" "$srcdir" 2>/dev/null; then
    [ -f "$srcdir/src/version.h" ] || { log "cannot move $1 to $srcdir"; exit 1; }
  fi
  echo "$srcdir"
  exit 0
}

# An orig tarball: if its sha256 is the pin, keep it (as $orig), unpack and stop;
# else set `why`.
use_orig() { # FILE
  local actual
  actual=$(sha256sum "$1" | cut -d' ' -f1)
  if [ "$actual" != "$pinned" ]; then
    why="sha256 $actual, pinned $pinned"
    return 1
  fi
  [ "$1" -ef "$orig" ] || mv -f "$1" "$orig"
  unpack "$orig" "$tmp/tree" || { why="cannot unpack $orig"; return 1; }
  install_tree "$tmp/tree"
}

# LAMMPS's own tarball (or any tree): if its manifest's sha256 is the pin,
# unpack and stop; else set `why`.
use_release() { # FILE
  local got what
  if ! tar -tf "$1" >/dev/null 2>&1; then
    why="not a tar archive"
    return 1
  fi
  unpack "$1" "$tmp/tree" || { why="cannot unpack it"; return 1; }
  if [ ! -f "$tmp/tree/src/version.h" ]; then
    why="no src/version.h in it: not a LAMMPS source tarball"
    return 1
  fi
  what=$(sed -n 's/.*LAMMPS_VERSION "\(.*\)".*/\1/p' "$tmp/tree/src/version.h")
  got=$(manifest "$tmp/tree" 2>&1 | sha256sum | cut -d' ' -f1)
  if [ "$got" != "$tree_pinned" ]; then
    why="LAMMPS '$what': its source manifest's sha256 is $got, pinned for $version: $tree_pinned"
    rm -rf "$tmp/tree"
    return 1
  fi
  log "LAMMPS '$what': source manifest matches the pin for $version"
  install_tree "$tmp/tree"
}

if [ -n "${LAMMPS_TARBALL:-}" ]; then
  log "LAMMPS_TARBALL=$LAMMPS_TARBALL"
  if [ ! -r "$LAMMPS_TARBALL" ]; then
    log "LAMMPS_TARBALL=$LAMMPS_TARBALL: no such file (or not readable)"
    exit 1
  fi
  # Debian's orig tarball is checked by its sha256 (unpacked from there, not kept)
  if [ "$(sha256sum "$LAMMPS_TARBALL" | cut -d' ' -f1)" = "$pinned" ]; then
    log "its sha256 is the pin of Debian's $orig"
    unpack "$LAMMPS_TARBALL" "$tmp/tree"
    install_tree "$tmp/tree"
  fi
  use_release "$LAMMPS_TARBALL" || true
  log "LAMMPS_TARBALL=$LAMMPS_TARBALL is neither Debian's $orig (sha256 $pinned)"
  log "  nor LAMMPS $version's source: $why"
  log "  (unset LAMMPS_TARBALL to download it)"
  exit 1
fi

if [ -f "$orig" ]; then # from an earlier run that stopped before unpacking
  use_orig "$orig" || { log "cached $orig: $why; fetching it again"; rm -f "$orig"; }
fi

attempts=()
failed() { # WHAT: records the attempt and `why`
  attempts+=("$1: $why")
  log "  failed: $why"
}

# The pinned orig tarball from URL, checked by its sha256 (WHAT names the source)
fetch_orig() { # TAG WHAT URL
  log "[$1] $2: $3"
  if download "$3" "$tmp/$orig"; then use_orig "$tmp/$orig" || true; fi
  failed "$2 $3"
}

# 1. Debian's pool
fetch_pool() { fetch_orig pool "Debian's pool" "$mirror/pool/main/l/lammps/$orig"; }

# 2. apt-get source, with apt's state under $CACHE/apt
fetch_apt() {
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg apt="$CACHE/apt/$suite" out aptopts
  log "[apt] apt-get source lammps=$deb_version from $mirror $suite (apt state in $apt)"
  if ! command -v apt-get >/dev/null; then
    why="no apt-get here"
  elif [ ! -r "$keyring" ]; then
    why="no $keyring (package debian-archive-keyring) to check the archive's signature"
  else
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources.list.d" "$tmp/apt"
    echo "deb-src [signed-by=$keyring] $mirror $suite main" >"$apt/sources.list"
    aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=$apt/sources.list.d"
             -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache")
    # as root, apt would download as user _apt, who cannot write into this cache
    [ "$(id -u)" -eq 0 ] && aptopts+=(-o APT::Sandbox::User=root)
    # apt-get update can succeed with the suite's index missing (a warning): the
    # why below then shows its warning beside apt-get source's error
    if out=$(apt-get "${aptopts[@]}" update 2>&1) &&
      out+=$'\n'$(cd "$tmp/apt" && apt-get "${aptopts[@]}" source --download-only --tar-only \
                    "lammps=$deb_version" 2>&1); then
      if [ -f "$tmp/apt/$orig" ]; then
        use_orig "$tmp/apt/$orig" || true
      else
        why="apt-get source gave no $orig"
      fi
    else
      why=$(printf '%s\n' "$out" | grep -E '^(E|Err|W):' | tail -n 3 | tr '\n' ' ' | sed 's/ *$//')
      why=${why:-$(printf '%s\n' "$out" | tail -n 2 | tr '\n' ' ')}
    fi
  fi
  failed "apt-get source lammps=$deb_version (deb-src $mirror $suite main)"
}

# 3. snapshot.debian.org, by the file's sha1
fetch_snapshot() { fetch_orig snapshot snapshot.debian.org "$snapshot/file/$sha1"; }

# 4. LAMMPS's own release tarball, checked by its source manifest
fetch_release() {
  local url
  for url in "https://download.lammps.org/tars/lammps-$version.tar.gz" \
    "https://github.com/lammps/lammps/archive/refs/tags/patch_$version.tar.gz" \
    "https://github.com/lammps/lammps/archive/refs/tags/stable_$version.tar.gz"; do
    log "[release] LAMMPS's release tarball: $url"
    if download "$url" "$tmp/release.tar.gz"; then use_release "$tmp/release.tar.gz" || true; fi
    rm -f "$tmp/release.tar.gz"
    failed "LAMMPS's release tarball $url"
  done
}

# LAMMPS_FETCH picks and orders the attempts (all four by default).
for m in ${LAMMPS_FETCH:-pool apt snapshot release}; do
  case "$m" in
    pool) fetch_pool ;;
    apt) fetch_apt ;;
    snapshot) fetch_snapshot ;;
    release) fetch_release ;;
    *) log "LAMMPS_FETCH: unknown source '$m' (pool, apt, snapshot, release)"; exit 2 ;;
  esac
done

{
  echo "get_lammps.sh: could not fetch LAMMPS $version (Debian's lammps $deb_version,"
  echo "  $orig, sha256 $pinned). Tried:"
  for a in "${attempts[@]}"; do echo "  - $a"; done
  [ ${#attempts[@]} -gt 0 ] || echo "  nothing (LAMMPS_FETCH='${LAMMPS_FETCH:-}')"
  echo "Two ways out:"
  echo "  - fetch one of those files yourself (on a machine that can reach it), copy it"
  echo "    here and run again with LAMMPS_TARBALL=/path/to/it, e.g."
  echo "    LAMMPS_TARBALL=\$PWD/$orig scripts/example.sh"
  echo "  - or build against a LAMMPS source tree of your own:"
  echo "    scripts/example.sh -DLAMMPS_SOURCE_DIR=/path/to/lammps (see README.md)"
} >&2
exit 1
