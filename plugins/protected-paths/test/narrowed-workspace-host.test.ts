import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ToolExecutionEndEvent } from "@gatehouse/sdk";
import { createTestHost, type TestHost } from "@gatehouse/testing";
import { afterEach, describe, expect, it } from "vitest";

// The finding this guards against: managed settings deny `./secrets/**`; a project's settings
// narrow `workspace` to `sub`; `./` rules used to be anchored at the (narrowed) roots only, so the
// project's `secrets/key` — now outside the workspace, where reads are allowed — was readable.
// Real settings levels (a managed file, the project's settings), the real tools, bash in the
// bubblewrap sandbox. The trees live outside the system's temp directory: the sandbox has a private
// /tmp, so a project there would hide what a narrowed workspace leaves outside it, masked or not.

const SCRATCH = path.resolve(import.meta.dirname, "../../../.cache");
const PP = "@gatehouse/protected-paths";
const created: string[] = [];
const hosts: TestHost[] = [];

afterEach(async () => {
  for (const t of hosts.splice(0)) await t.close();
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function put(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/** `base/proj` with `secrets/key`, `.env`, `sub/`; `base/vault/key` next to it; unique secrets. */
function tree() {
  mkdirSync(SCRATCH, { recursive: true });
  const base = realpathSync(mkdtempSync(path.join(SCRATCH, "gh-narrow-")));
  created.push(base);
  const ws = path.join(base, "proj");
  const secrets = { key: "SECRET-KEY-41d2", env: "SECRET-ENV-9a7c", vault: "SECRET-VAULT-3e08" };
  put(path.join(ws, "secrets/key"), `${secrets.key}\n`);
  put(path.join(ws, ".env"), `TOKEN=${secrets.env}\n`);
  put(path.join(ws, "sub/a.txt"), "a\n");
  put(path.join(ws, "src/app.txt"), "app\n");
  put(path.join(base, "vault/key"), `${secrets.vault}\n`);
  return { base, ws, secrets };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({
  type: "toolCall" as const,
  id,
  name,
  arguments: args,
});

async function run(
  t: { base: string; ws: string },
  managed: Record<string, unknown>,
  project: Record<string, unknown> | undefined,
  calls: ReturnType<typeof call>[],
) {
  const managedFile = path.join(t.base, "managed.json");
  writeFileSync(managedFile, JSON.stringify({ extensions: [PP], config: { "protected-paths": managed } }));
  const host = await createTestHost({
    cwd: t.ws,
    settings: { extensions: [PP], ...(project ? { config: { "protected-paths": project } } : {}) },
    env: { GATEHOUSE_MANAGED_SETTINGS: managedFile },
    turns: [{ content: calls }, { content: [{ type: "text", text: "done" }] }],
  });
  hosts.push(host);
  await host.run("go");
  const ends = new Map(
    host.events
      .filter((e): e is ToolExecutionEndEvent => e.type === "tool_execution_end")
      .map((e) => [e.toolCallId, e] as const),
  );
  return { ends, all: JSON.stringify(host.events) };
}

const text = (end: ToolExecutionEndEvent | undefined) =>
  (end?.result.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

const SECRETS_RULE = { denyRead: ["./secrets/**"], denyWrite: ["./secrets/**"] };

describe("managed ./ rules under a workspace a lower level narrowed, through every tool", () => {
  for (const [label, project] of [
    ["no narrowing (the floor alone)", undefined],
    ["the project narrows the workspace to sub", { workspace: ["sub"] }],
    ["the project narrows the workspace to two folders", { workspace: ["sub", "./src"] }],
  ] as const) {
    it.skipIf(process.platform !== "linux")(`${label}: secrets/key and .env stay out of reach`, async () => {
      const t = tree();
      const { ends, all } = await run(t, SECRETS_RULE, project, [
        call("R1", "read", { path: "secrets/key" }),
        call("R2", "read", { path: "sub/../.env" }),
        call("G", "grep", { pattern: "SECRET", path: "." }),
        call("F", "find", { pattern: "key", path: "." }),
        call("L1", "ls", { path: "." }),
        call("L2", "ls", { path: "secrets" }),
        call("W", "write", { path: "secrets/planted", content: "x" }),
        // What the analysis cannot follow runs in the sandbox, which must mask both files.
        call("B", "bash", {
          command: "cat $(echo secrets)/key; cat $(echo .)/.env; cd $(echo sub) && cat ../$(echo .env); echo end",
        }),
      ]);
      for (const secret of Object.values(t.secrets).slice(0, 2)) expect(all).not.toContain(secret);
      for (const id of ["R1", "L2", "W"]) {
        expect({ id, outcome: ends.get(id)?.outcome, reason: ends.get(id)?.reason }).toEqual({
          id,
          outcome: "blocked",
          reason: expect.stringContaining("./secrets/**"),
        });
      }
      expect(ends.get("R2")).toMatchObject({ outcome: "blocked", reason: expect.stringContaining(".env") });
      expect(text(ends.get("F"))).not.toContain("secrets/key");
      expect(text(ends.get("L1"))).not.toMatch(/^(secrets\/|\.env)$/m);
      expect(text(ends.get("L1"))).toMatch(/^src\/$/m);
      expect(ends.get("B")).toMatchObject({ outcome: "executed" });
      expect(text(ends.get("B"))).toContain("end");
      expect(existsSync(path.join(t.ws, "secrets/planted"))).toBe(false);
    });
  }

  it.skipIf(process.platform !== "linux")(
    "a managed root above the project keeps its ./ rule when the project narrows the workspace to itself",
    async () => {
      const t = tree();
      const managed = { workspace: [t.base], denyRead: ["./vault/**"] };
      for (const project of [undefined, { workspace: ["."] }]) {
        const { ends, all } = await run(t, managed, project, [
          call("R", "read", { path: "../vault/key" }),
          call("G", "grep", { pattern: "SECRET-VAULT", path: ".." }),
          call("F", "find", { pattern: "key", path: "../vault" }),
          call("L", "ls", { path: "../vault" }),
          call("B", "bash", { command: "cat $(echo ..)/vault/key; echo end" }),
        ]);
        expect({ project, leaked: all.includes(t.secrets.vault) }).toEqual({ project, leaked: false });
        expect(ends.get("R")).toMatchObject({ outcome: "blocked", reason: expect.stringContaining("./vault/**") });
        expect(ends.get("L")).toMatchObject({ outcome: "blocked" });
        expect(text(ends.get("B"))).toContain("end");
      }
    },
  );
});
