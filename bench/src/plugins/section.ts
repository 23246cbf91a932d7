import { measureVariants, type VariantCase } from "../measure.ts";
import type { BenchSection, Figure } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import { createPluginFixture } from "./fixture.ts";
import { hostTrial, type PluginVariant } from "./host-trial.ts";
import { PLUGIN_WORKLOADS, totalCalls } from "./workloads.ts";

/** Issue #4: with both first-party plugins, at most twice the per-call time of the bare pipeline. */
const OVERHEAD_TARGET = 2;
const VARIANTS: readonly PluginVariant[] = ["bare", "plugins"];

/** The plugins section: per-call cost of the pipeline with protected-paths + tool-audit vs without. */
export const pluginsSection: BenchSection = {
  name: "plugins",
  title: "Plugins: µs per tool call through createHost, bare vs protected-paths + tool-audit (defaults, fsync batch)",
  async run({ runs, warmups, clock, verbose, log }) {
    const fixture = createPluginFixture();
    try {
      const cases = PLUGIN_WORKLOADS.map(
        (workload): VariantCase<PluginVariant> => ({
          workload: workload.name,
          calls: totalCalls(workload),
          repeat: workload.repeat,
          variants: {
            bare: () => hostTrial(workload, fixture, "bare"),
            plugins: () => hostTrial(workload, fixture, "plugins"),
          },
        }),
      );
      const samples = await measureVariants(cases, VARIANTS, { runs, warmups, clock });
      const figures: Figure[] = [];
      for (const [workload, s] of samples) {
        const bare = median(s.bare);
        const plugins = median(s.plugins);
        figures.push(
          { name: `${workload}: bare, µs/call`, gatehouse: round3(bare), target: "info" },
          { name: `${workload}: with plugins, µs/call`, gatehouse: round3(plugins), target: "info" },
          {
            name: `plugins overhead, ${workload} (with ÷ bare)`,
            gatehouse: round3(plugins / bare),
            target: `≤ ${OVERHEAD_TARGET}`,
          },
        );
        if (verbose) {
          const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
          for (const v of VARIANTS) {
            log(`  ${workload}: ${v.padEnd(7)} [${fmt(s[v])}] spread ${(spread(s[v]) * 100).toFixed(0)}%`);
          }
        }
      }
      return { rows: [], figures, targets: {} };
    } finally {
      fixture.remove();
    }
  },
};
