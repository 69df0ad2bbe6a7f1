#!/bin/sh
# hook.sh [--install] [ARG...]: the plugin's hook command. It runs
# `mdcontract hook ARG...` on the host's payload (standard input) and
# passes on its answer and exit status, which follow the host's hook
# protocol. The mdcontract it runs is the one on PATH when that one has
# the `hook` command, else the release this plugin names (the "version"
# of .claude-plugin/plugin.json beside this folder), installed once by
# install.sh (a copy of the project's scripts/install.sh: the archive is
# checked against the release's checksums.txt) into the plugin's data
# folder: $CLAUDE_PLUGIN_DATA, which Claude Code sets for a plugin's
# hooks, else mdcontract/plugin in the user's cache folder.
#
# It never stands in the way of the user's work on its own failure: when
# no mdcontract can run (none yet, no network, an unknown system), it
# says nothing and exits 0. The install runs in the background, one at a
# time, and a failed one is tried again an hour later; until it is done,
# events pass unchecked. --install (the SessionStart hook) only starts
# the install.
#
# MDCONTRACT_RELEASE_URL, MDCONTRACT_OS and MDCONTRACT_ARCH are
# install.sh's.

here=$(cd "$(dirname "$0")" 2>/dev/null && pwd) || exit 0
manifest="$here/../.claude-plugin/plugin.json"
version=$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([0-9][0-9A-Za-z.-]*\)".*/\1/p' "$manifest" 2>/dev/null | head -n 1)

exe=mdcontract
case "$(uname -s 2>/dev/null)" in
  MINGW* | MSYS* | CYGWIN* | Windows_NT) exe=mdcontract.exe ;;
esac
data=${CLAUDE_PLUGIN_DATA:-}
if [ -z "$data" ]; then
  case "$(uname -s 2>/dev/null)" in
    Darwin) cache="$HOME/Library/Caches" ;;
    *) cache=${XDG_CACHE_HOME:-$HOME/.cache} ;;
  esac
  data="$cache/mdcontract/plugin"
fi
pinned="$data/bin/$version/$exe"

# install starts install.sh in the background, unless one is under way
# (its lock, a folder, is younger than 10 minutes) or one failed in the
# last hour.
start_install() {
  [ -n "$version" ] || return 0
  mkdir -p "$data" 2>/dev/null || return 0
  failed="$data/install-failed"
  if [ -f "$failed" ] && [ -z "$(find "$failed" -mmin +60 2>/dev/null)" ]; then
    return 0
  fi
  lock="$data/install.lock"
  if [ -d "$lock" ] && [ -n "$(find "$lock" -prune -mmin +10 2>/dev/null)" ]; then
    rmdir "$lock" 2>/dev/null
  fi
  mkdir "$lock" 2>/dev/null || return 0
  (
    if sh "$here/install.sh" -b "$data/bin/$version" "$version" >"$data/install.log" 2>&1; then
      rm -f "$failed"
    else
      : >"$failed"
    fi
    rmdir "$lock"
  ) </dev/null >/dev/null 2>&1 &
}

if [ "${1:-}" = --install ]; then
  [ -x "$pinned" ] || start_install
  exit 0
fi

# mdcontract on PATH, if it has the `hook` command (an older release
# would read `hook` as a path to check). The answer is kept in
# path-probe, valid while that file is newer than the binary.
bin=
onpath=$(command -v "$exe" 2>/dev/null)
if [ -n "$onpath" ] && [ -x "$onpath" ]; then
  probe="$data/path-probe"
  known=
  if [ -f "$probe" ] && [ "$probe" -nt "$onpath" ]; then
    read -r known <"$probe" 2>/dev/null
  fi
  if [ "$known" = "$onpath" ]; then
    bin=$onpath
  elif "$onpath" help hook </dev/null >/dev/null 2>&1; then
    bin=$onpath
    mkdir -p "$data" 2>/dev/null && printf '%s\n' "$onpath" >"$probe" 2>/dev/null
  fi
fi
if [ -z "$bin" ] && [ -x "$pinned" ]; then
  bin=$pinned
fi
if [ -z "$bin" ]; then
  start_install
  exit 0
fi

"$bin" hook "$@"
status=$?
# 126 and 127: the binary could not be run (a wrong system, a file
# removed since): not the host's protocol, so nothing to say
case $status in
  126 | 127) exit 0 ;;
esac
exit $status
