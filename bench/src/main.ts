import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { argumentsSection } from "./arguments/section.ts";
import { auditSection } from "./audit/section.ts";
import { extensionsSection } from "./extensions/section.ts";
import { hooksSection } from "./hooks/section.ts";
import { loopSection } from "./loop/section.ts";
import { pluginsSection } from "./plugins/section.ts";
import { publicSection } from "./public/section.ts";
import { formatSection, writeResults } from "./report.ts";
import { sandboxSection } from "./sandbox/section.ts";
import type { BenchSection, Clock, Figure, ResultRow } from "./section.ts";
import { sessionSection } from "./session/section.ts";

/** Every benchmark section, in run order; a new section is one file plus one line here. */
const SECTIONS: readonly BenchSection[] = [
  publicSection,
  loopSection,
  pluginsSection,
  auditSection,
  extensionsSection,
  sessionSection,
  argumentsSection,
  sandboxSection,
  hooksSection,
];

const RESULTS_PATH = fileURLToPath(new URL("../results.json", import.meta.url));

const USAGE = `usage: pnpm bench [--only loop[,other]] [--runs 7] [--warmups 2] [--clock wall|cpu] [--verbose]
sections: ${SECTIONS.map((s) => s.name).join(", ")}`;

function isClock(value: string): value is Clock {
  return value === "wall" || value === "cpu";
}

/**
 * Runs the selected sections, prints their tables and writes bench/results.json.
 * Contract: returns the process exit code; results.json holds only the sections that ran.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== "--"),
    options: {
      only: { type: "string" },
      runs: { type: "string", default: "7" },
      warmups: { type: "string", default: "2" },
      clock: { type: "string", default: "wall" },
      verbose: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const wanted = values.only?.split(",").map((s) => s.trim());
  const unknown = wanted?.filter((name) => !SECTIONS.some((s) => s.name === name)) ?? [];
  if (unknown.length > 0) {
    console.error(`unknown section: ${unknown.join(", ")}\n${USAGE}`);
    return 2;
  }
  const clock = values.clock;
  if (!isClock(clock)) {
    console.error(`--clock must be wall or cpu\n${USAGE}`);
    return 2;
  }
  const runs = Number(values.runs);
  const warmups = Number(values.warmups);
  if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(warmups) || warmups < 0) {
    console.error(`--runs must be a positive integer and --warmups a non-negative one\n${USAGE}`);
    return 2;
  }
  const selected = SECTIONS.filter((s) => !wanted || wanted.includes(s.name));
  const options = {
    runs,
    warmups,
    clock,
    verbose: values.verbose,
    log: (line: string) => console.log(line),
  };
  if (typeof globalThis.gc !== "function") console.log("note: gc is not exposed; run through bench/run.mjs");
  console.log(
    `node ${process.version}, ${options.clock} clock, median of ${options.runs} interleaved runs after ${options.warmups} warm-ups`,
  );

  const ran: { section: string; rows: ResultRow[]; figures: Figure[] }[] = [];
  for (const section of selected) {
    const result = await section.run(options);
    console.log(`\n${formatSection(section.title, result)}`);
    ran.push({ section: section.name, rows: result.rows, figures: result.figures });
  }
  await writeResults(RESULTS_PATH, ran);
  console.log(`\nwrote ${RESULTS_PATH}`);
  return 0;
}
