import type { BenchSection, SectionResult } from "../section.ts";
import { benchAppend } from "./append-bench.ts";
import { benchResume } from "./resume-bench.ts";
import { createSessionDir } from "./session-files.ts";
import { benchTurns } from "./turns-bench.ts";

/*
 * What is compared with the peer (`SessionManager` of @mariozechner/pi-coding-agent), and what not:
 * - Resume (row + ms figure): comparable work on the same logical transcript, each in its own
 *   format (the peer's assistant lines also carry api/provider/model/costs, ~8% more bytes).
 *   Both read the whole file, parse every line, index entries by id and walk the leaf's path.
 *   Not equal: Gatehouse refuses a corrupt line (with its line number), checks every entry's id
 *   and type, repairs a torn tail and synthesizes results for orphaned calls; the peer skips
 *   malformed lines silently and does none of that. The peer's `open` parses the file twice
 *   (once for the header's cwd); its `continueRecent` parses it once and is shown for reference.
 * - Appends (rows): comparable with Gatehouse at fsync "off": both write each line at once and
 *   neither fsyncs; Gatehouse writes on a held descriptor, the peer opens the file per append
 *   (`appendFileSync`) and buffers everything until the first assistant message.
 * - Per-turn cost with persistence (figures only): the peer's loop has no session; its coding
 *   agent appends on `message_end` too but never fsyncs, so there is no peer figure for the
 *   fsync-per-turn target.
 */

const PARTS = [
  ["resume", benchResume],
  ["append", benchAppend],
  ["turns", benchTurns],
] as const;

/** The session section: resume of a 10,000-entry session, append cost, per-turn cost with persistence. */
export const sessionSection: BenchSection = {
  name: "session",
  title: "Sessions: resume, per-append and per-turn cost with persistence (peer: pi-coding-agent SessionManager)",
  async run(options) {
    const dir = createSessionDir();
    try {
      const parts: SectionResult[] = [];
      for (const [name, bench] of PARTS) {
        const start = performance.now();
        parts.push(await bench(dir, options));
        if (options.verbose) options.log(`  (${name} took ${((performance.now() - start) / 1000).toFixed(1)} s)`);
      }
      return {
        rows: parts.flatMap((p) => p.rows),
        figures: parts.flatMap((p) => p.figures),
        targets: Object.assign({}, ...parts.map((p) => p.targets)),
      };
    } finally {
      dir.remove();
    }
  },
};
