#!/usr/bin/env bash
# Drives the built `mdcontract lsp` as an editor does, over its stdin and
# stdout (TestBinaryLatency in lsp/binary_test.go, a JSON-RPC client), on a
# corpus copied 1, 20 and 50 times, and prints the start-up time (process
# start to the first diagnostics) and the latency of each keystroke
# (didChange to its diagnostics), p50 and p95.
#
#   scripts/lspbench.sh [DIR] [EDITS]    (default: ../shared/corpus/agent-orchestra, 300)
#   SCALES="1 20" scripts/lspbench.sh    (the copies to measure; default "1 20 50")
#   RUNS=3 scripts/lspbench.sh           (start each server this many times; the median of each figure)
#   PACE=100 scripts/lspbench.sh         (wait this many ms before each keystroke, as a typist
#                                         does; default 0: back to back)
#   WARMUP=600 scripts/lspbench.sh       (type this many keystrokes first, unmeasured: the steady
#                                         state, past the heap's first growth after start-up)
#   BASELINE=main scripts/lspbench.sh    (also measure that commit's mdcontract, alternating
#                                         with this one's: rows "before" and "after")
#
# The edited file is agents/code-critic.md of the first copy, with a skill
# and a command open beside it; set FILE and OPEN to change them.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/agent-orchestra}
edits=${2:-300}
scales=${SCALES:-1 20 50}
runs=${RUNS:-1}
file=${FILE:-agents/code-critic.md}
open=${OPEN:-skills/brainstorming/SKILL.md,commands/design.md}
if [ ! -d "$dir" ]; then
  echo "lspbench: no folder $dir (the shared corpora live in ../shared beside a checkout): skipped" >&2
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mdcontract" ./cmd/mdcontract
go test -c -o "$work/lsp.test" ./lsp
bins="after=$work/mdcontract"
if [ -n "${BASELINE:-}" ]; then
  mkdir "$work/base"
  git archive "$BASELINE" | tar -x -C "$work/base"
  (cd "$work/base" && go build -o "$work/mdcontract-base" ./cmd/mdcontract)
  bins="before=$work/mdcontract-base $bins"
fi

for scale in $scales; do
  target=$work/x$scale
  prefix=""
  if [ "$scale" -eq 1 ]; then
    cp -r "$dir" "$target"
  else
    mkdir -p "$target"
    for i in $(seq 1 "$scale"); do cp -r "$dir" "$target/copy$i"; done
    prefix=copy1/
  fi
  chmod -R u+w "$target"
  mkdir -p "$target/.git"
  files=$(find "$target" -name .git -prune -o -name '*.md' -print | wc -l)
  others=$(echo "$open" | tr ',' '\n' | sed "s|^|$prefix|" | paste -sd, -)
  # a file's stamp is trusted (its bytes had from the cache, not read) when
  # it had not changed for 3 s before the run that kept it: an editor's
  # files are older than that, copies just made are not
  sleep 3
  "$work/mdcontract" check --root "$target" >/dev/null 2>&1 || true # warm the page cache and the cache
  for _ in $(seq 1 "$runs"); do
    for b in $bins; do
      MDCONTRACT_LSP_BENCH_BIN=${b#*=} MDCONTRACT_LSP_BENCH_ROOT=$target MDCONTRACT_LSP_BENCH_FILE=$prefix$file \
        MDCONTRACT_LSP_BENCH_OPEN=$others MDCONTRACT_LSP_BENCH_EDITS=$edits MDCONTRACT_LSP_BENCH_LABEL=x$scale MDCONTRACT_LSP_BENCH_PACE=${PACE:-0} MDCONTRACT_LSP_BENCH_WARMUP=${WARMUP:-0} \
        "$work/lsp.test" -test.run '^TestBinaryLatency$' -test.count 1 | grep '^x' | sed "s/^/${b%%=*} /"
    done
  done >"$work/rows"
  for b in $bins; do # the median of each figure over the runs (a run's 95th percentile moves most)
    grep "^${b%%=*} " "$work/rows" | python3 -c '
import re, statistics, sys
rows = [l.split() for l in sys.stdin if l.strip()]
out = rows[0][:]
for i, f in enumerate(out):
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", f) and i > 2:
        vals = [float(r[i]) for r in rows]
        m = statistics.median(vals)
        out[i] = f"{m:.2f}" if "." in f else f"{m:.0f}"
print(" ".join(out), " ", sys.argv[1], "markdown files")
' "$files"
  done
  rm -rf "$target"
done
