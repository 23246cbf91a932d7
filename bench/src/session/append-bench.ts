import { type Case, measureInterleaved } from "../measure.ts";
import type { SectionOptions, SectionResult } from "../section.ts";
import { median, round3, spread } from "../stats.ts";
import { gatehouseAppendTrial } from "./gatehouse-session.ts";
import { peerAppendTrial, toPeerMessages } from "./peer-session.ts";
import type { SessionDir } from "./session-files.ts";
import { realisticTranscript } from "./transcript.ts";

const SHORT = 250;
const LONG = 4000;
/** Each timed sample covers about this many appends (the short workload is repeated). */
const APPENDS_PER_SAMPLE = 4000;

function appendWorkload(n: number): string {
  return `append ${n} messages, no fsync (µs per append)`;
}

/**
 * Per-append cost of the session store alone, at 250 and 4000 messages of the realistic
 * transcript: Gatehouse `Session.appendMessage` with fsync "off" (one `write` on a held
 * descriptor) vs the peer's `SessionManager.appendMessage` (one `appendFileSync`, which opens
 * and closes the file each time; it never fsyncs). Flat means the 4000-message figure stays
 * close to the 250-message one.
 */
export async function benchAppend(dir: SessionDir, options: SectionOptions): Promise<SectionResult> {
  const cwd = process.cwd();
  const transcript = realisticTranscript(LONG, 7);
  const peerTranscript = toPeerMessages(transcript);
  const peerDir = dir.newDir("append-peer");
  const cases: Case[] = [SHORT, LONG].map((n) => ({
    workload: appendWorkload(n),
    calls: n,
    repeat: Math.max(1, Math.round(APPENDS_PER_SAMPLE / n)),
    gatehouse: () => gatehouseAppendTrial(dir.nextFile(), transcript.slice(0, n)),
    peer: () => peerAppendTrial(cwd, peerDir, peerTranscript.slice(0, n)),
  }));
  const samples = await measureInterleaved(cases, options);
  const rows = [...samples].map(([workload, s]) => {
    const gatehouse = median(s.gatehouse);
    const peer = median(s.peer);
    if (options.verbose) {
      const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
      options.log(`  ${workload}: gatehouse [${fmt(s.gatehouse)}] spread ${(spread(s.gatehouse) * 100).toFixed(0)}%`);
      options.log(`  ${workload}: peer      [${fmt(s.peer)}] spread ${(spread(s.peer) * 100).toFixed(0)}%`);
    }
    return { workload, gatehouse_us: round3(gatehouse), peer_us: round3(peer), ratio: round3(gatehouse / peer) };
  });
  const [short, long] = rows;
  return {
    rows,
    figures: [
      {
        name: `append flatness, no fsync (µs/append at ${LONG} ÷ at ${SHORT} messages)`,
        gatehouse: round3(long!.gatehouse_us / short!.gatehouse_us),
        peer: round3(long!.peer_us / short!.peer_us),
        target: "info",
      },
    ],
    targets: {},
  };
}
