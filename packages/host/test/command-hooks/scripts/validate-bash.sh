#!/usr/bin/env bash
# PreToolUse command validator, the way teams write them: jq for the field, grep for the rules,
# exit 2 with the reason on stderr to block.
set -euo pipefail
input=$(cat)
command=$(printf '%s' "$input" | jq -r '.tool_input.command // empty')
if printf '%s' "$command" | grep -Eq 'rm[[:space:]]+-[a-zA-Z]*r[a-zA-Z]*f|rm[[:space:]]+-[a-zA-Z]*f[a-zA-Z]*r'; then
  echo "Blocked: recursive force delete ('$command'). Delete specific files instead." >&2
  exit 2
fi
if printf '%s' "$command" | grep -Eq 'git[[:space:]]+push.*(--force|-f)'; then
  echo "Blocked: force push is not allowed" >&2
  exit 2
fi
exit 0
