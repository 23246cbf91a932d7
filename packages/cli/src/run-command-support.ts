import { statSync } from "node:fs";
import { resolve } from "node:path";
import { createHost, createScriptedModel, GatehouseError, type Host, stderrLogger } from "@gatehouse/host";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { enclosingProject } from "./project-root.ts";

/** pino's levels, the values GATEHOUSE_LOG_LEVEL may take. */
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/**
 * Logs to stderr at GATEHOUSE_LOG_LEVEL, silent by default (the CLI reports problems itself).
 * Contract: an empty variable counts as unset and case does not matter; any other value throws
 * GatehouseError `GH_USAGE` naming the variable (exit 2), never pino's stack trace.
 */
export function silentLogger(io: CliIo, fallback = "silent") {
  const given = io.env.GATEHOUSE_LOG_LEVEL?.trim();
  if (!given) return stderrLogger({ level: fallback });
  const level = given.toLowerCase();
  if (!LOG_LEVELS.includes(level)) {
    throw new GatehouseError(
      "GH_USAGE",
      `GATEHOUSE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not ${JSON.stringify(io.env.GATEHOUSE_LOG_LEVEL)}`,
    );
  }
  return stderrLogger({ level });
}

/**
 * The project a command works on: --cwd resolved against the user's directory (checked to be a
 * directory), or without it the project the user's directory belongs to (`enclosingProject`: a
 * subdirectory of a project is that project, as in git).
 */
export function projectDir(io: CliIo, flag: string | undefined): string {
  if (flag === undefined) return enclosingProject(io.cwd, io.env);
  const dir = resolve(io.cwd, flag);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new GatehouseError("GH_USAGE", `--cwd ${dir}: no such directory`);
  }
  if (!isDir) throw new GatehouseError("GH_USAGE", `--cwd ${dir}: not a directory`);
  return dir;
}

/**
 * A host for the inspecting commands (tools, extensions, policy check): the project's settings
 * and extensions loaded as a run would load them, with a model that is never asked. A required
 * guard that fails is reported in its records (the command decides its exit code), not thrown.
 */
export async function inspectionHost(io: CliIo, cwd: string, trust: boolean): Promise<Host> {
  return createHost({
    cwd,
    model: createScriptedModel({ turns: [] }),
    discover: true,
    packageBases: PACKAGE_BASES,
    trust,
    inspect: true,
    env: io.env,
    logger: silentLogger(io),
  });
}
