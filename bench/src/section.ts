/** One workload measured on both runtimes; the shape written to bench/results.json. */
export interface ResultRow {
  workload: string;
  gatehouse_us: number;
  peer_us: number;
  /** gatehouse_us / peer_us: below 1 means Gatehouse is faster. */
  ratio: number;
  /** Min and max over the samples (process-per-sample sections). */
  gatehouse_range?: [number, number];
  peer_range?: [number, number];
  /** The machine's load average (1/5/15 min) before and after the section ran. */
  load?: { before: number[]; after: number[] };
}

/** A derived figure printed under the table, next to its target. */
export interface Figure {
  name: string;
  gatehouse: number;
  /** The peer's figure, when the peer has an equivalent. */
  peer?: number;
  /** Human-readable target for the Gatehouse figure, e.g. "≤ 1.5". */
  target: string;
}

/** What one section measured. `targets` maps a workload name to the target printed beside its ratio. */
export interface SectionResult {
  rows: ResultRow[];
  figures: Figure[];
  targets: Record<string, string>;
}

/** Wall time, or this process's CPU time (steadier when other processes share the cores). */
export type Clock = "wall" | "cpu";

/** Settings shared by every section. */
export interface SectionOptions {
  runs: number;
  warmups: number;
  clock: Clock;
  verbose: boolean;
  log: (line: string) => void;
}

/** One benchmark section (loop, plugin load, audit, ...), registered in main.ts. */
export interface BenchSection {
  /** Short id used by `--only`. */
  name: string;
  title: string;
  run(options: SectionOptions): Promise<SectionResult>;
}
