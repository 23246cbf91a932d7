import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built CLI (bin/gatehouse.js runs dist/; vitest's global setup rebuilds stale packages). */
const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../../packages/cli/bin/gatehouse.js");

/** One scripted tool call. */
export interface ScriptCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/** What one call ended as, from the run's JSON events. */
export interface CallEnd {
  outcome: string;
  text: string;
}

/**
 * Runs `gatehouse run --script` in `cwd` (a project with protected-paths enabled in its settings)
 * with the given turns of calls, in a child process with `env` (HOME, GATEHOUSE_HOME, ...), started
 * through `launcher` when given.
 */
export async function runCliScript(options: {
  cwd: string;
  turns: ScriptCall[][];
  env: NodeJS.ProcessEnv;
  scriptDir: string;
  /** A program and arguments the CLI is started through (it ends by running the rest of its argv). */
  launcher?: string[];
}): Promise<{ code: number | null; ends: Map<string, CallEnd>; stderr: string }> {
  mkdirSync(path.join(options.cwd, ".gatehouse"), { recursive: true });
  writeFileSync(
    path.join(options.cwd, ".gatehouse", "settings.json"),
    JSON.stringify({ extensions: ["@gatehouse/protected-paths"] }),
  );
  const script = path.join(options.scriptDir, `script-${Date.now()}-${Math.random().toString(16).slice(2)}.json`);
  const turns = options.turns.map((calls) => ({
    content: calls.map((c) => ({ type: "toolCall", id: c.id, name: c.name, arguments: c.args })),
  }));
  writeFileSync(script, JSON.stringify({ turns: [...turns, { content: [{ type: "text", text: "done" }] }] }));
  const cli = [process.execPath, CLI, "run", "--script", script, "--cwd", options.cwd, "--json"];
  const [file = process.execPath, ...args] = [...(options.launcher ?? []), ...cli];
  const child = spawn(file, args, {
    // Without vitest's NODE_PATH (pnpm's hoisted store), which would find packages an installation cannot.
    env: { ...withoutNodePath(process.env), NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => {
    stdout += d;
  });
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  const ends = new Map<string, CallEnd>();
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as {
      type?: string;
      toolCallId?: string;
      outcome?: string;
      result?: { content?: { type: string; text?: string }[] };
    };
    if (event.type !== "tool_execution_end" || event.toolCallId === undefined) continue;
    const text = (event.result?.content ?? []).map((c) => c.text ?? "").join("\n");
    ends.set(event.toolCallId, { outcome: event.outcome ?? "", text });
  }
  return { code, ends, stderr };
}

/** The environment without NODE_PATH. */
function withoutNodePath(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_PATH: _, ...rest } = env;
  return rest;
}
