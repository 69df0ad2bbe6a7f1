#!/usr/bin/env bash
# The hook's answer time, as a host sees it: a fresh `mdcontract hook`
# process per event, the model cache warm (the event before filled it).
# For a folder (default: the agent-orchestra corpus) copied 1 and 20
# times (as scripts/scale.sh copies it), the median wall time, CPU time
# and peak memory of:
#   edit      PostToolUse after an Edit of one agent file (its content
#             changed: the --changed check of the whole repo, the other
#             files' models from the cache)
#   clean     PostToolUse after an Edit of a file mdcontract does not check
#   dispatch  PreToolUse of the Agent tool dispatching code-critic without
#             the handshake (denied)
#   stop      SubagentStop with a message quoting no template
#
#   scripts/hookbench.sh [DIR] [RUNS]    (default: ../shared/corpus/agent-orchestra, 9)
#   SCALES="1 20" scripts/hookbench.sh
#
# The binary is built with a release version: a development build keys its
# cache by the SHA-256 of its own file, read on every run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-../shared/corpus/agent-orchestra}
runs=${2:-9}
scales=${SCALES:-1 20}
[ -d "$dir" ] || { echo "hookbench: no folder $dir" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "hookbench: needs GNU time (apt-get install time)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -ldflags "-X main.version=0.0.0-hookbench" -o "$work/mdcontract" ./cmd/mdcontract
export MDCONTRACT_CACHE_DIR=$work/cache

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $runs runs each, medians"
printf '%-6s %-9s %8s %8s %8s\n' copies event wall-ms cpu-ms peak-MB
for scale in $scales; do
  target=$work/x$scale
  mkdir -p "$target/.git"
  for i in $(seq 1 "$scale"); do
    cp -r "$dir" "$target/copy$i"
  done
  chmod -R u+w "$target"
  agent=$target/copy1/agents/code-critic.md
  [ -f "$agent" ] || agent=$(find "$target/copy1" -name '*.md' | sort | sed -n 1p)
  printf '{"session_id":"b","transcript_path":"/nonexistent.jsonl","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"%s","old_string":"a","new_string":"b"},"tool_response":{},"tool_use_id":"t"}' "$target" "$agent" >"$work/edit.json"
  printf '{"session_id":"b","transcript_path":"/nonexistent.jsonl","cwd":"%s","hook_event_name":"PostToolUse","tool_name":"Write","tool_input":{"file_path":"%s/copy1/main.go","content":"x"},"tool_response":{},"tool_use_id":"t"}' "$target" "$target" >"$work/clean.json"
  printf '{"session_id":"b","transcript_path":"/nonexistent.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Agent","tool_input":{"description":"r","prompt":"Review the diff.","subagent_type":"code-critic"},"tool_use_id":"t"}' "$target" >"$work/dispatch.json"
  printf '{"session_id":"b","transcript_path":"/nonexistent.jsonl","cwd":"%s","hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"a","agent_type":"code-critic","agent_transcript_path":"/nonexistent.jsonl","last_assistant_message":"# Review\\n\\nNo findings."}' "$target" >"$work/stop.json"
  "$work/mdcontract" hook <"$work/edit.json" >/dev/null 2>&1 # fills the cache
  : >"$work/samples"
  for _ in $(seq 1 "$runs"); do
    printf '\nEdited for the benchmark.\n' >>"$agent"
    for event in edit clean dispatch stop; do
      /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$work/mdcontract" hook <"$work/$event.json" >/dev/null 2>&1 || true
      echo "$event $(tail -n 1 "$work/t")" >>"$work/samples"
    done
  done
  for event in edit clean dispatch stop; do
    awk -v e="$event" -v s="$scale" '$1 == e { w[n] = $2 * 1000; c[n] = ($3 + $4) * 1000; m[n] = $5 / 1024; n++ }
      function med(a,   i, j, t) { for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }; return a[int(n / 2)] }
      END { printf "%-6s %-9s %8.0f %8.0f %8.0f\n", s, e, med(w), med(c), med(m) }' "$work/samples"
  done
  rm -rf "$target"
done
