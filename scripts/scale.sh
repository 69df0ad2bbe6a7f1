#!/usr/bin/env bash
# How mdcontract's cost grows with the repo: for a folder copied 1, 5, 20
# and 50 times, the median wall time, CPU time (user + system) and peak
# memory of the parse-only floor (cmd/mdfloor) and of mdcontract without
# its cache (--no-cache), with an empty cache (cold: the run that fills
# it), with a full one (warm: the same check again, reported from its
# memo), of a warm check of one file (one-file: the same check run
# before), and of a check of one file just edited (edited, the pre-commit
# case: the memo cannot serve it, the parsed models of the other files
# can), with each one's ratio to the floor.
#
#   scripts/scale.sh [DIR] [RUNS]     (default: ../shared/corpus/agent-orchestra, 3)
#   SCALES="1 20" scripts/scale.sh    (other scales)
#   UNIQUE=1 scripts/scale.sh         (each copy's markdown files differ by a
#                                      comment line, so that no copy's model
#                                      is another's: the cache's worst case)
#   BASELINE=main scripts/scale.sh    (also measure that commit's mdcontract,
#                                      each run right after this one's, with
#                                      a cache of its own: rows "before:RUN")
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/agent-orchestra}
runs=${2:-3}
scales=${SCALES:-1 5 20 50}
[ -d "$dir" ] || { echo "scale: no folder $dir" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "scale: needs GNU time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mdcontract" ./cmd/mdcontract
go build -tags floor -o "$work/mdfloor" ./cmd/mdfloor
export MDCONTRACT_CACHE_DIR=$work/cache
builds="$work/mdcontract"
if [ -n "${BASELINE:-}" ]; then
  mkdir "$work/base"
  git archive "$BASELINE" | tar -x -C "$work/base"
  (cd "$work/base" && go build -o "$work/mdcontract-base" ./cmd/mdcontract)
  builds="$builds $work/mdcontract-base"
fi

measure() { # name command...
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >/dev/null 2>&1 || true
  echo "$scale $name $(tail -n 1 "$work/t")" >>"$work/samples"
}
: >"$work/samples"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $runs runs each, medians"
for scale in $scales; do
  target=$work/x$scale
  mkdir -p "$target/.git"
  for i in $(seq 1 "$scale"); do
    cp -r "$dir" "$target/copy$i"
    if [ "${UNIQUE:-}" = 1 ]; then
      find "$target/copy$i" -name '*.md' -exec sh -c 'for f; do printf "\n<!-- copy %s -->\n" "$0" >>"$f"; done' "$i" {} +
    fi
  done
  chmod -R u+w "$target"
  one=$(cd "$target" && find copy1 -name '*.md' | sort | sed -n 1p) # sed reads on: head would stop sort with SIGPIPE, which pipefail makes an error
  "$work/mdfloor" "$target" >/dev/null; "$work/mdcontract" --root "$target" --no-cache >/dev/null 2>&1 || true # the page cache
  for _ in $(seq 1 "$runs"); do
    measure floor "$work/mdfloor" "$target"
    for bin in $builds; do
      pre=""
      [ "$bin" = "$work/mdcontract" ] || pre="before:"
      export MDCONTRACT_CACHE_DIR=$work/cache$pre
      measure "${pre}no-cache" "$bin" --root "$target" --no-cache
      rm -rf "$MDCONTRACT_CACHE_DIR"
      measure "${pre}cold" "$bin" --root "$target"
      measure "${pre}warm" "$bin" --root "$target"
      (cd "$target" && "$bin" check "$one" >/dev/null 2>&1 || true) # its memo
      (cd "$target" && measure "${pre}one-file" "$bin" check "$one")
      printf '\nEdited for the benchmark.\n' >>"$target/$one"
      (cd "$target" && measure "${pre}edited" "$bin" check "$one")
    done
  done
  files=$(find "$target" -name '*.md' | wc -l)
  bytes=$(du -sb "$target" | cut -f1)
  echo "x$scale $files $bytes" >>"$work/sizes"
  rm -rf "$target"
done

python3 - "$work/samples" "$work/sizes" <<'PY'
import statistics, sys
rows, order = {}, []
for line in open(sys.argv[1]):
    scale, name, wall, user, sys_, rss = line.split()
    if scale not in order:
        order.append(scale)
    rows.setdefault((scale, name), []).append((float(wall), float(user) + float(sys_), int(rss) / 1024))
sizes = {}
for line in open(sys.argv[2]):
    s, files, b = line.split()
    sizes[s[1:]] = (int(files), int(b))
med = {k: tuple(statistics.median(x[i] for x in v) for i in range(3)) for k, v in rows.items()}
print(f"{'scale':6} {'run':16} {'wall':>9} {'cpu':>9} {'peak':>10} {'wall/floor':>10} {'cpu/floor':>9} {'MiB/1k files':>12}")
for s in order:
    files, b = sizes[s]
    f = med[(s, "floor")]
    print(f"x{s:<5} {files} markdown files, {b / 2**20:.0f} MiB")
    for n in ("floor", "no-cache", "cold", "warm", "one-file", "edited",
              "before:no-cache", "before:cold", "before:warm", "before:one-file", "before:edited"):
        if (s, n) not in med:
            continue
        w, c, m = med[(s, n)]
        print(f"{'':6} {n:16} {w:8.2f}s {c:8.2f}s {m:7.0f} MiB {w / f[0]:9.2f}x {c / f[1]:8.2f}x {m / files * 1000:12.1f}")
PY
