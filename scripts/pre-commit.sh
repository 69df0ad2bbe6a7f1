#!/bin/sh
# pre-commit.sh ARG...: run the released mdcontract of this checkout with
# ARG... (.pre-commit-hooks.yaml's `mdcontract` hook runs it). The release
# is CHANGELOG.md's newest, the one this checkout's tag made: pre-commit
# clones the hook repo at the `rev:` of the user's config, so the tag
# v0.1.0 runs release 0.1.0. The first run installs it with install.sh
# (checked against the release's checksums.txt) into .mdcontract-bin/
# beside this script's checkout, in pre-commit's own store, which
# `pre-commit clean` empties; later runs start it at once.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^## \[\([0-9][^]]*\)\] - .*/\1/p' "$here/CHANGELOG.md" | head -n 1)
[ -n "$version" ] || {
  echo "mdcontract pre-commit hook: $here/CHANGELOG.md names no release" >&2
  exit 2
}
exe=mdcontract
case "$(uname -s)" in
  MINGW* | MSYS* | CYGWIN* | Windows_NT) exe=mdcontract.exe ;;
esac
bin="$here/.mdcontract-bin/$version"
if [ ! -x "$bin/$exe" ]; then
  echo "mdcontract pre-commit hook: installing mdcontract $version" >&2
  sh "$here/scripts/install.sh" -b "$bin" "$version" >/dev/null || exit 2
fi
exec "$bin/$exe" "$@"
