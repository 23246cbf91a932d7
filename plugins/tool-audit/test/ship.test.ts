import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createHost } from "../../../packages/host/src/index.ts";
import { createScriptedModel } from "../../../packages/host/src/model/index.ts";
import toolAudit from "../src/index.ts";

describe("shipping records through a pino transport", () => {
  it("every record written to the audit file also reaches the configured transport", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "audit-ship-"));
    const shipped = join(cwd, "shipped.jsonl");
    const host = await createHost({
      cwd,
      model: createScriptedModel({
        turns: [
          { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "a.txt", content: "secret" } }] },
          { content: [{ type: "text", text: "done" }] },
        ],
      }),
      extensions: [toolAudit],
      // pino's built-in file transport stands in for a network store (pino-socket, pino-elasticsearch…).
      config: { "tool-audit": { ship: { target: "pino/file", options: { destination: shipped } } } },
    });
    await host.run("go");
    await host.close();
    const audit = readFileSync(join(cwd, ".gatehouse", "audit", "audit.jsonl"), "utf8");
    expect(audit.split("\n").filter(Boolean).length).toBeGreaterThanOrEqual(4);
    expect(readFileSync(shipped, "utf8")).toBe(audit);
    expect(audit).not.toContain("secret");
  });

  it("a transport that cannot start is reported and the audit file is still written", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "audit-ship-"));
    const host = await createHost({
      cwd,
      model: createScriptedModel({ turns: [{ content: [{ type: "text", text: "hi" }] }] }),
      extensions: [toolAudit],
      config: { "tool-audit": { ship: { target: "no-such-transport-package" } } },
    });
    const result = await host.run("go");
    await host.close();
    expect(result.stoppedBy).toBeUndefined();
    expect(readFileSync(join(cwd, ".gatehouse", "audit", "audit.jsonl"), "utf8")).toContain('"kind":"session_end"');
  });
});
