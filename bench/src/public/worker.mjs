// One process, one runtime, one workload: the unit the `public` section measures (see section.ts).
// Gatehouse is driven only through its public package entry points, as a user's program would:
// `createHost` and `createScriptedModel` from `@gatehouse/host` (its built dist/), the plugins
// enabled by the project's `.gatehouse/settings.json` and loaded by discovery. The peer runs its
// `runAgentLoop` with a stream function that emits the same deltas the scripted model streams.
//
//   node worker.mjs '{"workload":"w1-sync","side":"gatehouse","reps":5,"warmups":1}'
//
// Prints one JSON line: { wall, cpu }, each { first, samples } in µs per call (per turn for w2-*),
// on the wall clock and in this process's CPU time (user + system, every thread): `first` is the
// process's first timed run (cold code), `samples` the runs after the warm-ups. Every run gets a
// new host (or a new peer loop), so each sample is the first run of a new host in a warm process.
// Diagnostics (not used by the section): `"profile": "<prefix>"` writes a CPU profile of each timed
// run; `"marks": true` prints `RUN <n>` before each run and `END <n>` after it, to line up `--trace-opt`/`--trace-deopt`
// output with the runs (see README, "Why a run can be slow").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, createScriptedModel, Session } from "@gatehouse/host";
import { defineExtension, defineTool } from "@gatehouse/sdk";
import { runAgentLoop } from "@mariozechner/pi-agent-core";
import { createAssistantMessageEventStream, parseStreamingJson } from "@mariozechner/pi-ai";
import { pino } from "pino";
import { Type } from "typebox";
import { z } from "zod";

const spec = JSON.parse(process.argv[2] ?? "{}");
const { workload, side } = spec;
const reps = spec.reps ?? 5;
const warmups = spec.warmups ?? 1;
/** The scripted model's default delta size; the peer's stream cuts the same deltas. */
const CHUNK = 16;
const silent = pino({ level: "silent" });
const collect = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

/** What a workload asks for: calls per turn, turns, hooks, tool, plugins, a session file. */
function shape(name) {
  const w1 = /^w1-(none|sync|async)$/.exec(name);
  if (w1) return { turns: 1, perTurn: 1000, hooks: w1[1], tool: "noop", plugins: false, session: false };
  const w2 = /^w2-(\d+)$/.exec(name);
  if (w2) return { turns: Number(w2[1]), perTurn: 1, hooks: "async", tool: "noop", plugins: true, session: true };
  const plug = /^cheap-(noop|read)(-distinct)?-(bare|plugins)$/.exec(name);
  if (plug) {
    const distinct = plug[2] !== undefined;
    return {
      turns: 1,
      perTurn: 200,
      hooks: "none",
      tool: plug[1],
      plugins: plug[3] === "plugins",
      session: false,
      distinct,
    };
  }
  throw new Error(`unknown workload ${name}`);
}

const w = shape(workload);
/** The files the distinct-path row reads, one per call of a 200-call batch. */
const DISTINCT_FILES = 200;
/** W2's warm-up runs are short (100 turns): a 4000-turn run with an fsync per turn takes seconds. */
const warmTurns = Math.min(w.turns, 100);

/** The scripted turns: `perTurn` calls per turn, then a text answer. */
function turns(argsOf, count) {
  const out = [];
  let n = 0;
  for (let t = 0; t < count; t++) {
    const content = [];
    for (let k = 0; k < w.perTurn; k++, n++) {
      content.push({ type: "toolCall", id: `call_${n}`, name: w.tool, arguments: argsOf(n) });
    }
    out.push({ content });
  }
  out.push({ content: [{ type: "text", text: "done" }] });
  return out;
}

// ---- Gatehouse ---------------------------------------------------------------------------------

/** A project (and a separate home) per process; the plugins come from settings + discovery. */
function project() {
  const dir = mkdtempSync(join(tmpdir(), "gh-bench-public-"));
  const home = mkdtempSync(join(tmpdir(), "gh-bench-public-home-"));
  mkdirSync(join(dir, "src"));
  const notes = "line 1: a short line of project notes\n".repeat(20);
  writeFileSync(join(dir, "src", "notes.md"), notes);
  if (w.distinct) for (let i = 0; i < DISTINCT_FILES; i++) writeFileSync(join(dir, "src", `notes-${i}.md`), notes);
  mkdirSync(join(dir, ".gatehouse"));
  if (w.plugins) {
    const settings = {
      extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"],
      config: { "tool-audit": { fsync: "batch" } },
    };
    writeFileSync(join(dir, ".gatehouse", "settings.json"), JSON.stringify(settings));
  }
  return { dir, home };
}

const noopTool = defineTool({
  name: "noop",
  description: "Does nothing.",
  parameters: workload.startsWith("cheap") ? z.object({ path: z.string() }) : z.object({ i: z.number() }),
  // The cheap-tool rows declare one read of the path, so the guard has work to do.
  effects: workload.startsWith("cheap") ? (args) => [{ kind: "read", path: args.path }] : () => [],
  execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
});

const syncHook = () => undefined;
const asyncHook = async () => undefined;
const hookExtension = (handler) =>
  defineExtension({
    name: "bench-hooks",
    setup(api) {
      api.on("tool_call", handler);
      api.on("tool_result", handler);
    },
  });

async function gatehouseTrial(where, index, count) {
  const calls = count * w.perTurn;
  // The cheap rows read one file 200 times (what a batch re-reading a file does); the distinct row
  // reads 200 different files, where no decision of the batch can be reused.
  const cheapArgs = w.distinct
    ? (n) => ({ path: `src/notes-${n % DISTINCT_FILES}.md` })
    : () => ({ path: "src/notes.md" });
  const argsOf = workload.startsWith("cheap") ? cheapArgs : (n) => ({ i: n });
  const session = w.session ? Session.create(join(where.dir, `session-${index}.jsonl`)) : undefined;
  const extensions = w.hooks === "none" || w.plugins ? [] : [hookExtension(w.hooks === "sync" ? syncHook : asyncHook)];
  const host = await createHost({
    cwd: where.dir,
    env: { GATEHOUSE_HOME: where.home },
    model: createScriptedModel({ turns: turns(argsOf, count) }),
    tools: w.tool === "noop" ? [noopTool] : [],
    extensions,
    discover: true,
    toolExecution: "parallel",
    logger: silent,
    ...(session ? { session } : {}),
  });
  const loaded = host
    .extensions()
    .filter((r) => r.status === "loaded")
    .map((r) => r.name);
  const expected = w.plugins ? ["protected-paths", "tool-audit"] : extensions.map(() => "bench-hooks");
  if (loaded.join() !== expected.join()) throw new Error(`extensions loaded: [${loaded}], expected [${expected}]`);
  let result;
  return {
    async run() {
      result = await host.run("go");
    },
    async check() {
      const results = result.messages.filter((m) => m.role === "toolResult");
      const good = results.filter((m) => !m.isError);
      if (results.length !== calls || good.length !== calls) {
        const bad = results.find((m) => m.isError);
        throw new Error(`${workload}: ${good.length} of ${calls} calls succeeded ${JSON.stringify(bad?.content)}`);
      }
      await host.close();
    },
  };
}

// ---- Peer --------------------------------------------------------------------------------------

const peerTool = {
  name: "noop",
  label: "No-op",
  description: "Does nothing.",
  parameters: Type.Object({ i: Type.Number() }),
  execute: async () => ({ content: [{ type: "text", text: "ok" }], details: undefined }),
};
const model = {
  id: "bench",
  name: "bench",
  api: "openai-completions",
  provider: "bench",
  baseUrl: "http://127.0.0.1:9",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1_000_000,
  maxTokens: 1_000,
};
const usage = () => ({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

/** The peer's stream function: start, per block its start, `CHUNK`-sized deltas and end, done. */
function peerStream(script) {
  let next = 0;
  return () => {
    const turn = script[next++];
    const stream = createAssistantMessageEventStream();
    const output = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: usage(),
      stopReason: "stop",
      timestamp: Date.now(),
    };
    (async () => {
      stream.push({ type: "start", partial: output });
      for (const block of turn.content) {
        const contentIndex = output.content.length;
        if (block.type === "text") {
          const b = { type: "text", text: "" };
          output.content.push(b);
          stream.push({ type: "text_start", contentIndex, partial: output });
          for (let s = 0; s < block.text.length; s += CHUNK) {
            const delta = block.text.slice(s, s + CHUNK);
            b.text += delta;
            stream.push({ type: "text_delta", contentIndex, delta, partial: output });
          }
          stream.push({ type: "text_end", contentIndex, content: b.text, partial: output });
        } else {
          const b = { type: "toolCall", id: block.id, name: block.name, arguments: {} };
          output.content.push(b);
          stream.push({ type: "toolcall_start", contentIndex, partial: output });
          const json = JSON.stringify(block.arguments);
          let acc = "";
          for (let s = 0; s < json.length; s += CHUNK) {
            const delta = json.slice(s, s + CHUNK);
            acc += delta;
            b.arguments = parseStreamingJson(acc);
            stream.push({ type: "toolcall_delta", contentIndex, delta, partial: output });
          }
          b.arguments = parseStreamingJson(acc);
          stream.push({ type: "toolcall_end", contentIndex, toolCall: b, partial: output });
        }
      }
      output.stopReason = output.content.some((b) => b.type === "toolCall") ? "toolUse" : "stop";
      stream.push({ type: "done", reason: output.stopReason, message: output });
      stream.end();
    })();
    return stream;
  };
}

async function peerTrial(count) {
  const calls = count * w.perTurn;
  if (workload.startsWith("cheap")) throw new Error(`${workload} has no peer side`);
  const streamFn = peerStream(turns((n) => ({ i: n }), count));
  const context = { systemPrompt: "", messages: [], tools: [peerTool] };
  const config = { model, convertToLlm: (m) => m, toolExecution: "parallel" };
  if (w.hooks === "sync") Object.assign(config, { beforeToolCall: syncHook, afterToolCall: syncHook });
  if (w.hooks === "async") Object.assign(config, { beforeToolCall: asyncHook, afterToolCall: asyncHook });
  let added;
  return {
    async run() {
      added = await runAgentLoop(
        [{ role: "user", content: "go", timestamp: 0 }],
        context,
        config,
        () => undefined,
        undefined,
        streamFn,
      );
    },
    async check() {
      const ok = added.filter((m) => m.role === "toolResult" && !m.isError).length;
      if (ok !== calls) throw new Error(`peer ${workload}: ${ok} of ${calls} calls succeeded`);
    },
  };
}

/**
 * `"profile": "<prefix>"` in the spec: a V8 CPU profile of each timed run alone (host creation,
 * checks and warm-ups left out), written to `<prefix>.<n>.cpuprofile`, for finding where a row's
 * time goes.
 */
async function startProfiler() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  let n = 0;
  return {
    resume: () => session.post("Profiler.start"),
    async pause() {
      const { profile } = await session.post("Profiler.stop");
      writeFileSync(`${spec.profile}.${n++}.cpuprofile`, JSON.stringify(profile));
    },
  };
}

// ---- Timing ------------------------------------------------------------------------------------

const where = side === "gatehouse" ? project() : undefined;
const profiler = spec.profile ? await startProfiler() : undefined;
const wall = [];
const cpu = [];
try {
  for (let i = 0; i < warmups + reps; i++) {
    const count = i < warmups ? warmTurns : w.turns;
    const trial = side === "gatehouse" ? await gatehouseTrial(where, i, count) : await peerTrial(count);
    collect();
    const start = performance.now();
    const startCpu = process.cpuUsage();
    if (i >= warmups) await profiler?.resume();
    if (spec.marks) console.log("RUN", i);
    await trial.run();
    if (spec.marks) console.log("END", i);
    if (i >= warmups) await profiler?.pause();
    const used = process.cpuUsage(startCpu);
    const per = count > 1 ? count : w.perTurn;
    wall.push(((performance.now() - start) * 1000) / per);
    cpu.push((used.user + used.system) / per);
    await trial.check();
  }
} finally {
  if (where) {
    rmSync(where.dir, { recursive: true, force: true });
    rmSync(where.home, { recursive: true, force: true });
  }
}
const sampled = (xs) => ({ first: xs[0], samples: xs.slice(warmups) });
process.stdout.write(`${JSON.stringify({ wall: sampled(wall), cpu: sampled(cpu) })}\n`);
