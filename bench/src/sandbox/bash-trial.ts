import type { AssistantMessage, ToolCall } from "@gatehouse/sdk";
import { pino } from "pino";
import { createHost, type Host, type RunResult } from "../../../packages/host/src/index.ts";
import protectedPaths from "../../../plugins/protected-paths/src/index.ts";
import type { Trial } from "../measure.ts";
import { replayModel } from "../replay-model.ts";
import type { SandboxFixture } from "./fixture.ts";

/** Plain bash (no guard), protected-paths analysing bash, or protected-paths running it in the sandbox. */
export type BashVariant = "plain" | "analyze" | "sandbox";

/** The command every call runs: a builtin, so the figure is the cost around a command, not of it. */
export const BASH_COMMAND = "echo ok";

const silent = pino({ level: "silent" });

function script(turns: number): AssistantMessage[] {
  const messages: AssistantMessage[] = [];
  for (let n = 0; n < turns; n++) {
    const call: ToolCall = { type: "toolCall", id: `b${n}`, name: "bash", arguments: { command: BASH_COMMAND } };
    messages.push({ role: "assistant", content: [call], stopReason: "toolUse", timestamp: 0 });
  }
  messages.push({ role: "assistant", content: [{ type: "text", text: "done" }], stopReason: "stop", timestamp: 0 });
  return messages;
}

function verify(result: RunResult | undefined, turns: number): void {
  const results = result?.messages.filter((m) => m.role === "toolResult") ?? [];
  const good = results.filter((m) => !m.isError && m.content[0]?.type === "text" && m.content[0].text === "ok\n");
  if (results.length !== turns || good.length !== turns) {
    const bad = results.find((m) => !good.includes(m));
    const text = bad?.content[0]?.type === "text" ? bad.content[0].text.slice(0, 300) : "";
    throw new Error(`${good.length} of ${turns} bash calls printed ok${text ? `, e.g. "${text}"` : ""}`);
  }
}

/** One run of `turns` sequential bash calls through the real host; creating the host is untimed. */
export function bashTrial(fixture: SandboxFixture, variant: BashVariant, turns: number): Trial {
  let host: Host | undefined;
  let result: RunResult | undefined;
  return {
    async setup() {
      host = await createHost({
        cwd: fixture.project,
        model: replayModel(script(turns)),
        extensions: variant === "plain" ? [] : [protectedPaths],
        config: variant === "plain" ? {} : { "protected-paths": { bash: variant } },
        env: { ...process.env, GATEHOUSE_HOME: fixture.gatehouseHome },
        logger: silent,
      });
    },
    async run() {
      result = await host!.run("go");
    },
    verify: () => verify(result, turns),
    async dispose() {
      await host?.close();
    },
  };
}
