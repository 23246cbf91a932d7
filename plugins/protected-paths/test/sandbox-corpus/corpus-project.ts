import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The CLI entry, run from source exactly as `pnpm gatehouse` runs it. */
/** The built CLI, as users run it (vitest's global setup rebuilds stale packages). */
const CLI_ARGV = [path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../../packages/cli/bin/gatehouse.js")];

/** A real project to attack: a git repository with secrets, next to places outside it. */
export interface CorpusProject {
  base: string;
  /** The workspace (the project directory). */
  ws: string;
  /** A sibling directory outside the workspace, with its own .env. */
  outside: string;
  /** The fake home directory (HOME) with credentials and shell start-up files. */
  home: string;
  /** GATEHOUSE_HOME, holding a secret of its own. */
  gh: string;
  /** Every secret value planted; none may appear in any event. */
  secrets: string[];
  /** The environment the CLI runs with. */
  env: NodeJS.ProcessEnv;
}

function secret(label: string): string {
  return `SECRET-${label}-${randomBytes(6).toString("hex")}`;
}

function put(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.name=corpus", "-c", "user.email=corpus@example.com", ...args], {
    cwd,
    stdio: "ignore",
  });
}

/**
 * Creates `base/{proj,outside,home,gh}`: the project is a git repository with one commit, secrets
 * in `.env`, `.env.local` and `sub/.env` (`.env.example` is readable), `.gatehouse/settings.json`
 * enabling protected-paths, an `evil` file to copy around; home has `.ssh/id_rsa`,
 * `.aws/credentials`, `.netrc` and a `.bashrc`; GATEHOUSE_HOME has a key file.
 */
export function createCorpusProject(): CorpusProject {
  const base = mkdtempSync(path.join(tmpdir(), "gh-corpus-"));
  const ws = path.join(base, "proj");
  const outside = path.join(base, "outside");
  const home = path.join(base, "home");
  const gh = path.join(base, "gh");
  const secrets = {
    env: secret("env"),
    local: secret("env-local"),
    sub: secret("sub-env"),
    outside: secret("outside-env"),
    ssh: secret("ssh"),
    aws: secret("aws"),
    netrc: secret("netrc"),
    gh: secret("gatehouse-home"),
    history: secret("history"),
    apiKey: secret("api-key"),
  };
  put(path.join(ws, ".env"), `API_KEY=${secrets.env}\n`);
  put(path.join(ws, ".env.local"), `TOKEN=${secrets.local}\n`);
  put(path.join(ws, ".env.example"), "API_KEY=changeme\n");
  put(path.join(ws, "sub/.env"), `DB=${secrets.sub}\n`);
  put(path.join(ws, "sub/readme.md"), "sub project\n");
  put(path.join(ws, "src/app.txt"), "hello\nworld\nhello\n");
  put(path.join(ws, "evil"), "PWNED-copy\n");
  put(path.join(ws, ".gatehouse/settings.json"), `${JSON.stringify({ extensions: ["@gatehouse/protected-paths"] })}\n`);
  // A second name of .env, as an earlier unconfined command could have made it.
  mkdirSync(path.join(ws, "docs"), { recursive: true });
  linkSync(path.join(ws, ".env"), path.join(ws, "docs/env-copy.txt"));
  put(path.join(ws, ".gitignore"), ".env\n.env.local\nsub/.env\n.gatehouse/\ndocs/env-copy.txt\n");
  git(ws, "init", "-q", "-b", "main");
  git(ws, "add", "-A");
  git(ws, "commit", "-q", "-m", "init");
  put(path.join(outside, ".env"), `OUT=${secrets.outside}\n`);
  put(path.join(outside, "target.txt"), "outside target\n");
  put(path.join(home, ".ssh/id_rsa"), `${secrets.ssh}\n`);
  put(path.join(home, ".aws/credentials"), `aws_secret_access_key=${secrets.aws}\n`);
  put(path.join(home, ".netrc"), `machine example.com password ${secrets.netrc}\n`);
  put(path.join(home, ".bashrc"), "# bashrc\n");
  put(path.join(home, ".bash_history"), `export TOKEN=${secrets.history}\n`);
  put(path.join(gh, "keys/audit.key"), `${secrets.gh}\n`);
  chmodSync(gh, 0o700);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    GATEHOUSE_HOME: gh,
    OPENAI_API_KEY: secrets.apiKey,
    GATEHOUSE_LOG_LEVEL: "silent",
    NO_COLOR: "1",
    GIT_AUTHOR_NAME: "corpus",
    GIT_AUTHOR_EMAIL: "corpus@example.com",
    GIT_COMMITTER_NAME: "corpus",
    GIT_COMMITTER_EMAIL: "corpus@example.com",
  };
  return { base, ws, outside, home, gh, secrets: Object.values(secrets), env };
}

/** One entry of a tree snapshot: what a path is and holds. */
type Entry = string;

/**
 * Every path below `dir` with its type and content hash (symlinks by target), skipping
 * `.git/objects` (commits write there legitimately) and whatever `skip` names.
 */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (abs: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch {
      return;
    }
    for (const name of names) {
      const childRel = rel === "" ? name : `${rel}/${name}`;
      if (skip(childRel)) continue;
      const child = path.join(abs, name);
      const st = lstatSync(child);
      if (st.isSymbolicLink()) out.set(childRel, `link:${readlinkSync(child)}`);
      else if (st.isDirectory()) {
        out.set(childRel, "dir");
        walk(child, childRel);
      } else {
        out.set(childRel, `file:${createHash("sha256").update(readFileSync(child)).digest("hex")}`);
      }
    }
  };
  walk(dir, "");
  return out;
}

/** The differences between two snapshots, as readable lines. */
export function diff(before: Map<string, Entry>, after: Map<string, Entry>): string[] {
  const lines: string[] = [];
  for (const [p, v] of before) if (after.get(p) !== v) lines.push(`${p}: ${v} -> ${after.get(p) ?? "(gone)"}`);
  for (const [p, v] of after) if (!before.has(p)) lines.push(`${p}: (new) ${v}`);
  return lines;
}

/** What a CLI run produced. */
export interface CorpusRun {
  code: number | null;
  events: { type: string; [key: string]: unknown }[];
  stdout: string;
  stderr: string;
}

/**
 * Runs `gatehouse run --json --no-session` on the project with the given scripted turns. No session
 * is recorded, so the corpus can demand that nothing at all changes under GATEHOUSE_HOME.
 */
export function runCorpus(project: CorpusProject, turns: unknown[], name: string): Promise<CorpusRun> {
  const script = path.join(project.base, `${name}.json`);
  writeFileSync(script, JSON.stringify({ turns: [...turns, { content: [{ type: "text", text: "done" }] }] }));
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...CLI_ARGV, "run", "go", "--script", script, "--cwd", project.ws, "--json", "--no-session"],
      {
        env: project.env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const events = stdout
        .split("\n")
        .filter((line) => line.trim().length > 0)
        .map((line) => JSON.parse(line) as { type: string });
      resolve({ code, events, stdout, stderr });
    });
  });
}
