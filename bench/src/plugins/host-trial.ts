import { rmSync } from "node:fs";
import { type AssistantMessage, defineTool, type ToolCall } from "@gatehouse/sdk";
import { pino } from "pino";
import { z } from "zod";
import { createHost, type Host, type RunResult } from "../../../packages/host/src/index.ts";
import protectedPaths from "../../../plugins/protected-paths/src/index.ts";
import toolAudit from "../../../plugins/tool-audit/src/index.ts";
import type { Trial } from "../measure.ts";
import { replayModel } from "../replay-model.ts";
import { checkAuditFile } from "./audit-check.ts";
import { type PluginFixture, READ_PATH } from "./fixture.ts";
import { type PluginWorkload, totalCalls } from "./workloads.ts";

/** The pipeline without extensions, or with both first-party plugins at their defaults. */
export type PluginVariant = "bare" | "plugins";

const PLUGINS = ["protected-paths", "tool-audit"];

/** A custom tool that does nothing but declares a read of its path, so the guard has work to do. */
const noopTool = defineTool({
  name: "noop",
  description: "Does nothing; declares a read of its path.",
  parameters: z.object({ path: z.string() }),
  effects: (args) => [{ kind: "read", path: args.path }],
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
});

const silent = pino({ level: "silent" });

function script(workload: PluginWorkload): AssistantMessage[] {
  let n = 0;
  const messages: AssistantMessage[] = workload.callsPerTurn.map((count) => {
    const content: ToolCall[] = [];
    for (let k = 0; k < count; k++, n++) {
      content.push({ type: "toolCall", id: `call_${n}`, name: workload.tool, arguments: { path: READ_PATH } });
    }
    return { role: "assistant", content, stopReason: "toolUse", timestamp: 0 };
  });
  messages.push({ role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 0 });
  return messages;
}

/** Throws unless every call produced a successful result with the text its tool returns. */
function checkResults(result: RunResult | undefined, workload: PluginWorkload, expectedText: string): void {
  if (!result) throw new Error(`${workload.name}: the run did not finish`);
  const results = result.messages.filter((m) => m.role === "toolResult");
  const good = results.filter((m) => {
    const block = m.content[0];
    return !m.isError && m.content.length === 1 && block?.type === "text" && block.text === expectedText;
  });
  if (results.length !== totalCalls(workload) || good.length !== results.length) {
    const failed = results.find((m) => !good.includes(m));
    const why = failed?.content[0]?.type === "text" ? `, e.g. "${failed.content[0].text.slice(0, 200)}"` : "";
    throw new Error(`${workload.name}: ${good.length} of ${totalCalls(workload)} calls executed${why}`);
  }
}

/**
 * Prepares one run of a workload through the real host (`createHost`, replayed model).
 * Creating the host and loading its extensions is untimed; `run` times `host.run` only. With
 * plugins, each trial writes its own audit file (fsync "batch"), checked and removed afterwards.
 */
export function hostTrial(workload: PluginWorkload, fixture: PluginFixture, variant: PluginVariant): Trial {
  const auditFile = variant === "plugins" ? fixture.nextAuditFile() : undefined;
  let host: Host | undefined;
  let result: RunResult | undefined;
  return {
    async setup() {
      host = await createHost({
        cwd: fixture.project,
        env: { GATEHOUSE_HOME: fixture.home },
        model: replayModel(script(workload)),
        tools: [noopTool],
        extensions: auditFile ? [protectedPaths, toolAudit] : [],
        config: auditFile ? { "tool-audit": { file: auditFile, fsync: "batch" } } : {},
        toolExecution: "parallel",
        logger: silent,
      });
      const loaded = host
        .extensions()
        .filter((r) => r.status === "loaded")
        .map((r) => r.name);
      const expected = auditFile ? PLUGINS : [];
      if (loaded.join() !== expected.join()) throw new Error(`extensions loaded: [${loaded}], expected [${expected}]`);
    },
    async run() {
      result = await host!.run("go");
    },
    async verify() {
      checkResults(result, workload, workload.tool === "read" ? fixture.content : "ok");
      if (auditFile)
        await checkAuditFile({ file: auditFile, home: fixture.home, cwd: fixture.project }, totalCalls(workload));
    },
    async dispose() {
      await host?.close();
      if (auditFile) rmSync(auditFile, { force: true });
    },
  };
}
