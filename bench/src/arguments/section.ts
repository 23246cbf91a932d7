import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GatehouseEvent, ToolExecutionEndEvent } from "@gatehouse/sdk";
import { pino } from "pino";
import { createHost } from "../../../packages/host/src/index.ts";
import { createScriptedModel } from "../../../packages/host/src/model/index.ts";
import type { BenchSection, Figure } from "../section.ts";
import { median, round3, spread } from "../stats.ts";

const MiB = 1024 * 1024;
/** Raised for the accepted cases, so the whole argument is streamed, parsed and written. */
const RAISED_LIMIT = 64 * MiB;

/** One huge-argument case: a `write` whose content is `size` bytes. */
interface ArgumentCase {
  label: string;
  size: number;
  /** `undefined`: the default 1 MiB limit, so the call is refused. */
  maxArgumentBytes: number | undefined;
  expected: "executed" | "invalid";
}

const CASES: readonly ArgumentCase[] = [
  { label: "1 MiB, accepted", size: MiB, maxArgumentBytes: RAISED_LIMIT, expected: "executed" },
  { label: "10 MiB, accepted", size: 10 * MiB, maxArgumentBytes: RAISED_LIMIT, expected: "executed" },
  { label: "10 MiB, over the default limit", size: 10 * MiB, maxArgumentBytes: undefined, expected: "invalid" },
];

/** What one run cost: wall time and the bytes of every event as `gatehouse run --json` prints it. */
interface ArgumentRun {
  ms: number;
  eventBytes: number;
}

const collect: () => void = typeof globalThis.gc === "function" ? globalThis.gc : () => undefined;

/** One timed run: the scripted model streams the call in 16-character deltas, like a provider. */
async function runCase(c: ArgumentCase, content: string): Promise<ArgumentRun> {
  const cwd = mkdtempSync(join(tmpdir(), "gh-bench-args-"));
  try {
    let eventBytes = 0;
    let end: ToolExecutionEndEvent | undefined;
    const host = await createHost({
      cwd,
      model: createScriptedModel({
        turns: [
          { content: [{ type: "toolCall", id: "A", name: "write", arguments: { path: "big.txt", content } }] },
          { content: [{ type: "text", text: "done" }] },
        ],
      }),
      logger: pino({ level: "silent" }),
      ...(c.maxArgumentBytes === undefined ? {} : { maxArgumentBytes: c.maxArgumentBytes }),
      onEvent: (event: GatehouseEvent) => {
        eventBytes += JSON.stringify(event).length + 1;
        if (event.type === "tool_execution_end") end = event;
      },
    });
    collect();
    const start = performance.now();
    await host.run("go");
    const ms = performance.now() - start;
    await host.close();
    if (end?.outcome !== c.expected) throw new Error(`${c.label}: expected ${c.expected}, got ${end?.outcome}`);
    if (c.expected === "executed" && statSync(join(cwd, "big.txt")).size !== c.size) {
      throw new Error(`${c.label}: the written file does not have ${c.size} bytes`);
    }
    return { ms, eventBytes };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * The arguments section (issue #10): a 1 MiB and a 10 MiB `write` argument through the scripted
 * model, time and event bytes, showing the cost grows linearly (10× the size, about 10× the cost;
 * quadratic would be 100×). At most 3 measured runs after 1 warm-up: each 10 MiB run takes seconds.
 */
export const argumentsSection: BenchSection = {
  name: "arguments",
  title: "Huge tool-call arguments: streamed in 16-character deltas, parsed, relayed as events (JSON) and written",
  async run({ runs, warmups, verbose, log }) {
    const measured = Math.min(runs, 3);
    const warm = Math.min(warmups, 1);
    const contents = new Map(CASES.map((c) => [c, "x".repeat(c.size)]));
    const samples = new Map<ArgumentCase, ArgumentRun[]>(CASES.map((c) => [c, []]));
    for (let round = 0; round < warm + measured; round++) {
      for (const c of CASES) {
        const run = await runCase(c, contents.get(c)!);
        if (round >= warm) samples.get(c)!.push(run);
      }
    }
    const ms = (c: ArgumentCase) => samples.get(c)!.map((r) => r.ms);
    const bytes = (c: ArgumentCase) => median(samples.get(c)!.map((r) => r.eventBytes));
    if (verbose) {
      for (const c of CASES) {
        const xs = ms(c);
        log(`  ${c.label}: [${xs.map((x) => x.toFixed(0)).join(" ")}] ms, spread ${(spread(xs) * 100).toFixed(0)}%`);
      }
    }
    const [small, large, refused] = CASES as [ArgumentCase, ArgumentCase, ArgumentCase];
    const figures: Figure[] = [];
    for (const c of CASES) {
      figures.push({ name: `${c.label}: ms per run`, gatehouse: round3(median(ms(c))), target: "info" });
      figures.push({
        name: `${c.label}: event bytes ÷ argument bytes`,
        gatehouse: round3(bytes(c) / c.size),
        target: c === refused ? "info" : "≤ 20",
      });
    }
    figures.push({
      name: "time 10 MiB ÷ time 1 MiB (linear ≈ 10, quadratic ≈ 100)",
      gatehouse: round3(median(ms(large)) / median(ms(small))),
      target: "≤ 15",
    });
    figures.push({
      name: "event bytes 10 MiB ÷ event bytes 1 MiB (linear ≈ 10)",
      gatehouse: round3(bytes(large) / bytes(small)),
      target: "≤ 15",
    });
    return { rows: [], figures, targets: {} };
  },
};
