import { statSync } from "node:fs";
import { join } from "node:path";
import { measureVariants } from "../measure.ts";
import type { SectionOptions, SectionResult } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import { gatehouseResumeTrial, writeGatehouseSession } from "./gatehouse-session.ts";
import { peerContinueTrial, peerResumeTrial, toPeerMessages, writePeerSession } from "./peer-session.ts";
import type { SessionDir } from "./session-files.ts";
import { realisticTranscript } from "./transcript.ts";

/** Issue #5: resuming a 10,000-entry session takes at most 200 ms. */
export const RESUME_ENTRIES = 10_000;
const RESUME_TARGET_MS = 200;
const VARIANTS = ["gatehouse", "peer", "peerContinue"] as const;

const kib = (file: string) => Math.round(statSync(file).size / 1024);

/** Writes the 10,000-entry session in both formats; the transcript is garbage once this returns. */
function writeResumeFiles(dir: SessionDir, cwd: string) {
  const transcript = realisticTranscript(RESUME_ENTRIES);
  const gatehouseFile = join(dir.root, "resume.jsonl");
  writeGatehouseSession(gatehouseFile, transcript, cwd);
  const peerDir = dir.newDir("resume-peer");
  const peerFile = writePeerSession(peerDir, toPeerMessages(transcript), cwd);
  return { gatehouseFile, peerDir, peerFile };
}

/**
 * Resume of a 10,000-entry session: the same realistic transcript written once per runtime
 * through its own session API (untimed), then open + build the model context, median per resume.
 * Gatehouse `Session.open` + `context()` is compared with the peer's `SessionManager.open` +
 * `buildSessionContext()` (what `pi --session FILE` does; it reads and parses the file twice);
 * the peer's `continueRecent` (parses once, after a folder scan) is reported for reference.
 */
export async function benchResume(dir: SessionDir, options: SectionOptions): Promise<SectionResult> {
  const cwd = process.cwd();
  const { gatehouseFile, peerDir, peerFile } = writeResumeFiles(dir, cwd);

  const workload = `resume ${RESUME_ENTRIES.toLocaleString("en")} entries: open + context (µs per resume)`;
  const samples = await measureVariants(
    [
      {
        workload,
        calls: 1,
        repeat: 1,
        variants: {
          gatehouse: () => gatehouseResumeTrial(gatehouseFile, RESUME_ENTRIES),
          peer: () => peerResumeTrial(peerFile, RESUME_ENTRIES),
          peerContinue: () => peerContinueTrial(cwd, peerDir, RESUME_ENTRIES),
        },
      },
    ],
    VARIANTS,
    options,
  );
  const s = samples.get(workload)!;
  const [gatehouse, peer, peerContinue] = VARIANTS.map((v) => median(s[v]));
  if (options.verbose) {
    const fmt = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(1)).join(" ");
    for (const v of VARIANTS) {
      options.log(`  resume ms: ${v.padEnd(12)} [${fmt(s[v])}] spread ${(spread(s[v]) * 100).toFixed(0)}%`);
    }
  }
  return {
    rows: [{ workload, gatehouse_us: round3(gatehouse!), peer_us: round3(peer!), ratio: round3(gatehouse! / peer!) }],
    figures: [
      {
        name: `resume ${RESUME_ENTRIES.toLocaleString("en")} entries, ms (open + context)`,
        gatehouse: round3(gatehouse! / 1000),
        peer: round3(peer! / 1000),
        target: `≤ ${RESUME_TARGET_MS}`,
      },
      {
        name: "peer resume via continueRecent (parses once), ms",
        gatehouse: round3(peerContinue! / 1000),
        target: "info",
      },
      { name: "resumed session file size, KiB", gatehouse: kib(gatehouseFile), peer: kib(peerFile), target: "info" },
    ],
    targets: { [workload]: `info; target in ms below` },
  };
}
