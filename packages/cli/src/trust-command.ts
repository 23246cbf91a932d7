import { realpathSync } from "node:fs";
import { relative } from "node:path";
import { grantTrust, openProject, revokeTrust } from "@gatehouse/host";
import { parseCommand } from "./help/parse-command.ts";
import type { CliIo } from "./io.ts";
import { PACKAGE_BASES } from "./package-bases.ts";
import { projectDir, silentLogger } from "./run-command-support.ts";
import { trustSpec } from "./specs/index.ts";

/**
 * `gatehouse trust`: allows the project's own extension code to run, as it is now.
 * The record (under GATEHOUSE_HOME) holds, per enabled project extension, the hash of every project
 * file it loads (its import graph), so editing any of them, or importing another project file,
 * needs trust again, while unrelated files do not matter.
 */
export async function trustCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommand(trustSpec, args);
  const cwd = projectDir(io, values.cwd);
  const project = openProject({ cwd, env: io.env, packageBases: PACKAGE_BASES }, silentLogger(io));
  try {
    if (values.revoke) {
      const removed = revokeTrust({ home: project.home, projectDir: cwd });
      io.stdout.write(removed ? `Trust revoked for ${cwd}.\n` : `${cwd} was not trusted.\n`);
      return 0;
    }
    const code = project.projectCode();
    grantTrust({
      home: project.home,
      projectDir: cwd,
      extensions: code.map((c) => ({ key: c.key, files: c.graph.files })),
    });
    if (code.length === 0) {
      io.stdout.write(`Trusted ${cwd} (it has no extension code yet; extensions added later need trust again).\n`);
      return 0;
    }
    io.stdout.write(`Trusted ${code.length} extension${code.length === 1 ? "" : "s"} of ${cwd}:\n`);
    for (const c of code) {
      io.stdout.write(`  ${c.key}\n`);
      for (const file of c.graph.files.slice(1)) io.stdout.write(`    imports ${relative(realpathSync(cwd), file)}\n`);
      for (const link of c.graph.links) io.stdout.write(`    links out: ${link}\n`);
      for (const problem of c.graph.problems) io.stdout.write(`    ! ${problem}\n`);
    }
    io.stdout.write("Editing any of these files, or importing another project file, needs `gatehouse trust` again.\n");
    return 0;
  } finally {
    project.close();
  }
}
