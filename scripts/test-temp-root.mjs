// Vitest's global setup: every temporary file and folder the tests make (mkdtemp in tmpdir(), and
// whatever the CLI and sandbox children they start make there) goes into one folder per test run,
// removed when the run ends. Tests clean up after themselves where they can; this catches the rest
// (a failed test, a child killed mid-write), so a machine that runs the suite often does not fill /tmp.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup() {
  // Each vitest project runs the global setup: the first one makes the folder, the others keep it.
  if (process.env.GATEHOUSE_TEST_TEMP_ROOT) return undefined;
  const root = mkdtempSync(join(tmpdir(), "gh-vitest-"));
  const previous = process.env.TMPDIR;
  // The workers (and every child they start) inherit it: os.tmpdir() reads TMPDIR on each call.
  process.env.TMPDIR = root;
  process.env.GATEHOUSE_TEST_TEMP_ROOT = root;
  return () => {
    delete process.env.GATEHOUSE_TEST_TEMP_ROOT;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    try {
      rmSync(root, { recursive: true, force: true, maxRetries: 2 });
    } catch (error) {
      // A folder a test made unreadable (chmod 000) as a user who is not root: say so, fail nothing.
      process.stderr.write(`note: could not remove the tests' temporary folder ${root}: ${error.message}\n`);
    }
  };
}
