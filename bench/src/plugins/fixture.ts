import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The file every call reads, relative to the project, so protected-paths resolves a real path. */
export const READ_PATH = join("src", "notes.md");

/** A temp project holding the file the calls read, and a separate temp folder for audit files. */
export interface PluginFixture {
  project: string;
  /** The exact text of `READ_PATH`, what every successful read must return. */
  content: string;
  /** A fresh audit file path (not created); each trial writes its own. */
  nextAuditFile(): string;
  /** The Gatehouse home of the trials (audit key and seals), never the user's own. */
  home: string;
  /** Removes the project and every audit file. */
  remove(): void;
}

/** Creates the project (a small text file under `src/`) and the audit folder. */
export function createPluginFixture(): PluginFixture {
  const project = mkdtempSync(join(tmpdir(), "gh-bench-plugins-"));
  const auditDir = mkdtempSync(join(tmpdir(), "gh-bench-audit-"));
  const home = mkdtempSync(join(tmpdir(), "gh-bench-home-"));
  mkdirSync(join(project, "src"));
  const content = Array.from({ length: 20 }, (_, i) => `line ${i + 1}: a short line of project notes`).join("\n");
  writeFileSync(join(project, READ_PATH), `${content}\n`);
  let n = 0;
  return {
    project,
    content,
    nextAuditFile: () => join(auditDir, `audit-${n++}.jsonl`),
    home,
    remove() {
      rmSync(project, { recursive: true, force: true });
      rmSync(auditDir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    },
  };
}
