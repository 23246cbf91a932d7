import { spawnSync } from "node:child_process";
import { measureVariants, type VariantCase } from "../measure.ts";
import type { BenchSection, Figure } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import { type BashVariant, bashTrial } from "./bash-trial.ts";
import { createSandboxFixture, type SandboxFixture } from "./fixture.ts";

/** Issue #10: the sandbox adds at most 30 ms per bash call at the median. */
const ADDED_TARGET_MS = 30;
const VARIANTS: readonly BashVariant[] = ["plain", "analyze", "sandbox"];
const TURNS = 20;
/** Projects measured: a small one, and one with 2,000 more directories to show how the scan scales. */
const PROJECTS: readonly { name: string; dirs: number }[] = [
  { name: "small project", dirs: 0 },
  { name: "2,000 extra directories", dirs: 2000 },
];

/** The sandbox section: ms per bash call, plain vs analysed vs sandboxed (bubblewrap). */
export const sandboxSection: BenchSection = {
  name: "sandbox",
  title: `Sandbox: ms per bash call (${TURNS} sequential "echo ok" calls through createHost), plain vs protected-paths analyze vs sandbox`,
  async run({ runs, warmups, clock, verbose, log }) {
    if (spawnSync(process.env.GATEHOUSE_BWRAP || "bwrap", ["--ro-bind", "/", "/", "true"]).status !== 0) {
      throw new Error(
        "bubblewrap cannot start here; install it (apt-get install -y bubblewrap) to measure the sandbox",
      );
    }
    const fixtures: SandboxFixture[] = [];
    try {
      const cases = PROJECTS.map((p): VariantCase<BashVariant> => {
        const fixture = createSandboxFixture(p.dirs);
        fixtures.push(fixture);
        return {
          workload: p.name,
          calls: TURNS,
          repeat: 1,
          variants: {
            plain: () => bashTrial(fixture, "plain", TURNS),
            analyze: () => bashTrial(fixture, "analyze", TURNS),
            sandbox: () => bashTrial(fixture, "sandbox", TURNS),
          },
        };
      });
      const samples = await measureVariants(cases, VARIANTS, { runs, warmups, clock });
      const figures: Figure[] = [];
      for (const [workload, s] of samples) {
        const ms = (v: BashVariant) => median(s[v]) / 1000;
        figures.push(
          { name: `${workload}: plain bash, ms/call`, gatehouse: round3(ms("plain")), target: "info" },
          { name: `${workload}: analyze, ms/call`, gatehouse: round3(ms("analyze")), target: "info" },
          { name: `${workload}: sandbox, ms/call`, gatehouse: round3(ms("sandbox")), target: "info" },
          {
            name: `sandbox added per bash call, ${workload} (sandbox − plain, ms)`,
            gatehouse: round3(ms("sandbox") - ms("plain")),
            target: workload === PROJECTS[0]?.name ? `≤ ${ADDED_TARGET_MS}` : "info",
          },
        );
        if (verbose) {
          const fmt = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(2)).join(" ");
          for (const v of VARIANTS) {
            log(`  ${workload}: ${v.padEnd(7)} [${fmt(s[v])}] ms spread ${(spread(s[v]) * 100).toFixed(0)}%`);
          }
        }
      }
      return { rows: [], figures, targets: {} };
    } finally {
      for (const f of fixtures) f.remove();
    }
  },
};
