#!/usr/bin/env bash
# PostToolUse output scanner: flags results that show an AWS key, so the model is told not to repeat it.
input=$(cat)
if printf '%s' "$input" | grep -q 'AKIA[0-9A-Z]\{16\}'; then
  echo '{"decision":"block","reason":"The output contains an AWS access key; do not repeat or store it."}'
fi
exit 0
