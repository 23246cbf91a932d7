#!/usr/bin/env node
// PostToolUse formatter: after Write/Edit of a JSON file, pretty-print it in place and tell the model.
import { readFileSync, writeFileSync } from "node:fs";

let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const event = JSON.parse(raw);
const file = event.tool_input?.file_path;
if (!file?.endsWith(".json")) process.exit(0);
const text = readFileSync(file, "utf8");
const formatted = `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
if (formatted !== text) {
  writeFileSync(file, formatted);
  console.log(
    JSON.stringify({
      hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: `Formatted ${file} (2-space JSON).` },
    }),
  );
}
