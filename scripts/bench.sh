#!/usr/bin/env bash
# Runs mdcontract and the parse-only floor (cmd/mdfloor) side by side on a
# folder, alternating, and prints the median wall time, CPU time (user +
# system) and peak memory of each, and their ratio.
#
#   scripts/bench.sh [DIR] [RUNS]      (default: ../shared/corpus/agent-orchestra, 15)
#   SCALE=20 scripts/bench.sh          (DIR copied 20 times into a temporary folder)
#
# A third row, "no-drift", is mdcontract with copy-drift (MC411) off: the
# cost of discovering the copy groups is the ratio of the two.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/agent-orchestra}
runs=${2:-15}
scale=${SCALE:-1}
[ -d "$dir" ] || { echo "bench: no folder $dir" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mdcontract" ./cmd/mdcontract
go build -tags floor -o "$work/mdfloor" ./cmd/mdfloor

target=$dir
if [ "$scale" -gt 1 ]; then
  target=$work/scaled
  mkdir -p "$target"
  for i in $(seq 1 "$scale"); do cp -r "$dir" "$target/copy$i"; done
  chmod -R u+w "$target"
  echo "scaled corpus: $scale copies of $dir"
fi
mkdir -p "$target/.git" 2>/dev/null || true

measure() { # name command...
  local name=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >/dev/null 2>&1 || true
  # GNU time writes "Command exited with non-zero status N" first then
  echo "$name $(tail -n 1 "$work/t")" >>"$work/samples"
}
: >"$work/samples"
printf 'version: 1\nrules:\n  copy-drift: off\n' >"$work/no-drift.yaml"
"$work/mdfloor" "$target" >/dev/null; "$work/mdcontract" --root "$target" >/dev/null 2>&1 || true # warm the page cache
for _ in $(seq 1 "$runs"); do
  measure floor "$work/mdfloor" "$target"
  measure mdcontract "$work/mdcontract" --root "$target"
  measure no-drift "$work/mdcontract" --root "$target" --config "$work/no-drift.yaml"
done

python3 - "$work/samples" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, wall, user, sys_, rss = line.split()
    rows.setdefault(name, []).append((float(wall), float(user) + float(sys_), int(rss) / 1024))
med = {n: tuple(statistics.median(x[i] for x in v) for i in range(3)) for n, v in rows.items()}
for n in ("floor", "mdcontract", "no-drift"):
    w, c, m = med[n]
    print(f"{n:11} wall {w*1000:7.0f} ms   cpu {c*1000:7.0f} ms   peak {m:7.1f} MiB   ({len(rows[n])} runs, medians)")
f, m = med["floor"], med["mdcontract"]
print(f"ratio       wall {m[0]/f[0]:.2f}x      cpu {m[1]/f[1]:.2f}x")
d = med["no-drift"]
print(f"copy-drift  wall {m[0]/d[0]:.2f}x      cpu {m[1]/d[1]:.2f}x   (mdcontract over no-drift)")
PY
