#!/bin/sh
# release.sh VERSION [OUTDIR]: the files of mdcontract's release VERSION
# (a tag v1.2.3, or 1.2.3), built from this checkout into OUTDIR (default
# dist/):
#
#   mdcontract_VERSION_OS_ARCH.tar.gz   linux and darwin, amd64 and arm64
#   mdcontract_VERSION_windows_ARCH.zip windows, amd64 and arm64
#   checksums.txt                       their SHA-256, as sha256sum prints
#   bin/OS_ARCH/mdcontract[.exe]        the binaries themselves (the npm
#                                       packages are made from these)
#
# Each archive holds the binary, README.md and CHANGELOG.md at its top
# level. The binary is built with CGO_ENABLED=0 and -trimpath, and has the
# version stamped in (`-X main.version`), which `mdcontract version`
# prints. The archives are reproducible: the same checkout gives the same
# bytes (entries sorted, their time the commit's, no owner; see
# internal/release). MDCONTRACT_TARGETS (e.g. "linux/amd64 windows/arm64")
# builds only some targets, for tests.
#
# Why a script and not GoReleaser: the release is six `go build`s, six
# archives and a checksum list. GoReleaser would do the same from a
# .goreleaser.yaml, but it is a large program (hundreds of modules) that
# CI, the tests and every maintainer would have to install at a pinned
# version before they could build or test a release, and its archive
# bytes and names would be its own to change between versions. This
# script needs only the go that builds mdcontract, runs the same in the
# tests (cmd/mdcontract's TestReleaseArchives installs its archives with
# the action's script) as on a tag, and packs with the standard library.
set -eu

usage() {
  echo "usage: scripts/release.sh VERSION [OUTDIR]   (VERSION as in the tag: v1.2.3 or 1.2.3)" >&2
  exit 2
}
[ "$#" -ge 1 ] && [ "$#" -le 2 ] || usage
version=${1#v}
if [ "$(printf '%s' "$version" | wc -l)" -ne 0 ] ||
  ! printf '%s\n' "$version" | grep -Eq '^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'; then
  echo "release.sh: \"$1\" is not a version such as v1.2.3" >&2
  exit 2
fi

repo=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-$repo/dist} # relative to the working directory
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$repo"

targets=${MDCONTRACT_TARGETS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"}

# The entries' time: the commit's, so that a rebuild of the tag matches.
if [ -z "${SOURCE_DATE_EPOCH:-}" ] && command -v git >/dev/null 2>&1; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || true)
fi
export SOURCE_DATE_EPOCH

names=""
for t in $targets; do
  os=${t%/*}
  arch=${t#*/}
  exe=mdcontract
  [ "$os" = windows ] && exe=mdcontract.exe
  dir="$out/bin/${os}_$arch"
  mkdir -p "$dir"
  echo "release.sh: building $os/$arch" >&2
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOFLAGS=-mod=readonly \
    go build -trimpath -ldflags "-s -w -X main.version=$version" -o "$dir/$exe" ./cmd/mdcontract
  names="$names ${os}_$arch"
done

# shellcheck disable=SC2086 # names is a list of words
go run -tags release ./internal/release/pack "$out" "$version" $names -- README.md CHANGELOG.md >/dev/null
# The npm packages (npm/README.md): the command and one package per
# system, each holding its binary; packed where npm is at hand.
if command -v npm >/dev/null 2>&1; then
  # shellcheck disable=SC2086 # names is a list of words
  scripts/npm-pack.sh "$version" "$out/bin" "$out/npm" $names >/dev/null
else
  echo "release.sh: npm not found: the npm packages are not packed" >&2
fi
echo "release.sh: v$version in $out" >&2
