#!/usr/bin/env bash
# Times the built mdcontract on each generated worst case (internal/worstcase)
# at one size, the whole command as a user runs it, and prints wall time and
# peak memory per case, slowest last, flagging cases over the budget.
#
#   scripts/worst.sh [SIZE] [BUDGET_SECONDS]     (default: 4M, 0.5)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-4M}
budget=${2:-0.5}
command -v /usr/bin/time >/dev/null || { echo "worst: needs GNU time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/mdcontract" ./cmd/mdcontract
go run -tags floor ./cmd/mdworst "$work/cases" "$size"
: >"$work/rows"
for dir in "$work"/cases/*/; do
  name=$(basename "$dir")
  /usr/bin/time -f "%e %M" -o "$work/t" "$work/mdcontract" check --root "$dir" >/dev/null 2>&1 || true
  echo "$name $(tail -n 1 "$work/t")" >>"$work/rows"
done
sort -k2 -n "$work/rows" | awk -v b="$budget" '
  { flag = ($2 > b) ? "  OVER" : ""; if ($2 > b) over++
    printf "%-28s %6.2f s %7.1f MiB%s\n", $1, $2, $3/1024, flag }
  END { printf "%d cases, %d over %s s\n", NR, over, b; exit over > 0 }'
