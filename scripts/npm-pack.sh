#!/usr/bin/env bash
# npm-pack.sh VERSION BINDIR OUTDIR [OS_ARCH...] writes the npm packages of
# mdcontract at VERSION (1.2.3 or v1.2.3) and packs each with `npm pack`
# into OUTDIR, printing the tarballs' paths:
#
#   mdcontract-VERSION.tgz                 the command: npm/mdcontract, a
#                                          Node launcher whose optional
#                                          dependencies are the packages below
#   mdcontract-<os>-<cpu>-VERSION.tgz      @mdcontract/<os>-<cpu>: the binary
#                                          in bin/, installed by npm only
#                                          where os and cpu match
#
# This is how esbuild and lefthook ship a Go binary on npm: no postinstall,
# no download, so an install works offline and in locked-down CI.
#
# BINDIR holds the binaries as scripts/release.sh lays them out:
# BINDIR/<goos>_<goarch>/mdcontract (mdcontract.exe for windows). The
# platform packages made are those of the OS_ARCH arguments (e.g.
# linux_amd64), by default all six (linux, darwin, windows × amd64,
# arm64); each one's binary must be there. The command's package always
# names all six, as the published one does.
set -euo pipefail

usage() {
  echo "usage: $0 VERSION BINDIR OUTDIR [OS_ARCH...]" >&2
  exit 2
}
[ "$#" -ge 3 ] || usage
raw_version=$1
version=${1#v}
bindir=$2
outdir=$3
shift 3
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$ ]]; then
  echo "$0: version $raw_version is not a semantic version (1.2.3, 1.2.3-rc.1)" >&2
  exit 2
fi
[ -d "$bindir" ] || { echo "$0: $bindir is not a folder" >&2; exit 2; }
if [ "$#" -eq 0 ]; then
  set -- linux_amd64 linux_arm64 darwin_amd64 darwin_arm64 windows_amd64 windows_arm64
fi
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 ||
  { echo "$0: node and npm are needed on PATH" >&2; exit 2; }

# npm_platform OS_ARCH: sets os, cpu and exe, the npm names and the binary's.
npm_platform() {
  local goos=${1%_*} goarch=${1#*_}
  case $goos in
    linux | darwin) os=$goos exe=mdcontract ;;
    windows) os=win32 exe=mdcontract.exe ;;
    *) echo "$0: no npm package for $1" >&2; exit 2 ;;
  esac
  case $goarch in
    amd64) cpu=x64 ;;
    arm64) cpu=arm64 ;;
    *) echo "$0: no npm package for $1" >&2; exit 2 ;;
  esac
}

# Every binary is there before anything is packed.
for os_arch in "$@"; do
  npm_platform "$os_arch"
  [ -f "$bindir/$os_arch/$exe" ] || { echo "$0: no binary at $bindir/$os_arch/$exe" >&2; exit 1; }
done

root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# copy_common DIR: what every package carries besides its own files.
copy_common() {
  if [ -f "$root/LICENSE" ]; then
    cp "$root/LICENSE" "$1/"
  fi
}

# pack DIR: npm pack DIR into outdir, printing the tarball's path.
pack() {
  local name
  name=$(cd "$1" && npm_config_update_notifier=false npm pack --pack-destination "$outdir" --loglevel=error --ignore-scripts | tail -n 1)
  echo "$outdir/$name"
}

# The command's package: npm/mdcontract with the version stamped on itself
# and on each optional dependency, and npm/README.md as its README.
cp -R "$root/npm/mdcontract" "$stage/mdcontract"
cp "$root/npm/README.md" "$stage/mdcontract/README.md"
copy_common "$stage/mdcontract"
MDC_VERSION=$version node -e '
  const fs = require("fs");
  const file = process.argv[1];
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  pkg.version = process.env.MDC_VERSION;
  for (const dep of Object.keys(pkg.optionalDependencies)) {
    pkg.optionalDependencies[dep] = process.env.MDC_VERSION;
  }
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");
' "$stage/mdcontract/package.json"
pack "$stage/mdcontract"

for os_arch in "$@"; do
  npm_platform "$os_arch"
  dir="$stage/$os-$cpu"
  mkdir -p "$dir/bin"
  cp "$bindir/$os_arch/$exe" "$dir/bin/$exe"
  chmod 755 "$dir/bin/$exe"
  copy_common "$dir"
  cat >"$dir/README.md" <<EOF
# @mdcontract/$os-$cpu

The \`mdcontract\` binary for $os ($cpu). Install
[\`mdcontract\`](https://www.npmjs.com/package/mdcontract) instead: npm
installs this package with it on this platform, and only here.
EOF
  MDC_VERSION=$version MDC_OS=$os MDC_CPU=$cpu node -e '
    const { MDC_VERSION: version, MDC_OS: os, MDC_CPU: cpu } = process.env;
    const pkg = {
      name: `@mdcontract/${os}-${cpu}`,
      version,
      description: `The mdcontract binary for ${os} ${cpu} (installed by the mdcontract package)`,
      homepage: "https://github.com/mdcontract/mdcontract#readme",
      repository: {
        type: "git",
        url: "git+https://github.com/mdcontract/mdcontract.git",
        directory: "npm/mdcontract",
      },
      os: [os],
      cpu: [cpu],
      files: ["bin/"],
      preferUnplugged: true,
      engines: { node: ">=18" },
    };
    require("fs").writeFileSync(process.argv[1], JSON.stringify(pkg, null, 2) + "\n");
  ' "$dir/package.json"
  pack "$dir"
done
