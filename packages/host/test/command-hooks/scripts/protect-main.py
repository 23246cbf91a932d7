#!/usr/bin/env python3
"""PreToolUse: no commits or pushes straight to main; answers with Claude Code's JSON decision."""
import json
import re
import sys

data = json.load(sys.stdin)
if data.get("tool_name") != "Bash":
    sys.exit(0)
command = data.get("tool_input", {}).get("command", "")
if re.search(r"\bgit\s+push\b.*\bmain\b", command):
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Pushing to main is not allowed; open a pull request.",
        }
    }))
sys.exit(0)
