#!/usr/bin/env node
// PreToolUse rewriter: every test run gets a time limit (updatedInput).
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const { tool_input: input } = JSON.parse(raw);
if (/^npm test\b/.test(input.command ?? "")) {
  const updatedInput = { ...input, command: `timeout 60 ${input.command}` };
  process.stdout.write(
    JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput } }),
  );
}
