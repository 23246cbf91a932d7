import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A project for bash calls, plus a private GATEHOUSE_HOME. */
export interface SandboxFixture {
  project: string;
  gatehouseHome: string;
  remove(): void;
}

/**
 * A project shaped like a small repository: `src/` with files, a `.git` with hooks and config, a
 * `.env`, and `dirs` extra directories (each with a file) to show how the per-call scan of the
 * workspace scales.
 */
export function createSandboxFixture(dirs: number): SandboxFixture {
  const project = mkdtempSync(join(tmpdir(), "gh-bench-sandbox-"));
  const gatehouseHome = mkdtempSync(join(tmpdir(), "gh-bench-sandbox-home-"));
  const put = (rel: string, content: string) => {
    mkdirSync(join(project, rel, ".."), { recursive: true });
    writeFileSync(join(project, rel), content);
  };
  for (let i = 0; i < 20; i++) put(`src/module-${i}.ts`, `export const value${i} = ${i};\n`);
  put(".git/config", "[core]\n");
  put(".git/HEAD", "ref: refs/heads/main\n");
  put(".git/hooks/pre-commit.sample", "#!/bin/sh\n");
  put(".env", "API_KEY=bench\n");
  for (let i = 0; i < dirs; i++) put(`tree/d${Math.floor(i / 50)}/e${i}/file.txt`, "x\n");
  return {
    project,
    gatehouseHome,
    remove() {
      rmSync(project, { recursive: true, force: true });
      rmSync(gatehouseHome, { recursive: true, force: true });
    },
  };
}
