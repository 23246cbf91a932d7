import { readFile, rename, writeFile } from "node:fs/promises";
import type { Figure, ResultRow, SectionResult } from "./section.ts";

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

/** Enough digits to compare with a target: 3 decimals below 10, 2 below 100, else 1. */
function formatNumber(value: number): string {
  const size = Math.abs(value);
  return value.toFixed(size < 10 ? 3 : size < 100 ? 2 : 1);
}

/** "met" / "MISSED" for a numeric target such as "≤ 2" or "≥ 50000"; "" for "info" and prose targets. */
function targetVerdict(value: number, target: string): string {
  const match = /^([≤≥])\s*([\d.,_]+)$/.exec(target.trim());
  if (!match) return "";
  const bound = Number(match[2]!.replace(/[,_]/g, ""));
  const met = match[1] === "≤" ? value <= bound : value >= bound;
  return met ? "met" : "MISSED";
}

function formatFigure(f: Figure): string {
  const verdict = targetVerdict(f.gatehouse, f.target);
  const target = f.target === "info" ? "info" : `target ${f.target}${verdict ? `: ${verdict}` : ""}`;
  if (f.peer === undefined) return `${f.name}: ${formatNumber(f.gatehouse)} (${target})`;
  return `${f.name}: gatehouse ${formatNumber(f.gatehouse)} (${target}), peer ${formatNumber(f.peer)}`;
}

/** Renders the workload rows and derived figures of one section as a plain-text table. */
export function formatSection(title: string, result: SectionResult): string {
  if (result.rows.length === 0) {
    return [title, ...result.figures.map(formatFigure)].join("\n");
  }
  const header = ["workload", "gatehouse µs/call", "peer µs/call", "ratio gh/peer", "target / note"];
  const ranged = (value: number, range: [number, number] | undefined) =>
    range ? `${value.toFixed(2)} [${range[0].toFixed(1)}–${range[1].toFixed(1)}]` : value.toFixed(2);
  const body = result.rows.map((r) => [
    r.workload,
    ranged(r.gatehouse_us, r.gatehouse_range),
    ranged(r.peer_us, r.peer_range),
    r.ratio.toFixed(3),
    result.targets[r.workload] ?? "",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => pad(c, widths[i]!, i > 0 && i < 4)).join("  ");
  const lines = [title, line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)];
  for (const f of result.figures) lines.push(formatFigure(f));
  return lines.join("\n");
}

/**
 * Writes results.json: the workload rows `{ workload, gatehouse_us, peer_us, ratio }` followed by
 * one `{ figure, gatehouse, peer, target }` row per derived figure (e.g. W2 flatness).
 */
export async function writeResults(
  path: string,
  sections: readonly { section: string; rows: readonly ResultRow[]; figures: readonly Figure[] }[],
) {
  const ran = new Set(sections.map((s) => s.section));
  // A partial run (`--only`) replaces only its own sections' rows; the others stay as they were.
  let kept: { section?: string }[] = [];
  try {
    kept = (JSON.parse(await readFile(path, "utf8")) as { section?: string }[]).filter(
      (row) => row.section !== undefined && !ran.has(row.section),
    );
  } catch {
    kept = [];
  }
  const fresh = sections.flatMap(({ section, rows, figures }) => [
    ...rows.map((r) => ({ section, ...r })),
    ...figures.map((f) => ({
      section,
      figure: f.name,
      gatehouse: f.gatehouse,
      ...(f.peer === undefined ? {} : { peer: f.peer }),
      target: f.target,
    })),
  ]);
  await writeFile(`${path}.tmp`, `${JSON.stringify([...kept, ...fresh], null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}
