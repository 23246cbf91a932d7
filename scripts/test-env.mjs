// Vitest's global setup (after test-temp-root.mjs): the tests run in an environment of their own,
// not the developer's. What a developer's shell or home holds — a user-level ~/.gatehouse with
// settings or extensions, GATEHOUSE_LOG_LEVEL=debug, GATEHOUSE_MANAGED_SETTINGS, a provider's API
// key, CLAUDE_PROJECT_DIR, FORCE_COLOR — changes what Gatehouse does, so a test that reads it
// passes on one machine and fails on the next. The workers and every child they start inherit this
// environment: HOME is a fresh folder in the run's temporary root (with a git identity, so tests
// that commit need nobody's ~/.gitconfig), and the variables Gatehouse or the agents read are unset.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Variables some code under test reads; a test that needs one sets it on the host or child it starts. */
const READ_BY_GATEHOUSE = [
  "XDG_CONFIG_HOME",
  "USERPROFILE",
  "CLAUDE_PROJECT_DIR",
  "CLAUDE_CONFIG_DIR",
  "CODEX_HOME",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OPENAI_COMPATIBLE_API_KEY",
  "OPENAI_COMPATIBLE_BASE_URL",
  "NO_COLOR",
  "FORCE_COLOR",
  "NODE_DISABLE_COLORS",
  "CDPATH",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
];

/** Whether `name` is a variable of Gatehouse's own that configures it (GATEHOUSE_TEST_* configure the tests). */
const isGatehouseSetting = (name) => name.startsWith("GATEHOUSE_") && !name.startsWith("GATEHOUSE_TEST_");

export default function setup() {
  const root = process.env.GATEHOUSE_TEST_TEMP_ROOT;
  if (!root || process.env.GATEHOUSE_TEST_HOME) return undefined;
  const saved = {};
  for (const name of Object.keys(process.env)) {
    if (isGatehouseSetting(name) || READ_BY_GATEHOUSE.includes(name)) {
      saved[name] = process.env[name];
      delete process.env[name];
    }
  }
  const home = join(root, "home");
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Gatehouse Tests\n\temail = tests@gatehouse.invalid\n");
  saved.HOME = process.env.HOME;
  process.env.HOME = home;
  process.env.GATEHOUSE_TEST_HOME = home;
  return () => {
    delete process.env.GATEHOUSE_TEST_HOME;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
