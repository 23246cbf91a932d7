#!/usr/bin/env python3
"""PreToolUse secrets scanner for Write and Edit: refuses content that holds credentials."""
import json
import re
import sys

PATTERNS = {
    "AWS access key": r"AKIA[0-9A-Z]{16}",
    "GitHub token": r"gh[pousr]_[A-Za-z0-9]{36,}",
    "private key": r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
}

data = json.load(sys.stdin)
tool_input = data.get("tool_input", {})
text = tool_input.get("content") or tool_input.get("new_string") or ""
for name, pattern in PATTERNS.items():
    if re.search(pattern, text):
        print(f"Refusing to write a {name} into {tool_input.get('file_path')}", file=sys.stderr)
        sys.exit(2)
sys.exit(0)
