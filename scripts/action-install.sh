#!/usr/bin/env bash
# action-install.sh puts mdcontract on the PATH of the action's later steps
# (action.yml runs it), leaving the caller's Go as it was.
#
# With INPUT_VERSION a release (e.g. 0.1.0 or v0.1.0, action.yml's
# default is the release of the action's own tag), it installs that
# release's binary for the runner with scripts/install.sh, which downloads
# mdcontract_<version>_<os>_<arch>.tar.gz (.zip on Windows) and
# checksums.txt, as scripts/release.sh makes them, from
# $MDCONTRACT_RELEASE_URL/v<version>/ (default
# https://github.com/mdcontract/mdcontract/releases/download) and installs
# the binary only if the archive's SHA-256 is the one checksums.txt lists.
#
# With INPUT_VERSION `source` (or empty), it builds ./cmd/mdcontract from ACTION_PATH (the action's own
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

if [ "${INPUT_VERSION:-source}" != source ]; then
  case "${RUNNER_OS:-}" in
    Linux) os=linux ;;
    macOS) os=darwin ;;
    Windows) os=windows ;;
    *) fail "no mdcontract release for the runner OS \"${RUNNER_OS:-}\"; set version to source to build it" ;;
  esac
  case "${RUNNER_ARCH:-}" in
    X64) arch=amd64 ;;
    ARM64) arch=arm64 ;;
    *) fail "no mdcontract release for the runner architecture \"${RUNNER_ARCH:-}\"; set version to source to build it" ;;
  esac
  # install.sh checks the version and the archive's SHA-256, and says
  # what went wrong in one line
  errors="$RUNNER_TEMP/mdcontract-install-errors"
  MDCONTRACT_OS=$os MDCONTRACT_ARCH=$arch TMPDIR="$RUNNER_TEMP" \
    sh "$(dirname "$0")/install.sh" -b "$bin" "$INPUT_VERSION" >/dev/null 2>"$errors" ||
    fail "$(tail -n 1 "$errors" | sed 's/^install\.sh: //')"
else
  : "${ACTION_PATH:?}"
  command -v go >/dev/null 2>&1 || fail "no go on PATH to build mdcontract with; set version to a release such as 0.1.0"
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
