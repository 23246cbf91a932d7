import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BenchSection, Clock, Figure, ResultRow, SectionOptions } from "../section.ts";
import { median, round3 } from "../stats.ts";

const WORKER = fileURLToPath(new URL("./worker.mjs", import.meta.url));
const CLI_BIN = fileURLToPath(new URL("../../../packages/cli/bin/gatehouse.js", import.meta.url));
const CLI_DIST = fileURLToPath(new URL("../../../packages/cli/dist", import.meta.url));
/** Timed runs per worker process after its warm-up runs; the process reports their median. */
const REPS_PER_PROCESS = 5;
/**
 * Untimed warm-up runs per process (each with its own new host): a process's first runs are
 * mostly compiling code; the steady rows measure a warm process, the "first run" row the cold one.
 */
const WARMUPS_PER_PROCESS = 4;

/** One process's report: µs per unit on the chosen clock, its first (cold) run and its median. */
interface ProcessSample {
  first: number;
  median: number;
}

/** Median with its range over processes. */
interface Spread {
  median: number;
  min: number;
  max: number;
}

function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Runs one worker process (see worker.mjs) and returns its samples on `clock`. */
function runWorker(
  workload: string,
  side: "gatehouse" | "peer",
  clock: Clock,
  reps = REPS_PER_PROCESS,
  warmups = WARMUPS_PER_PROCESS,
): ProcessSample {
  const spec = JSON.stringify({ workload, side, reps, warmups });
  const out = spawnSync(process.execPath, ["--expose-gc", WORKER, spec], { encoding: "utf8", maxBuffer: 1 << 24 });
  const line = out.stdout.trim().split("\n").at(-1) ?? "";
  let parsed: Record<Clock, { first: number; samples: number[] }>;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new Error(`bench worker ${workload}/${side} failed (exit ${out.status}): ${out.stderr || out.stdout}`);
  }
  const { first, samples } = parsed[clock];
  return { first, median: median(samples) };
}

/**
 * Measures workloads on two sides in separate processes, alternating which side goes first from
 * one round to the next, so that a drift in the machine's load weighs on both alike.
 */
function alternate(
  pairs: readonly { name: string; a: () => ProcessSample; b: () => ProcessSample }[],
  rounds: number,
): Map<string, { a: ProcessSample[]; b: ProcessSample[] }> {
  const out = new Map(pairs.map((p) => [p.name, { a: [] as ProcessSample[], b: [] as ProcessSample[] }]));
  for (let round = 0; round < rounds; round++) {
    for (const pair of pairs) {
      const slot = out.get(pair.name)!;
      if (round % 2 === 0) {
        slot.a.push(pair.a());
        slot.b.push(pair.b());
      } else {
        slot.b.push(pair.b());
        slot.a.push(pair.a());
      }
    }
  }
  return out;
}

/** Wall µs of one spawn of `args` until it exits (what a user waits for). */
function spawnUs(args: readonly string[], env?: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const out = spawnSync(process.execPath, args, {
    encoding: "utf8",
    env: env ? { ...process.env, ...env } : process.env,
  });
  const us = (performance.now() - start) * 1000;
  if (out.status !== 0) throw new Error(`node ${args.join(" ")} exited ${out.status}: ${out.stderr}`);
  return us;
}

function row(workload: string, gh: Spread, peer: Spread): ResultRow {
  return {
    workload,
    gatehouse_us: round3(gh.median),
    peer_us: round3(peer.median),
    ratio: round3(gh.median / peer.median),
    gatehouse_range: [round3(gh.min), round3(gh.max)],
    peer_range: [round3(peer.min), round3(peer.max)],
  };
}

const load = () => loadavg().map((x) => Math.round(x * 100) / 100);

/**
 * The public-path section (issue 14): every figure through `@gatehouse/host`'s built entry point,
 * plugins enabled by settings + discovery, each sample its own process.
 */
export const publicSection: BenchSection = {
  name: "public",
  title:
    "Public path: createHost (built dist), streamed deltas on both sides, one process per sample, median [min–max]",
  async run(options: SectionOptions) {
    const { clock, verbose, log } = options;
    // Processes per runtime and workload: about half of --runs (4 by default, at least 3), as each
    // process already runs 9 times; this keeps `pnpm bench` within minutes on a 2-core machine.
    const runs = Math.max(3, Math.ceil(options.runs / 2));
    const loadBefore = load();
    const rows: ResultRow[] = [];
    const figures: Figure[] = [];
    const targets: Record<string, string> = {};
    const show = (name: string, s: { a: ProcessSample[]; b: ProcessSample[] }) => {
      if (!verbose) return;
      const fmt = (xs: ProcessSample[]) => xs.map((x) => x.median.toFixed(1)).join(" ");
      log(`  ${name}: a [${fmt(s.a)}] b [${fmt(s.b)}]`);
    };

    // W1: one message of 1000 parallel no-op calls; no hooks / sync no-op hooks / async no-op hooks on both.
    const hookRows = ["none", "sync", "async"] as const;
    const w1 = alternate(
      hookRows.map((h) => ({
        name: `w1-${h}`,
        a: () => runWorker(`w1-${h}`, "gatehouse", clock),
        b: () => runWorker(`w1-${h}`, "peer", clock),
      })),
      runs,
    );
    for (const h of hookRows) {
      const s = w1.get(`w1-${h}`)!;
      show(`w1-${h}`, s);
      const name = `W1 1000 parallel calls, ${h} hooks (new host per run)`;
      rows.push(row(name, spreadOf(s.a.map((x) => x.median)), spreadOf(s.b.map((x) => x.median))));
      targets[name] = "ratio ≤ 1.0";
    }
    // The first run in a fresh process (cold code on both sides), from the sync-hooks processes.
    const firstSync = w1.get("w1-sync")!;
    const firstName = "W1 sync hooks, first run in a fresh process";
    rows.push(row(firstName, spreadOf(firstSync.a.map((x) => x.first)), spreadOf(firstSync.b.map((x) => x.first))));
    targets[firstName] = "ratio ≤ 1.2";

    // Plugins on cheap tools: bare vs protected-paths + tool-audit from settings (the "peer" column is bare).
    for (const tool of ["noop", "read"] as const) {
      const s = alternate(
        [
          {
            name: tool,
            a: () => runWorker(`cheap-${tool}-plugins`, "gatehouse", clock),
            b: () => runWorker(`cheap-${tool}-bare`, "gatehouse", clock),
          },
        ],
        runs,
      ).get(tool)!;
      show(`cheap-${tool}`, s);
      const name = `200 parallel ${tool === "noop" ? "no-op (one read effect)" : "read"} calls: plugins ÷ bare`;
      rows.push(row(name, spreadOf(s.a.map((x) => x.median)), spreadOf(s.b.map((x) => x.median))));
      targets[name] = tool === "noop" ? "ratio ≤ 4 (peer column: bare)" : "ratio ≤ 1.5 (peer column: bare)";
    }
    // The same no-op calls reading 200 different files: every path is checked afresh (no decision
    // of the batch is reused), what a batch of distinct reads costs.
    const distinct = alternate(
      [
        {
          name: "distinct",
          a: () => runWorker("cheap-noop-distinct-plugins", "gatehouse", clock),
          b: () => runWorker("cheap-noop-distinct-bare", "gatehouse", clock),
        },
      ],
      runs,
    ).get("distinct")!;
    show("cheap-noop-distinct", distinct);
    const distinctName = "200 parallel no-op calls reading 200 different files: plugins ÷ bare";
    rows.push(row(distinctName, spreadOf(distinct.a.map((x) => x.median)), spreadOf(distinct.b.map((x) => x.median))));
    targets[distinctName] = "info (peer column: bare)";

    // W2 flatness with both plugins and a session file (fsync per turn); the peer: its loop, async hooks.
    // One timed run per process after a 100-turn warm-up, 3 processes per side: a 4000-turn run
    // with an fsync per turn takes seconds of wall time.
    const w2 = alternate(
      [250, 4000].map((n) => ({
        name: `w2-${n}`,
        a: () => runWorker(`w2-${n}`, "gatehouse", clock, 1, 1),
        b: () => runWorker(`w2-${n}`, "peer", clock, 1, 1),
      })),
      3,
    );
    const w2Median = (n: number, side: "a" | "b") => spreadOf(w2.get(`w2-${n}`)![side].map((x) => x.median));
    for (const n of [250, 4000]) {
      show(`w2-${n}`, w2.get(`w2-${n}`)!);
      const name = `W2 ${n} turns of one call, µs per turn (gatehouse: plugins + session)`;
      rows.push(row(name, w2Median(n, "a"), w2Median(n, "b")));
      targets[name] = "info";
    }
    figures.push({
      name: "W2 flatness with plugins + session (µs/turn at 4000 ÷ at 250 turns)",
      gatehouse: round3(w2Median(4000, "a").median / w2Median(250, "a").median),
      peer: round3(w2Median(4000, "b").median / w2Median(250, "b").median),
      target: "≤ 1.5",
    });

    // CLI start: `gatehouse --help` through the built bin vs `node -e 0`, wall clock always.
    if (existsSync(CLI_DIST)) {
      const cli: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < Math.max(5, runs * 2); i++) {
        if (i % 2 === 0) {
          cli.push(spawnUs([CLI_BIN, "--help"]));
          bare.push(spawnUs(["-e", "0"]));
        } else {
          bare.push(spawnUs(["-e", "0"]));
          cli.push(spawnUs([CLI_BIN, "--help"]));
        }
      }
      const name = "CLI start: gatehouse --help (built bin) vs node -e 0, µs wall";
      rows.push(row(name, spreadOf(cli), spreadOf(bare)));
      targets[name] = "ratio ≤ 3 (peer column: node -e 0)";
      // `gatehouse tools` in a project with both plugins enabled by settings: loads the host,
      // discovers and sets up the guards, and lists the tools.
      const project = mkdtempSync(join(tmpdir(), "gh-bench-cli-"));
      mkdirSync(join(project, ".gatehouse"));
      writeFileSync(
        join(project, ".gatehouse", "settings.json"),
        JSON.stringify({ extensions: ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] }),
      );
      const env = { GATEHOUSE_HOME: mkdtempSync(join(tmpdir(), "gh-bench-home-")) };
      const toolsArgs = [CLI_BIN, "tools", "--cwd", project];
      spawnUs(toolsArgs, env); // the first start fills the transpile and trust caches
      const tools: number[] = [];
      const bare2: number[] = [];
      for (let i = 0; i < Math.max(5, runs * 2); i++) {
        tools.push(spawnUs(toolsArgs, env));
        bare2.push(spawnUs(["-e", "0"]));
      }
      const toolsName = "CLI start: gatehouse tools in a project with both plugins vs node -e 0, µs wall";
      rows.push(row(toolsName, spreadOf(tools), spreadOf(bare2)));
      targets[toolsName] = "ratio ≤ 3 (peer column: node -e 0)";
    } else {
      log("  CLI start skipped: packages/cli/dist is missing (run pnpm build)");
    }

    const loadAfter = load();
    for (const r of rows) r.load = { before: loadBefore, after: loadAfter };
    log(`  load average (1/5/15 min) before ${loadBefore.join(" ")}, after ${loadAfter.join(" ")}; ${clock} clock`);
    return { rows, figures, targets };
  },
};
