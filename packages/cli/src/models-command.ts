import { listConfiguredProviders, openProject } from "@gatehouse/host";
import { parseCommand } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";
import { modelsSpec } from "./specs/index.ts";

/**
 * `gatehouse models`: which providers are configured (a key in the environment, a base URL) and
 * the project's default model. Never prints a key.
 */
export async function modelsCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(modelsSpec, args);
  const providers = listConfiguredProviders(io.env);
  const settings = openProject(
    { cwd: projectDir(io, values.cwd), env: io.env, packageBases: PACKAGE_BASES },
    silentLogger(io),
  ).settings.model;
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ default: settings.model ?? null, providers }, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(
    `default model: ${settings.model ?? "none (pass --model provider:model, or set model.model in the settings)"}\n`,
  );
  for (const p of providers) {
    const key = p.hasKey ? `${p.keyEnv} set` : `${p.keyEnv} not set`;
    const base = p.baseURL ? ` · base URL ${p.baseURL}` : "";
    io.stdout.write(`${p.ready ? "✓" : "✗"} ${p.provider.padEnd(18)} ${key}${base}\n`);
  }
  io.stdout.write(
    'use: gatehouse run "…" --model openai:gpt-4.1 | anthropic:<model> | openai-compatible:<model> --base-url http://localhost:11434/v1\n',
  );
  return 0;
}
