#!/usr/bin/env bash
# The ecosystem check, as ruff's and mypy_primer's: mdcontract at zero config
# on every corpus in ../shared/corpus, against the reviewed findings in
# testdata/ecosystem/<corpus>.txt.
#
#   scripts/ecosystem.sh            compare; list every new and every gone finding
#   scripts/ecosystem.sh -update    record the current findings (keeping the
#                                   reasons of those that remain), then show
#                                   the difference with git diff for review
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "-update" ]; then
  go test ./cmd/mdcontract -run '^TestEcosystem$' -count=1 -update-ecosystem
  git --no-pager diff --stat -- testdata/ecosystem
  git --no-pager diff -U0 -- testdata/ecosystem | grep -E '^[-+][^-+]' || echo "ecosystem: no change"
else
  go test ./cmd/mdcontract -run '^TestEcosystem$' -count=1 -v | grep -E 'new finding|finding gone|^(ok|FAIL|---)' || true
fi
