import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GatehouseEvent } from "@gatehouse/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { createHost } from "../../../src/index.ts";
import { quietLogger, tempDir } from "../../helpers/scenario.ts";
import { type FixtureServer, startFixtureServer } from "./fixture-server.ts";
import { CASES, fixtureModel, type ProviderCase } from "./harness.ts";

/** The tool calls and tool results of a request body, in wire order, whatever the provider. */
interface WireTurn {
  calls: { id: string; name: string }[];
  results: { id: string; text: string; isError: boolean }[];
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function wireTurn(provider: ProviderCase["provider"], body: unknown): WireTurn {
  const turn: WireTurn = { calls: [], results: [] };
  const root = body as Json;
  if (provider === "openai") {
    for (const item of list(root.input)) {
      if (item.type === "function_call") turn.calls.push({ id: String(item.call_id), name: String(item.name) });
      if (item.type === "function_call_output") {
        turn.results.push({ id: String(item.call_id), text: String(item.output), isError: false });
      }
    }
  } else if (provider === "anthropic") {
    for (const message of list(root.messages)) {
      for (const part of list(message.content)) {
        if (part.type === "tool_use") turn.calls.push({ id: String(part.id), name: String(part.name) });
        if (part.type === "tool_result") {
          const text = typeof part.content === "string" ? part.content : JSON.stringify(part.content);
          turn.results.push({ id: String(part.tool_use_id), text, isError: part.is_error === true });
        }
      }
    }
  } else {
    for (const message of list(root.messages)) {
      for (const call of list(message.tool_calls)) {
        turn.calls.push({ id: String(call.id), name: String((call.function as Json).name) });
      }
      if (message.role === "tool") {
        turn.results.push({ id: String(message.tool_call_id), text: String(message.content), isError: false });
      }
    }
  }
  return turn;
}

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(CASES)("a full createHost run with the $provider adapter", (c) => {
  it("executes a parallel tool-call turn with real built-ins and sends both results back, paired and in order", async () => {
    const cwd = tempDir("gh-provider-loop-");
    writeFileSync(join(cwd, "notes.txt"), "line one\nline two\n");
    server = await startFixtureServer([{ file: `${c.dir}/parallel-tools.sse` }, { file: `${c.dir}/text.sse` }]);
    const events: GatehouseEvent[] = [];
    const host = await createHost({
      cwd,
      model: fixtureModel(c, server.baseURL),
      logger: quietLogger,
      onEvent: (e) => events.push(e),
    });
    try {
      const result = await host.run("Read notes.txt and write out.txt");
      expect(result.stopReason).toBe("stop");
      expect(readFileSync(join(cwd, "out.txt"), "utf8")).toBe("hello\n");
    } finally {
      await host.close();
    }

    const ends = events.flatMap((e) => (e.type === "tool_execution_end" ? [[e.toolCallId, e.outcome]] : []));
    expect(ends.sort()).toEqual([...c.parallelIds.map((id) => [id, "executed"])].sort());
    const updates = events.filter((e) => e.type === "message_update").length;
    expect(updates).toBeGreaterThan(4);

    expect(server.requests).toHaveLength(2);
    const first = wireTurn(c.provider, server.requests[0]?.body);
    expect(first).toEqual({ calls: [], results: [] });
    const second = wireTurn(c.provider, server.requests[1]?.body);
    expect(second.calls).toEqual([
      { id: c.parallelIds[0], name: "read" },
      { id: c.parallelIds[1], name: "write" },
    ]);
    expect(second.results.map((r) => r.id)).toEqual(c.parallelIds);
    expect(second.results[0]?.text).toContain("line one");
    expect(second.results[1]?.text).toContain("Wrote 6 bytes to out.txt");
    expect(second.results.every((r) => !r.isError)).toBe(true);
  });
});
