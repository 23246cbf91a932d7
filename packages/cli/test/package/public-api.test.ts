// Everything the README and docs/ show is reachable through package names alone, as a user imports
// it: no test elsewhere proves that, since the other tests import sources by relative path.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as host from "@gatehouse/host";
import * as providers from "@gatehouse/host/providers";
import protectedPaths, * as pathPolicy from "@gatehouse/protected-paths";
import * as sdk from "@gatehouse/sdk";
import toolAudit, * as audit from "@gatehouse/tool-audit";
import * as auditReaders from "@gatehouse/tool-audit/readers";
import { describe, expect, it } from "vitest";

describe("the public API, through package names", () => {
  it("exports what the README and docs/ document", () => {
    for (const name of [
      "createHost",
      "createScriptedModel",
      "loadScript",
      "Session",
      "GatehouseError",
      "openProject",
    ]) {
      expect(host, name).toHaveProperty(name);
    }
    for (const name of ["defineExtension", "defineTool", "z"]) expect(sdk, name).toHaveProperty(name);
    expect(providers).toHaveProperty("createProviderModel");
    for (const name of ["createPolicy", "checkCall", "protectedPaths"]) expect(pathPolicy, name).toHaveProperty(name);
    for (const name of ["createToolAudit", "createRedactor"]) expect(audit, name).toHaveProperty(name);
    for (const name of ["verifyAuditFile", "tailAudit", "auditStats"]) expect(auditReaders, name).toHaveProperty(name);
    expect(protectedPaths.name).toBe("protected-paths");
    expect(toolAudit.name).toBe("tool-audit");
  });

  it("runs the README's library example: a tool, an in-code guard and a scripted model", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "gh-public-"));
    const model = host.createScriptedModel({
      turns: [
        {
          content: [
            { type: "toolCall", id: "A", name: "shout", arguments: { text: "hi" } },
            { type: "toolCall", id: "B", name: "write", arguments: { path: ".env", content: "x" } },
          ],
        },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const shout = sdk.defineTool({
      name: "shout",
      description: "Upper-cases a text.",
      parameters: sdk.z.object({ text: sdk.z.string() }),
      effects: () => [],
      execute: async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
    });
    const created = await host.createHost({
      cwd,
      model,
      tools: [shout],
      extensions: [protectedPaths],
      env: { GATEHOUSE_HOME: mkdtempSync(join(tmpdir(), "gh-public-home-")) },
    });
    const ends: Record<string, string> = {};
    created.subscribe((event) => {
      if (event.type === "tool_execution_end") ends[event.toolCallId] = event.outcome;
    });
    const result = await created.run("Say hi loudly");
    await created.close();
    expect(result.stopReason).toBe("stop");
    expect(ends).toEqual({ A: "executed", B: "blocked" });
  });
});
