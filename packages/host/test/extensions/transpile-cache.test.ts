import { createHmac } from "node:crypto";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, writeScript } from "../../../cli/test/cli/cli-helpers.ts";
import { loadModule } from "../../src/extensions/module-loader.ts";
import { tempDir } from "../helpers/scenario.ts";
import { makeProject } from "./project.ts";

const isRoot = (process.getuid?.() ?? 0) === 0;

/** A module in a fresh folder, and a fresh Gatehouse home. */
function moduleAndHome(body: string) {
  const dir = tempDir("gh-cache-mod-");
  const file = join(dir, "mod.ts");
  writeFileSync(file, body);
  return { dir, file, home: join(tempDir("gh-cache-home-"), ".gatehouse") };
}

/** The cache entries holding `marker` in their code. */
function entriesWith(home: string, marker: string): string[] {
  const dir = join(home, "cache", "transpile");
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((file) => readFileSync(file, "utf8").includes(marker));
}

describe("the transpile cache lives in the private Gatehouse home and is MAC-ed", () => {
  it("is created under GATEHOUSE_HOME with mode 0700 and a 0600 per-user key", async () => {
    const { file, home } = moduleAndHome('export default "clean";');
    expect(await loadModule(file, { home })).toEqual({ ok: true, exported: "clean" });
    for (const dir of [home, join(home, "cache"), join(home, "cache", "transpile")]) {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
    expect(statSync(join(home, "cache", "transpile.key")).mode & 0o777).toBe(0o600);
    expect(entriesWith(home, "clean")).toHaveLength(1);
  });

  it("a poisoned cache entry is never executed: its MAC fails, the source is transpiled again", async () => {
    const { dir, file, home } = moduleAndHome('export default "clean";');
    await loadModule(file, { home });
    const [entry] = entriesWith(home, "clean") as [string];
    const text = readFileSync(entry, "utf8");
    writeFileSync(entry, text.replace('"clean"', '"poisoned"'));
    expect(await loadModule(file, { home, fresh: true, root: dir })).toEqual({ ok: true, exported: "clean" });
    expect(readFileSync(entry, "utf8")).toBe(text);
  });

  it("an entry MAC-ed with another user's key is not used", async () => {
    const { dir, file, home } = moduleAndHome('export default "clean";');
    const other = join(tempDir("gh-cache-home-"), ".gatehouse");
    await loadModule(file, { home });
    await loadModule(file, { home: other, fresh: true, root: dir });
    const [entry] = entriesWith(home, "clean") as [string];
    const name = entry.split("/").at(-1)?.replace(/\.js$/, "") as string;
    const code = readFileSync(entry, "utf8").split("\n").slice(1).join("\n").replace('"clean"', '"poisoned"');
    const foreignKey = readFileSync(join(other, "cache", "transpile.key"));
    const mac = createHmac("sha256", foreignKey).update(name).update("\0").update(code).digest("hex");
    writeFileSync(entry, `${mac}\n${code}`);
    expect(await loadModule(file, { home, fresh: true, root: dir })).toEqual({ ok: true, exported: "clean" });
  });

  it("a symlinked cache folder, or a key that is a link, is refused with a clear error", async () => {
    const { file, home } = moduleAndHome('export default "clean";');
    mkdirSync(join(home, "cache"), { recursive: true, mode: 0o700 });
    const elsewhere = tempDir("gh-shared-");
    chmodSync(elsewhere, 0o777);
    symlinkSync(elsewhere, join(home, "cache", "transpile"));
    const linked = await loadModule(file, { home });
    expect((linked as { error?: string }).error).toMatch(/transpile is a symbolic link/);

    rmSync(join(home, "cache", "transpile"));
    symlinkSync(join(elsewhere, "key"), join(home, "cache", "transpile.key"));
    const key = await loadModule(file, { home });
    expect((key as { error?: string }).error).toMatch(/transpile\.key is a symbolic link/);
  });

  it("a cache folder another user owns (planted before the user's first run) is refused", async () => {
    const { file, home } = moduleAndHome('export default "clean";');
    // As root, plant the folder by giving it away; as anyone else, "/" is such a folder already.
    let planted = "/";
    if (isRoot) {
      planted = home;
      mkdirSync(join(home, "cache"), { recursive: true, mode: 0o700 });
      chownSync(join(home, "cache"), 4242, 4242);
    }
    const result = await loadModule(file, { home: planted });
    expect((result as { error?: string }).error).toMatch(/is owned by uid \d+, not by you/);
  });
});

describe("the CLI keeps its cache out of shared temporary directories", () => {
  it("a run writes nothing under TMPDIR; a poisoned entry of the extension cache does not run", async () => {
    const p = makeProject({
      ".gatehouse/extensions/hello.ts": `import { defineExtension } from "@gatehouse/sdk";
export default defineExtension({ name: "hello", setup(api) { api.on("agent_start", () => {}); } });`,
    });
    const tmp = tempDir("gh-tmpdir-");
    const script = writeScript(p.dir, [{ content: [{ type: "text", text: "hi" }] }]);
    const env = { ...p.env, TMPDIR: tmp };
    const first = await runCli(["run", "--cwd", p.dir, "--script", script, "--json", "--trust"], { env });
    expect(first.code).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
    const cache = join(p.home, "cache", "transpile");
    const entries = readdirSync(cache);
    expect(entries.length).toBeGreaterThan(0);
    for (const name of entries) {
      const file = join(cache, name);
      writeFileSync(file, `${readFileSync(file, "utf8")}\n;process.exit(42);`);
    }
    const second = await runCli(["run", "--cwd", p.dir, "--script", script, "--json", "--trust"], { env });
    expect(second.code).toBe(0);
    expect(
      readdirSync(cache).every((name) => !readFileSync(join(cache, name), "utf8").includes("process.exit(42)")),
    ).toBe(true);
  });

  it("a GATEHOUSE_HOME another user owns (planted in a shared directory) is refused: exit 2, nothing runs", async () => {
    const p = makeProject({
      ".gatehouse/settings.json": JSON.stringify({ extensions: ["@gatehouse/protected-paths"] }),
    });
    // As root, plant the home by giving it away; as anyone else, "/" is such a folder already.
    let planted = "/";
    if (isRoot) {
      planted = join(tempDir("gh-shared-"), "home");
      mkdirSync(planted, { mode: 0o700 });
      chownSync(planted, 4242, 4242);
    }
    const script = writeScript(p.dir, [{ content: [{ type: "toolCall", id: "A", name: "ls", arguments: {} }] }]);
    const run = await runCli(["run", "--cwd", p.dir, "--script", script, "--json"], {
      env: { ...p.env, GATEHOUSE_HOME: planted },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/is owned by uid \d+, not by you/);
    expect(run.stdout).toBe("");
  });
});
