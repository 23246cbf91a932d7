import { afterEach, describe, expect, it } from "vitest";
import { type FixtureServer, type Reply, startFixtureServer } from "./fixture-server.ts";
import { CASES, collect, final, fixtureModel, kinds, simpleRequest, TEST_KEY, within } from "./harness.ts";

let server: FixtureServer | undefined;

async function serve(replies: Reply[]): Promise<FixtureServer> {
  server = await startFixtureServer(replies);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(CASES)("$provider adapter against recorded $dir responses", (c) => {
  it("streams text (and thinking) and ends with usage and stopReason stop", async () => {
    const s = await serve([{ file: `${c.dir}/text.sse` }]);
    const events = await collect(fixtureModel(c, s.baseURL));
    const message = final(events);
    expect(message.stopReason).toBe("stop");
    expect(message.errorMessage).toBeUndefined();
    expect(message.usage).toEqual(c.textUsage);
    const expected = [
      ...(c.thinking === undefined ? [] : [{ type: "thinking", thinking: c.thinking }]),
      { type: "text", text: "The tests pass now." },
    ];
    expect(message.content).toEqual(expected);
    const textDeltas = events.flatMap((e) =>
      e.type === "delta" && e.event.type === "text_delta" ? [e.event.delta] : [],
    );
    expect(textDeltas).toEqual(["The tests", " pass", " now."]);
    expect(kinds(events)[0]).toBe("start");
    expect(kinds(events).filter((k) => k === "text_start" || k === "text_end")).toEqual(["text_start", "text_end"]);
    // Every event carries the one message being built.
    expect(events.every((e) => (e.type === "end" ? e.message : e.partial) === message)).toBe(true);
    expect(s.requests).toHaveLength(1);
  });

  it("sends the system prompt, the history and the tool schemas, and asks for one step", async () => {
    const s = await serve([{ file: `${c.dir}/text.sse` }]);
    await collect(fixtureModel(c, s.baseURL));
    const body = JSON.stringify(s.requests[0]?.body);
    expect(body).toContain("You are a careful coding agent.");
    expect(body).toContain("Check the tests.");
    // The read tool's schema, derived from its zod parameters, reaches the wire.
    expect(body).toContain("1-based number of the first line to show");
    expect(body).not.toContain("$schema");
    expect(s.requests[0]?.body).toMatchObject({ stream: true });
  });

  it("streams parallel tool calls with their ids and arguments and ends with toolUse", async () => {
    const s = await serve([{ file: `${c.dir}/parallel-tools.sse` }]);
    const events = await collect(fixtureModel(c, s.baseURL));
    const message = final(events);
    expect(message.stopReason).toBe("toolUse");
    expect(message.content.filter((b) => b.type === "toolCall")).toEqual([
      { type: "toolCall", id: c.parallelIds[0], name: "read", arguments: { path: "notes.txt" } },
      { type: "toolCall", id: c.parallelIds[1], name: "write", arguments: { path: "out.txt", content: "hello\n" } },
    ]);
    const starts = events.flatMap((e) => (e.type === "delta" && e.event.type === "toolcall_start" ? [e.event.id] : []));
    expect(starts).toEqual(c.parallelIds);
    // Exactly one request: the SDK neither executed the tools nor continued with another step.
    expect(s.requests).toHaveLength(1);
  });

  it("grows the partial arguments while they stream in many chunks and ends with the exact arguments", async () => {
    const s = await serve([{ file: `${c.dir}/split-arguments.sse` }]);
    const snapshots: string[] = [];
    const events = await collect(fixtureModel(c, s.baseURL), {
      onEvent: (e) => {
        if (e.type !== "delta" || e.event.type !== "toolcall_delta") return;
        const block = e.partial.content[e.event.contentIndex];
        if (block?.type === "toolCall") snapshots.push(JSON.stringify(block.arguments));
      },
    });
    const content = 'export const greeting = "hello, world";\n';
    expect(final(events).content).toEqual([
      { type: "toolCall", id: c.splitId, name: "write", arguments: { path: "src/greeting.ts", content } },
    ]);
    expect(snapshots.length).toBeGreaterThanOrEqual(15);
    for (let i = 1; i < snapshots.length; i++) {
      expect((snapshots[i] ?? "").length).toBeGreaterThanOrEqual((snapshots[i - 1] ?? "").length);
    }
    const partials = snapshots.map((text) => JSON.parse(text) as Record<string, unknown>);
    // Mid-stream, the path is complete while the content is still a growing prefix.
    expect(
      partials.some(
        (p) =>
          p.path === "src/greeting.ts" &&
          typeof p.content === "string" &&
          p.content.length > 0 &&
          p.content.length < content.length &&
          content.startsWith(p.content),
      ),
    ).toBe(true);
    expect(new Set(snapshots).size).toBeGreaterThanOrEqual(10);
  });

  it("reports a 401 as an authentication error naming the variable, without retrying or leaking the key", async () => {
    const s = await serve([{ file: `${c.dir}/error-401.json`, status: 401 }]);
    const message = final(await collect(fixtureModel(c, s.baseURL, { maxRetries: 3 })));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(
      new RegExp(`^Authentication failed for ${c.provider} \\(HTTP 401\\): check ${c.keyEnv}\\.`),
    );
    expect(message.errorMessage).not.toContain(TEST_KEY);
    expect(message.errorMessage).not.toContain("SECRET");
    expect(message.content).toEqual([]);
    expect(s.requests).toHaveLength(1);
    // The key did go out, in the provider's own header.
    const headers = s.requests[0]?.headers ?? {};
    expect(headers.authorization ?? headers["x-api-key"]).toContain(TEST_KEY);
  });

  it("retries a 429 after the wait its retry header asks for, then streams the answer", async () => {
    const s = await serve([
      { file: `${c.dir}/error-429.json`, status: 429, headers: c.rateLimitHeaders },
      { file: `${c.dir}/text.sse` },
    ]);
    const message = final(await collect(fixtureModel(c, s.baseURL, { retryBaseMs: 0 })));
    expect(message.stopReason).toBe("stop");
    expect(message.content.at(-1)).toEqual({ type: "text", text: "The tests pass now." });
    expect(s.requests).toHaveLength(2);
    const [first, second] = s.requests;
    // With retryBaseMs 0 only the header can make the adapter wait.
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(59);
    expect(second?.body).toEqual(first?.body);
  });

  it("ends with an error that says the stream broke off, keeping the text streamed before a reset", async () => {
    const s = await serve([{ file: `${c.dir}/text.sse`, cut: { after: c.firstTextDelta + 1, action: "reset" } }]);
    const message = final(await collect(fixtureModel(c, s.baseURL, { maxRetries: 3 })));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(new RegExp(`^The response stream from ${c.provider} broke off: terminated`));
    expect(message.content.at(-1)).toEqual({ type: "text", text: "The tests pass" });
    // Content had been streamed, so the request was not repeated.
    expect(s.requests).toHaveLength(1);
  });

  it("ends with an error when the stream ends cleanly before the provider's closing event", async () => {
    const s = await serve([
      { file: `${c.dir}/text.sse`, cut: { after: c.firstTextDelta + 1, action: "end" } },
      { file: `${c.dir}/text.sse` },
    ]);
    const message = final(await collect(fixtureModel(c, s.baseURL)));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/ended before it was complete|ended without a finish reason/);
    expect(message.content.at(-1)).toEqual({ type: "text", text: "The tests pass" });
    expect(s.requests).toHaveLength(1);
  });

  it("ends with an error for malformed tool-call JSON, keeping the call with empty arguments", async () => {
    const s = await serve([{ file: `${c.dir}/malformed-arguments.sse` }]);
    const message = final(await collect(fixtureModel(c, s.baseURL)));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toContain("malformed tool-call arguments");
    expect(message.errorMessage).toContain(`tool call ${c.malformedId} (write)`);
    expect(message.errorMessage).toContain("not valid JSON");
    expect(message.content).toEqual([{ type: "toolCall", id: c.malformedId, name: "write", arguments: {} }]);
    expect(message.usage?.output).toBeGreaterThan(0);
    expect(s.requests).toHaveLength(1);
  });

  it("aborts mid-stream: stopReason aborted, text so far kept, and the HTTP request is closed", async () => {
    const s = await serve([{ file: `${c.dir}/text.sse`, cut: { after: c.firstTextDelta, action: "hang" } }]);
    const controller = new AbortController();
    const events = await within(
      collect(fixtureModel(c, s.baseURL), {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "delta" && e.event.type === "text_delta") controller.abort();
        },
      }),
      5000,
      "the aborted stream to end",
    );
    const message = final(events);
    expect(message.stopReason).toBe("aborted");
    expect(message.errorMessage).toBe("Request aborted");
    expect(message.content.at(-1)).toEqual({ type: "text", text: "The tests" });
    await within(s.requests[0]?.closedEarly ?? Promise.reject(new Error("no request")), 5000, "the request to close");
  });
});

describe("call warnings", () => {
  it("go to onWarning instead of the console", async () => {
    const anthropic = CASES[1] as (typeof CASES)[1];
    const s = await serve([{ file: "anthropic-messages/text.sse" }]);
    const warnings: string[] = [];
    const model = fixtureModel(anthropic, s.baseURL, {
      model: "claude-from-the-future",
      onWarning: (w) => warnings.push(w),
    });
    expect(final(await collect(model)).stopReason).toBe("stop");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^anthropic: compatibility maxOutputTokens/);
    expect((globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS).toBe(false);
  });
});

describe("retry and failure policy (openai)", () => {
  const openai = CASES[0] as (typeof CASES)[0];

  it("retries a 503 with exponential backoff when there is no retry header", async () => {
    const s = await serve([
      { file: "openai-responses/error-503.json", status: 503 },
      { file: "openai-responses/error-503.json", status: 503 },
      { file: "openai-responses/text.sse" },
    ]);
    const message = final(await collect(fixtureModel(openai, s.baseURL, { retryBaseMs: 20 })));
    expect(message.stopReason).toBe("stop");
    expect(s.requests).toHaveLength(3);
    const [a, b, d] = s.requests.map((r) => r.receivedAt);
    expect((b ?? 0) - (a ?? 0)).toBeGreaterThanOrEqual(19);
    expect((d ?? 0) - (b ?? 0)).toBeGreaterThanOrEqual(39);
  });

  it("gives up after maxRetries with a message that counts the attempts", async () => {
    const limited = { file: "openai-responses/error-429.json", status: 429, headers: { "retry-after-ms": "1" } };
    const s = await serve([limited, limited, limited]);
    const message = final(await collect(fixtureModel(openai, s.baseURL, { maxRetries: 1 })));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/^Rate limited by openai \(HTTP 429\) after 2 attempts: wait and try again/);
    expect(message.errorMessage).toContain("Rate limit reached for gpt-4.1");
    expect(s.requests).toHaveLength(2);
  });

  it("does not wait when the provider asks for longer than maxRetryWaitMs, and says so", async () => {
    const s = await serve([
      { file: "openai-responses/error-429.json", status: 429, headers: { "retry-after": "120" } },
      { file: "openai-responses/text.sse" },
    ]);
    const started = performance.now();
    const message = final(await collect(fixtureModel(openai, s.baseURL, { maxRetryWaitMs: 1000 })));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/^Rate limited by openai \(HTTP 429\): it asks to wait 120 s/);
    expect(s.requests).toHaveLength(1);
  });

  it("retries a connection reset that happened before any content arrived", async () => {
    const s = await serve([
      { file: "openai-responses/text.sse", cut: { after: 2, action: "reset" } },
      { file: "openai-responses/text.sse" },
    ]);
    const message = final(await collect(fixtureModel(openai, s.baseURL)));
    expect(message.stopReason).toBe("stop");
    expect(message.content).toEqual([{ type: "text", text: "The tests pass now." }]);
    expect(s.requests).toHaveLength(2);
  });

  it("reports an unreachable server with its URL after the retries", async () => {
    const probe = await serve([]);
    const baseURL = probe.baseURL;
    await probe.close();
    server = undefined;
    const message = final(await collect(fixtureModel(openai, baseURL, { maxRetries: 1 })));
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(new RegExp(`^Cannot reach openai at ${baseURL}/responses after 2 attempts: `));
  });

  it("an abort during a retry wait ends the message as aborted without another request", async () => {
    const s = await serve([
      { file: "openai-responses/error-429.json", status: 429, headers: { "retry-after-ms": "5000" } },
      { file: "openai-responses/text.sse" },
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = performance.now();
    const message = final(await collect(fixtureModel(openai, s.baseURL), { signal: controller.signal }));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(message.stopReason).toBe("aborted");
    expect(s.requests).toHaveLength(1);
  });

  it("an already aborted signal sends no request", async () => {
    const s = await serve([{ file: "openai-responses/text.sse" }]);
    const message = final(await collect(fixtureModel(openai, s.baseURL), { signal: AbortSignal.abort() }));
    expect(message.stopReason).toBe("aborted");
    expect(s.requests).toHaveLength(0);
  });

  it("the request body is the same object shape for the same request (schemas are cached)", async () => {
    const s = await serve([{ file: "openai-responses/text.sse" }, { file: "openai-responses/text.sse" }]);
    const model = fixtureModel(openai, s.baseURL);
    const request = simpleRequest();
    await collect(model, { request });
    await collect(model, { request });
    expect(s.requests[1]?.body).toEqual(s.requests[0]?.body);
  });
});
