import { resolve } from "node:path";
import {
  createScriptedModel,
  loadScript,
  type Model,
  type ModelSettings,
  openProject,
  resolveProviderOptions,
} from "@gatehouse/host";
import { usageError } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { silentLogger } from "./run-command-support.ts";
import { runSpec } from "./specs/index.ts";
import { readStdinScript } from "./stdin-script.ts";

/** The model a run uses and the prompt it starts from. */
export interface ChosenModel {
  model: Model;
  prompt: string;
}

/**
 * Picks the model of `gatehouse run`: the scripted model for --script, else a provider model from
 * --model (or the settings' `model.model`), keys from the environment. `--script -` reads the
 * script from standard input.
 * Why a dynamic import: the provider adapters load the AI SDK, which a scripted run never needs.
 */
export async function chooseModel(
  io: CliIo,
  cwd: string,
  flags: { script?: string | undefined; model?: string | undefined; "base-url"?: string | undefined },
  positionals: string[],
): Promise<ChosenModel> {
  const typed = positionals.join(" ");
  if (flags.script && flags.model) throw usageError(runSpec, "pass --script or --model, not both");
  if (flags.script) {
    const script = flags.script === "-" ? await readStdinScript(io) : await loadScript(resolve(io.cwd, flags.script));
    return { model: createScriptedModel(script), prompt: typed || script.prompt || "Run the script." };
  }
  const settings = openProject({ cwd, env: io.env, packageBases: PACKAGE_BASES }, silentLogger(io)).settings.model;
  const spec = flags.model ?? settings.model;
  if (!spec) {
    throw usageError(
      runSpec,
      'a model is needed: --script FILE (offline, scripted) or --model provider:model (e.g. openai:gpt-4.1), or "model": { "model": … } in the settings',
    );
  }
  if (!typed)
    throw usageError(
      runSpec,
      `a prompt is needed with --model, e.g. gatehouse run "fix the failing test" --model ${spec}`,
    );
  // The settings schema has the same fields as ModelSettings; zod types absent keys as `| undefined`.
  const options = resolveProviderOptions({
    spec,
    baseURL: flags["base-url"],
    env: io.env,
    settings: settings as ModelSettings,
  });
  const { createProviderModel } = await import("@gatehouse/host/providers");
  return { model: createProviderModel(options), prompt: typed };
}
