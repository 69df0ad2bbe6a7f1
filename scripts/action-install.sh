#!/usr/bin/env bash
# action-install.sh puts mdcontract on the PATH of the action's later steps
# (action.yml runs it), leaving the caller's Go as it was.
#
# With INPUT_VERSION (e.g. 0.1.0 or v0.1.0) it downloads that release's
# mdcontract_<version>_<os>_<arch>.tar.gz (.zip on Windows) and
# checksums.txt, as scripts/release.sh makes them, from
# $MDCONTRACT_RELEASE_URL/v<version>/ (default
# https://github.com/mdcontract/mdcontract/releases/download), checks the
# archive's SHA-256 against checksums.txt and unpacks the binary.
#
# Without it, it builds ./cmd/mdcontract from ACTION_PATH (the action's own
# checkout) with the go on PATH, in a GOPATH, GOCACHE and GOMODCACHE of its
# own under RUNNER_TEMP and with GOTOOLCHAIN=auto, so that the toolchain
# go.mod names is fetched there if the caller's go is older; nothing of
# the caller's Go setup is changed or used but the go command.
#
# Environment: RUNNER_TEMP, GITHUB_PATH (as GitHub Actions sets them),
# RUNNER_OS and RUNNER_ARCH (for a release), ACTION_PATH (for a build).
set -euo pipefail

fail() {
  echo "::error title=mdcontract::$*"
  exit 2
}

: "${RUNNER_TEMP:?}" "${GITHUB_PATH:?}"
bin="$RUNNER_TEMP/mdcontract-bin"
mkdir -p "$bin"
exe=mdcontract
if [ "${RUNNER_OS:-}" = Windows ]; then
  exe=mdcontract.exe
fi

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | awk '{print $1}'
  else
    shasum -a 256 "$1" | awk '{print $1}'
  fi
}

if [ -n "${INPUT_VERSION:-}" ]; then
  version="${INPUT_VERSION#v}"
  if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
    fail "version: \"$INPUT_VERSION\" is not a release version such as 1.2.3"
  fi
  case "${RUNNER_OS:-}" in
    Linux) os=linux ;;
    macOS) os=darwin ;;
    Windows) os=windows ;;
    *) fail "no mdcontract release for the runner OS \"${RUNNER_OS:-}\"; leave version empty to build from source" ;;
  esac
  case "${RUNNER_ARCH:-}" in
    X64) arch=amd64 ;;
    ARM64) arch=arm64 ;;
    *) fail "no mdcontract release for the runner architecture \"${RUNNER_ARCH:-}\"; leave version empty to build from source" ;;
  esac
  base="${MDCONTRACT_RELEASE_URL:-https://github.com/mdcontract/mdcontract/releases/download}/v$version"
  archive="mdcontract_${version}_${os}_${arch}.tar.gz"
  if [ "$os" = windows ]; then
    archive="mdcontract_${version}_${os}_${arch}.zip"
  fi
  dl="$RUNNER_TEMP/mdcontract-download"
  rm -rf "$dl"
  mkdir -p "$dl"
  for f in "$archive" checksums.txt; do
    curl -fsSL --retry 3 -o "$dl/$f" "$base/$f" || fail "could not download $base/$f"
  done
  want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$dl/checksums.txt")
  [ -n "$want" ] || fail "checksums.txt of v$version lists no $archive"
  got=$(sha256 "$dl/$archive")
  [ "$got" = "$want" ] || fail "$archive of v$version has SHA-256 $got, but checksums.txt says $want: not installed"
  if [ "$os" = windows ]; then
    # Git for Windows, whose bash runs this on a Windows runner, has unzip
    command -v unzip >/dev/null 2>&1 || fail "no unzip on PATH to unpack $archive"
    unzip -q -o "$dl/$archive" "$exe" -d "$dl" || fail "$archive of v$version holds no $exe"
  else
    tar -xzf "$dl/$archive" -C "$dl" "$exe" || fail "$archive of v$version holds no $exe"
  fi
  mv -f "$dl/$exe" "$bin/$exe"
  chmod +x "$bin/$exe"
else
  : "${ACTION_PATH:?}"
  command -v go >/dev/null 2>&1 || fail "no go on PATH to build mdcontract with; set version to install a release"
  gohome="$RUNNER_TEMP/mdcontract-go"
  (
    cd "$ACTION_PATH"
    export GOPATH="$gohome" GOCACHE="$gohome/cache" GOMODCACHE="$gohome/mod" GOBIN="$bin" \
      GOTOOLCHAIN=auto GOWORK=off GOENV=off GOFLAGS=-mod=readonly CGO_ENABLED=0
    go install -trimpath ./cmd/mdcontract
  ) || fail "building mdcontract failed (see the log)"
fi

"$bin/$exe" --version
echo "$bin" >>"$GITHUB_PATH"
