import type { AgentEvent, Message, ToolEffect } from "@gatehouse/sdk";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createScriptedModel, type LoopConfig, runAgentLoop, type TurnState } from "../../src/index.ts";

/** A config whose callbacks are methods that need `this`: a detached call would throw. */
class MethodConfig implements LoopConfig {
  readonly model = createScriptedModel({
    turns: [{ content: [{ type: "text", text: "first" }] }, { content: [{ type: "text", text: "second" }] }],
  });
  readonly messages: Message[] = [];
  readonly cwd = process.cwd();
  readonly logger = pino({ level: "silent" });
  readonly seen: string[] = [];
  #followUps: Message[] = [{ role: "user", content: "more", timestamp: 1 }];

  prepareTurn(): TurnState {
    this.seen.push("prepareTurn");
    return { tools: { list: [], get: () => undefined } as unknown as TurnState["tools"] };
  }
  emit(event: AgentEvent): void {
    this.seen.push(event.type);
  }
  getSteeringMessages(): Message[] {
    this.seen.push("steering");
    return [];
  }
  getFollowUpMessages(): Message[] {
    this.seen.push("followUps");
    return this.#followUps.splice(0);
  }
  shouldStopAfterTurn(turn: number): boolean {
    this.seen.push(`stop?${turn}`);
    return false;
  }
  pinEffects(_effects: readonly ToolEffect[]): Map<string, readonly string[]> {
    return new Map();
  }
}

describe("runAgentLoop's config", () => {
  it("calls every callback as a method of the config, so a class instance works", async () => {
    const config = new MethodConfig();
    const added = await runAgentLoop([{ role: "user", content: "go", timestamp: 0 }], config);
    expect(added.filter((m) => m.role === "assistant")).toHaveLength(2);
    expect(config.seen).toContain("steering");
    expect(config.seen.filter((s) => s === "followUps")).toHaveLength(2);
    expect(config.seen.filter((s) => s === "prepareTurn")).toHaveLength(2);
    expect(config.seen).toContain("stop?2");
    expect(config.seen.at(-1)).toBe("agent_end");
  });
});
