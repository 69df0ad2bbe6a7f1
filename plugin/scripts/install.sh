#!/bin/sh
# install.sh [-b BINDIR] VERSION: install the released mdcontract VERSION
# (1.2.3 or v1.2.3) for this system into BINDIR (default ./bin), as
# scripts/release.sh made it:
#
#   curl -fsSL https://raw.githubusercontent.com/mdcontract/mdcontract/v0.1.0/scripts/install.sh | sh -s -- -b ~/.local/bin v0.1.0
#
# It downloads mdcontract_VERSION_OS_ARCH.tar.gz (.zip on Windows) and
# checksums.txt from $MDCONTRACT_RELEASE_URL/vVERSION/ (default
# https://github.com/mdcontract/mdcontract/releases/download), installs
# the binary only if the archive's SHA-256 is the one checksums.txt lists,
# and prints the installed binary's path. The action (action-install.sh)
# and the pre-commit hook (pre-commit.sh) install with it.
#
# The system is uname's (Linux, Darwin, and MINGW/MSYS/CYGWIN for Windows;
# x86_64 and arm64), or MDCONTRACT_OS (linux, darwin, windows) and
# MDCONTRACT_ARCH (amd64, arm64) when set. The binary is written beside
# its final name, then renamed over it: a run of the old one is never
# handed a half-written file. Errors go to stderr as one line,
# "install.sh: WHAT", with exit status 2.
set -eu

fail() {
  echo "install.sh: $*" >&2
  exit 2
}

bindir=./bin
while [ "$#" -gt 0 ]; do
  case "$1" in
    -b)
      [ "$#" -ge 2 ] || fail "-b needs a folder"
      bindir=$2
      shift 2
      ;;
    -h | --help)
      sed -n '2,20p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    -*) fail "unknown flag $1 (usage: install.sh [-b BINDIR] VERSION)" ;;
    *) break ;;
  esac
done
[ "$#" -eq 1 ] || fail "usage: install.sh [-b BINDIR] VERSION"
version=${1#v}
# one line of the form 1.2.3 or 1.2.3-rc.1: it becomes part of a URL
if [ "$(printf '%s' "$version" | wc -l)" -ne 0 ] ||
  ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
  fail "version: \"$1\" is not a release version such as 1.2.3"
fi

os=${MDCONTRACT_OS:-}
if [ -z "$os" ]; then
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
    *) os=$(uname -s) ;;
  esac
fi
arch=${MDCONTRACT_ARCH:-}
if [ -z "$arch" ]; then
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch=$(uname -m) ;;
  esac
fi
case "$os" in
  linux | darwin | windows) ;;
  *) fail "no mdcontract release for the system \"$os\" (linux, darwin and windows have one); build it with go install" ;;
esac
case "$arch" in
  amd64 | arm64) ;;
  *) fail "no mdcontract release for the architecture \"$arch\" (amd64 and arm64 have one); build it with go install" ;;
esac

exe=mdcontract
archive="mdcontract_${version}_${os}_${arch}.tar.gz"
if [ "$os" = windows ]; then
  exe=mdcontract.exe
  archive="mdcontract_${version}_${os}_${arch}.zip"
fi
base="${MDCONTRACT_RELEASE_URL:-https://github.com/mdcontract/mdcontract/releases/download}/v$version"

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{print $1}'
  else
    shasum -a 256 "$1" | awk '{print $1}'
  fi
}

mkdir -p "$bindir" || fail "cannot make the folder $bindir"
dl=$(mktemp -d "${TMPDIR:-/tmp}/mdcontract-install.XXXXXX") || fail "cannot make a temporary folder"
trap 'rm -rf "$dl"' EXIT
for f in "$archive" checksums.txt; do
  curl -fsSL --retry 3 -o "$dl/$f" "$base/$f" 2>/dev/null || fail "could not download $base/$f"
done
want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$dl/checksums.txt")
[ -n "$want" ] || fail "checksums.txt of v$version lists no $archive"
got=$(sha256 "$dl/$archive")
[ "$got" = "$want" ] || fail "$archive of v$version has SHA-256 $got, but checksums.txt says $want: not installed"
if [ "$os" = windows ]; then
  # Git for Windows, whose sh runs this on Windows, has unzip
  command -v unzip >/dev/null 2>&1 || fail "no unzip on PATH to unpack $archive"
  unzip -q -o "$dl/$archive" "$exe" -d "$dl" >/dev/null 2>&1 || fail "$archive of v$version holds no $exe"
else
  tar -xzf "$dl/$archive" -C "$dl" "$exe" 2>/dev/null || fail "$archive of v$version holds no $exe"
fi
chmod +x "$dl/$exe"
# beside its final name first, so that the rename does not cross devices
cp "$dl/$exe" "$bindir/.$exe.new.$$" || fail "cannot write into $bindir"
mv -f "$bindir/.$exe.new.$$" "$bindir/$exe" || fail "cannot write $bindir/$exe"
echo "$bindir/$exe"
