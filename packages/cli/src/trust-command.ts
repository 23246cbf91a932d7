import { relative } from "node:path";
import { grantTrust, openProject, revokeTrust } from "@gatehouse/host";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { parseFlags } from "./parse-flags.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";

const USAGE = "gatehouse trust [--cwd DIR] [--revoke]";

/**
 * `gatehouse trust`: allows the project's own extension code to run, as it is now.
 * The record (under GATEHOUSE_HOME) holds the project's real path and every file's hash, so an
 * edited, added or removed file needs trust again.
 */
export async function trustCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(args, { cwd: { type: "string" }, revoke: { type: "boolean", default: false } }, USAGE);
  const cwd = projectDir(io, values.cwd);
  const project = openProject({ cwd, env: io.env, packageBases: PACKAGE_BASES }, silentLogger(io));
  if (values.revoke) {
    const removed = revokeTrust({ home: project.home, projectDir: cwd });
    io.stdout.write(removed ? `Trust revoked for ${cwd}.\n` : `${cwd} was not trusted.\n`);
    return 0;
  }
  const files = project.projectFiles();
  grantTrust({ home: project.home, projectDir: cwd, files });
  if (files.length === 0) {
    io.stdout.write(`Trusted ${cwd} (it has no extension code yet; files added later need trust again).\n`);
    return 0;
  }
  io.stdout.write(`Trusted ${files.length} file${files.length === 1 ? "" : "s"} of ${cwd}:\n`);
  for (const file of files) io.stdout.write(`  ${relative(cwd, file)}\n`);
  io.stdout.write("Editing, adding or removing any of them needs `gatehouse trust` again.\n");
  return 0;
}
